import path from 'node:path';
import Database from 'better-sqlite3';
import type { TodoResponse } from '@tm/contracts';
import { ApiClient, type NewUser, type RunningStack, signUp, startStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

let stack: RunningStack<TestGateway>;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(async () => {
  await stack.stop();
});

/** Signs a fresh user up on one "device" and returns it with its credentials. */
async function newAccount(): Promise<{ client: ApiClient; user: NewUser; id: string }> {
  const { client, user, ...account } = await signUp(stack.url, { name: 'Account Owner' });
  return { client, user: account, id: user._id };
}

/** The same account signed in on another device. */
async function otherDevice(user: { email: string; password: string }): Promise<ApiClient> {
  const client = new ApiClient(stack.gateway.url);
  await client.get('/api/user/me');
  expect((await client.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(200);
  return client;
}

/** Rows about `userId` in every store of the embedded deployment (users, todos, sessions). */
function rowsAbout(userId: string): { users: number; todos: number; sessions: number } {
  const count = (file: string, sql: string) => {
    const db = new Database(path.join(stack.dataDir, file), { fileMustExist: true, timeout: 5000 });
    try {
      return (db.prepare(sql).get(userId) as { n: number }).n;
    } finally {
      db.close();
    }
  };
  return {
    users: count('users.sqlite', 'SELECT COUNT(*) AS n FROM users WHERE id = ?'),
    todos: count('todos.sqlite', 'SELECT COUNT(*) AS n FROM todos WHERE user_id = ?'),
    sessions: count('sessions.sqlite', 'SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?'),
  };
}

describe('change password (docs/PRODUCT.md §10.10)', () => {
  it('needs the current password, ends every other session, and keeps this one signed in with a new id and token', async () => {
    const { client, user } = await newAccount();
    const laptop = await otherDevice(user);
    const before = { sid: client.cookies.get('tm.sid'), xsrf: client.xsrfToken };

    const wrong = await client.put('/api/user/password', { currentPassword: 'not my password', newPassword: 'a brand new passphrase' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(expect.objectContaining({ code: 'AUTH.WRONG_PASSWORD', message: 'The current password is incorrect' }));
    expect((await laptop.get('/api/user/me')).status).toBe(200);

    const weak = await client.put('/api/user/password', { currentPassword: user.password, newPassword: 'password123' });
    expect(weak.status).toBe(400);
    expect((weak.body as { issues: { path: string[] }[] }).issues[0]?.path).toEqual(['newPassword']);

    const changed = await client.put('/api/user/password', { currentPassword: user.password, newPassword: 'a brand new passphrase' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ message: 'Password changed successfully' });
    expect(client.cookies.get('tm.sid')).not.toBe(before.sid);
    expect(client.xsrfToken).not.toBe(before.xsrf);
    expect((await client.get('/api/user/me')).status).toBe(200);
    expect((await client.post('/api/todo/add-todo', { title: 'still signed in' })).status).toBe(201);
    expect((await laptop.get('/api/user/me')).status).toBe(401);

    const fresh = new ApiClient(stack.gateway.url);
    await fresh.get('/api/user/me');
    expect((await fresh.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(401);
    expect((await fresh.post('/api/user/login', { email: user.email, password: 'a brand new passphrase' })).status).toBe(200);
  });

  it('is refused without a session, without the XSRF token, and with a body of the wrong shape', async () => {
    const anonymous = new ApiClient(stack.gateway.url);
    await anonymous.get('/api/user/me');
    expect((await anonymous.put('/api/user/password', { currentPassword: 'x', newPassword: 'y' })).status).toBe(401);
    const { client, user } = await newAccount();
    expect((await client.put('/api/user/password', { currentPassword: user.password, newPassword: 'another good passphrase' }, { xsrf: false })).status).toBe(403);
    expect((await client.put('/api/user/password', { currentPassword: user.password })).status).toBe(400);
    expect((await client.put('/api/user/password', { currentPassword: user.password, newPassword: 42 })).status).toBe(400);
    expect((await otherDevice(user)).cookies.size).toBeGreaterThan(0);
  });
});

describe('sign out of all devices', () => {
  it('ends every session of the account, this one included, and no other account\'s', async () => {
    const { client, user } = await newAccount();
    const phone = await otherDevice(user);
    const bystander = await newAccount();
    const stolen = phone.cookieHeader();
    const answer = await client.post('/api/user/logout-all');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Signed out of all devices' });
    expect((await client.get('/api/user/me')).status).toBe(401);
    expect((await phone.get('/api/user/me')).status).toBe(401);
    expect((await fetch(`${stack.gateway.url}/api/todo/fetch-todo`, { headers: { cookie: stolen } })).status).toBe(401);
    expect((await bystander.client.get('/api/user/me')).status).toBe(200);
    // The account itself is fine: signing in again works.
    expect((await otherDevice(user)).cookies.get('tm.sid')).toBeDefined();
  });
});

describe('delete account', () => {
  it('with the password: the account, its tasks and its sessions are gone from every store', async () => {
    const { client, user, id } = await newAccount();
    const phone = await otherDevice(user);
    const bystander = await newAccount();
    await bystander.client.post('/api/todo/add-todo', { title: 'not theirs to delete' });
    for (const title of ['one', 'two', 'three']) {
      expect((await client.post<TodoResponse>('/api/todo/add-todo', { title })).status).toBe(201);
    }
    expect(rowsAbout(id)).toEqual({ users: 1, todos: 3, sessions: 2 });

    const wrong = await client.delete('/api/user/account', { body: { password: 'not my password' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(expect.objectContaining({ code: 'AUTH.WRONG_PASSWORD' }));
    expect(rowsAbout(id)).toEqual({ users: 1, todos: 3, sessions: 2 });
    expect((await client.delete('/api/user/account', { body: {} })).status).toBe(400);
    expect(rowsAbout(id).todos).toBe(3);

    const deleted = await client.delete('/api/user/account', { body: { password: user.password } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Account deleted successfully' });
    expect(rowsAbout(id)).toEqual({ users: 0, todos: 0, sessions: 0 });
    expect((await client.get('/api/user/me')).status).toBe(401);
    expect((await phone.get('/api/todo/fetch-todo')).status).toBe(401);
    const again = new ApiClient(stack.gateway.url);
    await again.get('/api/user/me');
    expect((await again.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(401);
    expect((await bystander.client.get<{ todos: unknown[] }>('/api/todo/fetch-todo')).body.todos).toHaveLength(1);
  });

  it('cannot be reached from outside under /internal, however the path is dressed up', async () => {
    const { client, id } = await newAccount();
    for (const trick of [
      '/api/user/../internal/users/me',
      '/api/user/%2e%2e/internal/users/me',
      '/api/user/%2E%2E%2Finternal%2Fusers%2Fme',
      '/api/todo/..%2finternal/todos',
      '/api/internal/users/me',
      '/api/user//internal/users/me',
    ]) {
      const answer = await client.request('DELETE', trick);
      expect([404, 405]).toContain(answer.status);
    }
    expect(rowsAbout(id).users).toBe(1);
  });
});
