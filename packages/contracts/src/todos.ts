import { z } from 'zod';
import { TODO_PATCH_FIELDS, type PatchOf } from './todo-changes.js';
import { IsoDateString, MessageResponse, ObjectIdString } from './common.js';
import { ListScope, OrderKey, TaskList } from './lists.js';
import { COMMAND_ID_PATTERN, LIMITS, REMINDER_MAX_MINUTES, REMINDERS_MAX } from './limits.js';
import { AGENDA_DAYS } from './agenda.js';
import { dueParts, dueProblem } from './todo-dates.js';
import { TODO_TITLE_EDIT_EMPTY_MESSAGE, todoTitleProblem, todoTitleValue } from './todo-title.js';
import { LABELS_TOO_MANY_MESSAGE, labelNameProblem, normalLabels, PRIORITY_MESSAGE } from './todo-labels.js';
import { noteProblem, noteValue, subtaskIdProblem, subtasksProblem, subtaskTitleProblem } from './todo-notes.js';

/**
 * A due date (docs/PRODUCT.md §10.14): a day `2026-03-14`, or a day and time `2026-03-14T09:00`, in the
 * person's time zone; a real one ({@link dueProblem}).
 */
export const TodoDue = z.string().superRefine((value, ctx) => {
  const problem = dueProblem(value);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A repeat rule as the schema checks it (§10.16): an RRULE value's text, 1–300 characters. What it means (a
 * rule rrule reads, that falls after the due date, no more than once a minute) is checked by the service with
 * `@tm/contracts/repeat`, which carries the rule library the first load leaves out.
 */
export const TodoRepeat = z
  .string()
  .min(1, 'Enter a repeat rule as RFC 5545 writes one, e.g. FREQ=WEEKLY;BYDAY=MO.')
  .max(300, 'A repeat rule has at most 300 characters.')
  .regex(/^(RRULE:)?[A-Z]+=[^;]+(;[A-Z]+=[^;]+)*$/, 'Enter a repeat rule as RFC 5545 writes one, e.g. FREQ=WEEKLY;BYDAY=MO.');

export const RepeatFromField = z.enum(['due', 'completion'], { error: 'repeatFrom is due or completion' });

/**
 * A task's reminders (§10.17): whole minutes before the due time, 0 (at the due time) to four weeks, each
 * once, at most ten; kept ascending.
 */
export const TodoReminders = z
  .array(
    z
      .number()
      .int('A reminder is a whole number of minutes before the due time.')
      .min(0, 'A reminder comes at or before the due time, not after it.')
      .max(REMINDER_MAX_MINUTES, 'A reminder comes at most four weeks before the due time.'),
  )
  .max(REMINDERS_MAX, `A task has at most ${REMINDERS_MAX} reminders.`)
  .refine((minutes) => new Set(minutes).size === minutes.length, 'Each reminder time once.')
  .transform((minutes) => [...minutes].sort((a, b) => a - b));

/** A priority as a request sets it (§10.20): 1 (the most urgent) to 4 (none). */
export const TodoPriority = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: PRIORITY_MESSAGE });

/** A task's labels as a request sets them (§10.20): good names (todo-labels.ts), each once, kept as normalLabels keeps them. */
export const TodoLabels = z
  .array(
    z.string().superRefine((name, ctx) => {
      const problem = labelNameProblem(name);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  )
  .transform(normalLabels)
  .refine((names) => names.length <= LIMITS.labelsPerTask, LABELS_TOO_MANY_MESSAGE);

/** A task's note as a request sets it (§10.21): plain text, bidi controls removed and trimmed (noteValue), at most 10 000 characters; empty: none. */
export const TodoNote = z
  .string()
  .overwrite(noteValue)
  .superRefine((note, ctx) => {
    const problem = noteProblem(note);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** One subtask as a request sets it (§10.21): an id made by the device, a title by the task title's rules, a done mark. */
export const SubtaskItem = z.strictObject({
  id: z.string().superRefine((id, ctx) => {
    const problem = subtaskIdProblem(id);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  }),
  title: z
    .string()
    .overwrite(todoTitleValue)
    .superRefine((title, ctx) => {
      const problem = subtaskTitleProblem(title);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  done: z.boolean({ error: 'A subtask is done (true) or not (false).' }),
});

/** A task's whole checklist as a request sets it (§10.21): at most 100 subtasks, each id once, in the order given. */
export const TodoSubtasks = z.array(SubtaskItem).superRefine((subtasks, ctx) => {
  const problem = subtasksProblem(subtasks);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

export const Todo = z.object({
  _id: ObjectIdString,
  title: z.string(),
  completed: z.boolean(),
  isPinned: z.boolean(),
  createdAt: IsoDateString,
  updatedAt: IsoDateString,
  /**
   * When the task was completed: set to the time of the write that ticked it (an update or
   * complete-all turning `completed` from false to true), `null` while it is active (reopening clears it).
   * A write that leaves `completed` as it is leaves it too, and an Undo brings it back exactly. Tasks
   * completed before the field existed carry their `updatedAt`, the best time known for them.
   */
  completedAt: IsoDateString.nullable(),
  /** When the task is due (docs/PRODUCT.md §10.14); absent when it has no date (a client that knows nothing of dates sees the spec's task). */
  due: TodoDue.optional(),
  /** How the task repeats (§10.16): an RFC 5545 RRULE value over its due date; absent when it does not. */
  repeat: TodoRepeat.optional(),
  /** From when a repeat counts (§10.16): its schedule (`due`, also when absent) or the day it was done. */
  repeatFrom: RepeatFromField.optional(),
  /** When the task's occurrences were completed (ISO, newest last, at most 400): a repeating task stays open (§10.16). */
  repeatDone: z.array(IsoDateString).optional(),
  /** Reminders, in minutes before the due time, ascending (§10.17); absent for none. */
  reminders: TodoReminders.optional(),
  /** The list the task is in (§10.19); absent: the Inbox (a client that knows nothing of lists sees every task). */
  listId: ObjectIdString.optional(),
  /** The priority, 1 (most urgent) to 3 (§10.20); absent: none (priority 4). */
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  /** The labels the task carries (§10.20), as normalLabels keeps them; absent for none. */
  labels: z.array(z.string()).optional(),
  /** The task's note (§10.21), plain text of 1–10 000 characters; absent for none. */
  note: z.string().optional(),
  /** The task's subtasks (§10.21), one level, in order; absent for none. */
  subtasks: z.array(z.object({ id: z.string(), title: z.string(), done: z.boolean() })).optional(),
  /** The task's own place in its list (§10.24), a fractional order key; absent: placed by its creation (task-order.ts). */
  order: z.string().optional(),
});
export type Todo = z.infer<typeof Todo>;

/**
 * A task title: bidi controls removed and trimmed ({@link todoTitleValue}), then held to
 * {@link todoTitleProblem} (1–500 characters, not invisible only), whose plain-words message is the issue's
 * message.
 */
export const TodoTitle = z
  .string()
  .overwrite(todoTitleValue)
  .superRefine((title, ctx) => {
    const problem = todoTitleProblem(title);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The same rules for an edited title (PUT update-todo), with the edit's own words for an empty one. */
export const EditedTodoTitle = z
  .string()
  .overwrite(todoTitleValue)
  .superRefine((title, ctx) => {
    const problem = todoTitleProblem(title, TODO_TITLE_EDIT_EMPTY_MESSAGE);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Position in a user's change feed (docs/PRODUCT.md §10.11.5): the id of the last change event seen, as a
 * decimal string ("0" before any change). Sent back to resume the live stream without a gap. Ids are the
 * user's own sequence: each change of the user is numbered one above the user's previous one
 * (1, 2, 3 …), so a cursor moves with the user's own changes only and says nothing about other users'.
 * Clients compare them as whole numbers (a later change has a higher id); they are never reused.
 */
export const EventCursor = z.string().regex(/^\d{1,16}$/, 'The cursor must be a whole number');
export type EventCursor = z.infer<typeof EventCursor>;

/** Path parameter of update-todo, delete-todo and restore-todo. */
export const TodoIdParams = z.object({ todoId: ObjectIdString });
export type TodoIdParams = z.infer<typeof TodoIdParams>;

/**
 * GET /todo/fetch-todo: pinned first, then newest first. `cursor` (beyond PRODUCT §7's `{ todos }`, §10.11.5) is the
 * user's change feed position read together with the list, so the live stream can start exactly after it.
 */
export const TodosResponse = z.object({
  todos: z.array(Todo),
  /** The person's lists (§10.19), archived ones too, in their order; read with the tasks, under the same cursor. */
  lists: z.array(TaskList),
  cursor: EventCursor,
});
export type TodosResponse = z.infer<typeof TodosResponse>;

/** POST /todo/add-todo */
export const AddTodoRequest = z.object({
  title: TodoTitle,
  due: TodoDue.optional(),
  repeat: TodoRepeat.optional(),
  repeatFrom: RepeatFromField.optional(),
  reminders: TodoReminders.optional(),
  listId: ObjectIdString.optional(),
  priority: TodoPriority.optional(),
  labels: TodoLabels.optional(),
  note: TodoNote.optional(),
  subtasks: TodoSubtasks.optional(),
});
export type AddTodoRequest = z.infer<typeof AddTodoRequest>;

/**
 * PUT /todo/update-todo/:todoId. docs/PRODUCT.md §4 sends a fixed `true`; the server *sets* the given values, so
 * repeating a call changes nothing (idempotent, safe to retry). A title follows the same rules as at add
 * (trimmed, 1–500 characters, not invisible only). `due` sets a due date, `null` removes it (§10.14), and with
 * it the repeat and the reminders; `repeat`, `repeatFrom` and `reminders` likewise (§10.16, §10.17).
 */
export const TodoPatch = z
  .strictObject({
    title: EditedTodoTitle.optional(),
    completed: z.boolean().optional(),
    isPinned: z.boolean().optional(),
    due: TodoDue.nullable().optional(),
    repeat: TodoRepeat.nullable().optional(),
    repeatFrom: RepeatFromField.nullable().optional(),
    reminders: TodoReminders.nullable().optional(),
    listId: ObjectIdString.nullable().optional(),
    priority: TodoPriority.nullable().optional(),
    labels: TodoLabels.nullable().optional(),
    note: TodoNote.nullable().optional(),
    subtasks: TodoSubtasks.nullable().optional(),
    order: OrderKey.nullable().optional(),
  })
  .refine((patch) => TODO_PATCH_FIELDS.some((field) => patch[field] !== undefined), {
    message: 'updateData must set title, completed, isPinned, due, repeat, repeatFrom, reminders, listId, priority, labels, note, subtasks and/or order',
  });
export type TodoPatch = z.infer<typeof TodoPatch>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** The schema's patch and todo-changes.ts's dependency-free one are one shape: the compiler checks it. */
export type PatchShapesAgree = Holds<Same<TodoPatch, PatchOf>>;

export { applyPatch, changeMessage, fieldValue, isTick, patchedFields, TODO_PATCH_FIELDS, type Patchable, type PatchOf, type PatchValues, type TodoPatchField, UPDATE_MESSAGES, unchangedMessage } from './todo-changes.js';

/** A task field's value as the history keeps it: a JSON scalar. */
export const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type FieldValue = z.infer<typeof FieldValue>;

/**
 * What a change was made on (docs/PRODUCT.md §10.4): the values the changed fields had on the device when
 * the person changed them. A field whose stored value differs from its base was changed elsewhere meanwhile:
 * the later change (this one, by server order) still wins, and the history marks the value it replaced as a
 * conflict. Fields without a base are never marked.
 */
export const ChangeBase = z.partialRecord(z.enum(TODO_PATCH_FIELDS), FieldValue);
export type ChangeBase = z.infer<typeof ChangeBase>;

/** Shown for a `today` that is not a real day written `YYYY-MM-DD` (GET /todo/agenda, a repeating tick). */
export const CALENDAR_DAY_MESSAGE = 'Today must be a real day written YYYY-MM-DD (years 1970 to 2999).';

/**
 * A day of the person's own calendar, `2026-12-06`, with no time and no offset (docs/PRODUCT.md §10.14): a real
 * one by the due dates' rule ({@link dueParts}: no 30 February, years 1970–2999).
 */
export const CalendarDay = z.string().superRefine((value, ctx) => {
  if (value.length !== 10 || dueParts(value) === null) ctx.addIssue({ code: 'custom', message: CALENDAR_DAY_MESSAGE });
});

/**
 * `today`: the person's own day when they acted (their time zone, §10.14), for a tick of a task that repeats
 * (§10.16): its next date is counted from it. Without it the server reads the UTC day.
 */
export const UpdateTodoRequest = z.object({ updateData: TodoPatch, base: ChangeBase.optional(), today: CalendarDay.optional() });
export type UpdateTodoRequest = z.infer<typeof UpdateTodoRequest>;

/** POST /todo/add-todo (201) and POST /todo/restore-todo/:todoId (200); update-todo adds an undo token (UpdateTodoResponse). */
export const TodoResponse = MessageResponse.extend({ todo: Todo });
export type TodoResponse = z.infer<typeof TodoResponse>;

/** DELETE /todo/delete-todo/:todoId */
export const DeleteTodoResponse = MessageResponse;
export type DeleteTodoResponse = z.infer<typeof DeleteTodoResponse>;

/** DELETE /internal/todos (gateway → svc-todos, when an account is deleted): every task of the user is gone. */
export const PurgeTodosResponse = MessageResponse.extend({ deletedCount: z.number().int().nonnegative() });
export type PurgeTodosResponse = z.infer<typeof PurgeTodosResponse>;

/**
 * PUT /todo/complete-all: marks every task of the user complete (`true`) or active again (`false`); with
 * `listId`, only the tasks of that list (INBOX_ID: those in no list, docs/PRODUCT.md §10.19).
 */
export const CompleteAllRequest = z.strictObject({ completed: z.boolean(), listId: ListScope.optional() });
export type CompleteAllRequest = z.infer<typeof CompleteAllRequest>;

/**
 * The handle on one bulk action, or on one tick (UpdateTodoResponse), for its Undo (POST /todo/restore-bulk,
 * docs/PRODUCT.md §10.11.3, §10.11.4). Opaque:
 * the server makes it a random UUID (`crypto.randomUUID()`, 122 random bits), but a client only ever sends
 * back what it was given. It is single-use, belongs to the user whose action made it, and works for as long
 * as a deleted task can be restored (60 s by default).
 */
export const UndoToken = z.string().min(1).max(128);
export type UndoToken = z.infer<typeof UndoToken>;

/**
 * PUT /todo/update-todo/:todoId (200): the task as it now is, and a message saying what the call changed
 * ("Task completed", "Task pinned", "Title changed"…). `undoToken` is there when the call changed `completed`
 * and carried nothing else (a tick or an untick, docs/PRODUCT.md §10.11.4): sent to POST /todo/restore-bulk,
 * it puts back the task's previous `completed`, `completedAt` and `updatedAt`, while nobody changed it since.
 */
export const UpdateTodoResponse = TodoResponse.extend({
  undoToken: UndoToken.optional(),
  /**
   * With a `base`: the fields this change overwrote although they had changed elsewhere since the base (their
   * replaced values are in the task's history, marked as conflicts). Absent when there were none.
   */
  conflicts: z.array(z.enum(TODO_PATCH_FIELDS)).optional(),
});
export type UpdateTodoResponse = z.infer<typeof UpdateTodoResponse>;

/**
 * Answer of the bulk calls (PUT /todo/complete-all, DELETE /todo/clear-completed): each is one atomic change
 * for the user, all or nothing; `count` says how many tasks it changed (0 when there was nothing to do).
 * `undoToken` is there only when `count > 0`: sent to POST /todo/restore-bulk, it undoes the call.
 */
export const BulkTodosResponse = MessageResponse.extend({ count: z.number().int().nonnegative(), undoToken: UndoToken.optional() });
export type BulkTodosResponse = z.infer<typeof BulkTodosResponse>;

/**
 * DELETE /todo/lists/:listId (200): the list and every task in it are gone, in one change; `count` is how many
 * tasks went with it. `undoToken` (sent to POST /todo/restore-bulk within the restore window) brings the list
 * and those tasks back exactly as they were.
 */
export const DeleteListResponse = MessageResponse.extend({ count: z.number().int().nonnegative(), undoToken: UndoToken });
export type DeleteListResponse = z.infer<typeof DeleteListResponse>;

/** POST /todo/restore-bulk: undoes the bulk call that answered this token. */
export const RestoreBulkRequest = z.strictObject({ undoToken: UndoToken });
export type RestoreBulkRequest = z.infer<typeof RestoreBulkRequest>;

/**
 * Answer of POST /todo/restore-bulk: `count` tasks came back, one transaction, and `todos` are those tasks as
 * they now are, in list order. After Clear completed: every task it deleted, exactly as it was. After Mark
 * all complete / active: every task it changed that nobody changed since, with its previous `completed`,
 * `completedAt` and `updatedAt`.
 */
export const RestoreBulkResponse = MessageResponse.extend({
  count: z.number().int().nonnegative(),
  todos: z.array(Todo),
  /** After a list's delete (§10.19): the list it brought back, as it now is; absent for the other undos. */
  lists: z.array(TaskList).optional(),
});
export type RestoreBulkResponse = z.infer<typeof RestoreBulkResponse>;

/**
 * One committed change to a user's tasks, as the live stream sends it (`event: change`, `id:` = `id`, the
 * user's own sequence number, see {@link EventCursor}):
 * the tasks as they now are (`saved`: added, edited, ticked, pinned, restored) and the ids that are gone
 * (`removed`). One event per write, so a bulk action arrives as one event. `origin` is the `X-Client-Id` of
 * the page that made the change, so that page can skip its own echo.
 */
export const TodoChangeEvent = z.object({
  id: EventCursor,
  origin: z.string().nullable(),
  saved: z.array(Todo),
  removed: z.array(ObjectIdString),
  /** Lists the change made or changed (§10.19), as they now are; absent when it touched none. */
  savedLists: z.array(TaskList).optional(),
  /** Lists the change deleted (with their tasks, which are in `removed`); absent when none. */
  removedLists: z.array(ObjectIdString).optional(),
});
export type TodoChangeEvent = z.infer<typeof TodoChangeEvent>;

/** Data of the stream's `ready` and `reset` events: where the stream now stands. */
export const StreamPosition = z.object({ cursor: EventCursor });
export type StreamPosition = z.infer<typeof StreamPosition>;

/**
 * GET /todo/changes?after=N (docs/PRODUCT.md §10.4): the user's change events numbered above `after`, in
 * order, at most LIMITS.changesPage; `more` when others follow (ask again after `cursor`). `cursor` is the
 * number of the last event sent (or `after` when none). `reset`: the server no longer holds every change
 * after `after` (trimmed for age, or `after` is ahead of the feed); `changes` is then empty and the client
 * fetches the whole list (GET /todo/fetch-todo), whose cursor it goes on from.
 */
export const ChangesResponse = z.object({ changes: z.array(TodoChangeEvent), cursor: EventCursor, more: z.boolean(), reset: z.boolean() });
export type ChangesResponse = z.infer<typeof ChangesResponse>;
export const ChangesQuery = z.object({ after: EventCursor });

/**
 * One value a change replaced (docs/PRODUCT.md §10.4): on task `todoId`, the change numbered `version` in the
 * user's feed set `field` from `before` to `after` at `at`, sent by page `origin`. `conflict`: `before` had
 * been written after the value the change was made on (its base), on another device or tab.
 */
export const HistoryEntry = z.object({
  todoId: ObjectIdString,
  field: z.enum(TODO_PATCH_FIELDS),
  before: FieldValue,
  after: FieldValue,
  at: IsoDateString,
  version: EventCursor,
  origin: z.string().nullable(),
  conflict: z.boolean(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** Shown for a `days` that is not a whole number of days an agenda may cover (GET /todo/agenda). */
export const AGENDA_DAYS_MESSAGE = `Days must be a whole number from 1 to ${AGENDA_DAYS.max}.`;

/**
 * GET /todo/agenda?today=YYYY-MM-DD&days=N (Today and Upcoming, docs/PRODUCT.md §10.15): `today` is the
 * person's own day, which the client reads on the person's clock (the time zone is the client's business);
 * `days` how many days from today on the agenda covers, 1 to AGENDA_DAYS.max, AGENDA_DAYS.default when absent.
 */
export const AgendaQuery = z.object({
  today: CalendarDay,
  days: z
    .string()
    .regex(/^\d{1,2}$/, AGENDA_DAYS_MESSAGE)
    .transform(Number)
    .pipe(z.number().int().min(1, AGENDA_DAYS_MESSAGE).max(AGENDA_DAYS.max, AGENDA_DAYS_MESSAGE))
    .default(AGENDA_DAYS.default),
});
export type AgendaQuery = z.infer<typeof AgendaQuery>;

/** One day of the agenda that holds open tasks: its date and those tasks, timed ones first by time, then as the list orders them. */
export const AgendaDayTodos = z.object({ date: CalendarDay, todos: z.array(Todo) });
export type AgendaDayTodos = z.infer<typeof AgendaDayTodos>;

/**
 * Answer of GET /todo/agenda (docs/PRODUCT.md §10.15), the contracts' `agendaOf` over the user's open dated
 * tasks: `overdue`, the open tasks due before `today`, oldest first; `days`, each day from `today` on (within
 * the days asked) that holds any, in date order. A task with a time today stays in today once its time passed.
 */
export const AgendaResponse = z.object({ today: CalendarDay, overdue: z.array(Todo), days: z.array(AgendaDayTodos) });
export type AgendaResponse = z.infer<typeof AgendaResponse>;

/** GET /todo/history/:todoId: the task's changes of the last 30 days, newest first (none for an unknown id). */
export const HistoryResponse = z.object({ entries: z.array(HistoryEntry) });
export type HistoryResponse = z.infer<typeof HistoryResponse>;

/**
 * One queued change in a sync call (docs/PRODUCT.md §10.4): a task write exactly as it would be sent on its
 * own (method, path under /todo, JSON body), and its id, which is its `Idempotency-Key`. A path may name a
 * task by the temporary id of a task added by an earlier command (TEMP_ID_PREFIX + that command's id).
 */
export const SyncCommand = z.strictObject({
  id: z.string().regex(COMMAND_ID_PATTERN, 'A command id is 1 to 64 letters, digits, _ or -'),
  method: z.enum(['POST', 'PUT', 'DELETE']),
  path: z.string().min(1).max(200),
  body: z.unknown().optional(),
});
export type SyncCommand = z.infer<typeof SyncCommand>;

/** POST /todo/sync: the commands, applied in order, each once (a retried command answers as it first did). */
export const SyncRequest = z.strictObject({ commands: z.array(SyncCommand).min(1).max(LIMITS.sync.commands) });
export type SyncRequest = z.infer<typeof SyncRequest>;

/**
 * What one command answered: the status and body the write would have answered on its own (a refusal's
 * body is an error body: message, code, issues).
 */
export const SyncResult = z.object({ id: z.string(), status: z.number().int(), body: z.unknown() });
export type SyncResult = z.infer<typeof SyncResult>;

/** Answer of POST /todo/sync: one result per command, in the order sent. */
export const SyncResponse = z.object({ results: z.array(SyncResult) });
export type SyncResponse = z.infer<typeof SyncResponse>;
