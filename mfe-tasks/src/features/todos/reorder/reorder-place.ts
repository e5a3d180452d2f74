import type { Todo } from '@tm/api-client';
import { LIMITS, orderKeyBetween, placeBetween, sameOrderGroup, shownTaskOrder } from '@tm/contracts';
import { quoted } from '../components/task-actions';

/** A move worked out (docs/PRODUCT.md §10.24): the moved task's key, and its place (0-based) in the list once moved. */
export interface Placement {
  order: string;
  position: number;
}

/**
 * Where `id` goes when dropped at `toIndex` of `shown` (the rows as the list shows them): among the tasks of its
 * group only (the same pinned and completed flags), so a drop among pinned or completed tasks brings an open,
 * unpinned one to its group's nearer end. Its key lies between its new neighbours' keys (placeBetween of
 * @tm/contracts); nothing else is renumbered. `null` when nothing would change (the same place, a task alone
 * in its group), or the key would pass the longest the server takes (LIMITS.orderKey).
 */
export function placeTask(shown: readonly Todo[], id: string, toIndex: number): Placement | null {
  const from = shown.findIndex((todo) => todo._id === id);
  const task = shown[from];
  if (!task) return null;
  const moved = shown.filter((todo) => todo._id !== id);
  moved.splice(Math.min(Math.max(toIndex, 0), moved.length), 0, task);
  const group = moved.filter((todo) => sameOrderGroup(todo, task));
  const { before, after } = placeBetween(
    group.filter((todo) => todo._id !== id),
    group.indexOf(task),
  );
  if (before === null && after === null) return null;
  const order = orderKeyBetween(before, after);
  if (order.length > LIMITS.orderKey.max) return null;
  const now = shownTaskOrder(shown.map((todo) => (todo._id === id ? { ...todo, order } : todo)));
  const position = now.findIndex((todo) => todo._id === id);
  return position === from && task.order !== undefined ? null : { order, position };
}

/**
 * Where Alt+↑ (`-1`) or Alt+↓ (`1`) takes `id`: one place up or down among its group, or `null` at its group's
 * end (docs/PRODUCT.md §10.24).
 */
export function stepTask(shown: readonly Todo[], id: string, step: -1 | 1): Placement | null {
  const task = shown.find((todo) => todo._id === id);
  if (!task) return null;
  const group = shown.filter((todo) => sameOrderGroup(todo, task));
  const neighbour = group[group.indexOf(task) + step];
  return neighbour ? placeTask(shown, id, shown.indexOf(neighbour)) : null;
}

/** What a screen reader hears of a place: "position 3 of 12". */
export const positionText = (position: number, size: number): string => `position ${position + 1} of ${size}`;

/** The words of a move, said in the list's live region (docs/PRODUCT.md §10.24). */
export const REORDER_WORDS = {
  instructions:
    'To move a task, press Space or Enter on its handle, move it with the arrow keys, and press Space or Enter to drop it or Escape to cancel. Alt with the up or down arrow moves it one place at once.',
  pickedUp: (title: string, position: number, size: number) => `Picked up task ${quoted(title)}. It is at ${positionText(position, size)}.`,
  over: (title: string, position: number, size: number) => `Task ${quoted(title)} is over ${positionText(position, size)}.`,
  dropped: (title: string, position: number, size: number) => `Task ${quoted(title)} dropped at ${positionText(position, size)}.`,
  unmoved: (title: string, position: number, size: number) => `Task ${quoted(title)} stays at ${positionText(position, size)}.`,
  cancelled: (title: string, position: number, size: number) => `Moving cancelled. Task ${quoted(title)} is back at ${positionText(position, size)}.`,
  overList: (title: string, list: string) => `Task ${quoted(title)} is over the list ${quoted(list)}. Drop it to move it there.`,
  movedTo: (title: string, list: string) => `Task ${quoted(title)} moved to the list ${quoted(list)}.`,
  end: (title: string, step: -1 | 1) => `Task ${quoted(title)} is already ${step < 0 ? 'first' : 'last'} of its kind (pinned, open or completed tasks stay together).`,
};
