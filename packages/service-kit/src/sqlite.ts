import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { OpeningProgress } from './startup.js';

export type SqliteDatabase = Database.Database;

// A SQLite store watches its data folder's room to write (the gateway's session store does it itself).
export { StorageWatch, storageFailureOf, type StorageFailure, type StorageState, type StorageWatchOptions } from './storage.js';

export interface OpenSqliteOptions {
  /** How long a statement waits for another connection's lock before failing (default 5 s). */
  busyTimeoutMs?: number;
  /**
   * Creates the schema and migrates an older file. It runs in one `BEGIN IMMEDIATE` transaction, so
   * several processes opening the same file at once agree on what they find and do.
   */
  setup?: (db: SqliteDatabase) => void;
  /**
   * The start-up's bound (StartupWatch.openStore): while opening, a lock held by another connection
   * (another process on the same DATA_DIR, one migrating the file) is waited for until the bound's deadline
   * rather than `busyTimeoutMs`, and each step says what it waits on, for the line logged if the bound passes.
   */
  opening?: OpeningProgress;
}

/**
 * Opens (creating it and its folder when missing) one of the project's SQLite files, the way every store
 * does (docs/ARCHITECTURE.md, "Storage"):
 * - `journal_mode = WAL`: readers run beside the one writer, also from other processes;
 * - `synchronous = NORMAL`: durable across process crashes in WAL mode (an OS crash may lose the last commits);
 * - `busy_timeout`: another process (a second replica, a migration) may hold the write lock for a moment;
 * - `foreign_keys = ON`: SQLite's default is off; any foreign key a table declares is enforced.
 * The database is closed again when a pragma or `setup` fails.
 */
export function openSqlite(file: string, { busyTimeoutMs = 5_000, setup, opening }: OpenSqliteOptions = {}): SqliteDatabase {
  // Lock waits while opening: what is left of the start-up's bound, else the usual busy timeout.
  const waitMs = () => (opening ? Math.max(0, Math.trunc(opening.deadline - Date.now())) : Math.trunc(busyTimeoutMs));
  // What each step waits on when it takes long: the file system (creating the file, loading the driver, the
  // fsyncs of a new file's first transactions), or another connection's lock.
  opening?.waitingOn(`the file system, to open ${file}`);
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: waitMs() });
  let waiting = `a lock on ${file} held by another connection (to switch it to WAL), or the disk`;
  try {
    opening?.waitingOn(waiting);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    if (setup) {
      waiting = `the write lock of ${file} held by another connection (to create or migrate its schema), or the disk`;
      opening?.waitingOn(waiting);
      db.pragma(`busy_timeout = ${waitMs()}`);
      db.transaction(() => setup(db)).immediate();
    }
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    return db;
  } catch (error) {
    // A busy database here is the lock, not the disk: say so.
    if (opening && typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY')) {
      opening.waitingOn(waiting.replace(/, or the disk$/, ''));
    }
    db.close();
    throw error;
  }
}

/** Readiness: true when the database answers a trivial query. */
export function pingSqlite(db: SqliteDatabase): boolean {
  return db.prepare('SELECT 1 AS ok').get() !== undefined;
}

/** Closes the database; closing it twice is harmless. */
export function closeSqlite(db: SqliteDatabase): void {
  if (db.open) db.close();
}

/** The names of a table's columns (for migrations that add one). */
export function columnsOf(db: SqliteDatabase, table: string): string[] {
  return db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all(table).map((column) => column.name);
}
