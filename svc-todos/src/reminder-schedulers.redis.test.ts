// The BullMQ scheduler against the real Redis (REDIS_URL; docs/ARCHITECTURE.md "Reminders"): two replicas on
// one schedule add the same delayed job and push the reminder once, at its time. Each run uses a queue prefix
// of its own and removes it.
import { randomBytes } from 'node:crypto';
import { reminderKey } from '@tm/contracts';
import { startPushReceiver, tempDir, type PushReceiver } from '@tm/test-support';
import webpush from 'web-push';
import { attemptJobId, BullmqReminderScheduler, connectionOf } from './reminder-schedulers.js';
import { WebPushSender } from './push-sender.js';
import { RemindersService } from './reminders.service.js';
import { SqliteRemindersStore } from './sqlite-reminders.store.js';
import { SqliteTodosStore } from './sqlite-todos.store.js';

const REDIS_URL = process.env.REDIS_URL;
const describeWithRedis = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('reminder-schedulers.redis.test.ts skipped: set REDIS_URL to run the BullMQ scheduler against Redis');

describeWithRedis('BullmqReminderScheduler on Redis', () => {
  const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.test' };
  const prefix = `tm:test:${randomBytes(6).toString('hex')}`;
  let receiver: PushReceiver;
  let data: ReturnType<typeof tempDir>;
  const replicas: { scheduler: BullmqReminderScheduler; store: SqliteRemindersStore; todos: SqliteTodosStore; service: RemindersService }[] = [];

  beforeAll(async () => {
    receiver = await startPushReceiver();
    data = tempDir('tm-reminders-bullmq-');
    for (let i = 0; i < 2; i += 1) {
      const store = SqliteRemindersStore.open({ dataDir: data.dir });
      const todos = SqliteTodosStore.open({ dataDir: data.dir });
      const service = new RemindersService({ store, todos, pusher: new WebPushSender(keys, { agent: receiver.agent }) });
      const scheduler = new BullmqReminderScheduler(service, store, { connection: connectionOf(REDIS_URL!), prefix });
      service.useScheduler(scheduler);
      await scheduler.start();
      replicas.push({ scheduler, store, todos, service });
    }
  });
  afterAll(async () => {
    await replicas[0]?.scheduler.jobs.obliterate({ force: true });
    for (const { scheduler, store, todos } of replicas) {
      await scheduler.close();
      await store.close();
      await todos.close();
    }
    await receiver.close();
    data.remove();
  });

  it('runs a delayed job at the reminder time, once, though both replicas scheduled it', async () => {
    const [one, two] = replicas;
    const browser = receiver.subscribe();
    await one!.store.keepSubscription({ userId: 'u1', endpoint: browser.endpoint, ...browser.keys, session: 'session-bullmq-000000', expiresAt: new Date(Date.now() + 3_600_000) });
    const fireAt = new Date(Date.now() + 1_500);
    const todoId = 'e'.repeat(24);
    const ref = { todoId, due: '2030-01-01T09:00', minutes: 0 };
    const { scheduled } = await one!.store.replanTask('u1', todoId, [{ ...ref, key: reminderKey(ref), userId: 'u1', title: 'Queued reminder', fireAt }]);
    await one!.scheduler.schedule(scheduled);
    await two!.scheduler.schedule(scheduled);
    expect(await one!.scheduler.jobs.getJobCounts('delayed')).toEqual({ delayed: 1 });
    expect((await one!.scheduler.jobs.getJob(attemptJobId(scheduled[0]!)))?.data).toEqual({ key: reminderKey(ref) });
    const [message] = await receiver.waitFor(1, 10_000);
    expect(message!.receivedAt).toBeGreaterThanOrEqual(fireAt.getTime());
    expect(JSON.parse(message!.payload)).toMatchObject({ todoId, title: 'Queued reminder', tag: reminderKey(ref) });
    // A second job for the same reminder (a retry, a lost completion) claims nothing.
    await two!.scheduler.schedule([{ key: reminderKey(ref), nextAttemptAt: new Date() }]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).toHaveLength(1);
    expect((await one!.service.overview('u1')).missed).toEqual([]);
  });
});
