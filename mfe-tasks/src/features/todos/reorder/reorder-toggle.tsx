import { useState } from 'react';
import { preloadable } from '../components/preloadable';

// Your own order (docs/PRODUCT.md §10.24): what of it is in the list's first load, the Reorder switch. The rows
// that move, with the drag-and-drop library, are fetched when the switch is first pointed at, focused or pressed.
const { Component: LazyReorderRows, preload } = preloadable(
  () => import('./reorder-rows').then((module) => module.ReorderRows),
  () => (
    <p className="tasks-list__empty" role="status">
      Getting the tasks ready to move…
    </p>
  ),
);

/** The rows of Reorder, loaded on use. */
export const ReorderRows = LazyReorderRows;

/**
 * Whether Reorder is on (docs/PRODUCT.md §10.24): it can be only where the list shows in its own order, the
 * status filter aside (no search, no priority, label or due filter: there a move would land among tasks that
 * are hidden), with at least two tasks; leaving such a view turns it off.
 */
export function useReorderMode(possible: boolean) {
  const [wanted, setWanted] = useState(false);
  return { on: wanted && possible, possible, toggle: () => setWanted((was) => !(was && possible)) };
}

interface ReorderToggleProps {
  on: boolean;
  possible: boolean;
  toggle: () => void;
}

/** "Reorder", then "Done reordering": turns the list's handles on and off. */
export function ReorderToggle({ on, possible, toggle }: ReorderToggleProps) {
  if (!possible) return null;
  return (
    <button
      type="button"
      className="tasks-text-button tasks-reorder-toggle"
      onPointerEnter={() => void preload()}
      onFocus={() => void preload()}
      onClick={() => {
        void preload();
        toggle();
      }}
    >
      {on ? 'Done reordering' : 'Reorder'}
    </button>
  );
}
