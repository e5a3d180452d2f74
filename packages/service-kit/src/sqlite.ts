import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

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
export function openSqlite(file: string, { busyTimeoutMs = 5_000, setup }: OpenSqliteOptions = {}): SqliteDatabase {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    db.pragma('foreign_keys = ON');
    if (setup) db.transaction(() => setup(db)).immediate();
    return db;
  } catch (error) {
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
