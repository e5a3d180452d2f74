import path from 'node:path';
import { PublicUser } from '@tm/contracts';
import { closeSqlite, openSqlite, pingSqlite, type OpenSqliteOptions, type SqliteDatabase } from '@tm/service-kit/sqlite';
import { ObjectId } from 'bson';
import { z } from 'zod';
import {
  DuplicateEmailError,
  type CalendarFeedRecord,
  type NewPasswordReset,
  type NewUser,
  type PasswordHashEffects,
  type PasswordResetRecord,
  type ProfileChanges,
  type UserRecord,
  type UsersRepository,
} from './users.repository.js';

export const SQLITE_FILE = 'users.sqlite';

/**
 * Times are milliseconds since the epoch, as in every SQLite file of the project (docs/ARCHITECTURE.md,
 * "Storage"). `time_zone` is the account's IANA time zone (docs/PRODUCT.md §10.14), NULL while none is set.
 * `calendar_feed_hash` and `calendar_feed_at` are the account's calendar feed (docs/PRODUCT.md §10.18): the
 * SHA-256 of its token and when it was made, both NULL while it is off.
 */
const USERS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS users (
    id            TEXT PRIMARY KEY,
    full_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    time_zone     TEXT,
    calendar_feed_hash TEXT,
    calendar_feed_at   INTEGER
  ) STRICT;
`;

/**
 * Password reset links (SECURITY.md "Password reset"): the SHA-256 digest of each link's token, never the
 * token. A file from before they existed gets the table when it is opened (IF NOT EXISTS). Deleting a user
 * deletes its links (the foreign key; openSqlite turns foreign keys on).
 */
const RESETS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
  ) STRICT;
  CREATE INDEX IF NOT EXISTS password_resets_by_user ON password_resets (user_id);
  CREATE INDEX IF NOT EXISTS password_resets_by_expiry ON password_resets (expires_at);
`;

/**
 * Files written before the time representation was unified hold `created_at` as ISO 8601 text: the table
 * is rebuilt with the same rows, the times turned into milliseconds since the epoch. STRICT tables cannot
 * change a column's type in place. Runs inside the opening transaction, so concurrent openers agree.
 */
function migrate(db: SqliteDatabase): void {
  const createdAt = db.prepare<[], { type: string }>("SELECT type FROM pragma_table_info('users') WHERE name = 'created_at'").get();
  if (createdAt?.type !== 'TEXT') return;
  db.function('iso_to_epoch_ms', { deterministic: true }, (iso: unknown) => Date.parse(String(iso)));
  db.exec(`
    ALTER TABLE users RENAME TO users_iso_times;
    ${USERS_SCHEMA}
    INSERT INTO users (id, full_name, email, password_hash, created_at)
      SELECT id, full_name, email, password_hash, iso_to_epoch_ms(created_at) FROM users_iso_times;
    DROP TABLE users_iso_times;
  `);
}

/**
 * A file whose users table has no `time_zone` gets the column in place (ALTER TABLE … ADD COLUMN keeps every
 * row; a STRICT table takes a new nullable TEXT column), NULL for every existing account: no time zone set, so
 * the account follows the browser it is used in (docs/PRODUCT.md §10.14). Runs inside the opening transaction,
 * after the table exists, so concurrent openers agree.
 */
function addTimeZoneColumn(db: SqliteDatabase): void {
  const timeZone = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('users') WHERE name = 'time_zone'").get();
  if (timeZone === undefined) db.exec('ALTER TABLE users ADD COLUMN time_zone TEXT');
}

/**
 * A file whose users table has no calendar feed columns gets them in place, like the time zone's (every row
 * kept, NULL: no feed), and the unique index a feed is found by (NULLs do not collide). Runs inside the opening
 * transaction, after the table exists, so concurrent openers agree.
 */
function addCalendarFeedColumns(db: SqliteDatabase): void {
  const columns = new Set(db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('users')").all().map(({ name }) => name));
  if (!columns.has('calendar_feed_hash')) db.exec('ALTER TABLE users ADD COLUMN calendar_feed_hash TEXT');
  if (!columns.has('calendar_feed_at')) db.exec('ALTER TABLE users ADD COLUMN calendar_feed_at INTEGER');
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS users_by_calendar_feed ON users (calendar_feed_hash)');
}

/** Rows are checked on the way out (docs/ARCHITECTURE.md, "Layers": zod at the database edge). */
const PublicRow = z.object({ id: z.string(), full_name: z.string(), email: z.string(), time_zone: z.string().nullable() });
const RecordRow = PublicRow.extend({ password_hash: z.string() });
const FeedRow = z.object({ calendar_feed_hash: z.string().nullable(), calendar_feed_at: z.number().int().nullable() });
const ResetRow = z.object({
  token_hash: z.string(),
  user_id: z.string(),
  created_at: z.number().int(),
  expires_at: z.number().int(),
  used_at: z.number().int().nullable(),
});

function toResetRecord(row: z.infer<typeof ResetRow>): PasswordResetRecord {
  return {
    tokenHash: row.token_hash,
    userId: row.user_id,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    usedAt: row.used_at === null ? null : new Date(row.used_at),
  };
}

/** A NULL time zone is none set: the field is left out (docs/PRODUCT.md §10.14). */
function toPublicUser(row: z.infer<typeof PublicRow>): PublicUser {
  return PublicUser.parse({ _id: row.id, fullName: row.full_name, email: row.email, ...(row.time_zone === null ? {} : { timeZone: row.time_zone }) });
}

/**
 * By code alone, not `instanceof`: the native addon keeps the error class of the first JS realm that loaded it,
 * so under jest's per-file contexts the error is neither our `SqliteError` nor our realm's `Error`. The only
 * UNIQUE column besides the (random ObjectId) primary key is email.
 */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function prepareStatements(db: SqliteDatabase) {
  const swapPasswordHash = db.prepare<[string, string, string]>('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?');
  const deleteResetsOf = db.prepare<[string]>('DELETE FROM password_resets WHERE user_id = ?');
  return {
    insert: db.prepare<[string, string, string, string, number, string | null]>(
      'INSERT INTO users (id, full_name, email, password_hash, created_at, time_zone) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    byEmail: db.prepare<[string]>('SELECT id, full_name, email, time_zone, password_hash FROM users WHERE email = ?'),
    byId: db.prepare<[string]>('SELECT id, full_name, email, time_zone FROM users WHERE id = ?'),
    setPasswordHash: db.prepare<[string, string]>('UPDATE users SET password_hash = ? WHERE id = ?'),
    swapPasswordHash,
    /** The swap and the end of the user's reset links together; nothing when the swap matched nothing. */
    swapPasswordHashEndingResets: db.transaction((id: string, current: string, next: string): boolean => {
      if (swapPasswordHash.run(next, id, current).changes === 0) return false;
      deleteResetsOf.run(id);
      return true;
    }),
    setProfile: db.prepare<[string | null, string | null, string | null, string]>(
      'UPDATE users SET full_name = coalesce(?, full_name), email = coalesce(?, email), time_zone = coalesce(?, time_zone) WHERE id = ?',
    ),
    deleteById: db.prepare<[string]>('DELETE FROM users WHERE id = ?'),
    setFeed: db.prepare<[string | null, number | null, string]>('UPDATE users SET calendar_feed_hash = ?, calendar_feed_at = ? WHERE id = ?'),
    feedOf: db.prepare<[string]>('SELECT calendar_feed_hash, calendar_feed_at FROM users WHERE id = ?'),
    byFeed: db.prepare<[string]>('SELECT id, full_name, email, time_zone FROM users WHERE calendar_feed_hash = ?'),
    insertReset: db.prepare<[string, string, number, number]>(
      'INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    ),
    resetByHash: db.prepare<[string]>('SELECT token_hash, user_id, created_at, expires_at, used_at FROM password_resets WHERE token_hash = ?'),
    useReset: db.prepare<[number, string]>('UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL'),
    deleteResetsOf,
    deleteExpiredResets: db.prepare<[number]>('DELETE FROM password_resets WHERE expires_at < ?'),
  };
}

export interface SqliteUsersOptions {
  /** Folder holding `users.sqlite`; created when missing. */
  dataDir: string;
  /** Source of `createdAt`; tests may inject a fake clock. */
  now?: () => Date;
  /** The start-up's bound on opening (server.ts; see openSqlite). */
  opening?: OpenSqliteOptions['opening'];
}

/** Users in one SQLite file, `users.sqlite` under `dataDir`, opened by the shared {@link openSqlite}. */
export class SqliteUsersStore implements UsersRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;

  private constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date,
  ) {
    this.statements = prepareStatements(db);
  }

  /** Opens (creating if needed) `<dataDir>/users.sqlite` with its schema, migrating an older file. */
  static open({ dataDir, now = () => new Date(), opening }: SqliteUsersOptions): SqliteUsersStore {
    const db = openSqlite(path.join(dataDir, SQLITE_FILE), {
      opening,
      setup: (db) => {
        migrate(db);
        db.exec(USERS_SCHEMA);
        addTimeZoneColumn(db);
        addCalendarFeedColumns(db);
        db.exec(RESETS_SCHEMA);
      },
    });
    return new SqliteUsersStore(db, now);
  }

  async create({ fullName, email, passwordHash, timeZone }: NewUser): Promise<PublicUser> {
    const id = new ObjectId().toHexString();
    try {
      this.statements.insert.run(id, fullName, email, passwordHash, this.now().getTime(), timeZone ?? null);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateEmailError();
      throw error;
    }
    return toPublicUser({ id, full_name: fullName, email, time_zone: timeZone ?? null });
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const row = this.statements.byEmail.get(email);
    if (row === undefined) return null;
    const parsed = RecordRow.parse(row);
    return { ...toPublicUser(parsed), passwordHash: parsed.password_hash };
  }

  async findById(id: string): Promise<PublicUser | null> {
    const row = this.statements.byId.get(id);
    return row === undefined ? null : toPublicUser(PublicRow.parse(row));
  }

  async updatePasswordHash(id: string, passwordHash: string): Promise<boolean> {
    return this.statements.setPasswordHash.run(passwordHash, id).changes > 0;
  }

  async replacePasswordHash(id: string, current: string, next: string, { endResetLinks = false }: PasswordHashEffects = {}): Promise<boolean> {
    // BEGIN IMMEDIATE: the write lock up front, so another process's writer makes it wait (busy_timeout), not fail.
    if (endResetLinks) return this.statements.swapPasswordHashEndingResets.immediate(id, current, next);
    return this.statements.swapPasswordHash.run(next, id, current).changes > 0;
  }

  async updateProfile(id: string, { fullName, email, timeZone }: ProfileChanges): Promise<PublicUser | null> {
    try {
      this.statements.setProfile.run(fullName ?? null, email ?? null, timeZone ?? null, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateEmailError();
      throw error;
    }
    return this.findById(id);
  }

  async delete(id: string): Promise<boolean> {
    return this.statements.deleteById.run(id).changes > 0;
  }

  async setCalendarFeed(id: string, { tokenHash, createdAt }: CalendarFeedRecord): Promise<boolean> {
    return this.statements.setFeed.run(tokenHash, createdAt.getTime(), id).changes > 0;
  }

  async clearCalendarFeed(id: string): Promise<boolean> {
    return this.statements.setFeed.run(null, null, id).changes > 0;
  }

  async findCalendarFeed(id: string): Promise<CalendarFeedRecord | null> {
    const row = this.statements.feedOf.get(id);
    if (row === undefined) return null;
    const { calendar_feed_hash: tokenHash, calendar_feed_at: at } = FeedRow.parse(row);
    return tokenHash === null || at === null ? null : { tokenHash, createdAt: new Date(at) };
  }

  async findByCalendarFeed(tokenHash: string): Promise<PublicUser | null> {
    const row = this.statements.byFeed.get(tokenHash);
    return row === undefined ? null : toPublicUser(PublicRow.parse(row));
  }

  async createPasswordReset({ tokenHash, userId, createdAt, expiresAt }: NewPasswordReset): Promise<void> {
    this.statements.insertReset.run(tokenHash, userId, createdAt.getTime(), expiresAt.getTime());
  }

  async findPasswordReset(tokenHash: string): Promise<PasswordResetRecord | null> {
    const row = this.statements.resetByHash.get(tokenHash);
    return row === undefined ? null : toResetRecord(ResetRow.parse(row));
  }

  async consumePasswordReset(tokenHash: string, usedAt: Date): Promise<boolean> {
    return this.statements.useReset.run(usedAt.getTime(), tokenHash).changes > 0;
  }

  async deletePasswordResets(userId: string): Promise<number> {
    return this.statements.deleteResetsOf.run(userId).changes;
  }

  async deleteExpiredPasswordResets(now: Date): Promise<number> {
    return this.statements.deleteExpiredResets.run(now.getTime()).changes;
  }

  async ping(): Promise<boolean> {
    return pingSqlite(this.db);
  }

  async close(): Promise<void> {
    closeSqlite(this.db);
  }
}
