import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PublicUser } from '@tm/contracts';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import { z } from 'zod';
import { DuplicateEmailError, type NewUser, type UserRecord, type UsersRepository } from './users.repository.js';

export const SQLITE_FILE = 'users.sqlite';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS users (
    id            TEXT PRIMARY KEY,
    full_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL
  ) STRICT;
`;

/** Rows are checked on the way out (CONVENTIONS §5: zod at the database edge). */
const PublicRow = z.object({ id: z.string(), full_name: z.string(), email: z.string() });
const RecordRow = PublicRow.extend({ password_hash: z.string() });

function toPublicUser(row: z.infer<typeof PublicRow>): PublicUser {
  return PublicUser.parse({ _id: row.id, fullName: row.full_name, email: row.email });
}

/**
 * By code alone, not `instanceof`: the native addon keeps the error class of the first JS realm that loaded it,
 * so under jest's per-file contexts the error is neither our `SqliteError` nor our realm's `Error`. The only
 * UNIQUE column besides the (random ObjectId) primary key is email.
 */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Users in one SQLite file, `users.sqlite` under `dataDir` (created if missing). WAL lets readers run beside
 * the writer; `synchronous=NORMAL` is durable in WAL mode except for the last commits on power loss.
 */
export function openSqliteUsersStore(dataDir: string): UsersRepository {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, SQLITE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Another process (a second replica, a migration) may hold the write lock for a moment.
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const insert = db.prepare<[string, string, string, string, string]>(
    'INSERT INTO users (id, full_name, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byEmail = db.prepare<[string]>('SELECT id, full_name, email, password_hash FROM users WHERE email = ?');
  const byId = db.prepare<[string]>('SELECT id, full_name, email FROM users WHERE id = ?');
  const setPasswordHash = db.prepare<[string, string]>('UPDATE users SET password_hash = ? WHERE id = ?');
  const swapPasswordHash = db.prepare<[string, string, string]>('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?');
  const deleteById = db.prepare<[string]>('DELETE FROM users WHERE id = ?');
  const select1 = db.prepare<[]>('SELECT 1 AS ok');

  return {
    async create({ fullName, email, passwordHash }: NewUser) {
      const id = new ObjectId().toHexString();
      try {
        insert.run(id, fullName, email, passwordHash, new Date().toISOString());
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateEmailError();
        throw error;
      }
      return toPublicUser({ id, full_name: fullName, email });
    },
    async findByEmail(email: string): Promise<UserRecord | null> {
      const row = byEmail.get(email);
      if (row === undefined) return null;
      const parsed = RecordRow.parse(row);
      return { ...toPublicUser(parsed), passwordHash: parsed.password_hash };
    },
    async findById(id: string) {
      const row = byId.get(id);
      return row === undefined ? null : toPublicUser(PublicRow.parse(row));
    },
    async updatePasswordHash(id: string, passwordHash: string) {
      return setPasswordHash.run(passwordHash, id).changes > 0;
    },
    async replacePasswordHash(id: string, current: string, next: string) {
      return swapPasswordHash.run(next, id, current).changes > 0;
    },
    async delete(id: string) {
      return deleteById.run(id).changes > 0;
    },
    async ping() {
      return select1.get() !== undefined;
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
