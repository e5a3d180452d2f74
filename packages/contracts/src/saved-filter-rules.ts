import { LIMITS } from './limits.js';
import { INBOX_ID } from './list-scope.js';
import { labelNameProblem } from './todo-labels.js';
import { todoTitleValue } from './todo-title.js';

/**
 * The rules of saved filters (docs/PRODUCT.md §10.20 "Saved filters"), in one dependency-free place: the task
 * screen builds and checks the address it saves with them, and the service's schema applies the very same
 * functions.
 *
 * A saved filter is a name and an address of the task screen: a list (`/lists/:listId`, or `/` for every
 * list) and the filters of its query string, in one canonical order. Opening it is following that address.
 */

/** The due filters of the task screen: Overdue, Today, Next 7 days (today and the six days after it), No date. */
export const DUE_FILTERS = ['overdue', 'today', 'week', 'none'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];

/** The status filters a saved filter may name ("All" is no `filter=`). */
const STATUS_FILTERS = ['active', 'completed'] as const;

/** What each query parameter of a saved address may hold; also the canonical order of the parameters. */
const PARAM_RULES: Record<string, (value: string) => boolean> = {
  filter: (value) => (STATUS_FILTERS as readonly string[]).includes(value),
  priority: (value) => /^[1-4]$/.test(value),
  label: (value) => labelNameProblem(value) === null,
  due: (value) => (DUE_FILTERS as readonly string[]).includes(value),
  q: (value) => value.trim().length > 0 && value.length <= LIMITS.searchQuery.max,
};

/** The query parameters a saved filter keeps, in their canonical order. */
export const SAVED_FILTER_PARAMS = Object.keys(PARAM_RULES);

export const SAVED_FILTER_NAME_EMPTY_MESSAGE = 'Enter a name for the filter.';
export const SAVED_FILTER_NAME_TOO_LONG_MESSAGE = `A filter's name can be at most ${LIMITS.savedFilterName.max} characters long.`;
export const SAVED_FILTERS_FULL_MESSAGE = `You can save at most ${LIMITS.savedFilters} filters. Delete one first.`;
export const SAVED_FILTER_ADDRESS_MESSAGE =
  "address must be the task screen's address (/ or /lists/:listId) with at least one list or filter, and only the filters filter, priority, label, due and q with values they may have.";

/** A saved filter's name as it is kept: the title's rule (bidi controls removed, trimmed). */
export function savedFilterNameValue(raw: string): string {
  return todoTitleValue(raw);
}

/** What two names must not share to be two saved filters of one person: the name in lower case. */
export function savedFilterNameKey(name: string): string {
  return savedFilterNameValue(name).toLowerCase();
}

/** The order saved filters are listed in: by name, case aside, then as written. */
export function bySavedFilterName(a: { name: string }, b: { name: string }): number {
  const byKey = savedFilterNameKey(a.name).localeCompare(savedFilterNameKey(b.name), 'en');
  return byKey !== 0 ? byKey : a.name.localeCompare(b.name, 'en');
}

/** What is wrong with `name` (after {@link savedFilterNameValue}) as a saved filter's name, or null. */
export function savedFilterNameProblem(name: string): string | null {
  const value = savedFilterNameValue(name);
  if (value.length < LIMITS.savedFilterName.min) return SAVED_FILTER_NAME_EMPTY_MESSAGE;
  if (value.length > LIMITS.savedFilterName.max) return SAVED_FILTER_NAME_TOO_LONG_MESSAGE;
  return null;
}

/** The list part of a task screen's path: `null` for `/` (every list), the list id (or INBOX_ID) for `/lists/:id`, undefined for anything else. */
function listOfPath(pathname: string): string | null | undefined {
  if (pathname === '/') return null;
  const match = /^\/lists\/([^/]+)$/.exec(pathname);
  if (!match?.[1]) return undefined;
  const id = match[1];
  // A stored list's id (ObjectId hex) or the Inbox: a list made offline under a temporary id has no address yet.
  return id === INBOX_ID || /^[0-9a-f]{24}$/.test(id) ? id : undefined;
}

/**
 * The saved form of a task screen's address: its list and the filters it sets, in canonical order, other
 * parameters left out (the task screen's own, such as an open dialog's); null when it names no list and no
 * filter, or a list or a filter value that cannot be. The task screen saves what this returns.
 */
export function filterAddressOf(pathname: string, search: string): string | null {
  const list = listOfPath(pathname);
  if (list === undefined) return null;
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of SAVED_FILTER_PARAMS) {
    const value = params.get(name);
    if (value === null || value === '') continue;
    const allowed = PARAM_RULES[name];
    if (!allowed?.(value)) return null;
    kept.set(name, value);
  }
  if (list === null && kept.size === 0) return null;
  const query = kept.toString();
  return `${list === null ? '/' : `/lists/${list}`}${query === '' ? '' : `?${query}`}`;
}

/**
 * Whether `address` is a saved filter's address as {@link filterAddressOf} makes it: canonical, and nothing
 * else in it. The service takes no other.
 */
export function isSavedFilterAddress(address: string): boolean {
  if (address.length > LIMITS.savedFilterAddress.max || !address.startsWith('/') || address.includes('#')) return false;
  const at = address.indexOf('?');
  const pathname = at < 0 ? address : address.slice(0, at);
  const search = at < 0 ? '' : address.slice(at);
  const params = new URLSearchParams(search);
  if ([...params.keys()].some((name) => !SAVED_FILTER_PARAMS.includes(name))) return false;
  return filterAddressOf(pathname, search) === address;
}
