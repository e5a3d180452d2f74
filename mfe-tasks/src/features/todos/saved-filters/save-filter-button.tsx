import { filterAddressOf, priorityName } from '@tm/contracts';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { preloadable } from '../components/preloadable';
import { DUE_FILTER_LABELS, FILTER_LABELS, narrowingIn } from '../hooks/use-task-filter';

// The dialog is off the first load (docs/PERFORMANCE.md "First-load budgets"): fetched when the button is first
// pointed at or focused.
const { Component: SaveFilterDialog, preload: preloadDialog } = preloadable(() => import('./save-filter-dialog').then((module) => module.SaveFilterDialog));

/** The filters of a saved address in words, in the address's order: "Active, Priority 1, @errand, Due today, “milk”". */
export function describeFilters(search: string): string {
  const params = new URLSearchParams(search);
  const narrowing = narrowingIn(search);
  const status = params.get('filter');
  const query = params.get('q');
  return [
    status === 'active' || status === 'completed' ? FILTER_LABELS[status] : null,
    narrowing.priority === undefined ? null : priorityName(narrowing.priority),
    narrowing.label === undefined ? null : `@${narrowing.label}`,
    narrowing.due === undefined ? null : DUE_FILTER_LABELS[narrowing.due],
    query === null || query.trim() === '' ? null : `“${query.trim()}”`,
  ]
    .filter((part) => part !== null)
    .join(', ');
}

/**
 * "Save filter…" (docs/PRODUCT.md §10.20 "Saved filters"), among the filters while the address sets any: keeps
 * the list and its filters under a name, in the person's saved filters.
 */
export function SaveFilterButton() {
  const { pathname, search } = useLocation();
  const [open, setOpen] = useState(false);
  const address = filterAddressOf(pathname, search);
  if (address === null || !address.includes('?')) return null;
  return (
    <>
      <button type="button" className="tasks-text-button tasks-narrow__save" aria-haspopup="dialog" onPointerEnter={() => void preloadDialog()} onFocus={() => void preloadDialog()} onClick={() => setOpen(true)}>
        Save filter…
      </button>
      {open && <SaveFilterDialog address={address} description={describeFilters(address.slice(address.indexOf('?')))} onClose={() => setOpen(false)} />}
    </>
  );
}
