import { createHash } from 'node:crypto';
import {
  byListPlace,
  compareTaskOrder,
  DEFAULT_LIST_COLOUR,
  fieldValue,
  HISTORY_RETENTION_MS,
  inListScope,
  LIMITS,
  listNameKey,
  listNameTakenMessage,
  NO_LIST_LEFT_OUT,
  normalLabels,
  taskMarks,
  taskDetails,
  inTaskOrder,
  orderKeyBetween,
  TEMP_ID_PREFIX,
  TODO_PATCH_FIELDS,
  type ChangeBase,
  type ChangesResponse,
  type CreateListRequest,
  type FieldValue,
  type ListPatch,
  type TaskOrderFields,
  type TodoChangeEvent,
  type TodoPatch,
  type ValidationIssue,
} from '@tm/contracts';
import { applyTaskPatch, repeatProblem } from '@tm/contracts/repeat';
import type {
  BulkChange,
  BulkRestore,
  DatedFields,
  FeedPosition,
  IdempotencyRecord,
  IdempotentOutcome,
  IdempotentRequest,
  ListField,
  ListOutcome,
  ListRecord,
  ListRemoval,
  NewTaskFields,
  NewTaskValues,
  StoredAnswer,
  TaskRefusal,
  TaskScope,
  TodoField,
  TodoRecord,
  TodoUpdate,
} from './todos.repository.js';

export type { IdempotencyRecord, IdempotentOutcome, IdempotentRequest, StoredAnswer } from './todos.repository.js';

/**
 * The task rules, in one place (docs/PRODUCT.md §7, §10.11): given the tasks as stored and a request, what the
 * new state is. Pure functions: no clock, no randomness, no storage. The caller reads what a rule needs in a
 * write's transaction, calls it, and stores exactly the {@link Writes} it returns in that same transaction
 * (todos.store-base.ts); a `null` `writes` means the request changes nothing, so nothing is stored and no
 * change event is appended (a repeat is invisible to other pages).
 */

/** A task as stored: the record, and when it was deleted (soft delete, §10.11.4); `null` while it is live. */
export interface StoredTask {
  todo: TodoRecord;
  deletedAt: string | null;
}

/** A list as stored (docs/PRODUCT.md §10.19): the record, and when it was deleted (soft delete, with its tasks); `null` while it is live. */
export interface StoredList {
  list: ListRecord;
  deletedAt: string | null;
}

/**
 * The values a completion change replaced in one task; what its undo puts back. A tick that moved a repeating
 * task to its next date (§10.16) also keeps the date it moved from and the completions it had (`moved`).
 */
export type CompletionState = Pick<TodoRecord, 'completed' | 'completedAt' | 'updatedAt'> & { moved?: Pick<TodoRecord, 'due' | 'repeatDone'> };

/**
 * The undo of one bulk call (§10.11.3), or of one tick (§10.11.4), keyed by its single-use token. `kind`
 * 'clear-completed': the call deleted the `items` at `createdAt`. 'complete-all': it set them to `completed`
 * at `createdAt`, and each item keeps the values it replaced (`before`). 'delete-list' (§10.19): the call
 * deleted list `listId` and the `items` in it at `createdAt`.
 */
export interface UndoBatch {
  token: string;
  kind: 'clear-completed' | 'complete-all' | 'delete-list';
  /** The list a 'delete-list' deleted; absent for the other kinds. */
  listId?: string;
  /** What a 'complete-all' set `completed` to; `null` for 'clear-completed'. */
  completed: boolean | null;
  createdAt: string;
  items: Array<{ id: string; before: CompletionState | null }>;
}

/**
 * The change event a write appends: the tasks as they now are, and the ids that are gone (§10.11.5); a
 * list write adds the lists as they now are (`savedLists`) and the ids of the lists that are gone
 * (`removedLists`, §10.19). Absent list fields: the write touched no list.
 */
export interface EventBody {
  saved: TodoRecord[];
  removed: string[];
  savedLists?: ListRecord[];
  removedLists?: string[];
}

/**
 * One value a write replaced (docs/PRODUCT.md §10.4): `field` of task `taskId` went from `before` to `after`
 * at `at`; `conflict` when `before` was not the value the change was made on (its base). The store adds the
 * user, the number of the write's event and its origin.
 */
export interface FieldChange {
  taskId: string;
  field: TodoField;
  before: FieldValue;
  after: FieldValue;
  at: string;
  conflict: boolean;
}

/** What one write stores, all in one transaction. */
export interface Writes {
  /** Tasks to store exactly as given (a new one is inserted; `createdAt` never changes). */
  tasks: StoredTask[];
  /** Lists to store exactly as given (a new one is inserted), before the tasks. */
  lists?: StoredList[];
  /** An undo batch to keep. */
  keepUndo?: UndoBatch;
  /** The token of an undo batch to forget (spent). */
  spendUndo?: string;
  /** The change event; `null` for a write that must not be seen (an undo that found nothing left to restore). */
  event: EventBody | null;
  /** The record of an `Idempotency-Key` to keep (replacing an expired one of the same user and key). */
  keepIdempotency?: IdempotencyRecord;
  /** The values the write replaced, for the task's history; stored only with an event (numbered as it is). */
  history?: FieldChange[];
}

/** A rule's answer: what the call resolves, and what to store (`null`: nothing changes). */
export interface Decision<R> {
  result: R;
  writes: Writes | null;
}

const unchanged = <R>(result: R): Decision<R> => ({ result, writes: null });
const iso = (time: Date): string => time.toISOString();

/**
 * The order of tasks nobody moved (§10.11): pinned first, then newest first (`createdAt` desc), then the higher
 * id. Each store builds its query's sort from it (the index serves it), which is already the list's order
 * (§10.24) while no task has its own order key; {@link inListOrder} puts those that have one in place.
 */
export const LIST_ORDER = [
  { field: 'isPinned', direction: 'desc' },
  { field: 'createdAt', direction: 'desc' },
  { field: '_id', direction: 'desc' },
] as const satisfies ReadonlyArray<{ field: keyof TodoRecord; direction: 'asc' | 'desc' }>;

/**
 * The list's order as a comparator (docs/PRODUCT.md §2, §10.24): pinned first, then by order key (a moved task's
 * own, else one that puts the newest first), then the higher id; compareTaskOrder of the contracts, the rule the
 * device's list sorts by too.
 */
export function byListOrder(a: TodoRecord, b: TodoRecord): number {
  return compareTaskOrder(a, b);
}

/**
 * Rows read in {@link LIST_ORDER} put in the list's order (§10.24): as they are while no task has its own key
 * (`hasKey` false for all: nothing is sorted), else sorted by compareTaskOrder with each key built once.
 * `fields` gives what the order reads of a row; it is called for every row only when one has a key.
 */
export function inListOrder<R>(rows: R[], hasKey: (row: R) => boolean, fields: (row: R) => TaskOrderFields): R[] {
  if (!rows.some(hasKey)) return rows;
  return inTaskOrder(rows.map((row) => ({ ...fields(row), row }))).map(({ row }) => row);
}

/**
 * A task's completion time (§10.11.3) as it is read: `null` for an active task; for a completed one the stored
 * time, or, for a task from before completion times were kept (no value stored yet), its `updatedAt`, the
 * time of its last change, which was the tick itself or came after it: the best time known. The migrations
 * of both stores write exactly this value.
 */
export function completedAtOf(completed: boolean, updatedAt: string, stored: string | null | undefined): string | null {
  return completed ? (stored ?? updatedAt) : null;
}

/**
 * Migration from one global event sequence to per-user numbers (§10.11.5). Each kept event keeps its old id
 * as its number, and a user's position starts at the user's newest kept one (`last`), the trim watermark just
 * below the user's oldest kept one (`first`): numbers stay increasing per user, in commit order, every
 * cursor a page holds still means what it meant (renumbered from 1, an old cursor would name a different
 * change and the page would skip changes silently), and resuming from before `first` is a reset, never a
 * silent gap. The old numbers tell a user nothing new: they are the user's own events' ids, already sent to
 * that user. A user with no kept event starts at 0, so any cursor held from before is ahead: a reset too.
 */
export function migratedFeedPosition(first: number, last: number): { seq: number; trimmedThrough: number } {
  return { seq: last, trimmedThrough: first - 1 };
}

/** Whether something done at `at` can still be undone at `now` (the restore window, §10.11.3, §10.11.4). */
export function withinRestoreWindow(at: string, now: Date, restoreWindowMs: number): boolean {
  return Date.parse(at) > now.getTime() - restoreWindowMs;
}

const live = (task: StoredTask | undefined): task is StoredTask => task !== undefined && task.deletedAt === null;

/**
 * The values a write replaced in one task (§10.4), over every patchable field (TODO_PATCH_FIELDS), so a new
 * field is kept in the history with no new code. A field whose stored value (`before`) is not its `base` was
 * changed elsewhere since the change was made: a conflict (the change still wins, by server order).
 */
export function fieldChanges(before: TodoRecord, after: TodoRecord, at: string, base: ChangeBase = {}): FieldChange[] {
  return TODO_PATCH_FIELDS.filter((field) => fieldValue(before, field) !== fieldValue(after, field)).map((field) => ({
    taskId: before._id,
    field,
    before: fieldValue(before, field),
    after: fieldValue(after, field),
    at,
    conflict: field in base && (base[field] ?? null) !== fieldValue(before, field),
  }));
}

export type { DatedFields } from './todos.repository.js';

/**
 * Why a task with `dated` cannot be kept, as the issue a 400 carries (the field and why), or null: a repeat
 * needs a due date and must fall after it (§10.16), reminders need a due date (§10.17).
 */
export function datedProblem({ due, repeat, reminders }: DatedFields): ValidationIssue | null {
  if (repeat !== undefined) {
    const problem = repeatProblem(repeat, due);
    if (problem !== null) return { path: ['repeat'], message: problem };
  }
  if (reminders !== undefined && reminders.length > 0 && due === undefined) return { path: ['reminders'], message: REMINDERS_NEED_DUE };
  return null;
}

export const REMINDERS_NEED_DUE = 'Reminders need a due date.';

/** `fields` without the ones it leaves out, and without an empty reminder list or a `repeatFrom` without a repeat. */
function datedOf({ due, repeat, repeatFrom, reminders }: DatedFields): DatedFields {
  return {
    ...(due === undefined ? {} : { due }),
    ...(repeat === undefined ? {} : { repeat, ...(repeatFrom === undefined ? {} : { repeatFrom }) }),
    ...(reminders === undefined || reminders.length === 0 ? {} : { reminders }),
  };
}

/**
 * Add (§7): a new task is active, unpinned, without completion time, with `createdAt === updatedAt`; due when
 * given a due date (§10.14), else without one; repeating and reminded when given those (§10.16, §10.17); with
 * the priority and labels given (§10.20, taskMarks of the contracts), the note and subtasks given (§10.21,
 * taskDetails of the contracts). The route checks `fields` with {@link datedProblem}
 * first.
 */
export function addTodo(id: string, title: string, now: Date, fields: NewTaskValues = {}): Decision<TodoRecord> {
  const at = iso(now);
  const todo: TodoRecord = { _id: id, title, completed: false, isPinned: false, createdAt: at, updatedAt: at, completedAt: null, ...datedOf(fields), ...taskMarks(fields), ...taskDetails(fields) };
  return { result: todo, writes: { tasks: [{ todo, deletedAt: null }], event: { saved: [todo], removed: [] } } };
}

/** Shown, on `listId`, for a task write naming a list the user does not have live (§10.19). */
export const NO_SUCH_LIST_MESSAGE = 'No such list: it was deleted, or is not yours.';

/** The user's live list of id `id` among `lists` (archived ones included), or `undefined`. */
export function liveList(lists: readonly StoredList[], id: string): StoredList | undefined {
  return lists.find((one) => one.deletedAt === null && one.list._id === id);
}

/**
 * Why a task cannot go in list `listId` (§10.19), as the issue a 400 carries, or `null`: a list id must name
 * one of the user's live lists (an archived one is fine). `undefined` (no list named) and `null` (the Inbox)
 * always can.
 */
export function listIdProblem(listId: string | null | undefined, lists: readonly StoredList[]): ValidationIssue | null {
  if (listId === undefined || listId === null || liveList(lists, listId) !== undefined) return null;
  return { path: ['listId'], message: NO_SUCH_LIST_MESSAGE };
}

/**
 * Add into a list (§10.19): {@link addTodo} with the task in list `fields.listId` when given, or, when that
 * names none of the user's live `lists`, nothing stored and the refusal on `listId`.
 */
export function addTodoToList(id: string, title: string, now: Date, { listId, ...values }: NewTaskFields, lists: readonly StoredList[]): Decision<TodoRecord | TaskRefusal> {
  const problem = listIdProblem(listId, lists);
  if (problem !== null) return unchanged({ problem });
  const added = addTodo(id, title, now, values);
  if (listId === undefined) return added;
  const todo: TodoRecord = { ...added.result, listId };
  return { result: todo, writes: { tasks: [{ todo, deletedAt: null }], event: { saved: [todo], removed: [] } } };
}

/** The user's live lists in their order (byListPlace): what fetch-todo answers. */
export function listsInPlace(lists: readonly StoredList[]): ListRecord[] {
  return lists.filter((one) => one.deletedAt === null).map((one) => one.list).sort(byListPlace);
}

/** Why `name` cannot be the name of a list of the user besides list `except` (§10.19): another live list has it, case aside. */
function nameTakenIssue(name: string, lists: readonly StoredList[], except: string | null): ValidationIssue | null {
  const key = listNameKey(name);
  const taken = lists.some((one) => one.deletedAt === null && one.list._id !== except && listNameKey(one.list.name) === key);
  return taken ? { path: ['name'], message: listNameTakenMessage(name) } : null;
}

/**
 * A new list (§10.19) with id `id`: `input`'s name (already trimmed by the contracts), its colour or
 * DEFAULT_LIST_COLOUR, its order or one after the user's last list (orderKeyBetween), not archived,
 * `createdAt === updatedAt`. Refused, nothing stored, when a live list of the user has the name (case aside)
 * or the user has LIMITS.lists live lists (archived ones count).
 */
export function createList(id: string, input: CreateListRequest, lists: readonly StoredList[], now: Date): Decision<ListOutcome> {
  const live = listsInPlace(lists);
  const issue = nameTakenIssue(input.name, lists, null);
  if (issue !== null) return unchanged({ kind: 'name-taken', issue });
  if (live.length >= LIMITS.lists) return unchanged({ kind: 'full' });
  const at = iso(now);
  const list: ListRecord = {
    _id: id,
    name: input.name,
    colour: input.colour ?? DEFAULT_LIST_COLOUR,
    order: input.order ?? orderKeyBetween(live.at(-1)?.order ?? null, null),
    archived: false,
    createdAt: at,
    updatedAt: at,
  };
  return { result: { kind: 'saved', list, changed: [] }, writes: { tasks: [], lists: [{ list, deletedAt: null }], event: { saved: [], removed: [], savedLists: [list] } } };
}

/** The list fields in the order the answer names them. */
const LIST_FIELDS = ['name', 'colour', 'order', 'archived'] as const satisfies readonly ListField[];

/**
 * Rename, recolour, move or archive (§10.19): sets the given values of the user's live list `id`; only those
 * that differ change (`changed`, in LIST_FIELDS order), and then `updatedAt` moves and one event is
 * appended; none differ: nothing is stored (a repeat). `not-found` for no live list of the user; a name
 * another live list has (case aside) is refused, nothing stored. A new name that differs from the list's own
 * in case only is a rename.
 */
export function editList(id: string, patch: ListPatch, lists: readonly StoredList[], now: Date): Decision<ListOutcome> {
  const stored = liveList(lists, id);
  if (stored === undefined) return unchanged({ kind: 'not-found' });
  const current = stored.list;
  const changed = LIST_FIELDS.filter((field) => patch[field] !== undefined && patch[field] !== current[field]);
  if (changed.length === 0) return unchanged({ kind: 'saved', list: current, changed });
  if (patch.name !== undefined && changed.includes('name')) {
    const issue = nameTakenIssue(patch.name, lists, id);
    if (issue !== null) return unchanged({ kind: 'name-taken', issue });
  }
  const list: ListRecord = { ...current, ...Object.fromEntries(changed.map((field) => [field, patch[field]])), updatedAt: iso(now) };
  return { result: { kind: 'saved', list, changed }, writes: { tasks: [], lists: [{ list, deletedAt: null }], event: { saved: [], removed: [], savedLists: [list] } } };
}

/**
 * A list's delete (§10.19): the user's live list `id` and every live task in it (`tasks`, the user's live
 * tasks of that list) are deleted softly at one time, in one event (`removed`: the tasks, `removedLists`:
 * the list), with an undo batch of kind 'delete-list' that brings both back (undoBatch). `not-found` for no
 * live list of the user.
 */
export function deleteList(id: string, lists: readonly StoredList[], tasks: StoredTask[], now: Date, undoToken: string): Decision<ListRemoval> {
  const stored = liveList(lists, id);
  if (stored === undefined) return unchanged({ kind: 'not-found' });
  const at = iso(now);
  const todos = tasks.filter((task) => live(task) && task.todo.listId === id).map((task) => task.todo).sort(byListOrder);
  return {
    result: { kind: 'removed', list: stored.list, todos, undoToken },
    writes: {
      tasks: todos.map((todo) => ({ todo, deletedAt: at })),
      lists: [{ list: stored.list, deletedAt: at }],
      keepUndo: { token: undoToken, kind: 'delete-list', listId: id, completed: null, createdAt: at, items: todos.map((todo) => ({ id: todo._id, before: null })) },
      event: { saved: [], removed: todos.map((todo) => todo._id), removedLists: [id] },
    },
  };
}

/**
 * Edit, tick, pin, date, repeat, remind, prioritise and label (§7, §10.6, §10.11.1, §10.14, §10.16, §10.17,
 * §10.20): sets the given fields (a `null` removes an optional one, as do priority 4 and no labels `[]`; a task
 * left without a due date keeps no repeat or reminders).
 * Only the fields whose value differs change (`changed`, in TODO_PATCH_FIELDS order); none: a no-op that
 * leaves `updatedAt`. A patch that would leave a repeat or reminders the task cannot keep
 * ({@link datedProblem}) changes nothing and resolves its `problem`. A tick of a repeating task completes the
 * occurrence (applyTaskPatch of @tm/contracts/repeat, on the person's day `today`): the task stays open at
 * its next date, `changed` has `completed` and `repeated` is true.
 * Each value replaced goes to the history (§10.4); with a `base`, those changed elsewhere since it are the
 * `conflicts` (the change wins all the same: later by server order).
 * Otherwise the patch applies as `applyPatch` of @tm/contracts says (`updatedAt` now, `completedAt`
 * following `completed`). With `undoToken` (a tick, `isTick` of @tm/contracts) a change of `completed`
 * keeps an undo batch of the one task with the values it replaced. `null` for no live task. A `listId` that
 * names none of the user's live `lists` (§10.19) changes nothing and resolves its `problem`; `null` moves the
 * task to the Inbox.
 */
export function editTodo(
  task: StoredTask | undefined,
  patch: TodoPatch,
  now: Date,
  undoToken: string | null,
  base?: ChangeBase,
  today?: string,
  lists: readonly StoredList[] = [],
): Decision<TodoUpdate | null> {
  if (!live(task)) return unchanged(null);
  const current = task.todo;
  const at = iso(now);
  // Labels as a task keeps them (§10.20): a patch sets the whole set, each once, in order.
  const todo = applyTaskPatch(current, patch.labels ? { ...patch, labels: normalLabels(patch.labels) } : patch, at, today);
  const repeated = patch.completed === true && !current.completed && !todo.completed;
  const changed = TODO_PATCH_FIELDS.filter((field): field is TodoField => fieldValue(current, field) !== fieldValue(todo, field) || (field === 'completed' && repeated));
  const problem = listIdProblem(patch.listId, lists) ?? patchedFieldsProblem(patch, todo);
  if (problem !== null) return unchanged({ todo: current, changed: [], undoToken: null, conflicts: [], problem });
  if (changed.length === 0) return unchanged({ todo: current, changed, undoToken: null, conflicts: [] });
  const token = undoToken !== null && changed.includes('completed') ? undoToken : null;
  // Only the values the task had: a store that writes an absent value as null (MongoDB's driver) must not get one.
  const moved = { ...(current.due === undefined ? {} : { due: current.due }), ...(current.repeatDone === undefined ? {} : { repeatDone: current.repeatDone }) };
  const before: CompletionState = { ...completionOf(current), ...(repeated ? { moved } : {}) };
  const keepUndo: UndoBatch | undefined = token === null ? undefined : { token, kind: 'complete-all', completed: todo.completed, createdAt: at, items: [{ id: current._id, before }] };
  const history = fieldChanges(current, todo, at, base);
  const conflicts = history.filter((change) => change.conflict).map((change) => change.field);
  return {
    result: { todo, changed, undoToken: token, conflicts, ...(repeated ? { repeated } : {}) },
    writes: { tasks: [{ todo, deletedAt: null }], keepUndo, event: { saved: [todo], removed: [] }, history },
  };
}

/**
 * A patch's own repeat and reminders against the task it leaves (`after`): only what the patch sets is held to
 * {@link datedProblem}, so a patch of the title never fails for a repeat kept from before. A repeat or
 * reminders set together with `due: null` are refused too (the date they need is being removed).
 */
function patchedFieldsProblem(patch: TodoPatch, after: TodoRecord): ValidationIssue | null {
  const due = patch.due === null ? undefined : after.due;
  return datedProblem({
    due,
    ...(typeof patch.repeat === 'string' ? { repeat: patch.repeat } : {}),
    ...(patch.reminders ? { reminders: patch.reminders } : {}),
  });
}

const completionOf = ({ completed, completedAt, updatedAt }: TodoRecord): CompletionState => ({ completed, completedAt, updatedAt });

/** `todo` with the values of `before` put back: its completion, and where a repeating tick moved it from (§10.16). */
function withCompletion(todo: TodoRecord, { moved, ...completion }: CompletionState): TodoRecord {
  const restored: TodoRecord = { ...todo, ...completion };
  if (moved === undefined) return restored;
  const { due: _due, repeatDone: _done, ...rest } = restored;
  return { ...rest, ...(moved.due === undefined ? {} : { due: moved.due }), ...(moved.repeatDone === undefined ? {} : { repeatDone: moved.repeatDone }) };
}

/** Delete (§10.11.4): a soft delete, the task untouched but invisible. `false` for no live task. */
export function deleteTodo(task: StoredTask | undefined, now: Date): Decision<boolean> {
  if (!live(task)) return unchanged(false);
  return { result: true, writes: { tasks: [{ todo: task.todo, deletedAt: iso(now) }], event: { saved: [], removed: [task.todo._id] } } };
}

/**
 * Restore (§10.11.4): a task deleted less than the restore window ago comes back exactly as it was, but
 * for a list that is gone since (deleted, §10.19): then it comes back in the Inbox. `lists` are the user's
 * lists as stored. `null` for a task that is not deleted (or unknown, or another user's), or deleted too
 * long ago.
 */
export function restoreTodo(task: StoredTask | undefined, now: Date, restoreWindowMs: number, lists: readonly StoredList[] = []): Decision<TodoRecord | null> {
  if (task === undefined || task.deletedAt === null || !withinRestoreWindow(task.deletedAt, now, restoreWindowMs)) return unchanged(null);
  const { listId, ...inInbox } = task.todo;
  const todo = listId === undefined || liveList(lists, listId) !== undefined ? task.todo : inInbox;
  return { result: todo, writes: { tasks: [{ todo, deletedAt: null }], event: { saved: [todo], removed: [] } } };
}

/**
 * Whether `todo` is among the tasks of `scope` (§10.19): every task, the Inbox's (no list) or one list's. Without
 * a list the bulk calls act on every task, an archived list's too (the screen offers them there only while it
 * shows every task, §10.20).
 */
export function inScope(todo: TodoRecord, scope: TaskScope): boolean {
  return inListScope(todo, scope, NO_LIST_LEFT_OUT);
}

/**
 * Mark all complete / active (§10.11.3): every live task of `scope` (absent: every task; a list's, or the
 * Inbox's, §10.19) not yet in that state gets it (`completedAt` now, or
 * `null`) and `updatedAt` now; the others are left untouched. Resolves the changed tasks in list order with
 * the undo token, which keeps what each had before; nothing to change: `{ todos: [], undoToken: null }`.
 */
export function completeAll(tasks: StoredTask[], completed: boolean, now: Date, undoToken: string, scope?: TaskScope): Decision<BulkChange> {
  const targets = tasks.filter((task) => live(task) && inScope(task.todo, scope) && task.todo.completed !== completed).map((task) => task.todo);
  if (targets.length === 0) return unchanged({ todos: [], undoToken: null });
  const at = iso(now);
  const changes = targets.map((todo) => ({ before: todo, after: { ...todo, completed, completedAt: completed ? at : null, updatedAt: at } }));
  const todos = changes.map((change) => change.after).sort(byListOrder);
  const items = targets.map((todo) => ({ id: todo._id, before: completionOf(todo) }));
  return {
    result: { todos, undoToken },
    writes: {
      tasks: todos.map((todo) => ({ todo, deletedAt: null })),
      keepUndo: { token: undoToken, kind: 'complete-all', completed, createdAt: at, items },
      event: { saved: todos, removed: [] },
      history: changes.flatMap((change) => fieldChanges(change.before, change.after, at)),
    },
  };
}

/**
 * Clear completed (§10.11.3): every live completed task of `scope` (as completeAll's) is deleted (softly). Resolves them as they were, in
 * list order, with the undo token; none: `{ todos: [], undoToken: null }`.
 */
export function clearCompleted(tasks: StoredTask[], now: Date, undoToken: string, scope?: TaskScope): Decision<BulkChange> {
  const todos = tasks.filter((task) => live(task) && inScope(task.todo, scope) && task.todo.completed).map((task) => task.todo).sort(byListOrder);
  if (todos.length === 0) return unchanged({ todos: [], undoToken: null });
  const at = iso(now);
  return {
    result: { todos, undoToken },
    writes: {
      tasks: todos.map((todo) => ({ todo, deletedAt: at })),
      keepUndo: { token: undoToken, kind: 'clear-completed', completed: null, createdAt: at, items: todos.map((todo) => ({ id: todo._id, before: null })) },
      event: { saved: [], removed: todos.map((todo) => todo._id) },
    },
  };
}

/**
 * Whether a task is still as the bulk call (or tick) of `batch` left it, so its undo may touch it: after a
 * clear, still deleted by the clear itself (at its very time: one restored on its own since, even if deleted
 * again, is no longer the clear's); after a completion change, live with the `completed`, `completedAt` and
 * `updatedAt` the call wrote. Every change moves `updatedAt`, so only a change in the call's own millisecond
 * could go unnoticed.
 */
export function stillAsLeft(batch: UndoBatch, task: StoredTask): boolean {
  if (batch.kind === 'clear-completed' || batch.kind === 'delete-list') return task.deletedAt === batch.createdAt;
  const { completed, completedAt, updatedAt } = task.todo;
  return task.deletedAt === null && completed === batch.completed && completedAt === (completed ? batch.createdAt : null) && updatedAt === batch.createdAt;
}

/**
 * Undo of a bulk call or a tick by its token (§10.11.3, §10.11.4): `batch` is the user's batch of that token
 * (`undefined` when unknown, spent or another user's), `tasks` the tasks it names as they now are. Within the
 * restore window, every task still as the call left it ({@link stillAsLeft}) comes back: a cleared one
 * undeleted exactly as it was, a completed (or reopened) one with the `completed`, `completedAt` and
 * `updatedAt` it had before; the others are left alone. The token is spent whatever was left (`[]`: no
 * event). Resolves the restored tasks in list order; `null`, changing nothing, for no batch or a late one.
 */
export function undoBulk(batch: UndoBatch | undefined, tasks: StoredTask[], now: Date, restoreWindowMs: number): Decision<TodoRecord[] | null> {
  const { result, writes } = undoBatch(batch, tasks, [], now, restoreWindowMs);
  return { result: result === null ? null : result.todos, writes };
}

/**
 * {@link undoBulk} over every kind of batch, lists included (§10.19): the undo of a list's delete
 * ('delete-list') brings the list back too, as it was, with the tasks still as the delete left them, in one
 * event (`savedLists`). The list must still be as the delete left it (deleted at its very time), and may
 * not come back beside a live list of its name or past LIMITS.lists: then nothing changes and the token is
 * kept (`null`). `lists` are the user's lists as stored.
 */
export function undoBatch(batch: UndoBatch | undefined, tasks: StoredTask[], lists: readonly StoredList[], now: Date, restoreWindowMs: number): Decision<BulkRestore | null> {
  if (batch === undefined || !withinRestoreWindow(batch.createdAt, now, restoreWindowMs)) return unchanged(null);
  if (batch.kind !== 'delete-list') {
    const { result, writes } = undoTasks(batch, tasks, now);
    return { result: { todos: result, lists: [] }, writes };
  }
  const stored = lists.find((one) => one.list._id === batch.listId);
  if (stored === undefined || stored.deletedAt !== batch.createdAt) {
    const { result, writes } = undoTasks(batch, [], now);
    return { result: { todos: result, lists: [] }, writes };
  }
  const others = lists.filter((one) => one.deletedAt === null);
  if (others.length >= LIMITS.lists || others.some((one) => listNameKey(one.list.name) === listNameKey(stored.list.name))) return unchanged(null);
  const { result, writes } = undoTasks(batch, tasks, now);
  const list = stored.list;
  return {
    result: { todos: result, lists: [list] },
    writes: { ...writes, lists: [{ list, deletedAt: null }], event: { saved: result, removed: [], savedLists: [list] } },
  };
}

/** The tasks of `batch` still as it left them, brought back (see {@link undoBulk}); the token spent. */
function undoTasks(batch: UndoBatch, tasks: StoredTask[], now: Date): { result: TodoRecord[]; writes: Writes } {
  const before = new Map(batch.items.map((item) => [item.id, item.before]));
  const changes = tasks
    .filter((task) => before.has(task.todo._id) && stillAsLeft(batch, task))
    .map((task) => {
      const was = before.get(task.todo._id);
      return { before: task.todo, after: batch.kind === 'complete-all' && was ? withCompletion(task.todo, was) : task.todo };
    });
  const restored = changes.map((change) => change.after).sort(byListOrder);
  const at = iso(now);
  return {
    result: restored,
    writes: {
      tasks: restored.map((todo) => ({ todo, deletedAt: null })),
      spendUndo: batch.token,
      event: restored.length === 0 ? null : { saved: restored, removed: [] },
      history: changes.flatMap((change) => fieldChanges(change.before, change.after, at)),
    },
  };
}

/** The sweep's boundaries: everything at or before them goes. */
export interface SweepCutoffs {
  /** Deleted tasks and lists, and undo batches, whose restore window has closed (the same boundary restore and undo use). */
  restoreClosed: Date;
  /** Change events older than the retention (§10.11.5): per user, every number up to the newest of them. */
  eventsExpired: Date;
  /** History entries older than the history's retention (§10.4, HISTORY_RETENTION_MS). */
  historyExpired: Date;
}

/** The sweep's boundaries at `now`. */
export function sweepCutoffs(now: Date, { restoreWindowMs, eventRetentionMs }: { restoreWindowMs: number; eventRetentionMs: number }): SweepCutoffs {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return { restoreClosed: before(restoreWindowMs), eventsExpired: before(eventRetentionMs), historyExpired: before(HISTORY_RETENTION_MS) };
}

/**
 * Idempotent writes (docs/PRODUCT.md §7): a write sent with an `Idempotency-Key` is applied at most once per
 * user and key. Its record (the key, the request's fingerprint, the answer given, when) is stored in the
 * write's own transaction, so a write is never kept without its record nor a record without its write.
 */

/** How long a key is remembered: a retry within it replays the first answer; the sweep forgets it after. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;

/** A JSON value with every object's keys in order, so two spellings of one body give one fingerprint. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/**
 * What makes two requests the same request: the method, the path (the task id in it included) and the body
 * (its JSON, keys in any order; none reads as `{}`), as one SHA-256 in hex.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(JSON.stringify([method.toUpperCase(), path, canonical(body ?? {})])).digest('hex');
}

/** What a write under a key does: apply it, replay the answer kept for the key, or refuse a key reused for another request. */
export type IdempotencyVerdict = { kind: 'apply' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused' };

/**
 * The rule for a key: no record, or one past the retention (not swept yet), applies the write (its record
 * then replaces the old one); a record of the same request replays its answer; of another request: reused.
 */
export function idempotencyVerdict(record: IdempotencyRecord | undefined, fingerprint: string, now: Date, retentionMs = IDEMPOTENCY_RETENTION_MS): IdempotencyVerdict {
  if (record === undefined || Date.parse(record.createdAt) <= now.getTime() - retentionMs) return { kind: 'apply' };
  return record.fingerprint === fingerprint ? { kind: 'replay', answer: record.answer } : { kind: 'reused' };
}

/** The sweep's boundary for the records of keys: those created at or before it go (a verdict already ignores them). */
export function idempotencyExpiry(now: Date, retentionMs = IDEMPOTENCY_RETENTION_MS): Date {
  return new Date(now.getTime() - retentionMs);
}

/**
 * A write under a key, decided in its transaction: `record` is the user's record of the key as stored, `decide`
 * the write's own rule and `answer` turns its result into the answer sent. A replay or a reused key stores
 * nothing (no task, no event); an applied write stores its own writes and the record of its answer, even
 * when the write itself changes nothing (a repeat, an unknown id), so a retry gets exactly that answer.
 */
export function decideOnce<R>(
  record: IdempotencyRecord | undefined,
  request: IdempotentRequest,
  now: Date,
  decide: () => Decision<R>,
  answer: (result: R) => StoredAnswer,
): Decision<IdempotentOutcome> {
  const verdict = idempotencyVerdict(record, request.fingerprint, now);
  if (verdict.kind === 'replay') return unchanged({ kind: 'answered', answer: verdict.answer, replayed: true });
  if (verdict.kind === 'reused') return unchanged({ kind: 'reused' });
  const { result, writes } = decide();
  const kept: IdempotencyRecord = { key: request.key, fingerprint: request.fingerprint, answer: answer(result), createdAt: iso(now) };
  return { result: { kind: 'answered', answer: kept.answer, replayed: false }, writes: { tasks: [], event: null, ...writes, keepIdempotency: kept } };
}

/**
 * Sync (docs/PRODUCT.md §10.4): a command may name a task by a temporary id, `tmp-` and the id of the add
 * command that made it; that add's command id is its `Idempotency-Key`, so its record says which task it
 * made. Resolves the task id a temporary id stands for: the id of the task the add answered (201); `null`
 * when the add was never applied, or was refused (the command that names it fails too). Any other id is
 * itself.
 */
export function resolveTaskId(id: string, addRecord: (commandId: string) => IdempotencyRecord | undefined): string | null {
  return resolveTempId(id, addRecord, 'todo');
}

/**
 * {@link resolveTaskId} for a task (`todo`: the add-todo's answer names it) or a list (`list`: the
 * createList's answer, docs/PRODUCT.md §10.19): the id the created thing got; `null` when its command was
 * never applied or was refused. Any other id is itself.
 */
export function resolveTempId(id: string, addRecord: (commandId: string) => IdempotencyRecord | undefined, kind: 'todo' | 'list'): string | null {
  if (!id.startsWith(TEMP_ID_PREFIX)) return id;
  const answer = addRecord(id.slice(TEMP_ID_PREFIX.length))?.answer;
  if (answer === undefined || answer.status !== 201) return null;
  const body = answer.body as Partial<Record<'todo' | 'list', { _id?: unknown }>> | null;
  const made = body?.[kind]?._id;
  return typeof made === 'string' ? made : null;
}

/** Whether feed number `a` is below `b` (decimal strings of up to 16 digits). */
const below = (a: string, b: string): boolean => BigInt(a) < BigInt(b);

/**
 * Catching up (docs/PRODUCT.md §10.4): the answer to "what changed after `after`", given the events read
 * after it (up to one more than `limit`, to know whether more follow) and the feed's position read after them. A position the feed no longer covers
 * (below the trim watermark: some of its changes are gone) or ahead of the feed (from before an account
 * purge or another server) is a reset: no changes, the current cursor, and the device reads the whole list.
 * Otherwise at most `limit` events, the cursor of the last one sent (or `after` itself), and `more` when
 * others follow. Never a failure: a device any distance behind gets its changes or a reset.
 */
export function catchUp(after: string, events: TodoChangeEvent[], feed: FeedPosition, limit: number): ChangesResponse {
  if (below(after, feed.trimmedThrough) || below(feed.cursor, after)) return { changes: [], cursor: feed.cursor, more: false, reset: true };
  const changes = events.slice(0, limit);
  return { changes, cursor: changes.at(-1)?.id ?? after, more: events.length > limit, reset: false };
}
