import type { RefObject } from 'react';
import { UNDO_KEY, undoLatest } from '@tm/web-platform/undo';
import { focusSearch } from '../search/search-param';
import { useShortcuts } from './use-shortcuts';
import { nextFilter, type TaskFilter } from './use-task-filter';

/**
 * The task page's keys (docs/PRODUCT.md §10.11.6): `n` the new-task input (`inputRef`), `/` the search field
 * (§10.22; on a phone it opens it), `f` the next filter, `?` the list of the shortcuts (`openShortcuts`), `u` the
 * newest Undo still on offer (§10.11.4).
 */
export function useTaskShortcuts(
  inputRef: RefObject<HTMLInputElement | null>,
  filter: TaskFilter,
  chooseFilter: (filter: TaskFilter) => void,
  openShortcuts: () => void,
): void {
  useShortcuts({
    n: () => inputRef.current?.focus(),
    '/': focusSearch,
    f: () => {
      const next = nextFilter(filter);
      chooseFilter(next);
      // The filter's link takes the focus: it says which filter is on, and no focused row vanishes with the old list.
      document.querySelector<HTMLElement>(`.tasks-filters [data-filter="${next}"]`)?.focus();
    },
    '?': openShortcuts,
    [UNDO_KEY]: () => void undoLatest(),
  });
}
