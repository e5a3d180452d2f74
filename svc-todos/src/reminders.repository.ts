import type { ReminderRef } from '@tm/contracts';
import type { PlannedRow, ReminderRow, Settlement } from './reminders.domain.js';

// The port of the reminder scheduler's storage (docs/PRODUCT.md §10.17): the schedule, the browsers' push
// subscriptions, each person's time zone and how far the scheduler has read each person's change feed. The
// rules are in reminders.domain.ts; a store only reads and writes.

/** One browser's push subscription, tied to the session it was made in (SECURITY.md "Reminders"). */
export interface PushSubscriptionRecord {
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The gateway's HMAC of the session id. */
  session: string;
  /** Past this the session has ended by its lifetimes: no push goes there, the sweep removes it. */
  expiresAt: Date;
}

export interface RemindersRepository {
  /**
   * This schedule's own name, made once with the schedule and read alike by every process sharing it: their
   * BullMQ queue is named by it, so schedules of other stores on the same Redis never run each other's jobs.
   */
  readonly id: string;
  /**
   * The task's reminders are now `planned` (the rule's `planTask`), in one transaction: a planned reminder not
   * stored yet is added as pending; a pending one gets its new time and title; a pending one of the task that
   * is not planned any more is removed. Sent and missed ones stay as they are. Resolves the keys added or
   * moved (to schedule) and those removed (to cancel).
   */
  replanTask(userId: string, todoId: string, planned: PlannedRow[]): Promise<{ scheduled: ReminderRow[]; cancelled: string[] }>;
  /** The pending reminders of tasks that are gone (deleted) are removed; resolves their keys. */
  cancelTasks(userId: string, todoIds: string[]): Promise<string[]>;
  /** The ids of the user's tasks with a pending reminder. */
  pendingTaskIds(userId: string): Promise<string[]>;
  /**
   * Takes up to `limit` pending reminders due by `now` (their next attempt), holding each for `leaseMs`: another
   * process (or this one after a crash) may take one again only once its hold has passed. Soonest first.
   */
  claimDue(now: Date, leaseMs: number, limit: number): Promise<ReminderRow[]>;
  /** Takes the one pending reminder `key` when due by `now` and not held; null otherwise (sent, gone, held elsewhere). */
  claim(key: string, now: Date, leaseMs: number): Promise<ReminderRow | null>;
  /** Writes what an attempt made of a claimed reminder, and releases it. */
  settle(key: string, settlement: Settlement, now: Date): Promise<void>;
  /** The time of the soonest pending attempt, or null. */
  nextAttemptAt(): Promise<Date | null>;
  /** Every pending reminder, soonest first, `limit` at a time after `afterKey` (a queue filled again at start). */
  pending(afterKey: string, limit: number): Promise<ReminderRow[]>;
  /** Marks the user's reminders as shown (or their missed notice dismissed). */
  acknowledge(userId: string, refs: ReminderRef[], now: Date): Promise<void>;
  /** The user's pending reminders coming by `until`, soonest first. */
  upcoming(userId: string, until: Date, limit: number): Promise<ReminderRow[]>;
  /** The user's missed, unacknowledged reminders that came after `since`, newest first. */
  missed(userId: string, since: Date, limit: number): Promise<ReminderRow[]>;

  keepSubscription(subscription: PushSubscriptionRecord): Promise<void>;
  /** Resolves how many were removed (0 or 1): an endpoint is one browser. */
  removeSubscription(userId: string, endpoint: string): Promise<number>;
  /** Removes the user's subscriptions of `sessions`, or with `all` every one but those of `keep`. */
  removeSessions(userId: string, ended: { sessions?: string[]; all?: boolean; keep?: string }): Promise<number>;
  /** The user's subscriptions whose session has not expired by `now`. */
  subscriptionsOf(userId: string, now: Date): Promise<PushSubscriptionRecord[]>;

  timeZoneOf(userId: string): Promise<string | null>;
  setTimeZone(userId: string, timeZone: string): Promise<void>;
  /** The change feed position up to which the user's task writes are planned; null before any. */
  feedCursor(userId: string): Promise<string | null>;
  setFeedCursor(userId: string, cursor: string): Promise<void>;

  /** Removes everything of the user (account deletion); resolves how many reminders and subscriptions. */
  purgeUser(userId: string): Promise<number>;
  /** Removes expired subscriptions and settled reminders older than `before`. */
  sweep(now: Date, before: Date): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
