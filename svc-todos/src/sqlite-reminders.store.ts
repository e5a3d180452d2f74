import path from 'node:path';
import type { ReminderRef } from '@tm/contracts';
import { reminderKey } from '@tm/contracts';
import { closeSqlite, openSqlite, pingSqlite, type OpenSqliteOptions, type SqliteDatabase } from '@tm/service-kit/sqlite';
import type { PlannedRow, ReminderRow, Settlement } from './reminders.domain.js';
import type { PushSubscriptionRecord, RemindersRepository } from './reminders.repository.js';

/** The reminder scheduler's file under DATA_DIR, beside todos.sqlite (docs/ARCHITECTURE.md "Reminders"). */
export const REMINDERS_SQLITE_FILE = 'reminders.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS reminders (
  key TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  todo_id TEXT NOT NULL,
  due TEXT NOT NULL,
  minutes INTEGER NOT NULL CHECK (minutes >= 0),
  title TEXT NOT NULL,
  fire_at INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'missed')),
  reason TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER,
  acknowledged_at INTEGER,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS reminders_due ON reminders (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS reminders_task ON reminders (user_id, todo_id);
CREATE INDEX IF NOT EXISTS reminders_user_time ON reminders (user_id, fire_at);
CREATE TABLE IF NOT EXISTS push_subscriptions (
  endpoint TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  session TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS push_subscriptions_user ON push_subscriptions (user_id);
-- This schedule's own name, made once: the BullMQ queue of the processes sharing this file is named by it, so
-- schedules of other data folders on the same Redis never run each other's jobs.
CREATE TABLE IF NOT EXISTS reminder_store (id TEXT PRIMARY KEY) STRICT;
INSERT INTO reminder_store (id) SELECT lower(hex(randomblob(16))) WHERE NOT EXISTS (SELECT 1 FROM reminder_store);
CREATE TABLE IF NOT EXISTS reminder_users (
  user_id TEXT PRIMARY KEY,
  time_zone TEXT,
  feed_cursor TEXT
) STRICT;
`;

interface Row {
  key: string;
  user_id: string;
  todo_id: string;
  due: string;
  minutes: number;
  title: string;
  fire_at: number;
  state: ReminderRow['state'];
  reason: string | null;
  attempts: number;
  next_attempt_at: number;
  acknowledged_at: number | null;
}

interface SubscriptionRow {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
  session: string;
  expires_at: number;
}

const reminderOf = (row: Row): ReminderRow => ({
  key: row.key,
  userId: row.user_id,
  todoId: row.todo_id,
  due: row.due,
  minutes: row.minutes,
  title: row.title,
  fireAt: new Date(row.fire_at),
  state: row.state,
  reason: row.reason,
  attempts: row.attempts,
  nextAttemptAt: new Date(row.next_attempt_at),
  acknowledgedAt: row.acknowledged_at === null ? null : new Date(row.acknowledged_at),
});

const subscriptionOf = (row: SubscriptionRow): PushSubscriptionRecord => ({
  userId: row.user_id,
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  session: row.session,
  expiresAt: new Date(row.expires_at),
});

export interface SqliteRemindersOptions {
  dataDir: string;
  busyTimeoutMs?: number;
  opening?: OpenSqliteOptions['opening'];
}

/**
 * The schedule, the push subscriptions and each person's zone in `<dataDir>/reminders.sqlite` (WAL, shared by
 * the processes of one DATA_DIR like todos.sqlite). A claim is a compare-and-set in a `BEGIN IMMEDIATE`
 * transaction, so of two processes one takes a reminder; the primary key is the reminder's dedup key.
 */
export class SqliteRemindersStore implements RemindersRepository {
  private constructor(private readonly db: SqliteDatabase) {}

  static open({ dataDir, busyTimeoutMs, opening }: SqliteRemindersOptions): SqliteRemindersStore {
    return new SqliteRemindersStore(openSqlite(path.join(dataDir, REMINDERS_SQLITE_FILE), { busyTimeoutMs, opening, setup: (db) => db.exec(SCHEMA) }));
  }

  /** This schedule's name (made when the file was first opened), shared by every process of this data folder. */
  get id(): string {
    return (this.db.prepare<[], { id: string }>('SELECT id FROM reminder_store').get() as { id: string }).id;
  }

  private inTransaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  async replanTask(userId: string, todoId: string, planned: PlannedRow[]): Promise<{ scheduled: ReminderRow[]; cancelled: string[] }> {
    return this.inTransaction(() => {
      const now = Date.now();
      const keys = new Set(planned.map((row) => row.key));
      const cancelled = this.db
        .prepare<[string, string], { key: string }>("SELECT key FROM reminders WHERE user_id = ? AND todo_id = ? AND state = 'pending'")
        .all(userId, todoId)
        .map((row) => row.key)
        .filter((key) => !keys.has(key));
      const remove = this.db.prepare<[string]>('DELETE FROM reminders WHERE key = ?');
      for (const key of cancelled) remove.run(key);
      const scheduled: ReminderRow[] = [];
      const find = this.db.prepare<[string], Row>('SELECT * FROM reminders WHERE key = ?');
      for (const row of planned) {
        const stored = find.get(row.key);
        if (stored && (stored.state !== 'pending' || (stored.fire_at === row.fireAt.getTime() && stored.title === row.title))) continue;
        this.db
          .prepare(
            `INSERT INTO reminders (key, user_id, todo_id, due, minutes, title, fire_at, state, attempts, next_attempt_at, updated_at)
             VALUES (@key, @userId, @todoId, @due, @minutes, @title, @fireAt, 'pending', 0, @fireAt, @now)
             ON CONFLICT (key) DO UPDATE SET title = excluded.title, fire_at = excluded.fire_at, next_attempt_at = excluded.fire_at, updated_at = excluded.updated_at`,
          )
          .run({ key: row.key, userId, todoId, due: row.due, minutes: row.minutes, title: row.title, fireAt: row.fireAt.getTime(), now });
        const written = find.get(row.key);
        if (written) scheduled.push(reminderOf(written));
      }
      return { scheduled, cancelled };
    });
  }

  async cancelTasks(userId: string, todoIds: string[]): Promise<string[]> {
    return this.inTransaction(() => {
      const select = this.db.prepare<[string, string], { key: string }>("SELECT key FROM reminders WHERE user_id = ? AND todo_id = ? AND state = 'pending'");
      const keys = todoIds.flatMap((todoId) => select.all(userId, todoId).map((row) => row.key));
      const remove = this.db.prepare<[string]>('DELETE FROM reminders WHERE key = ?');
      for (const key of keys) remove.run(key);
      return keys;
    });
  }

  async pendingTaskIds(userId: string): Promise<string[]> {
    return this.db
      .prepare<[string], { todo_id: string }>("SELECT DISTINCT todo_id FROM reminders WHERE user_id = ? AND state = 'pending'")
      .all(userId)
      .map((row) => row.todo_id);
  }

  async claimDue(now: Date, leaseMs: number, limit: number): Promise<ReminderRow[]> {
    return this.inTransaction(() => {
      const rows = this.db
        .prepare<[number, number, number], Row>(
          "SELECT * FROM reminders WHERE state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY next_attempt_at LIMIT ?",
        )
        .all(now.getTime(), now.getTime(), limit);
      const hold = this.db.prepare<[number, string]>('UPDATE reminders SET lease_until = ? WHERE key = ?');
      for (const row of rows) hold.run(now.getTime() + leaseMs, row.key);
      return rows.map(reminderOf);
    });
  }

  async claim(key: string, now: Date, leaseMs: number): Promise<ReminderRow | null> {
    return this.inTransaction(() => {
      const row = this.db
        .prepare<[string, number, number], Row>("SELECT * FROM reminders WHERE key = ? AND state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)")
        .get(key, now.getTime(), now.getTime());
      if (!row) return null;
      this.db.prepare<[number, string]>('UPDATE reminders SET lease_until = ? WHERE key = ?').run(now.getTime() + leaseMs, key);
      return reminderOf(row);
    });
  }

  async settle(key: string, settlement: Settlement, now: Date): Promise<void> {
    const nextAttemptAt = settlement.state === 'pending' ? settlement.nextAttemptAt.getTime() : now.getTime();
    const reason = settlement.state === 'missed' ? settlement.reason : null;
    this.db
      .prepare<[string, string | null, number, number, number, string]>(
        "UPDATE reminders SET state = ?, reason = ?, attempts = ?, next_attempt_at = ?, lease_until = NULL, updated_at = ? WHERE key = ? AND state = 'pending'",
      )
      .run(settlement.state, reason, settlement.attempts, nextAttemptAt, now.getTime(), key);
  }

  async nextAttemptAt(): Promise<Date | null> {
    const row = this.db.prepare<[], { at: number | null }>("SELECT MIN(next_attempt_at) AS at FROM reminders WHERE state = 'pending'").get();
    return row?.at == null ? null : new Date(row.at);
  }

  async pending(afterKey: string, limit: number): Promise<ReminderRow[]> {
    return this.db.prepare<[string, number], Row>("SELECT * FROM reminders WHERE state = 'pending' AND key > ? ORDER BY key LIMIT ?").all(afterKey, limit).map(reminderOf);
  }

  async acknowledge(userId: string, refs: ReminderRef[], now: Date): Promise<void> {
    const update = this.db.prepare<[number, string, string]>('UPDATE reminders SET acknowledged_at = COALESCE(acknowledged_at, ?) WHERE key = ? AND user_id = ?');
    this.inTransaction(() => {
      for (const ref of refs) update.run(now.getTime(), reminderKey(ref), userId);
    });
  }

  async upcoming(userId: string, until: Date, limit: number): Promise<ReminderRow[]> {
    return this.db
      .prepare<[string, number, number], Row>("SELECT * FROM reminders WHERE user_id = ? AND state = 'pending' AND fire_at <= ? ORDER BY fire_at LIMIT ?")
      .all(userId, until.getTime(), limit)
      .map(reminderOf);
  }

  async missed(userId: string, since: Date, limit: number): Promise<ReminderRow[]> {
    return this.db
      .prepare<[string, number, number], Row>(
        "SELECT * FROM reminders WHERE user_id = ? AND state = 'missed' AND acknowledged_at IS NULL AND fire_at > ? ORDER BY fire_at DESC LIMIT ?",
      )
      .all(userId, since.getTime(), limit)
      .map(reminderOf);
  }

  async keepSubscription(subscription: PushSubscriptionRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, session, expires_at, created_at)
         VALUES (@endpoint, @userId, @p256dh, @auth, @session, @expiresAt, @now)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           session = excluded.session, expires_at = excluded.expires_at`,
      )
      .run({ ...subscription, expiresAt: subscription.expiresAt.getTime(), now: Date.now() });
  }

  async removeSubscription(userId: string, endpoint: string): Promise<number> {
    return this.db.prepare<[string, string]>('DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?').run(userId, endpoint).changes;
  }

  async removeSessions(userId: string, { sessions = [], all = false, keep }: { sessions?: string[]; all?: boolean; keep?: string }): Promise<number> {
    if (all) return this.db.prepare<[string, string]>('DELETE FROM push_subscriptions WHERE user_id = ? AND session <> ?').run(userId, keep ?? '').changes;
    const remove = this.db.prepare<[string, string]>('DELETE FROM push_subscriptions WHERE user_id = ? AND session = ?');
    return this.inTransaction(() => sessions.reduce((removed, session) => removed + remove.run(userId, session).changes, 0));
  }

  async subscriptionsOf(userId: string, now: Date): Promise<PushSubscriptionRecord[]> {
    return this.db
      .prepare<[string, number], SubscriptionRow>('SELECT * FROM push_subscriptions WHERE user_id = ? AND expires_at > ? ORDER BY created_at')
      .all(userId, now.getTime())
      .map(subscriptionOf);
  }

  /** One column of the user's row of reminder_users (null when none). */
  private userColumn(userId: string, column: 'time_zone' | 'feed_cursor'): string | null {
    return this.db.prepare<[string], Record<string, string | null>>(`SELECT ${column} AS value FROM reminder_users WHERE user_id = ?`).get(userId)?.value ?? null;
  }

  private setUserColumn(userId: string, column: 'time_zone' | 'feed_cursor', value: string): void {
    this.db.prepare<[string, string]>(`INSERT INTO reminder_users (user_id, ${column}) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET ${column} = excluded.${column}`).run(userId, value);
  }

  async timeZoneOf(userId: string): Promise<string | null> {
    return this.userColumn(userId, 'time_zone');
  }

  async setTimeZone(userId: string, timeZone: string): Promise<void> {
    this.setUserColumn(userId, 'time_zone', timeZone);
  }

  async feedCursor(userId: string): Promise<string | null> {
    return this.userColumn(userId, 'feed_cursor');
  }

  async setFeedCursor(userId: string, cursor: string): Promise<void> {
    this.setUserColumn(userId, 'feed_cursor', cursor);
  }

  async purgeUser(userId: string): Promise<number> {
    return this.inTransaction(() => {
      const reminders = this.db.prepare<[string]>('DELETE FROM reminders WHERE user_id = ?').run(userId).changes;
      const subscriptions = this.db.prepare<[string]>('DELETE FROM push_subscriptions WHERE user_id = ?').run(userId).changes;
      this.db.prepare<[string]>('DELETE FROM reminder_users WHERE user_id = ?').run(userId);
      return reminders + subscriptions;
    });
  }

  async sweep(now: Date, before: Date): Promise<number> {
    return this.inTransaction(
      () =>
        this.db.prepare<[number]>('DELETE FROM push_subscriptions WHERE expires_at <= ?').run(now.getTime()).changes +
        this.db.prepare<[number]>("DELETE FROM reminders WHERE state <> 'pending' AND fire_at < ?").run(before.getTime()).changes,
    );
  }

  async ping(): Promise<boolean> {
    return pingSqlite(this.db);
  }

  async close(): Promise<void> {
    closeSqlite(this.db);
  }
}
