// A reminder survives a restart of svc-todos and fires once (docs/PRODUCT.md §10.17): the built process on a
// real data folder, stopped before the reminder's time and started again after it, pushing to a local push
// service over HTTPS (NODE_EXTRA_CA_CERTS trusts the receiver's certificate).
import { reminderKey, type ReminderPush, type TodoResponse } from '@tm/contracts';
import { signedCall, startProcess, startPushReceiver, tempDir, TEST_SECRET, type PushReceiver } from '@tm/test-support';

const USER = 'd'.repeat(24);
const MINUTE = 60_000;

/** The next whole UTC minute at least 5 s away, as a due time (`YYYY-MM-DDTHH:mm`), and its instant. */
function nextMinute(): { due: string; at: number } {
  const at = Math.ceil((Date.now() + 5_000) / MINUTE) * MINUTE;
  return { due: new Date(at).toISOString().slice(0, 16), at };
}

describe('reminders across a restart', () => {
  let receiver: PushReceiver;
  let data: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    receiver = await startPushReceiver();
    data = tempDir('tm-reminders-restart-');
  });
  afterAll(async () => {
    await receiver.close();
    data.remove();
  });

  it('keeps a scheduled reminder through a stop and delivers it once after the start', async () => {
    const env = { DATA_DIR: data.dir, INTERNAL_SECRET: TEST_SECRET, NODE_EXTRA_CA_CERTS: receiver.certFile, REMINDER_SCHEDULER: 'embedded', REDIS_URL: '' };
    const first = await startProcess('svc-todos', env);
    const browser = receiver.subscribe();
    const kept = await signedCall(first.url, {
      method: 'PUT',
      path: '/internal/reminders/subscription',
      userId: USER,
      body: { subscription: { endpoint: browser.endpoint, keys: browser.keys }, timeZone: 'UTC', session: 'session-restart-00000', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(kept.status).toBe(200);
    const { due, at } = nextMinute();
    const added = await signedCall<TodoResponse>(first.url, { method: 'POST', path: '/todo/add-todo', userId: USER, body: { title: 'Restart-proof reminder', due, reminders: [0] } });
    expect(added.status).toBe(201);
    // Planned before the stop: the reminder is in the schedule.
    const before = await signedCall<{ upcoming: { due: string }[] }>(first.url, { path: '/todo/reminders', userId: USER });
    expect(before.body.upcoming.map((item) => item.due)).toEqual([due]);
    expect(await first.stop()).toBe(0);

    // Its time passes while svc-todos is stopped.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() + 500)));
    expect(receiver.received).toHaveLength(0);
    const second = await startProcess('svc-todos', env);
    try {
      const [message] = await receiver.waitFor(1, 15_000);
      const push = JSON.parse(message!.payload) as ReminderPush;
      expect(push.tag).toBe(reminderKey({ todoId: added.body.todo._id, due, minutes: 0 }));
      // Once: later ticks find nothing due.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(receiver.received).toHaveLength(1);
      const after = await signedCall<{ upcoming: unknown[]; missed: unknown[] }>(second.url, { path: '/todo/reminders', userId: USER });
      expect(after.body).toMatchObject({ upcoming: [], missed: [] });
    } finally {
      await second.stop();
    }
  }, 120_000);
});
