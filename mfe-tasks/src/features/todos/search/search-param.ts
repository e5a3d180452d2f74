import { LIMITS } from '@tm/contracts';
import { useCallback, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { withParams } from '../hooks/use-task-filter';

// Search (docs/PRODUCT.md §10.22), the part on the first load: the query in the address and whether a phone
// shows the field. The results, the call and the highlighting load on use (search-results.tsx).

/** The address's name of the search: `/?q=milk`, beside the filters' `filter`, `priority`, `label`, `due`. */
export const SEARCH_PARAM = 'q';
/** The longest query (the field's maxlength; the service refuses a longer one). */
export const SEARCH_MAX = LIMITS.searchQuery.max;

/** The search `search` (a query string) names: its `q`, '' for none. */
export function searchQueryIn(search: string): string {
  return new URLSearchParams(search).get(SEARCH_PARAM) ?? '';
}

/** Whether a query searches: it holds more than spaces (the results say when it holds no word to find). */
export const isSearching = (query: string): boolean => query.trim() !== '';

/**
 * The search in the address and how to change it. The first letter typed is a navigation of its own (Back
 * returns to the list as it was); what follows replaces it, so Back does not step through every letter. An
 * emptied field takes `q` out. Every other parameter stays.
 */
export function useSearchQuery(): [string, (query: string) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const query = searchQueryIn(search);
  const setQuery = useCallback(
    (next: string) => void navigate({ search: withParams(search, { [SEARCH_PARAM]: next === '' ? undefined : next }) }, { replace: searchQueryIn(search) !== '' }),
    [navigate, search],
  );
  return [query, setQuery];
}

/*
 * On a phone the field waits behind a Search button (the first task stays in view, §10.9): whether it is
 * open, and a request to put the focus in it, are the page's, shared by the button, the `/` key and the field.
 */
let open = false;
let focusWanted = false;
/** The field while it is on the page. */
let field: HTMLInputElement | null = null;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Whether the phone's field is open. */
export function useSearchOpen(): boolean {
  return useSyncExternalStore(subscribe, () => open, () => false);
}

/** Opens the field (on a phone) and asks for the focus in it: the Search button and `/` (§10.11.6). */
export function focusSearch(): void {
  if (field) {
    field.focus();
    field.select();
    return;
  }
  focusWanted = true;
  open = true;
  emit();
}

/** The field, as it comes and goes (a ref callback): `/` puts the focus in it at once while it is there. */
export function registerSearchField(element: HTMLInputElement | null): void {
  field = element;
  if (element && focusWanted) {
    focusWanted = false;
    element.focus();
  }
}

/** Closes the phone's field (an empty field left with Escape). */
export function closeSearch(): void {
  open = false;
  emit();
}
