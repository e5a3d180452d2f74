import path from 'node:path';
import { closeSqlite, columnsOf, openSqlite, pingSqlite, StorageWatch, type OpenSqliteOptions, type SqliteDatabase, type StorageWatchOptions } from '@tm/service-kit/sqlite';
import { SessionEndReason } from '@tm/contracts';
import type { SessionData, SessionEnding, SessionStore } from './session.repository.js';

const PURGE_EVERY_MS = 10 * 60 * 1000;
export const SQLITE_FILE = 'sessions.sqlite';

/** Times are milliseconds since the epoch, as in every SQLite file of the project (docs/ARCHITECTURE.md, "Storage"). */
function setup(db: SqliteDatabase): void {
  db.exec(`CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);`);
  // Added with "sign out everywhere": files made before it gain the column (NULL for their anonymous rows).
  if (!columnsOf(db, 'sessions').includes('user_id')) db.exec('ALTER TABLE sessions ADD COLUMN user_id TEXT');
  db.exec('CREATE INDEX IF NOT EXISTS sessions_user_id ON sessions (user_id)');
  // Why a signed-in session ended, kept for a while after the session itself is gone (a tombstone).
  db.exec(`CREATE TABLE IF NOT EXISTS session_ends (
    id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS session_ends_expires_at ON session_ends (expires_at);`);
}

function prepareStatements(db: SqliteDatabase) {
  return {
    select: db.prepare<[string, number], { data: string }>('SELECT data FROM sessions WHERE id = ? AND expires_at > ?'),
    upsert: db.prepare<[string, string, number, string | null]>(
      `INSERT INTO sessions (id, data, expires_at, user_id) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at, user_id = excluded.user_id`,
    ),
    userSessions: db.prepare<[string, number], { id: string; data: string }>('SELECT id, data FROM sessions WHERE user_id = ? AND expires_at > ?'),
    removeUser: db.prepare<[string]>('DELETE FROM sessions WHERE user_id = ?'),
    remove: db.prepare<[string]>('DELETE FROM sessions WHERE id = ?'),
    purge: db.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?'),
    recordEnd: db.prepare<[string, string, number]>(
      `INSERT INTO session_ends (id, reason, expires_at) VALUES (?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET reason = excluded.reason, expires_at = excluded.expires_at`,
    ),
    endReason: db.prepare<[string, number], { reason: string }>('SELECT reason FROM session_ends WHERE id = ? AND expires_at > ?'),
    purgeEnds: db.prepare<[number]>('DELETE FROM session_ends WHERE expires_at <= ?'),
  };
}

export interface SqliteSessionStoreOptions {
  /** Readiness numbers (free space, how long a failed write counts); the data folder is the store's own. */
  storage?: Omit<StorageWatchOptions, 'dataDir'>;
  /** The start-up's bound on opening (server.ts; see openSqlite). */
  opening?: OpenSqliteOptions['opening'];
}

/**
 * Embedded session store: one SQLite file under `DATA_DIR` (opened by the shared {@link openSqlite}), so
 * sessions survive a gateway restart without any external service. Expired rows are ignored on read and
 * purged periodically, the records of why a session ended (`session_ends`) with them. A write that storage refuses (disk full, read-only) still fails (the session
 * middleware turns it into a 503, and the error handler into `STORAGE.NOT_WRITABLE`), and is remembered:
 * `ping`, and so the gateway's readiness, says sessions are down while the data folder cannot take writes
 * ({@link StorageWatch}: a recent refusal, too little free space, a read-only folder).
 */
export class SqliteSessionStore implements SessionStore {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly purger: NodeJS.Timeout;
  private readonly endUser: (userId: string, ending: SessionEnding, now: number) => number;

  private constructor(
    private readonly db: SqliteDatabase,
    private readonly storage: StorageWatch,
  ) {
    this.statements = prepareStatements(db);
    const statements = this.statements;
    // One transaction: the records of why, and the end of the sessions, happen together or not at all.
    this.endUser = db.transaction((userId: string, ending: SessionEnding, now: number) => {
      for (const { id, data } of statements.userSessions.all(userId, now)) {
        if (id === ending.unrecorded) continue;
        statements.recordEnd.run(id, ending.reason, now + ending.keepForMs(JSON.parse(data) as SessionData));
      }
      return statements.removeUser.run(userId).changes;
    });
    // A purge that fails (full disk) waits for the next tick: a throw here would end the process.
    this.purger = setInterval(() => {
      try {
        this.write(() => {
          const now = Date.now();
          this.statements.purge.run(now);
          this.statements.purgeEnds.run(now);
        });
      } catch {
        // Remembered by write(); retried in PURGE_EVERY_MS.
      }
    }, PURGE_EVERY_MS);
    this.purger.unref();
  }

  /** Opens (creating if needed) `<dataDir>/sessions.sqlite` with its schema. */
  static open(dataDir: string, { storage, opening }: SqliteSessionStoreOptions = {}): SqliteSessionStore {
    return new SqliteSessionStore(openSqlite(path.join(dataDir, SQLITE_FILE), { setup, opening }), new StorageWatch({ ...storage, dataDir }));
  }

  /** Runs a write; a storage failure is remembered for readiness, and thrown on. */
  private write<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      this.storage.note(error);
      throw error;
    }
  }

  async get(id: string): Promise<SessionData | undefined> {
    const row = this.statements.select.get(id, Date.now());
    return row ? (JSON.parse(row.data) as SessionData) : undefined;
  }

  async set(id: string, data: SessionData, maxAgeMs: number): Promise<void> {
    this.write(() => this.statements.upsert.run(id, JSON.stringify(data), Date.now() + maxAgeMs, data.userId ?? null));
  }

  async destroy(id: string): Promise<void> {
    this.write(() => this.statements.remove.run(id));
  }

  async destroyUserSessions(userId: string, ending?: SessionEnding): Promise<number> {
    if (!ending) return this.write(() => this.statements.removeUser.run(userId).changes);
    return this.write(() => this.endUser(userId, ending, Date.now()));
  }

  async recordEnd(id: string, reason: SessionEndReason, keepForMs: number): Promise<void> {
    this.write(() => this.statements.recordEnd.run(id, reason, Date.now() + keepForMs));
  }

  async endReason(id: string): Promise<SessionEndReason | undefined> {
    const row = this.statements.endReason.get(id, Date.now());
    const parsed = SessionEndReason.safeParse(row?.reason);
    return parsed.success ? parsed.data : undefined;
  }

  /** Up while the file answers and its data folder can take writes. */
  async ping(): Promise<boolean> {
    return pingSqlite(this.db) && (await this.storage.check()).writable;
  }

  async close(): Promise<void> {
    clearInterval(this.purger);
    closeSqlite(this.db);
  }
}
