import { LIMITS, savedFilterNameKey, type SaveFilterRequest } from '@tm/contracts';

// The rules of saving a filter (docs/PRODUCT.md §10.20 "Saved filters"), which both stores call: the stores
// read what the rules need and write what they decide.

/** A saved filter as a store reads it for the rules: its id and its name's key. */
export interface SavedFilterKey {
  id: string;
  nameKey: string;
}

/** What saving does: a filter of its own, the address (and spelling) of the filter of that name, or nothing (full). */
export type SaveDecision = { kind: 'insert'; nameKey: string } | { kind: 'update'; id: string; nameKey: string } | { kind: 'full' };

/**
 * Saving `input` among the person's `existing` filters: a name already given (case aside) names the filter
 * it updates; another is a new filter, unless the person has LIMITS.savedFilters already.
 */
export function decideSave(existing: readonly SavedFilterKey[], input: SaveFilterRequest): SaveDecision {
  const nameKey = savedFilterNameKey(input.name);
  const same = existing.find((filter) => filter.nameKey === nameKey);
  if (same) return { kind: 'update', id: same.id, nameKey };
  if (existing.length >= LIMITS.savedFilters) return { kind: 'full' };
  return { kind: 'insert', nameKey };
}

