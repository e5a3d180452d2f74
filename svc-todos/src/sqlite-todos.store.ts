import path from 'node:path';
import { ObjectId } from 'bson';
import { FieldValue, INBOX_ID, listNameKey, ObjectIdString, TaskList, Todo, TODO_PATCH_FIELDS, type HistoryEntry, type TodoChangeEvent } from '@tm/contracts';
import { closeSqlite, columnsOf, openSqlite, pingSqlite, type OpenSqliteOptions, type SqliteDatabase } from '@tm/service-kit/sqlite';
import { z } from 'zod';
import {
  completedAtOf,
  inListOrder,
  LIST_ORDER,
  migratedFeedPosition,
  type FieldChange,
  type IdempotencyRecord,
  type StoredList,
  type StoredTask,
  type SweepCutoffs,
  type UndoBatch,
  type Writes,
} from './todos.domain.js';
import { isoDate } from './iso-date.js';
import { storeSettings, StoredEventTodos, TodosStoreBase, type Decide, type ReadPlan, type Snapshot, type TaskRead } from './todos.store-base.js';
import type { ChangeNotice, FeedPosition, ListRecord, SearchResult, StoreOptions, SweepResult, TodoList, TodoRecord, TodosRepository } from './todos.repository.js';
import { ftsMatch, type SearchMatch, type SearchPlan } from './search.domain.js';

export const SQLITE_FILE = 'todos.sqlite';

/** The change feed's table (also built under another name by migrateGlobalFeed). */
const eventsTable = (name: string): string =>
  `${name} (user_id TEXT NOT NULL, seq INTEGER NOT NULL, origin TEXT, saved TEXT NOT NULL, removed TEXT NOT NULL, created_at INTEGER NOT NULL,
    saved_lists TEXT, removed_lists TEXT) STRICT`;

/**
 * The undo batches' table (also built under another name by migrateUndoKinds: a CHECK cannot be altered in
 * place). kind 'delete-list' (docs/PRODUCT.md §10.19): the call deleted list list_id and its tasks softly at
 * created_at; list_id is NULL for the other kinds.
 */
const undoBatchesTable = (name: string): string => `${name} (
    token TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('clear-completed', 'complete-all', 'delete-list')),
    completed INTEGER CHECK (completed IN (0, 1)),
    created_at INTEGER NOT NULL,
    list_id TEXT
  ) STRICT`;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS todos (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    title TEXT NOT NULL,
    completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
    is_pinned INTEGER NOT NULL CHECK (is_pinned IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- Set while the task is deleted but still restorable (soft delete); NULL for a live task.
    deleted_at INTEGER,
    -- When the task was completed (the write that ticked it); NULL while it is active. Added after the other
    -- columns (see migrate), so a new file and a migrated one have the same columns in the same order.
    completed_at INTEGER,
    -- When the task is due (docs/PRODUCT.md §10.14): '2026-03-14' or '2026-03-14T09:00' in the person's time
    -- zone (the contracts' TodoDue checked it); NULL for none. Added after completed_at, as above.
    due TEXT,
    -- The task's other optional fields, one JSON object with those it has, in this order: repeat, repeatFrom,
    -- repeatDone (§10.16), reminders (§10.17), priority, labels (§10.20), note and subtasks (§10.21, the
    -- subtasks an array of {id, title, done}), order (§10.24, a moved task's order key); NULL for none. One column for all of them: they are read and
    -- written with the task, and an optional field added to them needs no migration (a row without one reads
    -- as a task without it). A search index may read $.note and $.subtasks[*].title with json_extract.
    extras TEXT,
    -- The list the task is in (docs/PRODUCT.md §10.19), a todo_lists id; NULL: the Inbox. Added after extras, as above.
    list_id TEXT
  ) STRICT;
  -- The lists of tasks (docs/PRODUCT.md §10.19). name_key is the name as two names of one user must not share
  -- (listNameKey); sort_key the list's order key (compared as BINARY text, as the contracts' byListPlace
  -- compares them). deleted_at: deleted with its tasks but still restorable; NULL for a live list.
  CREATE TABLE IF NOT EXISTS todo_lists (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    colour TEXT NOT NULL,
    sort_key TEXT NOT NULL,
    archived INTEGER NOT NULL CHECK (archived IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER
  ) STRICT;
  -- The change feed (outbox): one row per committed write, numbered per user (seq: 1, 2, 3 … of that user,
  -- in commit order; a file with one global sequence keeps its old numbers, see migrateGlobalFeed). No
  -- global id: nothing a user is sent may count other users' writes.
  CREATE TABLE IF NOT EXISTS ${eventsTable('todo_events')};
  -- Each user's feed position: the last seq handed out (the user's cursor; it never goes back, trimmed
  -- events included, so a stream's position stays meaningful) and the highest seq trimmed for age (the
  -- user's reset watermark). Written in the same transaction as the event.
  CREATE TABLE IF NOT EXISTS todo_feed_positions (
    user_id TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    trimmed_through INTEGER NOT NULL
  ) STRICT;
  -- Undo of a bulk call (docs/PRODUCT.md §10.11.3): one row per call that changed something, keyed by its
  -- single-use token. kind 'clear-completed': the call deleted its tasks softly at created_at (their rows
  -- hold everything else). kind 'complete-all': the call (complete-all, or an update's tick of one task) set
  -- completed to \`completed\` at created_at. kind 'delete-list': see undoBatchesTable.
  -- Removed when spent, by the sweep after the restore window, and with the account.
  CREATE TABLE IF NOT EXISTS ${undoBatchesTable('todo_undo_batches')};
  -- The tasks of one batch; for 'complete-all' with the values the call replaced (NULL for 'clear-completed').
  CREATE TABLE IF NOT EXISTS todo_undo_items (
    token TEXT NOT NULL,
    todo_id TEXT NOT NULL,
    prev_completed INTEGER,
    prev_completed_at INTEGER,
    prev_updated_at INTEGER,
    -- For the tick of a repeating task (§10.16): JSON of the due date and completions it moved from; else NULL.
    prev_moved TEXT,
    PRIMARY KEY (token, todo_id)
  ) STRICT, WITHOUT ROWID;
  -- Idempotency-Key records (docs/PRODUCT.md §7): one per user and key, written in the transaction of the
  -- write it answers: the request's fingerprint and the answer sent (status, JSON body). Removed by the sweep
  -- after 24 h and with the account.
  CREATE TABLE IF NOT EXISTS todo_idempotency_keys (
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, key)
  ) STRICT, WITHOUT ROWID;
  -- The change history (docs/PRODUCT.md §10.4): one row per field a write changed, in the write's
  -- transaction and only with its event, numbered as the event is (seq) and carrying its origin: the value it
  -- replaced and the one it set (JSON text of a scalar), when (at), and whether the replaced value had
  -- changed since the change's base (conflict). Kept for deleted tasks too; removed by the sweep after 30 days
  -- and with the account. field has no CHECK: a field added to TODO_PATCH_FIELDS needs no change of a file.
  CREATE TABLE IF NOT EXISTS todo_history (
    user_id TEXT NOT NULL,
    todo_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    field TEXT NOT NULL,
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    at INTEGER NOT NULL,
    origin TEXT,
    conflict INTEGER NOT NULL CHECK (conflict IN (0, 1))
  ) STRICT;
`;

// Created after the migration below, which may first have to add deleted_at to an older file and rebuild
// an older change feed.
const INDEXES = `
  -- id as the last column lets the listing's tiebreak come from the index too (no separate sort step).
  CREATE INDEX IF NOT EXISTS todos_user_pinned_created ON todos (user_id, is_pinned, created_at, id);
  -- Only deleted rows, so the sweep finds the expired ones without a scan; live tasks cost nothing here.
  CREATE INDEX IF NOT EXISTS todos_deleted_at ON todos (deleted_at) WHERE deleted_at IS NOT NULL;
  -- A user's events in number order (the stream's read), and no number twice for one user.
  CREATE UNIQUE INDEX IF NOT EXISTS todo_events_user_id ON todo_events (user_id, seq);
  CREATE INDEX IF NOT EXISTS todo_events_created ON todo_events (created_at);
  -- The sweep's expired batches, and the account purge's.
  CREATE INDEX IF NOT EXISTS todo_undo_batches_created ON todo_undo_batches (created_at);
  CREATE INDEX IF NOT EXISTS todo_undo_batches_user ON todo_undo_batches (user_id);
  -- The sweep's expired key records (the account purge's go by the primary key's user_id).
  CREATE INDEX IF NOT EXISTS todo_idempotency_keys_created ON todo_idempotency_keys (created_at);
  -- One user's task, newest first (the history's read; also the account purge's, by user_id), and no field
  -- twice for one write of one task.
  CREATE UNIQUE INDEX IF NOT EXISTS todo_history_task ON todo_history (user_id, todo_id, seq, field);
  -- The sweep's expired history entries.
  CREATE INDEX IF NOT EXISTS todo_history_at ON todo_history (at);
  -- Today and Upcoming (docs/PRODUCT.md §10.15): a user's open, live, dated tasks by due date (openDueBefore).
  -- Only those rows, so an agenda costs what it answers, not the user's whole list, and a tick or a task
  -- without a date costs this index nothing. Created here, after migrate: a file from before due dates gains
  -- the column first, then this index, in place.
  CREATE INDEX IF NOT EXISTS todos_user_open_due ON todos (user_id, due) WHERE completed = 0 AND due IS NOT NULL AND deleted_at IS NULL;
  -- The tasks of one list (docs/PRODUCT.md §10.19): a list's delete and the bulk calls scoped to it read them
  -- through it. Created after migrate, which adds list_id to an older file first.
  CREATE INDEX IF NOT EXISTS todos_user_list ON todos (user_id, list_id);
  -- A user's lists in their order (the listing's and every list write's read; the account purge's).
  CREATE INDEX IF NOT EXISTS todo_lists_user_order ON todo_lists (user_id, sort_key, id);
  -- No two live lists of one user with one name, case aside: the rules check it first, this holds it.
  CREATE UNIQUE INDEX IF NOT EXISTS todo_lists_user_name ON todo_lists (user_id, name_key) WHERE deleted_at IS NULL;
  -- Only deleted lists, for the sweep.
  CREATE INDEX IF NOT EXISTS todo_lists_deleted_at ON todo_lists (deleted_at) WHERE deleted_at IS NOT NULL;
`;

const COLUMNS = 'id, title, completed, is_pinned, created_at, updated_at, completed_at, due, extras, list_id';
const TASK_COLUMNS = `${COLUMNS}, deleted_at`;
const SORT_COLUMNS = { isPinned: 'is_pinned', createdAt: 'created_at', _id: 'id' } as const;
/** The list, in the rules' order (LIST_ORDER), served by todos_user_pinned_created. */
const LIST = `SELECT ${COLUMNS} FROM todos WHERE user_id = ? AND deleted_at IS NULL
  ORDER BY ${LIST_ORDER.map(({ field, direction }) => `${SORT_COLUMNS[field]} ${direction.toUpperCase()}`).join(', ')}`;

/**
 * A user's open dated tasks due before a day (openDueBefore), in the rules' order. Its WHERE repeats the
 * partial index's terms, so SQLite reads them through todos_user_open_due (the range on due), then sorts
 * those few rows.
 */
const OPEN_DUE_BEFORE = `SELECT ${COLUMNS} FROM todos
  WHERE user_id = ? AND completed = 0 AND due IS NOT NULL AND deleted_at IS NULL AND due < ?
  ORDER BY ${LIST_ORDER.map(({ field, direction }) => `${SORT_COLUMNS[field]} ${direction.toUpperCase()}`).join(', ')}`;

/** What the search index holds of a row of `todos` (docs/PRODUCT.md §10.22): its owner, title, note and its subtasks' titles. */
const searchRow = (row: 'new' | 't'): string =>
  `${row}.rowid, ${row}.user_id, ${row}.title, json_extract(${row}.extras, '$.note'),
    (SELECT group_concat(json_extract(value, '$.title'), ' ') FROM json_each(${row}.extras, '$.subtasks'))`;

/**
 * Search (docs/PRODUCT.md §10.22): an FTS5 index of the live tasks' title, note and subtasks' titles, by the
 * rowid of their row in `todos`. Contentless (`content=''`): the text is already in `todos`, so the index keeps
 * only its terms, not a second copy; nothing reads text back from it (the contracts' searchHits highlights
 * from the tasks themselves), and `contentless_delete=1` lets a row go by its rowid alone. `owner` holds the
 * user's id, so a search intersects with that user's rows inside the index (a term of another user's tasks
 * never costs a read); it is never searched by words. Prefix indexes of 1 to 3 characters keep the
 * as-you-type prefix of a letter or two as fast as a whole word. `unicode61 remove_diacritics 2` folds case
 * and accents as the contracts' searchFold does.
 *
 * Triggers keep it in step with every write of `todos`: a new live row goes in; a row whose title, note,
 * subtasks (extras), owner or deletion changed goes out and, while live, back in (a tick, a pin or a move
 * leaves it); a deleted (soft) row leaves it, a restored one comes back, a removed one goes.
 */
const SEARCH_INDEX = `
  CREATE VIRTUAL TABLE todos_search USING fts5(owner, title, note, subtasks,
    content='', contentless_delete=1, prefix='1 2 3', tokenize='unicode61 remove_diacritics 2');
  CREATE TRIGGER todos_search_insert AFTER INSERT ON todos WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO todos_search (rowid, owner, title, note, subtasks) VALUES (${searchRow('new')});
  END;
  CREATE TRIGGER todos_search_update AFTER UPDATE ON todos
    WHEN old.title IS NOT new.title OR old.extras IS NOT new.extras OR old.user_id IS NOT new.user_id
      OR (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    DELETE FROM todos_search WHERE rowid = old.rowid;
    INSERT INTO todos_search (rowid, owner, title, note, subtasks) SELECT ${searchRow('new')} WHERE new.deleted_at IS NULL;
  END;
  CREATE TRIGGER todos_search_delete AFTER DELETE ON todos BEGIN
    DELETE FROM todos_search WHERE rowid = old.rowid;
  END;
`;

/**
 * A user's search matches (docs/PRODUCT.md §10.22), from the index's rows of that user (its `owner`) joined to
 * their live tasks, in rank order: bm25 over title, note and subtasks (a word in the title counts most,
 * `owner` not at all), then the list's order (pinned, newest).
 */
const SEARCH_FROM = `FROM (SELECT rowid, bm25(todos_search, 0, 10, 4, 2) AS score FROM todos_search WHERE todos_search MATCH ?) AS s
  JOIN todos AS t ON t.rowid = s.rowid
  WHERE t.user_id = ? AND t.deleted_at IS NULL`;
const SEARCH_ORDER = `ORDER BY s.score, ${LIST_ORDER.map(({ field, direction }) => `t.${SORT_COLUMNS[field]} ${direction.toUpperCase()}`).join(', ')}`;
/**
 * Every match with the fields the filters read (a note is not read until its task is picked): a filtered
 * search's rows (SearchPlan.filtered).
 */
const SEARCH = `SELECT t.id, t.completed, t.due, t.list_id, json_extract(t.extras, '$.priority'), json_extract(t.extras, '$.labels') ${SEARCH_FROM} ${SEARCH_ORDER}`;
/** The same without the priority and labels, when the filters do not read them (SearchPlan.readsMarks): no JSON read per match. */
const SEARCH_PLAIN = `SELECT t.id, t.completed, t.due, t.list_id, NULL, NULL ${SEARCH_FROM} ${SEARCH_ORDER}`;
/** Without a filter: the first matches only (SQLite keeps the best few as it goes instead of sorting all of them), and their count. */
const SEARCH_FIRST = `SELECT t.id ${SEARCH_FROM} ${SEARCH_ORDER} LIMIT ?`;
const SEARCH_COUNT = `SELECT count(*) AS value ${SEARCH_FROM}`;

/**
 * The rows of `todos` as the statements below return them (`.raw()`: arrays, no object per row). No zod here
 * (the list is the hot path): the table is STRICT (SQLite refuses a value of the wrong type on write), every
 * column is NOT NULL but `completed_at` and `deleted_at`, and the flags carry CHECK (… IN (0, 1)), so the
 * database itself guarantees this shape, and the only rows come from this file's statements, whose inputs the
 * routes validated with the contracts. The undo tables' CHECKs hold `kind` and `completed` the same way. The
 * change feed's JSON columns are still parsed with the contracts: they are text, not typed columns.
 */
type TodoTuple = [
  id: string,
  title: string,
  completed: 0 | 1,
  isPinned: 0 | 1,
  createdAt: number,
  updatedAt: number,
  completedAt: number | null,
  due: string | null,
  extras: string | null,
  listId: string | null,
];
type TaskTuple = [...TodoTuple, deletedAt: number | null];
/** A search match's row (SEARCH): priority as stored (1–3 or NULL), labels as JSON text (or NULL). */
type SearchTuple = [id: string, completed: 0 | 1, due: string | null, listId: string | null, priority: 1 | 2 | 3 | null, labels: string | null];
type UndoTuple = [kind: UndoBatch['kind'], completed: 0 | 1 | null, createdAt: number, listId: string | null];
/** A row of todo_lists (STRICT, CHECKed, written only by this file, as the tasks' rows are). */
type ListTuple = [id: string, name: string, colour: ListRecord['colour'], sortKey: string, archived: 0 | 1, createdAt: number, updatedAt: number, deletedAt: number | null];
const LIST_COLUMNS = 'id, name, colour, sort_key, archived, created_at, updated_at, deleted_at';
type UndoItemTuple = [todoId: string, completed: 0 | 1 | null, completedAt: number | null, updatedAt: number | null, moved: string | null];

/**
 * The `extras` column (see SCHEMA): the task's optional fields beyond `due`, as the contracts' Todo has them,
 * in EXTRA_FIELDS order (the order zod gives them back in, so toRecord and listJson write the same text).
 */
const Extras = Todo.pick({ repeat: true, repeatFrom: true, repeatDone: true, reminders: true, priority: true, labels: true, note: true, subtasks: true, order: true }).strict();
const EXTRA_FIELDS = ['repeat', 'repeatFrom', 'repeatDone', 'reminders', 'priority', 'labels', 'note', 'subtasks', 'order'] as const;
/** What the `extras` column keeps of `todo`: its extra fields in SCHEMA's order, or NULL for none. */
function extrasOf(todo: TodoRecord): string | null {
  const present = EXTRA_FIELDS.filter((field) => todo[field] !== undefined);
  return present.length === 0 ? null : JSON.stringify(Object.fromEntries(present.map((field) => [field, todo[field]])));
}
/** A repeating tick's `prev_moved` (UndoBatch, §10.16). */
const MovedJson = Todo.pick({ due: true, repeatDone: true }).strict();
/** A task's labels as the `extras` column keeps them (a search match's, read alone). */
const LabelsJson = z.array(z.string());

const EventRow = z.object({
  seq: z.number().int().positive(),
  origin: z.string().nullable(),
  saved: z.string(),
  removed: z.string(),
  savedLists: z.string().nullable(),
  removedLists: z.string().nullable(),
});
const SavedListsJson = z.array(TaskList);
const RemovedJson = z.array(ObjectIdString);
const NumberRow = z.object({ value: z.number().int().nullable() });
const PositionRow = z.object({ lastSeq: z.number().int().nonnegative(), trimmedThrough: z.number().int().nonnegative() });
const ExpiredRow = z.object({ userId: z.string(), last: z.number().int().positive() });
const IdempotencyRow = z.object({ key: z.string(), fingerprint: z.string(), status: z.number().int(), body: z.string(), createdAt: z.number().int() });
/** A history row; `before` and `after` are JSON text, parsed back to a scalar (FieldValue). */
const HistoryRow = z.object({
  todoId: ObjectIdString,
  field: z.enum(TODO_PATCH_FIELDS),
  before: z.string(),
  after: z.string(),
  at: z.number().int(),
  seq: z.number().int().positive(),
  origin: z.string().nullable(),
  conflict: z.union([z.literal(0), z.literal(1)]),
});
/** Within one write, the fields in TODO_PATCH_FIELDS order (not their text order). */
const FIELD_ORDER = `CASE field ${TODO_PATCH_FIELDS.map((field, index) => `WHEN '${field}' THEN ${index}`).join(' ')} END`;

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoDate(ms));
const msOrNull = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));
const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);
/** The stored completion time as the rules read it (completedAtOf), given the row's `updatedAt` as text. */
const completedAtIn = (row: TodoTuple | TaskTuple, updatedAt: string): string | null => completedAtOf(row[2] === 1, updatedAt, isoOrNull(row[6]));

function toRecord(row: TodoTuple | TaskTuple): TodoRecord {
  const [_id, title, completed, isPinned, createdAt] = row;
  const updatedAt = isoDate(row[5]);
  const due = row[7];
  const extras = row[8] === null ? {} : Extras.parse(JSON.parse(row[8]));
  const listId = row[9];
  return {
    _id,
    title,
    completed: completed === 1,
    isPinned: isPinned === 1,
    createdAt: isoDate(createdAt),
    updatedAt,
    completedAt: completedAtIn(row, updatedAt),
    ...(due === null ? {} : { due }),
    ...extras,
    ...(listId === null ? {} : { listId }),
  };
}

const toTask = (row: TaskTuple): StoredTask => ({ todo: toRecord(row), deletedAt: isoOrNull(row[10]) });

/** A search's row as the filters read it. */
function toSearchMatch([_id, completed, due, listId, priority, labels]: SearchTuple): SearchMatch {
  return {
    _id,
    completed: completed === 1,
    ...(due === null ? {} : { due }),
    ...(listId === null ? {} : { listId }),
    ...(priority === null ? {} : { priority }),
    ...(labels === null ? {} : { labels: LabelsJson.parse(JSON.parse(labels)) }),
  };
}

function toStoredList([_id, name, colour, order, archived, createdAt, updatedAt, deletedAt]: ListTuple): StoredList {
  return { list: { _id, name, colour, order, archived: archived === 1, createdAt: isoDate(createdAt), updatedAt: isoDate(updatedAt) }, deletedAt: isoOrNull(deletedAt) };
}

/**
 * The list's rows (LIST, in LIST_ORDER) in the list's order (docs/PRODUCT.md §10.24): only when a task has its
 * own order key (its `extras` hold one) are they sorted, by the rule of the domain (inListOrder).
 */
function listRows(rows: TodoTuple[]): TodoTuple[] {
  return inListOrder(rows, hasOrderKey, (row) => ({ _id: row[0], isPinned: row[3] === 1, createdAt: isoDate(row[4]), order: orderKeyOf(row) }));
}
/** Whether a row's extras hold an order key: in JSON this file wrote, `"order":` can only be that key (a quote in a text is escaped). */
const hasOrderKey = (row: TodoTuple): boolean => row[8]?.includes('"order":') === true;
const orderKeyOf = (row: TodoTuple): string | undefined => (hasOrderKey(row) ? Extras.parse(JSON.parse(row[8] as string)).order : undefined);

/**
 * The list as the `TodosResponse` body, built in one pass from raw rows: the same text `JSON.stringify`
 * gives for `{ todos: rows.map(toRecord), cursor }` (the tests compare the two), without an object per
 * task or a second walk over them. Ids are 24 hex digits and timestamps ISO strings, neither needs escaping;
 * titles go through `JSON.stringify`; the `extras` column is JSON this file wrote (extrasOf), its members spliced in.
 */
function listJson(rows: TodoTuple[], lists: ListRecord[], cursor: string): string {
  let json = '{"todos":[';
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as TodoTuple;
    const [id, title, completed, isPinned, createdAt] = row;
    const updatedAt = isoDate(row[5]);
    const completedAt = completedAtIn(row, updatedAt);
    json += `${i === 0 ? '' : ','}{"_id":"${id}","title":${JSON.stringify(title)},"completed":${completed === 1},"isPinned":${isPinned === 1},` +
      `"createdAt":"${isoDate(createdAt)}","updatedAt":"${updatedAt}","completedAt":${completedAt === null ? 'null' : `"${completedAt}"`}` +
      `${row[7] === null ? '' : `,"due":${JSON.stringify(row[7])}`}${row[8] === null ? '' : `,${row[8].slice(1, -1)}`}${row[9] === null ? '' : `,"listId":"${row[9]}"`}}`;
  }
  return `${json}],"lists":${JSON.stringify(lists)},"cursor":${JSON.stringify(cursor)}}`;
}

function toEvent(row: unknown): TodoChangeEvent {
  const r = EventRow.parse(row);
  return {
    id: String(r.seq),
    origin: r.origin,
    saved: StoredEventTodos.parse(JSON.parse(r.saved)),
    removed: RemovedJson.parse(JSON.parse(r.removed)),
    ...(r.savedLists === null ? {} : { savedLists: SavedListsJson.parse(JSON.parse(r.savedLists)) }),
    ...(r.removedLists === null ? {} : { removedLists: RemovedJson.parse(JSON.parse(r.removedLists)) }),
  };
}

function toHistoryEntry(row: unknown): HistoryEntry {
  const r = HistoryRow.parse(row);
  return {
    todoId: r.todoId,
    field: r.field,
    before: FieldValue.parse(JSON.parse(r.before)),
    after: FieldValue.parse(JSON.parse(r.after)),
    at: isoDate(r.at),
    version: String(r.seq),
    origin: r.origin,
    conflict: r.conflict === 1,
  };
}

function numberOf(row: unknown): number {
  return NumberRow.parse(row ?? { value: null }).value ?? 0;
}

/** A history row of one value a write replaced, numbered with the write's event (`seq`) and carrying its origin. */
function historyRow(userId: string, seq: number, origin: string | null, { taskId, field, before, after, at, conflict }: FieldChange) {
  return { userId, todoId: taskId, seq, field, before: JSON.stringify(before), after: JSON.stringify(after), at: Date.parse(at), origin, conflict: bit(conflict) };
}

function prepareStatements(db: SqliteDatabase) {
  return {
    list: db.prepare<[string], TodoTuple>(LIST).raw(),
    openDueBefore: db.prepare<[string, string], TodoTuple>(OPEN_DUE_BEFORE).raw(),
    search: db.prepare<[string, string], SearchTuple>(SEARCH).raw(),
    searchPlain: db.prepare<[string, string], SearchTuple>(SEARCH_PLAIN).raw(),
    searchFirst: db.prepare<[string, string, number], [id: string]>(SEARCH_FIRST).raw(),
    searchCount: db.prepare<[string, string]>(SEARCH_COUNT),
    // The picked matches of a search, read in full (their order is the pick's, put back in JS).
    tasksById: db.prepare<[string, string], TodoTuple>(`SELECT ${COLUMNS} FROM todos WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`).raw(),
    // The user's own position: the last number handed out to the user, trimmed events included.
    cursor: db.prepare('SELECT last_seq AS value FROM todo_feed_positions WHERE user_id = ?'),
    position: db.prepare('SELECT last_seq AS lastSeq, trimmed_through AS trimmedThrough FROM todo_feed_positions WHERE user_id = ?'),
    task: db.prepare<[string, string], TaskTuple>(`SELECT ${TASK_COLUMNS} FROM todos WHERE id = ? AND user_id = ?`).raw(),
    liveTasks: db.prepare<[string], TaskTuple>(`SELECT ${TASK_COLUMNS} FROM todos WHERE user_id = ? AND deleted_at IS NULL`).raw(),
    // One list's live tasks, through todos_user_list; the Inbox's (no list) through the same index's NULLs.
    liveTasksOfList: db.prepare<[string, string], TaskTuple>(`SELECT ${TASK_COLUMNS} FROM todos WHERE user_id = ? AND list_id = ? AND deleted_at IS NULL`).raw(),
    liveInboxTasks: db.prepare<[string], TaskTuple>(`SELECT ${TASK_COLUMNS} FROM todos WHERE user_id = ? AND list_id IS NULL AND deleted_at IS NULL`).raw(),
    // Every list of the user, deleted ones not yet swept too, in their order (todo_lists_user_order).
    lists: db.prepare<[string], ListTuple>(`SELECT ${LIST_COLUMNS} FROM todo_lists WHERE user_id = ? ORDER BY sort_key, id`).raw(),
    liveLists: db.prepare<[string], ListTuple>(`SELECT ${LIST_COLUMNS} FROM todo_lists WHERE user_id = ? AND deleted_at IS NULL ORDER BY sort_key, id`).raw(),
    // A list exactly as handed; only ever the user's own (the id was read as theirs).
    putList: db.prepare(
      `INSERT INTO todo_lists (id, user_id, name, name_key, colour, sort_key, archived, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, colour = excluded.colour, sort_key = excluded.sort_key,
         archived = excluded.archived, updated_at = excluded.updated_at, deleted_at = excluded.deleted_at
       WHERE todo_lists.user_id = excluded.user_id`,
    ),
    removeAllLists: db.prepare('DELETE FROM todo_lists WHERE user_id = ?'),
    purgeExpiredLists: db.prepare('DELETE FROM todo_lists WHERE deleted_at IS NOT NULL AND deleted_at <= ?'),
    undoBatch: db.prepare<[string, string], UndoTuple>('SELECT kind, completed, created_at, list_id FROM todo_undo_batches WHERE token = ? AND user_id = ?').raw(),
    undoItems: db.prepare<[string], UndoItemTuple>('SELECT todo_id, prev_completed, prev_completed_at, prev_updated_at, prev_moved FROM todo_undo_items WHERE token = ?').raw(),
    undoTasks: db.prepare<[string, string], TaskTuple>(`SELECT ${TASK_COLUMNS} FROM todos WHERE user_id = ? AND id IN (SELECT todo_id FROM todo_undo_items WHERE token = ?)`).raw(),
    // A task exactly as handed (created_at stays as inserted); only ever the user's own (the id was read as theirs).
    putTask: db.prepare(
      `INSERT INTO todos (id, user_id, title, completed, is_pinned, created_at, updated_at, completed_at, due, extras, list_id, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, completed = excluded.completed, is_pinned = excluded.is_pinned,
         updated_at = excluded.updated_at, completed_at = excluded.completed_at, due = excluded.due, extras = excluded.extras, list_id = excluded.list_id,
         deleted_at = excluded.deleted_at
       WHERE todos.user_id = excluded.user_id`,
    ),
    insertUndoBatch: db.prepare('INSERT INTO todo_undo_batches (token, user_id, kind, completed, created_at, list_id) VALUES (?, ?, ?, ?, ?, ?)'),
    insertUndoItem: db.prepare('INSERT INTO todo_undo_items (token, todo_id, prev_completed, prev_completed_at, prev_updated_at, prev_moved) VALUES (?, ?, ?, ?, ?, ?)'),
    removeUndoItems: db.prepare('DELETE FROM todo_undo_items WHERE token = ?'),
    removeUndoBatch: db.prepare('DELETE FROM todo_undo_batches WHERE token = ?'),
    removeAllUndoItems: db.prepare('DELETE FROM todo_undo_items WHERE token IN (SELECT token FROM todo_undo_batches WHERE user_id = ?)'),
    removeAllUndoBatches: db.prepare('DELETE FROM todo_undo_batches WHERE user_id = ?'),
    purgeExpiredUndoItems: db.prepare('DELETE FROM todo_undo_items WHERE token IN (SELECT token FROM todo_undo_batches WHERE created_at <= ?)'),
    purgeExpiredUndoBatches: db.prepare('DELETE FROM todo_undo_batches WHERE created_at <= ?'),
    idempotencyRecord: db.prepare('SELECT key, fingerprint, status, body, created_at AS createdAt FROM todo_idempotency_keys WHERE user_id = ? AND key = ?'),
    // Replaces an expired record of the same key (the rules only let a write through past the retention).
    putIdempotencyRecord: db.prepare(
      `INSERT INTO todo_idempotency_keys (user_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body, created_at = excluded.created_at`,
    ),
    removeAllIdempotencyRecords: db.prepare('DELETE FROM todo_idempotency_keys WHERE user_id = ?'),
    purgeExpiredIdempotencyRecords: db.prepare('DELETE FROM todo_idempotency_keys WHERE created_at <= ?'),
    countLive: db.prepare('SELECT count(*) AS value FROM todos WHERE user_id = ? AND deleted_at IS NULL'),
    removeAll: db.prepare('DELETE FROM todos WHERE user_id = ?'),
    removeAllEvents: db.prepare('DELETE FROM todo_events WHERE user_id = ?'),
    removePosition: db.prepare('DELETE FROM todo_feed_positions WHERE user_id = ?'),
    // The user's next number: 1 for a user's first event, else one above the user's last (the row is the
    // per-user counter, so concurrent writers of one user are serialised by the write transaction).
    nextSeq: db.prepare(
      `INSERT INTO todo_feed_positions (user_id, last_seq, trimmed_through) VALUES (?, 1, 0)
       ON CONFLICT (user_id) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq AS value`,
    ),
    appendEvent: db.prepare(
      `INSERT INTO todo_events (user_id, seq, origin, saved, removed, created_at, saved_lists, removed_lists)
       VALUES (@userId, @seq, @origin, @saved, @removed, @now, @savedLists, @removedLists)`,
    ),
    eventsAfter: db.prepare(
      'SELECT seq, origin, saved, removed, saved_lists AS savedLists, removed_lists AS removedLists FROM todo_events WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
    appendHistory: db.prepare(
      `INSERT INTO todo_history (user_id, todo_id, seq, field, before, after, at, origin, conflict)
       VALUES (@userId, @todoId, @seq, @field, @before, @after, @at, @origin, @conflict)`,
    ),
    // Newest first through todo_history_task (seq DESC); the fields of one write in TODO_PATCH_FIELDS order.
    history: db.prepare(
      `SELECT todo_id AS todoId, field, before, after, at, seq, origin, conflict FROM todo_history
       WHERE user_id = ? AND todo_id = ? ORDER BY seq DESC, ${FIELD_ORDER} LIMIT ?`,
    ),
    removeAllHistory: db.prepare('DELETE FROM todo_history WHERE user_id = ?'),
    purgeExpiredHistory: db.prepare('DELETE FROM todo_history WHERE at <= ?'),
    purgeExpired: db.prepare('DELETE FROM todos WHERE deleted_at IS NOT NULL AND deleted_at <= ?'),
    // Per user, the newest number among the events past the retention (through the created_at index).
    lastExpiredEvents: db.prepare('SELECT user_id AS userId, max(seq) AS last FROM todo_events WHERE created_at <= ? GROUP BY user_id'),
    trimEvents: db.prepare('DELETE FROM todo_events WHERE user_id = ? AND seq <= ?'),
    raiseWatermark: db.prepare('UPDATE todo_feed_positions SET trimmed_through = max(trimmed_through, @seq) WHERE user_id = @userId'),
  };
}

/**
 * The change feed of a file with one global event sequence (`todo_events` numbered by one AUTOINCREMENT id,
 * one watermark in `todo_feed`) moves to per-user numbers as the rules say (migratedFeedPosition).
 */
function migrateGlobalFeed(db: SqliteDatabase): void {
  db.exec(`
    CREATE TABLE ${eventsTable('todo_events_by_user')};
    INSERT INTO todo_events_by_user (user_id, seq, origin, saved, removed, created_at)
      SELECT user_id, id, origin, saved, removed, created_at FROM todo_events ORDER BY id;
  `);
  const insert = db.prepare('INSERT INTO todo_feed_positions (user_id, last_seq, trimmed_through) VALUES (?, ?, ?)');
  const ranges = db.prepare('SELECT user_id AS userId, min(id) AS first, max(id) AS last FROM todo_events GROUP BY user_id').all();
  for (const { userId, first, last } of ranges as Array<{ userId: string; first: number; last: number }>) {
    const { seq, trimmedThrough } = migratedFeedPosition(first, last);
    insert.run(userId, seq, trimmedThrough);
  }
  // Dropping the AUTOINCREMENT table also drops its row of sqlite_sequence: no global counter is left.
  db.exec(`
    DROP TABLE todo_events;
    ALTER TABLE todo_events_by_user RENAME TO todo_events;
    DROP TABLE IF EXISTS todo_feed;
  `);
}

/** Completion times for a file from before them (completedAtOf), deleted but restorable tasks included. */
function migrateCompletedAt(db: SqliteDatabase): void {
  db.exec('ALTER TABLE todos ADD COLUMN completed_at INTEGER');
  const set = db.prepare('UPDATE todos SET completed_at = ? WHERE id = ?');
  // A file this old has no due, extras or list_id column yet either (migrate adds them next): none is read.
  const rows = db.prepare<[], TodoTuple>('SELECT id, title, completed, is_pinned, created_at, updated_at, completed_at, NULL, NULL, NULL FROM todos WHERE completed = 1').raw().all();
  for (const row of rows) set.run(msOrNull(completedAtIn(row, isoDate(row[5]))), row[0]);
}

/**
 * The undo batches of a file from before lists' deletes (docs/PRODUCT.md §10.19): its table's CHECK names two
 * kinds and it has no list_id; a CHECK cannot be altered in place, so the table is built again under its
 * definition (undoBatchesTable) and every batch copied over, unchanged.
 */
function migrateUndoKinds(db: SqliteDatabase): void {
  db.exec(`
    CREATE TABLE ${undoBatchesTable('todo_undo_batches_with_lists')};
    INSERT INTO todo_undo_batches_with_lists (token, user_id, kind, completed, created_at)
      SELECT token, user_id, kind, completed, created_at FROM todo_undo_batches;
    DROP TABLE todo_undo_batches;
    ALTER TABLE todo_undo_batches_with_lists RENAME TO todo_undo_batches;
  `);
}

/** Whether the file has a table (or virtual table) of this name. */
function tableExists(db: SqliteDatabase, name: string): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get('table', name) !== undefined;
}

/**
 * The search index (docs/PRODUCT.md §10.22) and its triggers, filled once with the file's live tasks: a new
 * file gets it here too (with nothing to fill), so a file is searchable whatever version made it.
 */
function migrateSearch(db: SqliteDatabase): void {
  db.exec(SEARCH_INDEX);
  db.exec(`INSERT INTO todos_search (rowid, owner, title, note, subtasks) SELECT ${searchRow('t')} FROM todos AS t WHERE t.deleted_at IS NULL`);
}

/**
 * Adds what an older file lacks; runs inside the opening transaction, so concurrent openers agree (the
 * first migrates, the others find it done). Each step is keyed on the schema itself: `todos.deleted_at`
 * (soft delete), `todos.completed_at` (completion times), `todos.due` (due dates, none on older tasks),
 * `todos.extras` and `todo_undo_items.prev_moved` (repeats and reminders, none on older tasks),
 * `todo_events.seq` (per-user event numbers), `todos.list_id`, `todo_events.saved_lists` and
 * `todo_undo_batches.list_id` (lists, docs/PRODUCT.md §10.19: every older task is in the Inbox), the
 * `todos_search` table (search, §10.22: filled with the live tasks once). The undo,
 * key-record, history and list tables are new tables (SCHEMA creates them in any file).
 */
function migrate(db: SqliteDatabase): void {
  if (!columnsOf(db, 'todos').includes('deleted_at')) db.exec('ALTER TABLE todos ADD COLUMN deleted_at INTEGER');
  if (!columnsOf(db, 'todos').includes('completed_at')) migrateCompletedAt(db);
  if (!columnsOf(db, 'todos').includes('due')) db.exec('ALTER TABLE todos ADD COLUMN due TEXT');
  if (!columnsOf(db, 'todos').includes('extras')) db.exec('ALTER TABLE todos ADD COLUMN extras TEXT');
  if (!columnsOf(db, 'todo_undo_items').includes('prev_moved')) db.exec('ALTER TABLE todo_undo_items ADD COLUMN prev_moved TEXT');
  if (!columnsOf(db, 'todo_events').includes('seq')) migrateGlobalFeed(db);
  if (!columnsOf(db, 'todos').includes('list_id')) db.exec('ALTER TABLE todos ADD COLUMN list_id TEXT');
  if (!columnsOf(db, 'todo_events').includes('saved_lists')) db.exec('ALTER TABLE todo_events ADD COLUMN saved_lists TEXT; ALTER TABLE todo_events ADD COLUMN removed_lists TEXT');
  if (!columnsOf(db, 'todo_undo_batches').includes('list_id')) migrateUndoKinds(db);
  if (!tableExists(db, 'todos_search')) migrateSearch(db);
}

export interface SqliteTodosOptions extends StoreOptions {
  /** Folder holding `todos.sqlite`; created when missing. */
  dataDir: string;
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
  /** The start-up's bound on opening (server.ts; see openSqlite). */
  opening?: OpenSqliteOptions['opening'];
}

/**
 * The embedded store: one SQLite file in WAL mode under `DATA_DIR`, possibly shared by several processes
 * (docs/ARCHITECTURE.md, "Storage"). Times are milliseconds since the epoch, handed out as ISO text.
 * Every write runs in a `BEGIN IMMEDIATE` transaction (it takes the write lock up front, waiting up to the
 * busy timeout, so its read and its write see no other process's commit in between), together with its
 * event and, under an `Idempotency-Key`, the key's record: of two writes with one key the later one waits
 * for the lock, then finds the record and replays it. The rules are the shared ones (todos.store-base.ts):
 * this class only reads and writes.
 */
export class SqliteTodosStore extends TodosStoreBase implements TodosRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;

  private constructor(
    private readonly db: SqliteDatabase,
    options: StoreOptions,
  ) {
    super(storeSettings(options));
    this.statements = prepareStatements(db);
  }

  /** Opens (creating if needed) `<dataDir>/todos.sqlite` with its schema, by the shared {@link openSqlite}. */
  static open({ dataDir, busyTimeoutMs, opening, ...options }: SqliteTodosOptions): SqliteTodosStore {
    const db = openSqlite(path.join(dataDir, SQLITE_FILE), {
      busyTimeoutMs,
      opening,
      setup: (db) => {
        db.exec(SCHEMA);
        migrate(db);
        db.exec(INDEXES);
      },
    });
    return new SqliteTodosStore(db, options);
  }

  protected override newId(): string {
    return new ObjectId().toHexString();
  }

  protected override async transact<R>(userId: string, origin: string | null, read: ReadPlan, decide: Decide<R>, idempotencyKey: string | null) {
    return this.db.transaction(() => {
      const now = this.settings.now();
      const snapshot = this.read(userId, read);
      const idempotency = idempotencyKey === null ? undefined : this.idempotencyIn(userId, idempotencyKey);
      const { result, writes } = decide(idempotency === undefined ? snapshot : { ...snapshot, idempotency }, now);
      return { result, notice: writes ? this.store(userId, origin, now.getTime(), writes) : null };
    }).immediate();
  }

  private read(userId: string, { tasks, lists }: ReadPlan): Snapshot {
    return { ...this.readTasks(userId, tasks), lists: lists ? this.statements.lists.all(userId).map(toStoredList) : [] };
  }

  private readTasks(userId: string, read: TaskRead): Omit<Snapshot, 'lists'> {
    const s = this.statements;
    if (read === null) return { tasks: [] };
    if ('task' in read) {
      const row = s.task.get(read.task, userId);
      return { tasks: row === undefined ? [] : [toTask(row)] };
    }
    if ('live' in read) {
      const rows = read.scope === undefined ? s.liveTasks.all(userId) : read.scope === INBOX_ID ? s.liveInboxTasks.all(userId) : s.liveTasksOfList.all(userId, read.scope);
      return { tasks: rows.map(toTask) };
    }
    const batch = s.undoBatch.get(read.undo, userId);
    if (batch === undefined) return { tasks: [] };
    const [kind, completed, createdAt, listId] = batch;
    const items = s.undoItems.all(read.undo).map(([id, prevCompleted, prevCompletedAt, prevUpdatedAt, prevMoved]) => ({
      id,
      before:
        prevUpdatedAt === null
          ? null
          : {
              completed: prevCompleted === 1,
              completedAt: isoOrNull(prevCompletedAt),
              updatedAt: isoDate(prevUpdatedAt),
              ...(prevMoved === null ? {} : { moved: MovedJson.parse(JSON.parse(prevMoved)) }),
            },
    }));
    const undo: UndoBatch = { token: read.undo, kind, completed: completed === null ? null : completed === 1, createdAt: isoDate(createdAt), items, ...(listId === null ? {} : { listId }) };
    return { tasks: s.undoTasks.all(userId, read.undo).map(toTask), undo };
  }

  private idempotencyIn(userId: string, key: string): IdempotencyRecord | undefined {
    const row = this.statements.idempotencyRecord.get(userId, key);
    if (row === undefined) return undefined;
    const r = IdempotencyRow.parse(row);
    return { key: r.key, fingerprint: r.fingerprint, answer: { status: r.status, body: JSON.parse(r.body) as unknown }, createdAt: isoDate(r.createdAt) };
  }

  async idempotencyRecord(userId: string, key: string): Promise<IdempotencyRecord | null> {
    return this.idempotencyIn(userId, key) ?? null;
  }

  /** Stores a decision's writes, in the write's transaction; appends its event as the user's next number. */
  private store(userId: string, origin: string | null, now: number, { tasks, lists = [], keepUndo, spendUndo, event, keepIdempotency, history = [] }: Writes): ChangeNotice | null {
    const s = this.statements;
    if (keepIdempotency) {
      const { key, fingerprint, answer, createdAt } = keepIdempotency;
      s.putIdempotencyRecord.run(userId, key, fingerprint, answer.status, JSON.stringify(answer.body), Date.parse(createdAt));
    }
    for (const { list, deletedAt } of lists) {
      const { _id, name, colour, order, archived, createdAt, updatedAt } = list;
      s.putList.run(_id, userId, name, listNameKey(name), colour, order, bit(archived), Date.parse(createdAt), Date.parse(updatedAt), msOrNull(deletedAt));
    }
    for (const { todo, deletedAt } of tasks) {
      const { _id, title, completed, isPinned, createdAt, updatedAt, completedAt, due, listId } = todo;
      s.putTask.run(
        _id,
        userId,
        title,
        bit(completed),
        bit(isPinned),
        Date.parse(createdAt),
        Date.parse(updatedAt),
        msOrNull(completedAt),
        due ?? null,
        extrasOf(todo),
        listId ?? null,
        msOrNull(deletedAt),
      );
    }
    if (keepUndo) {
      const { token, kind, completed, createdAt, items, listId } = keepUndo;
      s.insertUndoBatch.run(token, userId, kind, completed === null ? null : bit(completed), Date.parse(createdAt), listId ?? null);
      for (const { id, before } of items) {
        const moved = before?.moved === undefined ? null : JSON.stringify(before.moved);
        s.insertUndoItem.run(token, id, before && bit(before.completed), before && msOrNull(before.completedAt), before && Date.parse(before.updatedAt), moved);
      }
    }
    if (spendUndo !== undefined) {
      s.removeUndoItems.run(spendUndo);
      s.removeUndoBatch.run(spendUndo);
    }
    if (event === null) return null;
    const seq = numberOf(s.nextSeq.get(userId));
    const { saved, removed, savedLists, removedLists } = event;
    s.appendEvent.run({
      userId,
      seq,
      origin,
      saved: JSON.stringify(saved),
      removed: JSON.stringify(removed),
      now,
      savedLists: savedLists === undefined ? null : JSON.stringify(savedLists),
      removedLists: removedLists === undefined ? null : JSON.stringify(removedLists),
    });
    for (const change of history) s.appendHistory.run(historyRow(userId, seq, origin, change));
    return { userId, id: String(seq) };
  }

  async list(userId: string): Promise<TodoList> {
    // One read transaction: in WAL mode it sees one snapshot, so the cursor matches the rows exactly.
    return this.db.transaction(() => ({ todos: listRows(this.statements.list.all(userId)).map(toRecord), lists: this.liveLists(userId), cursor: this.cursor(userId) })).deferred();
  }

  async listJson(userId: string): Promise<string> {
    return this.db.transaction(() => listJson(listRows(this.statements.list.all(userId)), this.liveLists(userId), this.cursor(userId))).deferred();
  }

  /** The user's live lists in their order: SQLite's BINARY order of sort_key, then id, is the contracts' byListPlace. */
  private liveLists(userId: string): ListRecord[] {
    return this.statements.liveLists.all(userId).map((row) => toStoredList(row).list);
  }

  async listsOf(userId: string): Promise<ListRecord[]> {
    return this.liveLists(userId);
  }

  async openDueBefore(userId: string, before: string): Promise<TodoRecord[]> {
    return this.statements.openDueBefore.all(userId, before).map(toRecord);
  }

  async search(userId: string, terms: readonly string[], plan: SearchPlan): Promise<SearchResult> {
    const s = this.statements;
    const match = ftsMatch(userId, terms);
    return this.db.transaction(() => {
      let picked: { ids: string[]; more: number };
      if (plan.filtered) {
        picked = plan.pick((plan.readsMarks ? s.search : s.searchPlain).all(match, userId).map(toSearchMatch));
      } else {
        const ids = s.searchFirst.all(match, userId, plan.limit).map(([id]) => id);
        picked = { ids, more: numberOf(s.searchCount.get(match, userId)) - ids.length };
      }
      const rows = new Map(s.tasksById.all(userId, JSON.stringify(picked.ids)).map((row) => [row[0], row]));
      const todos = picked.ids.flatMap((id) => {
        const row = rows.get(id);
        return row === undefined ? [] : [toRecord(row)];
      });
      return { todos, more: picked.more };
    }).deferred();
  }

  private cursor(userId: string): string {
    return String(numberOf(this.statements.cursor.get(userId)));
  }

  async history(userId: string, todoId: string, limit: number): Promise<HistoryEntry[]> {
    return this.statements.history.all(userId, todoId, limit).map(toHistoryEntry);
  }

  // ----- Import and export (docs/PRODUCT.md §10.23); the import's write is TodosStoreBase.importTasks -----
  async historyOfUser(userId: string): Promise<HistoryEntry[]> {
    return this.db
      .prepare(`SELECT todo_id AS todoId, field, before, after, at, seq, origin, conflict FROM todo_history WHERE user_id = ? ORDER BY seq DESC, ${FIELD_ORDER}`)
      .all(userId)
      .map(toHistoryEntry);
  }
  // ----- end of import and export -----

  async deleteAllForUser(userId: string): Promise<number> {
    const s = this.statements;
    return this.db.transaction(() => {
      const count = numberOf(s.countLive.get(userId));
      const statements = [s.removeAll, s.removeAllLists, s.removeAllEvents, s.removePosition, s.removeAllUndoItems, s.removeAllUndoBatches, s.removeAllIdempotencyRecords, s.removeAllHistory];
      for (const statement of statements) statement.run(userId);
      return count;
    }).immediate();
  }

  async eventsAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    return this.statements.eventsAfter.all(userId, BigInt(afterId), limit).map(toEvent);
  }

  async feedPosition(userId: string): Promise<FeedPosition> {
    // One row, so one read: the cursor and the watermark always belong together (none: a user who never wrote, or was purged).
    const row = this.statements.position.get(userId);
    const { lastSeq, trimmedThrough } = row === undefined ? { lastSeq: 0, trimmedThrough: 0 } : PositionRow.parse(row);
    return { cursor: String(lastSeq), trimmedThrough: String(trimmedThrough) };
  }

  protected override async purgeExpired({ restoreClosed, eventsExpired, historyExpired }: SweepCutoffs, idempotencyExpired: Date): Promise<SweepResult> {
    const s = this.statements;
    return this.db.transaction(() => {
      s.purgeExpiredIdempotencyRecords.run(idempotencyExpired.getTime());
      const purgedHistory = s.purgeExpiredHistory.run(historyExpired.getTime()).changes;
      const purgedTodos = s.purgeExpired.run(restoreClosed.getTime()).changes;
      const purgedLists = s.purgeExpiredLists.run(restoreClosed.getTime()).changes;
      s.purgeExpiredUndoItems.run(restoreClosed.getTime());
      const purgedUndoBatches = s.purgeExpiredUndoBatches.run(restoreClosed.getTime()).changes;
      let trimmedEvents = 0;
      for (const row of s.lastExpiredEvents.all(eventsExpired.getTime())) {
        const { userId, last } = ExpiredRow.parse(row);
        // By number, not by time: afterwards every number of the user up to the watermark is gone and
        // every number above it kept.
        trimmedEvents += s.trimEvents.run(userId, last).changes;
        s.raiseWatermark.run({ userId, seq: last });
      }
      return { purgedTodos, purgedLists, trimmedEvents, purgedUndoBatches, purgedHistory };
    }).immediate();
  }

  async ping(): Promise<boolean> {
    return pingSqlite(this.db);
  }

  async close(): Promise<void> {
    closeSqlite(this.db);
  }
}
