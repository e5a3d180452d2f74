// The rules of a task change that both sides apply (docs/PRODUCT.md §7, §10.4, §10.11): which fields a
// patch sets, what a tick is, and the words of an update. Dependency-free (no zod), like todo-title.ts:
// browser bundles import it, and the service's routes use the very same functions.

import { subtasksFieldValue, type Subtask } from './todo-notes.js';

/** A task's patchable values (the `TodoPatch` schema's shape, without the schema). */
export interface PatchValues {
  title: string;
  completed: boolean;
  isPinned: boolean;
  /** The due date (todo-dates.ts); `null` in a patch removes it, and with it the repeat and the reminders. */
  due: string | null;
  /** The repeat, an RFC 5545 RRULE value (todo-repeat.ts, PRODUCT §10.16); `null` removes it. Needs a due date. */
  repeat: string | null;
  /** From when the repeat counts: its schedule (`due`, the default) or the day of completion; `null`: the default. */
  repeatFrom: 'due' | 'completion' | null;
  /** Reminders, in minutes before the due time (0: at it), at most REMINDERS_MAX, ascending (PRODUCT §10.17); `null` or `[]` removes them. */
  reminders: number[] | null;
  /** The list the task is in (PRODUCT §10.19): a list's id; `null` moves it to the Inbox (no `listId`). */
  listId: string | null;
  /** The priority, 1 (most urgent) to 3 (PRODUCT §10.20); 4 or `null` removes it (priority 4: none). */
  priority: 1 | 2 | 3 | 4 | null;
  /** The labels, as normalLabels keeps them (todo-labels.ts, §10.20); `null` or `[]` removes them. */
  labels: string[] | null;
  /** The note, plain text as noteValue keeps it (todo-notes.ts, PRODUCT §10.21); `null` or `""` removes it. */
  note: string | null;
  /** The whole checklist, in order (todo-notes.ts, §10.21); `null` or `[]` removes it. */
  subtasks: Subtask[] | null;
  /** The task's place in its list, a fractional order key (task-order.ts, PRODUCT §10.24); `null` puts it back by its creation. */
  order: string | null;
}

/** A patch: some of the values. */
export type PatchOf = Partial<PatchValues>;

/**
 * The fields a patch sets, in the order messages name them: the outbox, the merge and the change history
 * (docs/PRODUCT.md §10.4) work over this list, so a field added here syncs with no new sync code.
 */
export const TODO_PATCH_FIELDS = ['title', 'completed', 'isPinned', 'due', 'repeat', 'repeatFrom', 'reminders', 'listId', 'priority', 'labels', 'note', 'subtasks', 'order'] as const;
export type TodoPatchField = (typeof TODO_PATCH_FIELDS)[number];

/** The fields `patch` sets, in {@link TODO_PATCH_FIELDS} order. */
export function patchedFields(patch: PatchOf): TodoPatchField[] {
  return TODO_PATCH_FIELDS.filter((field) => patch[field] !== undefined);
}

/**
 * A tick (docs/PRODUCT.md §10.11.4): a patch of `completed` alone. Only a tick that changes the task keeps an
 * undo of its own (POST /todo/restore-bulk with its token); an edit, a pin or a patch of several fields does not.
 */
export function isTick(patch: PatchOf): boolean {
  const fields = patchedFields(patch);
  return fields.length === 1 && fields[0] === 'completed';
}

/**
 * What an update says (docs/PRODUCT.md §7, §10.11.1): what it changed, in the words of that change. One field
 * changed: "Task completed", "Task marked active", "Task pinned", "Task unpinned", "Title changed", "Due date
 * set", "Due date removed", "Task moved"…; several: "Task updated". Nothing changed (a repeat, or another device got there first): what the task already is,
 * for a patch of one field ("Task already completed"…), else "Task unchanged".
 */
export const UPDATE_MESSAGES = {
  completed: { true: 'Task completed', false: 'Task marked active' },
  isPinned: { true: 'Task pinned', false: 'Task unpinned' },
  title: 'Title changed',
  due: { set: 'Due date set', removed: 'Due date removed' },
  repeat: { set: 'Repeat set', removed: 'Repeat removed' },
  repeatFrom: { set: 'Repeat set', removed: 'Repeat set' },
  reminders: { set: 'Reminders set', removed: 'Reminders removed' },
  /** Moved to another list (§10.19); `removed`: to the Inbox. */
  listId: { set: 'Task moved', removed: 'Task moved to Inbox' },
  /** §10.20: a priority 1–3 set, or the task left with none (priority 4). */
  priority: { set: 'Priority set', removed: 'Priority removed' },
  labels: { set: 'Labels set', removed: 'Labels removed' },
  /** §10.21: the note written or changed, or cleared; the checklist changed (a tick, an item added…) or emptied. */
  note: { set: 'Note saved', removed: 'Note removed' },
  subtasks: { set: 'Subtasks saved', removed: 'Subtasks removed' },
  /** §10.24: the task moved to another place in its list, or put back in the order of creation. */
  order: { set: 'Task moved', removed: 'Task back in order of creation' },
  /** A repeating task ticked: the occurrence is done and the task moves to its next date (§10.16). */
  repeated: 'Task completed; it repeats',
  several: 'Task updated',
  already: {
    completed: { true: 'Task already completed', false: 'Task already active' },
    isPinned: { true: 'Task already pinned', false: 'Task already unpinned' },
    title: 'Title unchanged',
    due: 'Due date unchanged',
    repeat: 'Repeat unchanged',
    repeatFrom: 'Repeat unchanged',
    reminders: 'Reminders unchanged',
    listId: 'Task already in that list',
    priority: 'Priority unchanged',
    labels: 'Labels unchanged',
    note: 'Note unchanged',
    subtasks: 'Subtasks unchanged',
    order: 'Task already there',
  },
  unchanged: 'Task unchanged',
} as const;

/** What a patch applies to: a task's patchable values (an optional one may be absent) and its times. */
export interface Patchable {
  title: string;
  completed: boolean;
  isPinned: boolean;
  due?: string;
  repeat?: string;
  repeatFrom?: 'due' | 'completion';
  reminders?: number[];
  listId?: string;
  priority?: 1 | 2 | 3;
  labels?: string[];
  note?: string;
  subtasks?: Subtask[];
  order?: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A value a patch sets that a task keeps as no value: no reminders, no labels, no subtasks, an empty note, priority 4 (none). */
function isEmptyValue(patch: PatchOf, field: TodoPatchField): boolean {
  if (field === 'reminders' || field === 'labels' || field === 'subtasks' || field === 'note') return patch[field]?.length === 0;
  return field === 'priority' && patch.priority === 4;
}

/** The optional fields a task holds only with a due date (a repeat and reminders are counted from it). */
const DATED_FIELDS = ['repeat', 'repeatFrom', 'reminders'] as const;

/**
 * `task` with `patch` applied as the server applies it (docs/PRODUCT.md §7, §10.6, §10.14), and as the device
 * shows a change before the server has it (§10.4): every field the patch sets (a `null` removes an optional
 * one: the due date), `updatedAt` at `at`, and `completedAt` following `completed` (`at` when ticked, `null`
 * when reopened, kept when `completed` stays). A task left without a due date keeps no repeat and no
 * reminders; one without a repeat no `repeatFrom`; an empty reminder list is none (§10.16, §10.17). Ticking a
 * repeating task moves it to its next date instead: applyTaskPatch of todo-repeat.ts.
 */
export function applyPatch<T extends Patchable>(task: T, patch: PatchOf, at: string): T {
  const removed = new Set<string>(TODO_PATCH_FIELDS.filter((field) => patch[field] === null || isEmptyValue(patch, field)));
  const dueAfter = patch.due === null ? undefined : (patch.due ?? task.due);
  if (dueAfter === undefined) DATED_FIELDS.forEach((field) => removed.add(field));
  if (((patch.repeat === undefined ? task.repeat : patch.repeat) ?? null) === null) removed.add('repeatFrom');
  const set = Object.fromEntries(TODO_PATCH_FIELDS.filter((field) => patch[field] !== undefined && patch[field] !== null && !isEmptyValue(patch, field)).map((field) => [field, patch[field]]));
  const applied = Object.fromEntries(Object.entries({ ...task, ...set, updatedAt: at }).filter(([key]) => !removed.has(key))) as T;
  if (applied.completed !== task.completed) applied.completedAt = applied.completed ? at : null;
  return applied;
}

/**
 * A field's value as a change and the history see it, a JSON scalar: a task without a due date has `due:
 * null`; reminders are their minutes joined by commas (`"0,60"`), labels their names (`"errand,home"`), none
 * `null`; a priority its number, none (4) `null`; a note its text, none `null`; subtasks their checklist as
 * JSON text (subtasksFieldValue of todo-notes.ts), none `null`.
 */
export function fieldValue(values: Partial<PatchValues>, field: TodoPatchField): string | number | boolean | null {
  if (field === 'reminders') return values.reminders?.length ? values.reminders.join(',') : null;
  if (field === 'labels') return values.labels?.length ? values.labels.join(',') : null;
  if (field === 'priority') return values.priority === 4 ? null : (values.priority ?? null);
  if (field === 'subtasks') return subtasksFieldValue(values.subtasks);
  if (field === 'note') return values.note === undefined || values.note === null || values.note === '' ? null : values.note;
  return values[field] ?? null;
}

/**
 * The words of an update that changed `changed` and left the task with `values` (the server's answer), or, for
 * a change still on the device, of the patch itself: `changeMessage(patchedFields(patch), patch)`
 * (docs/PRODUCT.md §10.4).
 */
export function changeMessage(changed: readonly TodoPatchField[], values: Partial<PatchValues>): string {
  const [field, ...more] = changed;
  if (field === undefined) return UPDATE_MESSAGES.unchanged;
  // Removing the due date removes the repeat and reminders with it (§10.16): it is still the date's removal.
  if (changed.includes('due') && fieldValue(values, 'due') === null) return UPDATE_MESSAGES.due.removed;
  if (more.length > 0) return UPDATE_MESSAGES.several;
  if (field === 'title') return UPDATE_MESSAGES.title;
  if (field === 'due' || field === 'repeat' || field === 'repeatFrom' || field === 'reminders' || field === 'listId' || field === 'priority' || field === 'labels' || field === 'note' || field === 'subtasks' || field === 'order') {
    return fieldValue(values, field) === null ? UPDATE_MESSAGES[field].removed : UPDATE_MESSAGES[field].set;
  }
  return UPDATE_MESSAGES[field][`${values[field] === true}`];
}

/** The words of an update that changed nothing: what the task already is, for a patch of one field. */
export function unchangedMessage(patch: PatchOf, todo: Pick<PatchValues, 'completed' | 'isPinned'>): string {
  const [only, ...others] = patchedFields(patch);
  if (only === undefined || others.length > 0) return UPDATE_MESSAGES.unchanged;
  if (only !== 'completed' && only !== 'isPinned') return UPDATE_MESSAGES.already[only];
  return UPDATE_MESSAGES.already[only][`${todo[only]}`];
}
