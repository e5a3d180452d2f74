import path from 'node:path';
import { ObjectId } from 'bson';
import { ObjectIdString, type TodoChangeEvent, type TodoPatch } from '@tm/contracts';
import { closeSqlite, columnsOf, openSqlite, pingSqlite, type OpenSqliteOptions, type SqliteDatabase } from '@tm/service-kit/sqlite';
import { z } from 'zod';
import {
  byListOrder,
  CommitListeners,
  newUndoToken,
  storeSettings,
  StoredEventTodos,
  type BulkChange,
  type ChangeNotice,
  type CommitListener,
  type FeedPosition,
  type StoreOptions,
  type StoreSettings,
  type SweepResult,
  type TodoList,
  type TodoField,
  type TodoRecord,
  type TodosRepository,
  type TodoUpdate,
  type UpdateOptions,
} from './todos.repository.js';
import { isoDate } from './iso-date.js';

export const SQLITE_FILE = 'todos.sqlite';

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
    completed_at INTEGER
  ) STRICT;
  -- The change feed (outbox): one row per committed write, numbered per user (seq: 1, 2, 3 … of that user,
  -- in commit order; issue #21; a file from before keeps its old numbers, see MIGRATE_GLOBAL_FEED). No
  -- global id: nothing a user is sent may count other users' writes.
  CREATE TABLE IF NOT EXISTS todo_events (
    user_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    origin TEXT,
    saved TEXT NOT NULL,
    removed TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
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
  -- completed to \`completed\` at created_at.
  -- Removed when spent, by the sweep after the restore window, and with the account.
  CREATE TABLE IF NOT EXISTS todo_undo_batches (
    token TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('clear-completed', 'complete-all')),
    completed INTEGER CHECK (completed IN (0, 1)),
    created_at INTEGER NOT NULL
  ) STRICT;
  -- The tasks of one batch; for 'complete-all' with the values the call replaced (NULL for 'clear-completed').
  CREATE TABLE IF NOT EXISTS todo_undo_items (
    token TEXT NOT NULL,
    todo_id TEXT NOT NULL,
    prev_completed INTEGER,
    prev_completed_at INTEGER,
    prev_updated_at INTEGER,
    PRIMARY KEY (token, todo_id)
  ) STRICT, WITHOUT ROWID;
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
`;

/**
 * A task's completion time as it is read: the stored one for a completed task, NULL for an active one.
 * Every write of this version keeps `completed_at` in step with `completed`, and the migration filled it in
 * for the tasks already there; the fallback to `updated_at` (the migration's rule) only covers a row a
 * process of the previous version wrote into a shared file while the replicas were being replaced.
 */
const COMPLETED_AT = 'CASE WHEN completed = 1 THEN coalesce(completed_at, updated_at) END';
const COLUMNS = `id, title, completed, is_pinned, created_at, updated_at, ${COMPLETED_AT} AS completed_at`;
const LIST = `SELECT ${COLUMNS} FROM todos WHERE user_id = ? AND deleted_at IS NULL
  ORDER BY is_pinned DESC, created_at DESC, id DESC`;

/**
 * A row of `todos` as the statements above return it. No zod here (issue #10, "the server path"): the
 * table is STRICT (SQLite refuses a value of the wrong type on write), every column is NOT NULL (but
 * `completed_at`, which COLUMNS reads as NULL exactly when the task is active) and the flags carry
 * CHECK (… IN (0, 1)), so the database itself guarantees this shape for every row it holds,
 * and the only rows come from this file's statements, whose inputs the routes validated with the
 * contracts. Parsing each row again on every read (a thousand per list) protected nothing. The change
 * feed's JSON columns are still parsed with the contracts below: they are text, not typed columns.
 */
interface TodoRow {
  id: string;
  title: string;
  completed: 0 | 1;
  is_pinned: 0 | 1;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}
/** The same columns as an array (a `.raw()` statement): no object per row when the list is only serialised. */
type TodoTuple = [id: string, title: string, completed: 0 | 1, isPinned: 0 | 1, createdAt: number, updatedAt: number, completedAt: number | null];

const EventRow = z.object({
  seq: z.number().int().positive(),
  origin: z.string().nullable(),
  saved: z.string(),
  removed: z.string(),
});
const SavedJson = StoredEventTodos;
const RemovedJson = z.array(ObjectIdString);
const NumberRow = z.object({ value: z.number().int().nullable() });
const PositionRow = z.object({ lastSeq: z.number().int().nonnegative(), trimmedThrough: z.number().int().nonnegative() });
const ExpiredRow = z.object({ userId: z.string(), last: z.number().int().positive() });
/** A spendable undo batch (the table's CHECKs hold kind and completed to these values). */
interface UndoBatchRow {
  kind: 'clear-completed' | 'complete-all';
  completed: 0 | 1 | null;
  at: number;
}

function toRecord(row: unknown): TodoRecord {
  const r = row as TodoRow;
  return {
    _id: r.id,
    title: r.title,
    completed: r.completed === 1,
    isPinned: r.is_pinned === 1,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    completedAt: r.completed_at === null ? null : new Date(r.completed_at).toISOString(),
  };
}

/**
 * The list as the `TodosResponse` body, built in one pass from raw rows: the same text `JSON.stringify`
 * gives for `{ todos: rows.map(toRecord), cursor }` (the tests compare the two), without an object per
 * task or a second walk over them. Ids are 24 hex digits and timestamps ISO strings, neither needs escaping;
 * titles go through `JSON.stringify`.
 */
function listJson(rows: TodoTuple[], cursor: string): string {
  let json = '{"todos":[';
  for (let i = 0; i < rows.length; i += 1) {
    const [id, title, completed, isPinned, createdAt, updatedAt, completedAt] = rows[i] as TodoTuple;
    json += `${i === 0 ? '' : ','}{"_id":"${id}","title":${JSON.stringify(title)},"completed":${completed === 1},"isPinned":${isPinned === 1},` +
      `"createdAt":"${isoDate(createdAt)}","updatedAt":"${isoDate(updatedAt)}","completedAt":${completedAt === null ? 'null' : `"${isoDate(completedAt)}"`}}`;
  }
  return `${json}],"cursor":${JSON.stringify(cursor)}}`;
}

function toEvent(row: unknown): TodoChangeEvent {
  const r = EventRow.parse(row);
  return {
    id: String(r.seq),
    origin: r.origin,
    saved: SavedJson.parse(JSON.parse(r.saved)),
    removed: RemovedJson.parse(JSON.parse(r.removed)),
  };
}

function numberOf(row: unknown): number {
  return NumberRow.parse(row ?? { value: null }).value ?? 0;
}

const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);

function prepareStatements(db: SqliteDatabase) {
  return {
    list: db.prepare(LIST),
    listRaw: db.prepare<[string], TodoTuple>(LIST).raw(),
    // The user's own position: the last number handed out to the user, trimmed events included.
    cursor: db.prepare('SELECT last_seq AS value FROM todo_feed_positions WHERE user_id = ?'),
    position: db.prepare('SELECT last_seq AS lastSeq, trimmed_through AS trimmedThrough FROM todo_feed_positions WHERE user_id = ?'),
    findLive: db.prepare(`SELECT ${COLUMNS} FROM todos WHERE id = ? AND user_id = ? AND deleted_at IS NULL`),
    insert: db.prepare(
      `INSERT INTO todos (id, user_id, title, completed, is_pinned, created_at, updated_at, completed_at)
       VALUES (@id, @userId, @title, 0, 0, @now, @now, NULL) RETURNING ${COLUMNS}`,
    ),
    update: db.prepare(
      `UPDATE todos SET title = @title, completed = @completed, is_pinned = @isPinned, completed_at = @completedAt, updated_at = @now
       WHERE id = @id AND user_id = @userId AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    ),
    softDelete: db.prepare(
      'UPDATE todos SET deleted_at = @now WHERE id = @id AND user_id = @userId AND deleted_at IS NULL',
    ),
    restore: db.prepare(
      `UPDATE todos SET deleted_at = NULL
       WHERE id = @id AND user_id = @userId AND deleted_at IS NOT NULL AND deleted_at > @deletedAfter
       RETURNING ${COLUMNS}`,
    ),
    setAllCompleted: db.prepare(
      `UPDATE todos SET completed = @completed, completed_at = CASE WHEN @completed = 1 THEN @now END, updated_at = @now
       WHERE user_id = @userId AND deleted_at IS NULL AND completed <> @completed RETURNING ${COLUMNS}`,
    ),
    clearCompleted: db.prepare(
      `UPDATE todos SET deleted_at = @now
       WHERE user_id = @userId AND deleted_at IS NULL AND completed = 1 RETURNING ${COLUMNS}`,
    ),
    // The undo batch of a bulk call, written in its transaction just before its UPDATE, from the same rows
    // (the write lock is held: nothing changes between the two statements).
    snapshotCompleteAll: db.prepare(
      `INSERT INTO todo_undo_items (token, todo_id, prev_completed, prev_completed_at, prev_updated_at)
       SELECT @token, id, completed, ${COMPLETED_AT}, updated_at FROM todos
       WHERE user_id = @userId AND deleted_at IS NULL AND completed <> @completed`,
    ),
    // The undo batch of an update's tick (kind 'complete-all', one task): the values the tick replaces.
    snapshotTick: db.prepare(
      `INSERT INTO todo_undo_items (token, todo_id, prev_completed, prev_completed_at, prev_updated_at)
       VALUES (@token, @id, @completed, @completedAt, @updatedAt)`,
    ),
    snapshotClearCompleted: db.prepare(
      `INSERT INTO todo_undo_items (token, todo_id)
       SELECT @token, id FROM todos WHERE user_id = @userId AND deleted_at IS NULL AND completed = 1`,
    ),
    insertUndoBatch: db.prepare(
      `INSERT INTO todo_undo_batches (token, user_id, kind, completed, created_at)
       VALUES (@token, @userId, @kind, @completed, @now)`,
    ),
    // Only the owner's, and only within the restore window: anything else is as unknown as a made-up token.
    findUndoBatch: db.prepare(
      `SELECT kind, completed, created_at AS at FROM todo_undo_batches
       WHERE token = @token AND user_id = @userId AND created_at > @createdAfter`,
    ),
    // The tasks the clear deleted, still deleted by it (deleted_at is the clear's own time): one restored
    // by its own Undo since (and maybe deleted again) is no longer the clear's to bring back.
    undoClearCompleted: db.prepare(
      `UPDATE todos SET deleted_at = NULL
       WHERE user_id = @userId AND deleted_at = @at AND id IN (SELECT todo_id FROM todo_undo_items WHERE token = @token)
       RETURNING ${COLUMNS}`,
    ),
    // The tasks the call changed, while each still is exactly as it left them (live, with its completed,
    // completed_at and updated_at); the others were changed since and are left alone.
    undoCompleteAll: db.prepare(
      `UPDATE todos SET completed = item.prev_completed, completed_at = item.prev_completed_at, updated_at = item.prev_updated_at
       FROM todo_undo_items AS item
       WHERE item.token = @token AND todos.id = item.todo_id AND todos.user_id = @userId AND todos.deleted_at IS NULL
         AND todos.completed = @completed AND todos.updated_at = @at AND todos.completed_at IS @completedAt
       RETURNING ${COLUMNS}`,
    ),
    removeUndoItems: db.prepare('DELETE FROM todo_undo_items WHERE token = ?'),
    removeUndoBatch: db.prepare('DELETE FROM todo_undo_batches WHERE token = ?'),
    removeAllUndoItems: db.prepare('DELETE FROM todo_undo_items WHERE token IN (SELECT token FROM todo_undo_batches WHERE user_id = ?)'),
    removeAllUndoBatches: db.prepare('DELETE FROM todo_undo_batches WHERE user_id = ?'),
    purgeExpiredUndoItems: db.prepare(
      'DELETE FROM todo_undo_items WHERE token IN (SELECT token FROM todo_undo_batches WHERE created_at <= ?)',
    ),
    purgeExpiredUndoBatches: db.prepare('DELETE FROM todo_undo_batches WHERE created_at <= ?'),
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
      `INSERT INTO todo_events (user_id, seq, origin, saved, removed, created_at)
       VALUES (@userId, @seq, @origin, @saved, @removed, @now)`,
    ),
    eventsAfter: db.prepare(
      'SELECT seq, origin, saved, removed FROM todo_events WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
    purgeExpired: db.prepare('DELETE FROM todos WHERE deleted_at IS NOT NULL AND deleted_at <= ?'),
    // Per user, the newest number among the events past the retention (through the created_at index).
    lastExpiredEvents: db.prepare(
      'SELECT user_id AS userId, max(seq) AS last FROM todo_events WHERE created_at <= ? GROUP BY user_id',
    ),
    trimEvents: db.prepare('DELETE FROM todo_events WHERE user_id = ? AND seq <= ?'),
    raiseWatermark: db.prepare(
      'UPDATE todo_feed_positions SET trimmed_through = max(trimmed_through, @seq) WHERE user_id = @userId',
    ),
  };
}

/**
 * The change feed of a file from before per-user numbers (issue #21): `todo_events` numbered by one global
 * AUTOINCREMENT id (its position in `sqlite_sequence`) and one global watermark in `todo_feed`. Each kept
 * event keeps its old id as its number, and each user's position starts at the user's own newest event:
 * numbers stay increasing per user, in the order the events committed, and every cursor a page already
 * holds still means what it meant. Renumbering from 1 would not: an old cursor would then name a different
 * change and the page would skip changes silently. Keeping the old numbers tells a user nothing new, as
 * they are the user's own events' ids, which that user was already sent. From here on each user's numbers
 * grow by one per own write only. A user's watermark is just below the user's oldest kept event (the user's
 * trimmed events are all below it), so resuming from before it is a `reset`, never a silent gap. A user
 * with no kept event starts at 0: any cursor held from before is then ahead of the feed, also a `reset`.
 */
const MIGRATE_GLOBAL_FEED = `
  CREATE TABLE todo_events_by_user (
    user_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    origin TEXT,
    saved TEXT NOT NULL,
    removed TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  INSERT INTO todo_events_by_user (user_id, seq, origin, saved, removed, created_at)
    SELECT user_id, id, origin, saved, removed, created_at FROM todo_events ORDER BY id;
  INSERT INTO todo_feed_positions (user_id, last_seq, trimmed_through)
    SELECT user_id, max(id), min(id) - 1 FROM todo_events GROUP BY user_id;
  -- Dropping the AUTOINCREMENT table also drops its row of sqlite_sequence: no global counter is left.
  DROP TABLE todo_events;
  ALTER TABLE todo_events_by_user RENAME TO todo_events;
  DROP TABLE IF EXISTS todo_feed;
`;

/**
 * Completion times (issue #18) for a file from before them. No earlier version recorded when a task was
 * completed, so a task already completed gets its `updated_at`: the time of its last change, which was the
 * tick itself or came after it (an edit or pin since), the best time known. Active tasks get NULL. Deleted
 * but still restorable tasks too, so a restore brings them back with a completion time.
 */
const MIGRATE_COMPLETED_AT = `
  ALTER TABLE todos ADD COLUMN completed_at INTEGER;
  UPDATE todos SET completed_at = updated_at WHERE completed = 1;
`;

/**
 * Adds what an older file lacks; runs inside the opening transaction, so concurrent openers agree (the
 * first migrates, the others find it done). Each step is keyed on the schema itself: `todos.deleted_at`
 * (soft delete), `todos.completed_at` (completion times), `todo_events.seq` (per-user event numbers). The
 * undo tables are new tables (SCHEMA creates them in any file).
 */
function migrate(db: SqliteDatabase): void {
  if (!columnsOf(db, 'todos').includes('deleted_at')) db.exec('ALTER TABLE todos ADD COLUMN deleted_at INTEGER');
  if (!columnsOf(db, 'todos').includes('completed_at')) db.exec(MIGRATE_COMPLETED_AT);
  if (!columnsOf(db, 'todo_events').includes('seq')) db.exec(MIGRATE_GLOBAL_FEED);
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
 * busy timeout, so a read-then-write never fails on another process's commit), together with its event.
 */
export class SqliteTodosStore implements TodosRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly listeners = new CommitListeners();

  private constructor(
    private readonly db: SqliteDatabase,
    private readonly settings: StoreSettings,
  ) {
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
    return new SqliteTodosStore(db, storeSettings(options));
  }

  /** Runs `work` as one write transaction and tells the listeners about its event once it committed. */
  private write<T>(work: (now: number) => { result: T; notice: ChangeNotice | null }): T {
    const { result, notice } = this.db.transaction(work).immediate(this.settings.now().getTime());
    this.listeners.notify(notice);
    return result;
  }

  /** Appends the write's event as the user's next number; called inside the write's transaction. */
  private appendEvent(userId: string, origin: string | null, now: number, saved: TodoRecord[], removed: string[]): ChangeNotice {
    const seq = numberOf(this.statements.nextSeq.get(userId));
    this.statements.appendEvent.run({
      userId,
      seq,
      origin,
      saved: JSON.stringify(saved),
      removed: JSON.stringify(removed),
      now,
    });
    return { userId, id: String(seq) };
  }

  /** The user's position (a missing row: a user who never wrote, or was purged). */
  private position(userId: string): FeedPosition {
    const row = this.statements.position.get(userId);
    const { lastSeq, trimmedThrough } = row === undefined ? { lastSeq: 0, trimmedThrough: 0 } : PositionRow.parse(row);
    return { cursor: String(lastSeq), trimmedThrough: String(trimmedThrough) };
  }

  async list(userId: string): Promise<TodoList> {
    // One read transaction: in WAL mode it sees one snapshot, so the cursor matches the rows exactly.
    return this.db.transaction(() => ({
      todos: this.statements.list.all(userId).map(toRecord),
      cursor: String(numberOf(this.statements.cursor.get(userId))),
    })).deferred();
  }

  async listJson(userId: string): Promise<string> {
    return this.db.transaction(() => listJson(this.statements.listRaw.all(userId), String(numberOf(this.statements.cursor.get(userId))))).deferred();
  }

  async create(userId: string, title: string, origin: string | null = null): Promise<TodoRecord> {
    const id = new ObjectId().toHexString();
    return this.write((now) => {
      const todo = toRecord(this.statements.insert.get({ id, userId, title, now }));
      return { result: todo, notice: this.appendEvent(userId, origin, now, [todo], []) };
    });
  }

  async update(userId: string, id: string, patch: TodoPatch, origin: string | null = null, { keepUndo = false }: UpdateOptions = {}): Promise<TodoUpdate | null> {
    return this.write<TodoUpdate | null>((now) => {
      const row = this.statements.findLive.get(id, userId) as TodoRow | undefined;
      if (row === undefined) return { result: null, notice: null };
      const current = toRecord(row);
      const next = {
        title: patch.title ?? current.title,
        completed: patch.completed ?? current.completed,
        isPinned: patch.isPinned ?? current.isPinned,
      };
      const changed = (['title', 'completed', 'isPinned'] as const).filter((field): field is TodoField => next[field] !== current[field]);
      // Nothing changes: updatedAt stays, and no event is appended (a repeat is invisible to other pages).
      if (changed.length === 0) return { result: { todo: current, changed, undoToken: null }, notice: null };
      let undoToken: string | null = null;
      if (keepUndo && next.completed !== current.completed) {
        undoToken = newUndoToken();
        this.statements.snapshotTick.run({ token: undoToken, id: row.id, completed: row.completed, completedAt: row.completed_at, updatedAt: row.updated_at });
        this.statements.insertUndoBatch.run({ token: undoToken, userId, kind: 'complete-all', completed: bit(next.completed), now });
      }
      const todo = toRecord(this.statements.update.get({
        id,
        userId,
        title: next.title,
        completed: bit(next.completed),
        isPinned: bit(next.isPinned),
        // Ticked now, cleared when reopened, else kept as it was (a title or pin change leaves it).
        completedAt: next.completed === current.completed ? row.completed_at : next.completed ? now : null,
        now,
      }));
      return { result: { todo, changed, undoToken }, notice: this.appendEvent(userId, origin, now, [todo], []) };
    });
  }

  async remove(userId: string, id: string, origin: string | null = null): Promise<boolean> {
    return this.write((now) => {
      if (this.statements.softDelete.run({ id, userId, now }).changes === 0) return { result: false, notice: null };
      return { result: true, notice: this.appendEvent(userId, origin, now, [], [id.toLowerCase()]) };
    });
  }

  async restore(userId: string, id: string, origin: string | null = null): Promise<TodoRecord | null> {
    return this.write((now) => {
      const row = this.statements.restore.get({ id, userId, deletedAfter: now - this.settings.restoreWindowMs });
      if (row === undefined) return { result: null, notice: null };
      const todo = toRecord(row);
      return { result: todo, notice: this.appendEvent(userId, origin, now, [todo], []) };
    });
  }

  async setAllCompleted(userId: string, completed: boolean, origin: string | null = null): Promise<BulkChange> {
    const undoToken = newUndoToken();
    return this.write<BulkChange>((now) => {
      // The values the UPDATE below replaces, kept for the undo, from the very rows it changes.
      if (this.statements.snapshotCompleteAll.run({ token: undoToken, userId, completed: bit(completed) }).changes === 0) {
        return { result: { todos: [], undoToken: null }, notice: null };
      }
      this.statements.insertUndoBatch.run({ token: undoToken, userId, kind: 'complete-all', completed: bit(completed), now });
      const changed = this.statements.setAllCompleted.all({ userId, completed: bit(completed), now }).map(toRecord).sort(byListOrder);
      return { result: { todos: changed, undoToken }, notice: this.appendEvent(userId, origin, now, changed, []) };
    });
  }

  async clearCompleted(userId: string, origin: string | null = null): Promise<BulkChange> {
    const undoToken = newUndoToken();
    return this.write<BulkChange>((now) => {
      if (this.statements.snapshotClearCompleted.run({ token: undoToken, userId }).changes === 0) {
        return { result: { todos: [], undoToken: null }, notice: null };
      }
      this.statements.insertUndoBatch.run({ token: undoToken, userId, kind: 'clear-completed', completed: null, now });
      const cleared = this.statements.clearCompleted.all({ userId, now }).map(toRecord).sort(byListOrder);
      const notice = this.appendEvent(userId, origin, now, [], cleared.map((todo) => todo._id));
      return { result: { todos: cleared, undoToken }, notice };
    });
  }

  async restoreBulk(userId: string, undoToken: string, origin: string | null = null): Promise<TodoRecord[] | null> {
    return this.write((now) => {
      const batch = this.statements.findUndoBatch.get({ token: undoToken, userId, createdAfter: now - this.settings.restoreWindowMs }) as
        | UndoBatchRow
        | undefined;
      if (batch === undefined) return { result: null, notice: null };
      const rows =
        batch.kind === 'clear-completed'
          ? this.statements.undoClearCompleted.all({ token: undoToken, userId, at: batch.at })
          : this.statements.undoCompleteAll.all({
              token: undoToken,
              userId,
              completed: batch.completed,
              at: batch.at,
              completedAt: batch.completed === 1 ? batch.at : null,
            });
      // Spent, whatever was left to restore: a token works once.
      this.statements.removeUndoItems.run(undoToken);
      this.statements.removeUndoBatch.run(undoToken);
      const restored = rows.map(toRecord).sort(byListOrder);
      if (restored.length === 0) return { result: restored, notice: null };
      return { result: restored, notice: this.appendEvent(userId, origin, now, restored, []) };
    });
  }

  async deleteAllForUser(userId: string): Promise<number> {
    return this.write(() => {
      const count = numberOf(this.statements.countLive.get(userId));
      this.statements.removeAll.run(userId);
      this.statements.removeAllEvents.run(userId);
      this.statements.removePosition.run(userId);
      this.statements.removeAllUndoItems.run(userId);
      this.statements.removeAllUndoBatches.run(userId);
      return { result: count, notice: null };
    });
  }

  async eventsAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    return this.statements.eventsAfter.all(userId, BigInt(afterId), limit).map(toEvent);
  }

  async feedPosition(userId: string): Promise<FeedPosition> {
    // One row, so one read: the cursor and the watermark always belong together.
    return this.position(userId);
  }

  async sweep(): Promise<SweepResult> {
    return this.write((now) => {
      const purgedTodos = this.statements.purgeExpired.run(now - this.settings.restoreWindowMs).changes;
      // The same boundary as restoreBulk's: a batch it can no longer spend goes.
      this.statements.purgeExpiredUndoItems.run(now - this.settings.restoreWindowMs);
      const purgedUndoBatches = this.statements.purgeExpiredUndoBatches.run(now - this.settings.restoreWindowMs).changes;
      let trimmedEvents = 0;
      for (const row of this.statements.lastExpiredEvents.all(now - this.settings.eventRetentionMs)) {
        const { userId, last } = ExpiredRow.parse(row);
        // By number, not by time: afterwards every number of the user up to the watermark is gone and
        // every number above it kept.
        trimmedEvents += this.statements.trimEvents.run(userId, last).changes;
        this.statements.raiseWatermark.run({ userId, seq: last });
      }
      return { result: { purgedTodos, trimmedEvents, purgedUndoBatches }, notice: null };
    });
  }

  onCommit(listener: CommitListener): () => void {
    return this.listeners.add(listener);
  }

  async ping(): Promise<boolean> {
    return pingSqlite(this.db);
  }

  async close(): Promise<void> {
    closeSqlite(this.db);
  }
}
