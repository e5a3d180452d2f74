// Which tasks a list's screen holds (docs/PRODUCT.md §10.19), apart from the rest of list-rules.ts: the screens
// that only read tasks by list (Today, the task list, search) load these few lines and nothing of names or limits.

/** The list every account has: a task without a `listId` is in it (so a client that knows nothing of lists sees its tasks there). */
export const INBOX_NAME = 'Inbox';
/** The list id the address and the filters use for the Inbox (`/lists/inbox`): it has no stored id. */
export const INBOX_ID = 'inbox';

/** The ids of the archived lists among `lists`: their tasks are kept out of the way (docs/PRODUCT.md §10.19 "Archive"). */
export function archivedListIds(lists: Iterable<{ _id: string; archived: boolean }>): Set<string> {
  const ids = new Set<string>();
  for (const list of lists) if (list.archived) ids.add(list._id);
  return ids;
}

/**
 * No list left out: with {@link inListScope}, a scope of every task holds an archived list's too, as the bulk
 * calls without a list do (they are the spec's calls, §7, and mark or clear every task of the person).
 */
export const NO_LIST_LEFT_OUT: ReadonlySet<string> = new Set();

/**
 * Whether a task (its `listId`, none for the Inbox) is among the tasks of `scope` (docs/PRODUCT.md §10.19): a
 * list's id, INBOX_ID for the tasks in no list, or `undefined` for every task but those of an archived list
 * (`archived`, as {@link archivedListIds} makes it): an archived list keeps its tasks out of the way, in that
 * list only, so All tasks, search across lists, Today and Upcoming and the calendar feed leave them out.
 */
export function inListScope(task: { listId?: string | undefined }, scope: string | undefined, archived: ReadonlySet<string>): boolean {
  if (scope === undefined) return task.listId === undefined || !archived.has(task.listId);
  return scope === INBOX_ID ? task.listId === undefined : task.listId === scope;
}

/** The tasks of `todos` out of the way in an archived list left out (`scope` undefined of {@link inListScope}), in their order. */
export function outsideArchivedLists<T extends { listId?: string | undefined }>(todos: readonly T[], archived: ReadonlySet<string>): T[] {
  return archived.size === 0 ? [...todos] : todos.filter((todo) => inListScope(todo, undefined, archived));
}
