import { randomBytes } from 'node:crypto';
import type { ReminderRef } from '@tm/contracts';
import { reminderKey, ReminderState } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import { MongoClient, MongoServerError, WriteConcern, type AnyBulkWriteOperation, type ClientSession, type Collection, type Filter, type UpdateFilter } from 'mongodb';
import { z } from 'zod';
import type { PlannedRow, ReminderRow, Settlement } from './reminders.domain.js';
import type { PushSubscriptionRecord, RemindersRepository } from './reminders.repository.js';

/** One document per reminder, `_id` its key (`reminderKey`: the task, the due date and the minutes). */
export const REMINDERS_COLLECTION = 'reminders';
/** One document per browser, `_id` its push endpoint. */
export const PUSH_SUBSCRIPTIONS_COLLECTION = 'pushSubscriptions';
/** One document per person, `_id` the user id: the zone due times are read in and the change feed's cursor. */
export const REMINDER_USERS_COLLECTION = 'reminderUsers';
/**
 * One document: this schedule's own name, made by the first process to open the database. The BullMQ queue of
 * the hosts sharing this database is named by it, so schedules of other databases on the same Redis never run
 * each other's jobs (docs/ARCHITECTURE.md "Reminders").
 */
export const REMINDER_STORE_COLLECTION = 'reminderStore';
const STORE_DOCUMENT_ID = 'schedule';

/** A {@link ReminderRow} as stored, keyed by its key. */
type ReminderDocument = Omit<ReminderRow, 'key'> & {
  _id: string;
  /** Set while a process holds the reminder (a claim); absent when nobody does. */
  leaseUntil?: Date;
  updatedAt: Date;
};

/** A {@link PushSubscriptionRecord} as stored, keyed by its endpoint. */
type SubscriptionDocument = Omit<PushSubscriptionRecord, 'endpoint'> & { _id: string; createdAt: Date };

interface UserDocument {
  _id: string;
  timeZone?: string;
  feedCursor?: string;
}

interface StoreDocument {
  _id: string;
  id: string;
}

// zod at the database edge: a document written by another version or by hand must still be a reminder.
const StoredReminder = z.object({
  _id: z.string(),
  userId: z.string(),
  todoId: z.string(),
  due: z.string(),
  minutes: z.number().int().nonnegative(),
  title: z.string(),
  fireAt: z.date(),
  state: ReminderState,
  reason: z.string().nullable().default(null),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.date(),
  acknowledgedAt: z.date().nullable().default(null),
});
const StoredSubscription = z.object({ _id: z.string(), userId: z.string(), p256dh: z.string(), auth: z.string(), session: z.string(), expiresAt: z.date() });
const StoredUser = z.object({ timeZone: z.string().optional(), feedCursor: z.string().optional() });
const StoredStore = z.object({ id: z.string().min(1) });

function reminderOf(document: unknown): ReminderRow {
  const { _id, ...row } = StoredReminder.parse(document);
  return { key: _id, ...row };
}

function subscriptionOf(document: unknown): PushSubscriptionRecord {
  const { _id, ...row } = StoredSubscription.parse(document);
  return { endpoint: _id, ...row };
}

/**
 * The index of the claims and of the soonest attempt: pending reminders by their next attempt, and only those
 * (the settled ones, kept a month, cost it nothing). A partial filter of one equality, which MongoDB and the
 * compatible engines all accept.
 */
export const DUE_INDEX = { key: { nextAttemptAt: 1 }, name: 'pending_next_attempt', partialFilterExpression: { state: 'pending' } } as const;

/**
 * What a claim may take (docs/PRODUCT.md §10.17): a pending reminder due by `now` that no process holds (no
 * lease, or one that has run out). The partial index's filter is written out in it, so a planner may use it.
 */
export function claimableFilter(now: Date): Filter<ReminderDocument> {
  return { state: 'pending', nextAttemptAt: { $lte: now }, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }] };
}

/** The update documents the store sends: classic update operators only, never an aggregation pipeline (docs/ARCHITECTURE.md "Storage"). */
export const reminderUpdates = {
  /** A planned reminder: a pending one gets its time and title again, one not stored is added as pending. */
  plan: (userId: string, todoId: string, row: PlannedRow, now: Date): UpdateFilter<ReminderDocument> => ({
    $set: { title: row.title, fireAt: row.fireAt, nextAttemptAt: row.fireAt, updatedAt: now },
    $setOnInsert: { userId, todoId, due: row.due, minutes: row.minutes, state: 'pending', reason: null, attempts: 0, acknowledgedAt: null },
  }),
  hold: (until: Date): UpdateFilter<ReminderDocument> => ({ $set: { leaseUntil: until } }),
  /** What an attempt made of a claimed reminder; the hold ends. */
  settle: (settlement: Settlement, now: Date): UpdateFilter<ReminderDocument> => ({
    $set: {
      state: settlement.state,
      reason: settlement.state === 'missed' ? settlement.reason : null,
      attempts: settlement.attempts,
      nextAttemptAt: settlement.state === 'pending' ? settlement.nextAttemptAt : now,
      updatedAt: now,
    },
    $unset: { leaseUntil: '' },
  }),
  acknowledge: (now: Date): UpdateFilter<ReminderDocument> => ({ $set: { acknowledgedAt: now } }),
  keepSubscription: ({ userId, p256dh, auth, session, expiresAt }: PushSubscriptionRecord, now: Date): UpdateFilter<SubscriptionDocument> => ({
    $set: { userId, p256dh, auth, session, expiresAt },
    $setOnInsert: { createdAt: now },
  }),
  setUserField: (field: 'timeZone' | 'feedCursor', value: string): UpdateFilter<UserDocument> => ({ $set: { [field]: value } }),
  /** The schedule's name, written by whichever starter inserts the document; the others keep it. */
  nameStore: (id: string): UpdateFilter<StoreDocument> => ({ $setOnInsert: { id } }),
};

/**
 * An upsert keyed by `_id`. Two upserts of one absent `_id` at the same moment may both try the insert, and the
 * later one fails on the key: run again, it finds the document and updates it.
 */
async function upsert<T extends { _id: string }>(collection: Collection<T>, _id: string, update: UpdateFilter<T>): Promise<void> {
  const filter = { _id } as Filter<T>;
  try {
    await collection.updateOne(filter, update, { upsert: true });
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    await collection.updateOne(filter, update, { upsert: true });
  }
}

export interface MongoRemindersOptions {
  url: string;
  dbName: string;
  /** How long an operation waits for a reachable server; readiness must answer well within probe timeouts. */
  serverSelectionTimeoutMS?: number;
}

/**
 * The schedule, the push subscriptions and each person's zone in MongoDB (official driver), shared by every
 * svc-todos host of the database (docs/PRODUCT.md §10.17). A claim is one `findOneAndUpdate` that sets the
 * lease of a claimable reminder, atomic on the server: of two hosts one takes a reminder. Planning a task and
 * removing a task's or a person's reminders each run in one transaction (like the task store, MongoDB must run
 * as a replica set). The rules are reminders.domain.ts'; this class only reads and writes.
 */
export class MongoRemindersStore implements RemindersRepository {
  private readonly reminders: Collection<ReminderDocument>;
  private readonly subscriptions: Collection<SubscriptionDocument>;
  private readonly users: Collection<UserDocument>;

  private constructor(
    private readonly connection: MongoConnection,
    /** This schedule's name (made by the first process to open the database), shared by every host of the database. */
    readonly id: string,
  ) {
    this.reminders = connection.db.collection<ReminderDocument>(REMINDERS_COLLECTION);
    this.subscriptions = connection.db.collection<SubscriptionDocument>(PUSH_SUBSCRIPTIONS_COLLECTION);
    this.users = connection.db.collection<UserDocument>(REMINDER_USERS_COLLECTION);
  }

  /** Connects, makes sure of the indexes and of the schedule's name; rejects (and closes the client) when unreachable. */
  static async open({ url, dbName, serverSelectionTimeoutMS }: MongoRemindersOptions): Promise<MongoRemindersStore> {
    let id = '';
    const connection = await connectMongo({ MongoClient }, url, {
      dbName,
      serverSelectionTimeoutMS,
      indexes: {
        [REMINDERS_COLLECTION]: [
          DUE_INDEX,
          // A task's reminders (planning, cancelling; the account purge's by its userId prefix).
          { key: { userId: 1, todoId: 1 }, name: 'user_todo' },
          // A person's upcoming and missed reminders by time.
          { key: { userId: 1, fireAt: 1 }, name: 'user_fire_at' },
        ],
        [PUSH_SUBSCRIPTIONS_COLLECTION]: [{ key: { userId: 1 }, name: 'user_id' }],
      },
      setup: async (db) => {
        const store = db.collection<StoreDocument>(REMINDER_STORE_COLLECTION);
        await upsert(store, STORE_DOCUMENT_ID, reminderUpdates.nameStore(randomBytes(16).toString('hex')));
        id = StoredStore.parse(await store.findOne({ _id: STORE_DOCUMENT_ID })).id;
      },
    });
    return new MongoRemindersStore(connection, id);
  }

  /**
   * Runs `work` in one transaction. The driver may call `work` more than once (transient errors, write
   * conflicts), so it must only touch the database through `session` and decide nothing else.
   */
  private inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    return this.connection.client.withSession((session) =>
      session.withTransaction(work, { readConcern: { level: 'snapshot' }, writeConcern: new WriteConcern('majority') }),
    );
  }

  /** The keys of the pending reminders of each of `todoIds`, task by task. */
  private async pendingKeys(userId: string, todoIds: string[], session: ClientSession): Promise<string[]> {
    const documents = await this.reminders
      .find({ userId, todoId: { $in: todoIds }, state: 'pending' }, { session })
      .project<{ _id: string; todoId: string }>({ _id: 1, todoId: 1 })
      .sort({ _id: 1 })
      .toArray();
    return todoIds.flatMap((todoId) => documents.filter((document) => document.todoId === todoId).map((document) => document._id));
  }

  async replanTask(userId: string, todoId: string, planned: PlannedRow[]): Promise<{ scheduled: ReminderRow[]; cancelled: string[] }> {
    return this.inTransaction(async (session) => {
      const now = new Date();
      const keys = new Set(planned.map((row) => row.key));
      const cancelled = (await this.pendingKeys(userId, [todoId], session)).filter((key) => !keys.has(key));
      if (cancelled.length > 0) await this.reminders.deleteMany({ _id: { $in: cancelled } }, { session });
      const stored = new Map((await this.reminders.find({ _id: { $in: [...keys] } }, { session }).toArray()).map((document) => [document._id, reminderOf(document)]));
      const scheduled: ReminderRow[] = [];
      for (const row of planned) {
        const before = stored.get(row.key);
        if (before && (before.state !== 'pending' || (before.fireAt.getTime() === row.fireAt.getTime() && before.title === row.title))) continue;
        const written = await this.reminders.findOneAndUpdate({ _id: row.key }, reminderUpdates.plan(userId, todoId, row, now), { session, upsert: true, returnDocument: 'after' });
        if (written) scheduled.push(reminderOf(written));
      }
      return { scheduled, cancelled };
    });
  }

  async cancelTasks(userId: string, todoIds: string[]): Promise<string[]> {
    if (todoIds.length === 0) return [];
    return this.inTransaction(async (session) => {
      const keys = await this.pendingKeys(userId, todoIds, session);
      if (keys.length > 0) await this.reminders.deleteMany({ _id: { $in: keys } }, { session });
      return keys;
    });
  }

  async pendingTaskIds(userId: string): Promise<string[]> {
    return z.array(z.string()).parse(await this.reminders.distinct('todoId', { userId, state: 'pending' }));
  }

  async claimDue(now: Date, leaseMs: number, limit: number): Promise<ReminderRow[]> {
    // One atomic claim at a time, soonest first: a reminder another host takes meanwhile is simply not matched.
    // The keys already taken are left out, so a hold that ends at `now` (leaseMs 0) is never taken twice.
    const claimed: ReminderRow[] = [];
    while (claimed.length < limit) {
      const filter = { ...claimableFilter(now), _id: { $nin: claimed.map((row) => row.key) } };
      const document = await this.reminders.findOneAndUpdate(filter, reminderUpdates.hold(new Date(now.getTime() + leaseMs)), { sort: { nextAttemptAt: 1 } });
      if (!document) break;
      claimed.push(reminderOf(document));
    }
    return claimed;
  }

  async claim(key: string, now: Date, leaseMs: number): Promise<ReminderRow | null> {
    const document = await this.reminders.findOneAndUpdate({ ...claimableFilter(now), _id: key }, reminderUpdates.hold(new Date(now.getTime() + leaseMs)));
    return document ? reminderOf(document) : null;
  }

  async settle(key: string, settlement: Settlement, now: Date): Promise<void> {
    await this.reminders.updateOne({ _id: key, state: 'pending' }, reminderUpdates.settle(settlement, now));
  }

  async nextAttemptAt(): Promise<Date | null> {
    const document = await this.reminders.findOne({ state: 'pending' }, { sort: { nextAttemptAt: 1 } });
    return document ? reminderOf(document).nextAttemptAt : null;
  }

  async pending(afterKey: string, limit: number): Promise<ReminderRow[]> {
    return (await this.reminders.find({ state: 'pending', _id: { $gt: afterKey } }).sort({ _id: 1 }).limit(limit).toArray()).map(reminderOf);
  }

  async acknowledge(userId: string, refs: ReminderRef[], now: Date): Promise<void> {
    // The first acknowledgement's time is kept (`acknowledgedAt: null` matches only an unacknowledged reminder).
    const updates = refs.map(
      (ref): AnyBulkWriteOperation<ReminderDocument> => ({ updateOne: { filter: { _id: reminderKey(ref), userId, acknowledgedAt: null }, update: reminderUpdates.acknowledge(now) } }),
    );
    if (updates.length > 0) await this.reminders.bulkWrite(updates);
  }

  async upcoming(userId: string, until: Date, limit: number): Promise<ReminderRow[]> {
    return (await this.reminders.find({ userId, state: 'pending', fireAt: { $lte: until } }).sort({ fireAt: 1 }).limit(limit).toArray()).map(reminderOf);
  }

  async missed(userId: string, since: Date, limit: number): Promise<ReminderRow[]> {
    const documents = await this.reminders.find({ userId, state: 'missed', acknowledgedAt: null, fireAt: { $gt: since } }).sort({ fireAt: -1 }).limit(limit).toArray();
    return documents.map(reminderOf);
  }

  async keepSubscription(subscription: PushSubscriptionRecord): Promise<void> {
    await upsert(this.subscriptions, subscription.endpoint, reminderUpdates.keepSubscription(subscription, new Date()));
  }

  async removeSubscription(userId: string, endpoint: string): Promise<number> {
    return (await this.subscriptions.deleteOne({ _id: endpoint, userId })).deletedCount;
  }

  async removeSessions(userId: string, { sessions = [], all = false, keep }: { sessions?: string[]; all?: boolean; keep?: string }): Promise<number> {
    if (all) return (await this.subscriptions.deleteMany({ userId, session: { $ne: keep ?? '' } })).deletedCount;
    if (sessions.length === 0) return 0;
    return (await this.subscriptions.deleteMany({ userId, session: { $in: sessions } })).deletedCount;
  }

  async subscriptionsOf(userId: string, now: Date): Promise<PushSubscriptionRecord[]> {
    // Oldest first; the endpoint orders two kept in the same millisecond.
    return (await this.subscriptions.find({ userId, expiresAt: { $gt: now } }).sort({ createdAt: 1, _id: 1 }).toArray()).map(subscriptionOf);
  }

  /** One field of the user's document (null when none). */
  private async userField(userId: string, field: 'timeZone' | 'feedCursor'): Promise<string | null> {
    const document = await this.users.findOne({ _id: userId });
    return (document ? StoredUser.parse(document)[field] : undefined) ?? null;
  }

  async timeZoneOf(userId: string): Promise<string | null> {
    return this.userField(userId, 'timeZone');
  }

  async setTimeZone(userId: string, timeZone: string): Promise<void> {
    await upsert(this.users, userId, reminderUpdates.setUserField('timeZone', timeZone));
  }

  async feedCursor(userId: string): Promise<string | null> {
    return this.userField(userId, 'feedCursor');
  }

  async setFeedCursor(userId: string, cursor: string): Promise<void> {
    await upsert(this.users, userId, reminderUpdates.setUserField('feedCursor', cursor));
  }

  async purgeUser(userId: string): Promise<number> {
    return this.inTransaction(async (session) => {
      const reminders = (await this.reminders.deleteMany({ userId }, { session })).deletedCount;
      const subscriptions = (await this.subscriptions.deleteMany({ userId }, { session })).deletedCount;
      await this.users.deleteOne({ _id: userId }, { session });
      return reminders + subscriptions;
    });
  }

  async sweep(now: Date, before: Date): Promise<number> {
    const subscriptions = await this.subscriptions.deleteMany({ expiresAt: { $lte: now } });
    const reminders = await this.reminders.deleteMany({ state: { $ne: 'pending' }, fireAt: { $lt: before } });
    return subscriptions.deletedCount + reminders.deletedCount;
  }

  async ping(): Promise<boolean> {
    return this.connection.ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
