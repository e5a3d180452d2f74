import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import type { TodoPatch } from '@tm/contracts';
import { z } from 'zod';
import type { StoreClock, TodoRecord, TodosRepository } from './todos.repository.js';

export const SQLITE_FILE = 'todos.sqlite';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS todos (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    title TEXT NOT NULL,
    completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
    is_pinned INTEGER NOT NULL CHECK (is_pinned IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  -- id as the last column lets the listing's tiebreak come from the index too (no separate sort step).
  CREATE INDEX IF NOT EXISTS todos_user_pinned_created ON todos (user_id, is_pinned, created_at, id);
`;

const COLUMNS = 'id, title, completed, is_pinned, created_at, updated_at';

// zod at the database edge: a row that does not look like a task is a bug we want to hear about.
const TodoRow = z.object({
  id: z.string(),
  title: z.string(),
  completed: z.union([z.literal(0), z.literal(1)]),
  is_pinned: z.union([z.literal(0), z.literal(1)]),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

function toRecord(row: unknown): TodoRecord {
  const r = TodoRow.parse(row);
  return {
    _id: r.id,
    title: r.title,
    completed: r.completed === 1,
    isPinned: r.is_pinned === 1,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** SQLite cannot bind booleans; `null` means "leave this column as it is". */
function flag(value: boolean | undefined): 0 | 1 | null {
  return value === undefined ? null : value ? 1 : 0;
}

function prepareStatements(db: Database.Database) {
  return {
    list: db.prepare(
      `SELECT ${COLUMNS} FROM todos WHERE user_id = ? ORDER BY is_pinned DESC, created_at DESC, id DESC`,
    ),
    insert: db.prepare(
      `INSERT INTO todos (id, user_id, title, completed, is_pinned, created_at, updated_at)
       VALUES (@id, @userId, @title, 0, 0, @now, @now) RETURNING ${COLUMNS}`,
    ),
    // Right-hand sides all see the old row, so the CASE compares old values with the requested ones.
    update: db.prepare(
      `UPDATE todos SET
         updated_at = CASE
           WHEN title IS NOT coalesce(@title, title) OR completed IS NOT coalesce(@completed, completed)
             OR is_pinned IS NOT coalesce(@isPinned, is_pinned)
           THEN @now ELSE updated_at END,
         title = coalesce(@title, title),
         completed = coalesce(@completed, completed),
         is_pinned = coalesce(@isPinned, is_pinned)
       WHERE id = @id AND user_id = @userId RETURNING ${COLUMNS}`,
    ),
    remove: db.prepare('DELETE FROM todos WHERE id = ? AND user_id = ?'),
    removeAll: db.prepare('DELETE FROM todos WHERE user_id = ?'),
    ping: db.prepare('SELECT 1 AS ok'),
  };
}

export interface SqliteTodosOptions extends StoreClock {
  /** Folder holding `todos.sqlite`; created when missing. */
  dataDir: string;
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
}

/** The embedded store: one SQLite file in WAL mode under `DATA_DIR`. */
export class SqliteTodosStore implements TodosRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;

  private constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date,
  ) {
    this.statements = prepareStatements(db);
  }

  /** Opens (creating if needed) `<dataDir>/todos.sqlite` with its schema. */
  static open({ dataDir, busyTimeoutMs = 5_000, now = () => new Date() }: SqliteTodosOptions): SqliteTodosStore {
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(path.join(dataDir, SQLITE_FILE));
    try {
      db.pragma('journal_mode = WAL');
      // NORMAL is durable across process crashes in WAL mode; only an OS crash may lose the last commits.
      db.pragma('synchronous = NORMAL');
      db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
      db.exec(SCHEMA);
      return new SqliteTodosStore(db, now);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async list(userId: string): Promise<TodoRecord[]> {
    return this.statements.list.all(userId).map(toRecord);
  }

  async create(userId: string, title: string): Promise<TodoRecord> {
    const id = new ObjectId().toHexString();
    return toRecord(this.statements.insert.get({ id, userId, title, now: this.now().getTime() }));
  }

  async update(userId: string, id: string, patch: TodoPatch): Promise<TodoRecord | null> {
    const row = this.statements.update.get({
      id,
      userId,
      title: patch.title ?? null,
      completed: flag(patch.completed),
      isPinned: flag(patch.isPinned),
      now: this.now().getTime(),
    });
    return row === undefined ? null : toRecord(row);
  }

  async remove(userId: string, id: string): Promise<boolean> {
    return this.statements.remove.run(id, userId).changes > 0;
  }

  async deleteAllForUser(userId: string): Promise<number> {
    return this.statements.removeAll.run(userId).changes;
  }

  async ping(): Promise<boolean> {
    return this.statements.ping.get() !== undefined;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
