// The schedule's stores, one contract for both (docs/PRODUCT.md §10.17; docs/ARCHITECTURE.md "Testing"):
// planning keeps one reminder per key, two processes never claim the same one, an attempt's outcome and the
// acknowledgements are kept, subscriptions go with their sessions, and an account takes everything with it.
import { MongoClient, ObjectId } from 'mongodb';
import { tempDir } from '@tm/test-support';
import { DUE_INDEX, MongoRemindersStore, PUSH_SUBSCRIPTIONS_COLLECTION, REMINDER_STORE_COLLECTION, REMINDERS_COLLECTION } from './mongo-reminders.store.js';
import { planTask } from './reminders.domain.js';
import type { RemindersRepository } from './reminders.repository.js';
import { SqliteRemindersStore } from './sqlite-reminders.store.js';

/** One schedule (a data folder, a database): each `open` is another process on it. */
interface Schedule {
  open: () => Promise<RemindersRepository>;
  remove: () => Promise<void>;
}

interface StoreHarness {
  /** A schedule of its own, for one test. */
  schedule: () => Promise<Schedule>;
}

const id = 'c'.repeat(24);
const now = new Date('2027-05-08T06:00:00Z');
const due = new Date('2027-05-10T09:00:00Z');
const at = (minutes: number) => new Date(due.getTime() + minutes * 60_000);
const task = { _id: id, title: 'Pay rent', completed: false, due: '2027-05-10T09:00', reminders: [0, 60] };
const keyOf = (minutes: number) => `${id}.2027-05-10T09:00.${minutes}`;
const subscription = (endpoint: string, session: string) => ({ userId: 'u1', endpoint, p256dh: 'p'.repeat(87), auth: 'a'.repeat(22), session, expiresAt: new Date('2030-01-01T00:00:00Z') });

function describeRemindersRepositoryContract(harness: StoreHarness): void {
  let schedule: Schedule;
  let store: RemindersRepository;
  let other: RemindersRepository;

  beforeEach(async () => {
    schedule = await harness.schedule();
    store = await schedule.open();
    other = await schedule.open();
  });
  afterEach(async () => {
    await store.close();
    await other.close();
    await schedule.remove();
  });

  it('names the schedule once: every process on it reads the same id, another schedule has another', async () => {
    expect(store.id).toMatch(/^[0-9a-f]{32}$/);
    expect(other.id).toBe(store.id);
    const second = await harness.schedule();
    const elsewhere = await second.open();
    try {
      expect(elsewhere.id).not.toBe(store.id);
    } finally {
      await elsewhere.close();
      await second.remove();
    }
    await expect(store.ping()).resolves.toBe(true);
  });

  it('keeps one reminder per key however often the task is planned, moves pending ones and drops the unplanned', async () => {
    const first = await store.replanTask('u1', id, planTask('u1', task, 'UTC', now));
    expect(first.scheduled.map((row) => row.minutes)).toEqual([60, 0]);
    expect(first.scheduled[0]).toEqual({ key: keyOf(60), userId: 'u1', todoId: id, due: task.due, minutes: 60, title: 'Pay rent', fireAt: at(-60), state: 'pending', reason: null, attempts: 0, nextAttemptAt: at(-60), acknowledgedAt: null });
    expect(await store.replanTask('u1', id, planTask('u1', task, 'UTC', now))).toEqual({ scheduled: [], cancelled: [] });
    expect(await store.pendingTaskIds('u1')).toEqual([id]);
    // Another zone moves both; a reminder taken off the task goes.
    const moved = await store.replanTask('u1', id, planTask('u1', { ...task, reminders: [0] }, 'Europe/Paris', now));
    expect(moved.cancelled).toEqual([keyOf(60)]);
    expect(moved.scheduled.map((row) => row.fireAt.toISOString())).toEqual(['2027-05-10T07:00:00.000Z']);
    expect((await store.upcoming('u1', new Date('2027-06-01T00:00:00Z'), 10)).map((row) => row.key)).toEqual([keyOf(0)]);
    expect(await store.cancelTasks('u1', [id])).toEqual([keyOf(0)]);
    expect(await store.nextAttemptAt()).toBeNull();
    expect(await store.pendingTaskIds('u1')).toEqual([]);
  });

  it('gives a due reminder to one claimant only, and again after its hold expires', async () => {
    await store.replanTask('u1', id, planTask('u1', task, 'UTC', now));
    const [mine, theirs] = await Promise.all([store.claimDue(due, 60_000, 10), other.claimDue(due, 60_000, 10)]);
    expect(mine.length + theirs.length).toBe(2);
    expect(new Set([...mine, ...theirs].map((row) => row.key)).size).toBe(2);
    expect(await other.claimDue(due, 60_000, 10)).toEqual([]);
    const key = keyOf(0);
    expect(await other.claim(key, at(1), 60_000)).not.toBeNull();
    await other.settle(key, { state: 'missed', attempts: 1, reason: 'No browser allows notifications' }, due);
    expect(await store.claim(key, at(10), 60_000)).toBeNull();
    // A settled reminder is not planned again, and shows as missed until acknowledged.
    expect((await store.replanTask('u1', id, planTask('u1', task, 'UTC', now))).scheduled).toEqual([]);
    const missed = await store.missed('u1', now, 10);
    expect(missed.map((row) => [row.key, row.reason])).toEqual([[key, 'No browser allows notifications']]);
    await store.acknowledge('u1', [{ todoId: id, due: task.due, minutes: 0 }], due);
    expect(await store.missed('u1', now, 10)).toEqual([]);
  });

  it('claims soonest first up to the limit, only what is due, and keeps what an attempt made of a reminder', async () => {
    await store.replanTask('u1', id, planTask('u1', task, 'UTC', now));
    expect(await store.claim(keyOf(0), at(-30), 60_000)).toBeNull();
    expect(await store.nextAttemptAt()).toEqual(at(-60));
    expect((await store.claimDue(due, 60_000, 1)).map((row) => row.key)).toEqual([keyOf(60)]);
    expect((await store.claimDue(due, 60_000, 10)).map((row) => row.key)).toEqual([keyOf(0)]);
    // A retry is pending again, its hold released at once; a sent reminder is done.
    await store.settle(keyOf(60), { state: 'pending', attempts: 1, nextAttemptAt: at(0.5) }, due);
    await store.settle(keyOf(0), { state: 'sent', attempts: 1 }, due);
    await store.settle(keyOf(0), { state: 'missed', attempts: 2, reason: 'too late' }, at(1));
    expect(await store.nextAttemptAt()).toEqual(at(0.5));
    expect(await store.claim(keyOf(60), at(0.25), 60_000)).toBeNull();
    expect(await store.claim(keyOf(60), at(0.5), 60_000)).toMatchObject({ key: keyOf(60), state: 'pending', attempts: 1, nextAttemptAt: at(0.5) });
    expect((await store.pending('', 10)).map((row) => row.key)).toEqual([keyOf(60)]);
    expect(await store.pending(keyOf(60), 10)).toEqual([]);
    expect((await store.upcoming('u1', at(60), 10)).map((row) => row.key)).toEqual([keyOf(60)]);
    expect(await store.missed('u1', now, 10)).toEqual([]);
  });

  it('keeps the first acknowledgement, of the user only', async () => {
    await store.replanTask('u1', id, planTask('u1', task, 'UTC', now));
    const ref = { todoId: id, due: task.due, minutes: 60 };
    await store.acknowledge('u2', [ref], now);
    await store.acknowledge('u1', [], now);
    expect((await store.upcoming('u1', due, 10)).map((row) => row.acknowledgedAt)).toEqual([null, null]);
    await store.acknowledge('u1', [ref], at(-90));
    await store.acknowledge('u1', [ref], at(-80));
    expect((await store.upcoming('u1', due, 10)).map((row) => row.acknowledgedAt)).toEqual([at(-90), null]);
  });

  it("keeps each person's zone and feed cursor apart", async () => {
    expect(await store.feedCursor('u1')).toBeNull();
    await store.setFeedCursor('u1', '5');
    await other.setTimeZone('u1', 'Europe/Paris');
    await store.setFeedCursor('u1', '7');
    expect([await other.feedCursor('u1'), await other.timeZoneOf('u1')]).toEqual(['7', 'Europe/Paris']);
    expect([await store.feedCursor('u2'), await store.timeZoneOf('u2')]).toEqual([null, null]);
  });

  it('removes subscriptions by endpoint, by ended session, all but one session, and with the account', async () => {
    await store.keepSubscription(subscription('https://push.test/a', 'session-aaaaaaaaaaaa'));
    await store.keepSubscription(subscription('https://push.test/b', 'session-bbbbbbbbbbbb'));
    await store.keepSubscription(subscription('https://push.test/c', 'session-cccccccccccc'));
    await store.keepSubscription({ ...subscription('https://push.test/old', 'session-dddddddddddd'), expiresAt: new Date('2020-01-01T00:00:00Z') });
    // Kept again (the same browser), an endpoint is still one subscription, with its latest keys and session.
    await store.keepSubscription({ ...subscription('https://push.test/a', 'session-aaaaaaaaaaaa'), auth: 'b'.repeat(22) });
    expect((await store.subscriptionsOf('u1', now)).map((row) => [row.endpoint, row.auth])).toEqual([
      ['https://push.test/a', 'b'.repeat(22)],
      ['https://push.test/b', 'a'.repeat(22)],
      ['https://push.test/c', 'a'.repeat(22)],
    ]);
    expect(await store.removeSessions('u1', { sessions: ['session-aaaaaaaaaaaa'] })).toBe(1);
    expect(await store.removeSessions('u1', { sessions: [] })).toBe(0);
    expect(await store.removeSessions('u1', { all: true, keep: 'session-cccccccccccc' })).toBe(2);
    expect((await store.subscriptionsOf('u1', now)).map((row) => row.endpoint)).toEqual(['https://push.test/c']);
    expect(await store.removeSubscription('u2', 'https://push.test/c')).toBe(0);
    await store.setTimeZone('u1', 'Europe/Paris');
    await store.replanTask('u1', id, planTask('u1', task, 'UTC', now));
    expect(await store.purgeUser('u1')).toBe(3);
    expect(await store.timeZoneOf('u1')).toBeNull();
    expect(await store.subscriptionsOf('u1', now)).toEqual([]);
    expect(await store.pendingTaskIds('u1')).toEqual([]);
  });

  it('sweeps expired subscriptions and settled reminders that came before the cutoff, never pending ones', async () => {
    await store.replanTask('u1', id, planTask('u1', { ...task, reminders: [0, 60, 120] }, 'UTC', now));
    await store.claimDue(due, 60_000, 10);
    await store.settle(keyOf(120), { state: 'sent', attempts: 1 }, due);
    await store.settle(keyOf(60), { state: 'missed', attempts: 1, reason: 'No browser allows notifications' }, due);
    await store.keepSubscription({ ...subscription('https://push.test/a', 'session-aaaaaaaaaaaa'), expiresAt: at(30) });
    await store.keepSubscription(subscription('https://push.test/b', 'session-bbbbbbbbbbbb'));
    expect(await store.sweep(at(30), at(-90))).toBe(2);
    expect((await store.missed('u1', now, 10)).map((row) => row.key)).toEqual([keyOf(60)]);
    expect(await store.sweep(at(30), at(1))).toBe(1);
    expect(await store.missed('u1', now, 10)).toEqual([]);
    expect((await store.pending('', 10)).map((row) => row.key)).toEqual([keyOf(0)]);
    expect((await store.subscriptionsOf('u1', now)).map((row) => row.endpoint)).toEqual(['https://push.test/b']);
  });
}

describe('SqliteRemindersStore', () => {
  describeRemindersRepositoryContract({
    schedule: async () => {
      const data = tempDir('tm-reminders-store-');
      return { open: async () => SqliteRemindersStore.open({ dataDir: data.dir }), remove: async () => data.remove() };
    },
  });
});

const mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) {
  console.warn('MongoDB reminders store suite skipped: MONGO_URL is not set');
}
// No MongoDB server can be installed on the build machines (docs/ARCHITECTURE.md, "Storage"): the suite runs only
// where MONGO_URL points at one, and is registered as skipped (visible in the report) everywhere else.
const describeMongo = mongoUrl ? describe : describe.skip;

describeMongo('MongoRemindersStore', () => {
  let admin: MongoClient;
  beforeAll(async () => {
    admin = await MongoClient.connect(mongoUrl ?? '');
  });
  afterAll(() => admin.close());
  const database = (): { dbName: string; remove: () => Promise<void> } => {
    const dbName = `svc_todos_reminders_test_${new ObjectId().toHexString()}`;
    return {
      dbName,
      remove: async () => {
        await admin.db(dbName).dropDatabase();
      },
    };
  };

  describeRemindersRepositoryContract({
    schedule: async () => {
      const { dbName, remove } = database();
      return { open: () => MongoRemindersStore.open({ url: mongoUrl ?? '', dbName }), remove };
    },
  });

  it('agrees on one name when hosts start together, and makes its indexes', async () => {
    const { dbName, remove } = database();
    const stores = await Promise.all([1, 2, 3, 4].map(() => MongoRemindersStore.open({ url: mongoUrl ?? '', dbName })));
    try {
      expect(new Set(stores.map((store) => store.id)).size).toBe(1);
      expect(await admin.db(dbName).collection(REMINDER_STORE_COLLECTION).countDocuments()).toBe(1);
      const indexes = await admin.db(dbName).collection(REMINDERS_COLLECTION).indexes();
      expect(indexes.find((index) => index.name === DUE_INDEX.name)).toMatchObject({ key: DUE_INDEX.key, partialFilterExpression: DUE_INDEX.partialFilterExpression });
      expect(indexes.map((index) => index.key)).toEqual(expect.arrayContaining([{ userId: 1, todoId: 1 }, { userId: 1, fireAt: 1 }]));
      expect((await admin.db(dbName).collection(PUSH_SUBSCRIPTIONS_COLLECTION).indexes()).map((index) => index.key)).toContainEqual({ userId: 1 });
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await remove();
    }
  });
});
