import type { SavedFilter, SaveFilterRequest } from '@tm/contracts';

/**
 * What saving a filter did (docs/PRODUCT.md §10.20): `created` or `updated` with the filter as it now is, or
 * nothing written because the person's saved filters are full.
 */
export type SaveOutcome = { kind: 'created' | 'updated'; filter: SavedFilter } | { kind: 'full' };

/**
 * Where saved filters are kept: the embedded SQLite file beside the tasks, or MongoDB. The rules are
 * saved-filters.domain.ts; a store only reads and writes.
 */
export interface SavedFiltersRepository {
  /** The person's saved filters, by name (bySavedFilterName). */
  list(userId: string): Promise<SavedFilter[]>;
  /** Saves `input` (decideSave) in one transaction. */
  save(userId: string, input: SaveFilterRequest): Promise<SaveOutcome>;
  /** Deletes one of the person's saved filters: the filter deleted, or null when the person has none of this id. */
  remove(userId: string, id: string): Promise<SavedFilter | null>;
  /** Deletes every saved filter of the person (the account's deletion); answers how many. */
  purge(userId: string): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
