// Push subscriptions through the gateway (docs/PRODUCT.md §10.17, SECURITY.md "Reminders"): kept per browser
// session by svc-todos, removed when that session logs out, when every session ends and with the account;
// a bad subscription is a 400 naming the field and keeps nothing. The services are the built processes; what
// svc-todos keeps is read from its reminders.sqlite.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { RemindersResponse } from '@tm/contracts';
import { ApiClient, signUp, startStack, type RunningStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

let stack: RunningStack<TestGateway>;

beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(() => stack.stop());

const subscription = (name: string) => ({ endpoint: `https://push.example.test/${name}`, keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } });

function kept(userId: string): string[] {
  const db = new Database(path.join(stack.dataDir, 'reminders.sqlite'), { readonly: true });
  try {
    return db
      .prepare<[string], { endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = ? ORDER BY endpoint')
      .all(userId)
      .map((row) => row.endpoint.split('/').pop()!);
  } finally {
    db.close();
  }
}

async function signIn(email: string, password: string): Promise<ApiClient> {
  const client = new ApiClient(stack.url);
  await client.get('/api/user/me');
  expect((await client.post('/api/user/login', { email, password })).status).toBe(200);
  return client;
}

describe('push subscriptions', () => {
  it('keeps one per browser session and removes it with that session, then every one with the account', async () => {
    const { client: laptop, email, password, user } = await signUp(stack.url, { name: 'Reminded' });
    const phone = await signIn(email, password);
    const tablet = await signIn(email, password);
    for (const [client, name] of [[laptop, 'laptop'], [phone, 'phone'], [tablet, 'tablet']] as const) {
      const answer = await client.put('/api/todo/reminders/subscription', { subscription: subscription(name), timeZone: 'Europe/Paris' });
      expect(answer.status).toBe(200);
    }
    expect(kept(user._id)).toEqual(['laptop', 'phone', 'tablet']);
    expect((await laptop.get<RemindersResponse>('/api/todo/reminders')).body).toMatchObject({ timeZone: 'Europe/Paris', upcoming: [], missed: [] });

    expect((await phone.post('/api/user/logout')).status).toBe(200);
    expect(kept(user._id)).toEqual(['laptop', 'tablet']);

    // Reminders off on one device: its own call.
    expect((await tablet.post('/api/todo/reminders/unsubscribe', { endpoint: subscription('tablet').endpoint })).body).toMatchObject({ removed: 1 });
    expect(kept(user._id)).toEqual(['laptop']);

    expect((await laptop.request('DELETE', '/api/user/account', { body: { password } })).status).toBe(200);
    expect(kept(user._id)).toEqual([]);
  });

  it('removes every other browser when the password changes, and all at "Sign out everywhere"', async () => {
    const { client: laptop, email, password, user } = await signUp(stack.url, { name: 'Careful' });
    const phone = await signIn(email, password);
    await laptop.put('/api/todo/reminders/subscription', { subscription: subscription('laptop2'), timeZone: 'UTC' });
    await phone.put('/api/todo/reminders/subscription', { subscription: subscription('phone2'), timeZone: 'UTC' });
    const newPassword = `${password} and more`;
    expect((await laptop.put('/api/user/password', { currentPassword: password, newPassword })).status).toBe(200);
    expect(kept(user._id)).toEqual(['laptop2']);
    expect((await laptop.post('/api/user/logout-all')).status).toBe(200);
    expect(kept(user._id)).toEqual([]);
  });

  it('refuses a subscription that is not https, or keys that are not base64, naming the field, and keeps nothing', async () => {
    const { client, user } = await signUp(stack.url, { name: 'Sloppy' });
    const http = await client.put<{ issues: { path: string[] }[] }>('/api/todo/reminders/subscription', { subscription: { ...subscription('x'), endpoint: 'http://push.example.test/x' }, timeZone: 'UTC' });
    expect(http.status).toBe(400);
    expect(http.body.issues.map((issue) => issue.path)).toEqual([['subscription', 'endpoint']]);
    const zone = await client.put('/api/todo/reminders/subscription', { subscription: subscription('y'), timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(JSON.stringify(zone.body)).toContain('timeZone');
    expect(kept(user._id)).toEqual([]);
    const visitor = new ApiClient(stack.url);
    await visitor.get('/api/user/me');
    expect((await visitor.put('/api/todo/reminders/subscription', { subscription: subscription('z'), timeZone: 'UTC' })).status).toBe(401);
  });
});
