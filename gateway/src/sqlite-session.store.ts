import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { SessionData, SessionStore } from './session.repository.js';

const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Embedded session store: one SQLite file under `DATA_DIR`, so sessions survive a gateway restart without
 * any external service. Expired rows are ignored on read and purged periodically.
 */
export function openSqliteSessionStore(dataDir: string): SessionStore {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'sessions.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);`);
  // Added with "sign out everywhere": files made before it gain the column (NULL for their anonymous rows).
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(sessions)').all();
  if (!columns.some((column) => column.name === 'user_id')) db.exec('ALTER TABLE sessions ADD COLUMN user_id TEXT');
  db.exec('CREATE INDEX IF NOT EXISTS sessions_user_id ON sessions (user_id)');
  const select = db.prepare<[string, number], { data: string }>('SELECT data FROM sessions WHERE id = ? AND expires_at > ?');
  const upsert = db.prepare<[string, string, number, string | null]>(
    `INSERT INTO sessions (id, data, expires_at, user_id) VALUES (?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at, user_id = excluded.user_id`,
  );
  const removeUser = db.prepare<[string]>('DELETE FROM sessions WHERE user_id = ?');
  const remove = db.prepare<[string]>('DELETE FROM sessions WHERE id = ?');
  const purge = db.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?');
  const purger = setInterval(() => purge.run(Date.now()), PURGE_EVERY_MS);
  purger.unref();

  return {
    async get(id) {
      const row = select.get(id, Date.now());
      return row ? (JSON.parse(row.data) as SessionData) : undefined;
    },
    async set(id, data, maxAgeMs) {
      upsert.run(id, JSON.stringify(data), Date.now() + maxAgeMs, data.userId ?? null);
    },
    async destroy(id) {
      remove.run(id);
    },
    async destroyUserSessions(userId) {
      return removeUser.run(userId).changes;
    },
    async ping() {
      return db.prepare('SELECT 1 AS ok').get() !== undefined;
    },
    async close() {
      clearInterval(purger);
      db.close();
    },
  };
}
