// Delivery of reminders by Web Push (docs/PRODUCT.md §10.17) to a local push service: the task store and the
// schedule on real SQLite files, web-push sending real encrypted requests over HTTPS to a receiver on
// 127.0.0.1 that checks the VAPID JWT and decrypts each message as a browser would.
import { ReminderPush } from '@tm/contracts';
import { startPushReceiver, tempDir, type PushReceiver } from '@tm/test-support';
import webpush from 'web-push';
import { DELIVERY } from './reminders.domain.js';
import { WebPushSender } from './push-sender.js';
import { RemindersService } from './reminders.service.js';
import { SqliteRemindersStore } from './sqlite-reminders.store.js';
import { SqliteTodosStore } from './sqlite-todos.store.js';

const DUE = '2030-01-07T09:00';
const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.test' };

describe('reminder delivery through a local push service', () => {
  let receiver: PushReceiver;
  let data: ReturnType<typeof tempDir>;
  let todos: SqliteTodosStore;
  let store: SqliteRemindersStore;
  let clock: Date;
  let service: RemindersService;

  beforeAll(async () => {
    receiver = await startPushReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    data = tempDir('tm-reminders-delivery-');
    todos = SqliteTodosStore.open({ dataDir: data.dir });
    store = SqliteRemindersStore.open({ dataDir: data.dir });
    clock = new Date('2030-01-01T00:00:00Z');
    service = new RemindersService({ store, todos, pusher: new WebPushSender(keys, { agent: receiver.agent, timeoutMs: 5_000 }), now: () => clock });
    receiver.received.length = 0;
  });
  afterEach(async () => {
    await store.close();
    await todos.close();
    data.remove();
  });

  const subscribe = async (userId: string, session: string) => {
    const browser = receiver.subscribe();
    await service.keepSubscription({ userId, endpoint: browser.endpoint, ...browser.keys, session, expiresAt: new Date('2031-01-01T00:00:00Z') }, 'Europe/Paris');
    return browser;
  };

  it('pushes the task id and title, encrypted to each browser and signed with the VAPID key, once', async () => {
    const phone = await subscribe('u1', 'session-phone-0000000');
    const laptop = await subscribe('u1', 'session-laptop-000000');
    const todo = await todos.create('u1', 'Water the plants', null, { due: DUE, reminders: [15] });
    await service.catchUp('u1');
    expect((await service.overview('u1')).upcoming).toEqual([]);
    clock = new Date('2030-01-07T07:45:00Z'); // 08:45 in Paris: 15 minutes before 09:00
    expect((await service.overview('u1')).upcoming.map((item) => item.fireAt)).toEqual(['2030-01-07T07:45:00.000Z']);
    expect(await service.deliverDue()).toBe(1);
    const messages = await receiver.waitFor(2);
    expect(receiver.rejected).toEqual([]);
    expect(messages.map((message) => message.id).sort()).toEqual([phone.id, laptop.id].sort());
    for (const message of messages) {
      expect(ReminderPush.parse(JSON.parse(message.payload))).toEqual({ type: 'reminder', todoId: todo._id, title: 'Water the plants', due: DUE, minutes: 15, tag: `${todo._id}.${DUE}.15` });
      expect(message.claims.aud).toBe(receiver.origin);
      expect(message.claims.sub).toBe('mailto:ops@example.test');
      expect(message.vapidKey).toBe(keys.publicKey);
    }
    // Delivered: nothing is due any more, however often the scheduler looks.
    expect(await service.deliverDue()).toBe(0);
    clock = new Date('2030-01-07T10:00:00Z');
    expect(await service.deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(2);
  });

  it('removes a subscription its push service calls gone (410) and misses a reminder no browser allows', async () => {
    const gone = await subscribe('u2', 'session-gone-00000000');
    receiver.answer(gone.id, 410, 'unsubscribed');
    const todo = await todos.create('u2', 'Call the bank', null, { due: DUE, reminders: [0] });
    await service.catchUp('u2');
    clock = new Date('2030-01-07T08:00:00Z');
    expect(await service.deliverDue()).toBe(1);
    expect(await store.subscriptionsOf('u2', clock)).toEqual([]);
    const { missed } = await service.overview('u2');
    expect(missed).toEqual([expect.objectContaining({ todoId: todo._id, state: 'missed', reason: 'No browser allows notifications' })]);
  });

  it('tries a push service that fails (500) again later, then shows the reminder missed with its words', async () => {
    const broken = await subscribe('u3', 'session-broken-000000');
    receiver.answer(broken.id, 500, 'Internal Server Error');
    await todos.create('u3', 'Renew the passport', null, { due: DUE, reminders: [0] });
    await service.catchUp('u3');
    clock = new Date('2030-01-07T08:00:00Z');
    expect(await service.deliverDue()).toBe(1);
    expect(await service.deliverDue()).toBe(0);
    for (const delay of DELIVERY.retryDelaysMs) {
      clock = new Date(clock.getTime() + delay);
      expect(await service.deliverDue()).toBe(1);
    }
    const { missed } = await service.overview('u3');
    expect(missed.map((item) => item.reason)).toEqual(['The push service refused: 500 Internal Server Error']);
    expect(await store.subscriptionsOf('u3', clock)).toHaveLength(1);
  });

  it('follows the task: a completed, moved or deleted task has no pending reminder of its old due date', async () => {
    const todo = await todos.create('u4', 'Book the hall', null, { due: DUE, reminders: [0, 60] });
    await service.catchUp('u4');
    clock = new Date('2030-01-06T00:00:00Z');
    const upcoming = async () => (await service.overview('u4')).upcoming.map((item) => `${item.due}/${item.minutes}`);
    await todos.update('u4', todo._id, { due: '2030-01-06T18:00' });
    expect(await upcoming()).toEqual(['2030-01-06T18:00/60', '2030-01-06T18:00/0']);
    await todos.update('u4', todo._id, { completed: true });
    expect(await upcoming()).toEqual([]);
    await todos.update('u4', todo._id, { completed: false });
    expect(await upcoming()).toEqual(['2030-01-06T18:00/60', '2030-01-06T18:00/0']);
    await todos.remove('u4', todo._id);
    expect(await upcoming()).toEqual([]);
  });
});
