import path from 'node:path';
import Database from 'better-sqlite3';
import type { UserResponse } from '@tm/contracts';
import { ApiClient, newUser, type RunningStack, startStack, upstreamsOf } from '@tm/test-support';
import { inProcessGateway, startGateway, type TestGateway } from './gateway.test-helpers.js';
import { SqliteSessionStore } from './sqlite-session.store.js';

let stack: RunningStack<TestGateway>;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(async () => {
  await stack.stop();
});

function sessionId(client: ApiClient): string | undefined {
  return client.cookies.get('tm.sid');
}

describe('sessions', () => {
  it('issues a new session id and XSRF token on signup and on login', async () => {
    const client = new ApiClient(stack.gateway.url);
    await client.get('/api/user/me');
    // A visitor has no session (nothing stored before sign-in): an XSRF token in a signed cookie.
    const anonymous = { id: sessionId(client), xsrf: client.xsrfToken };
    expect(anonymous.id).toBeUndefined();
    expect(client.cookies.get('tm.xsrf')).toBe(anonymous.xsrf);
    const user = newUser();
    expect((await client.post('/api/user/signup', user)).status).toBe(201);
    const afterSignup = { id: sessionId(client), xsrf: client.xsrfToken };
    expect(afterSignup.id).not.toBe(anonymous.id);
    expect(afterSignup.xsrf).not.toBe(anonymous.xsrf);

    await client.post('/api/user/logout');
    const beforeLogin = sessionId(client);
    expect(beforeLogin).toBeUndefined();
    expect((await client.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(200);
    expect(sessionId(client)).not.toBe(beforeLogin);
    expect(sessionId(client)).not.toBe(afterSignup.id);
  });

  it('a session fixed before login is worthless afterwards', async () => {
    const client = new ApiClient(stack.gateway.url);
    await client.get('/api/user/me');
    const attackerCopy = client.cookieHeader();
    expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
    const replay = await fetch(`${stack.gateway.url}/api/user/me`, { headers: { cookie: attackerCopy } });
    expect(replay.status).toBe(401);
  });

  it('destroys the session server-side on logout: a replayed old cookie gets 401', async () => {
    const client = new ApiClient(stack.gateway.url);
    await client.get('/api/user/me');
    await client.post('/api/user/signup', newUser());
    const stolen = client.cookieHeader();
    expect((await fetch(`${stack.gateway.url}/api/user/me`, { headers: { cookie: stolen } })).status).toBe(200);
    expect((await client.post('/api/user/logout')).status).toBe(200);
    const replay = await fetch(`${stack.gateway.url}/api/user/me`, { headers: { cookie: stolen } });
    expect(replay.status).toBe(401);
    const replayTodos = await fetch(`${stack.gateway.url}/api/todo/fetch-todo`, { headers: { cookie: stolen } });
    expect(replayTodos.status).toBe(401);
  });

  it('refuses a session cookie whose signature does not match', async () => {
    const client = new ApiClient(stack.gateway.url);
    await client.get('/api/user/me');
    await client.post('/api/user/signup', newUser());
    const tampered = client.cookieHeader().replace(/tm\.sid\.sig=[^;]+/, 'tm.sid.sig=AAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await fetch(`${stack.gateway.url}/api/user/me`, { headers: { cookie: tampered } })).status).toBe(401);
  });

  it('marks both cookies Secure when the request came over TLS through a trusted proxy', async () => {
    const urls = upstreamsOf(stack);
    const behindTls = await startGateway(urls, { trustProxy: true });
    try {
      const client = new ApiClient(behindTls.url);
      const tls = { 'x-forwarded-proto': 'https' };
      const visit = await client.get('/api/user/me', { headers: tls });
      expect(visit.setCookies.filter((c) => /^(tm\.xsrf|XSRF-TOKEN)=/.test(c))).toEqual(
        expect.arrayContaining([expect.stringMatching(/^tm\.xsrf=.*; secure/i), expect.stringMatching(/^XSRF-TOKEN=.*; secure/i)]),
      );
      const signup = await client.post('/api/user/signup', newUser(), { headers: tls });
      expect(signup.status).toBe(201);
      expect(signup.setCookies.filter((c) => /^(tm\.sid|XSRF-TOKEN)=/.test(c))).toEqual(
        expect.arrayContaining([expect.stringMatching(/^tm\.sid=.*; secure/i), expect.stringMatching(/^XSRF-TOKEN=.*; secure/i)]),
      );
      const plain = await new ApiClient(behindTls.url).get('/api/user/me');
      expect(plain.setCookies.some((c) => /secure/i.test(c))).toBe(false);
    } finally {
      await behindTls.close();
    }
  });

  it('keeps sessions in the embedded store across a gateway restart', async () => {
    const urls = upstreamsOf(stack);
    const first = await startGateway(urls);
    const client = new ApiClient(first.url);
    await client.get('/api/user/me');
    const signup = await client.post<UserResponse>('/api/user/signup', newUser('Persistent'));
    expect(signup.status).toBe(201);
    await first.close();

    const second = await startGateway(urls);
    try {
      const restarted = new ApiClient(second.url);
      for (const [name, value] of client.cookies) restarted.cookies.set(name, value);
      const me = await restarted.get<UserResponse>('/api/user/me');
      expect(me.status).toBe(200);
      expect(me.body.user._id).toBe(signup.body.user._id);
      expect((await restarted.post('/api/todo/add-todo', { title: 'after restart' })).status).toBe(201);
    } finally {
      await second.close();
    }
  });
});

describe('visitors (anonymous session floods)', () => {
  it('stores nothing for a visitor: 2 000 cookie-less visits add no session, and a sign-in adds one', async () => {
    const database = new Database(path.join(stack.dataDir, 'sessions.sqlite'), { readonly: true });
    const count = () => (database.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
    try {
      const before = count();
      let next = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < 2000) {
            next += 1;
            const answer = await fetch(`${stack.gateway.url}/api/user/me`);
            expect(answer.status).toBe(401);
            await answer.arrayBuffer();
          }
        }),
      );
      expect(count()).toBe(before);
      // Logging out stores nothing either; signing in stores exactly one session.
      const client = new ApiClient(stack.gateway.url);
      await client.get('/api/user/me');
      expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
      expect(count()).toBe(before + 1);
      expect((await client.post('/api/user/logout')).status).toBe(200);
      expect(count()).toBe(before);
    } finally {
      database.close();
    }
  });
});

describe('a sign-in whose new session cannot be stored', () => {
  it('answers 503 and leaves the session it was to replace working; the next sign-in replaces it for good', async () => {
    const store = SqliteSessionStore.open(stack.dataDir);
    let failNextSave = false;
    // The real store, whose next save fails as a store going away between two commands would make it fail.
    const flaky = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'set' && failNextSave) {
          failNextSave = false;
          return () => Promise.reject(new Error('the session store went away'));
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const gateway = await startGateway(upstreamsOf(stack), {}, flaky);
    try {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      const user = newUser();
      expect((await client.post('/api/user/signup', user)).status).toBe(201);
      const signedIn = { id: sessionId(client), xsrf: client.xsrfToken };

      failNextSave = true;
      const failed = await client.post('/api/user/login', { email: user.email, password: user.password });
      expect(failed.status).toBe(503);
      expect({ id: sessionId(client), xsrf: client.xsrfToken }).toEqual(signedIn);
      expect(await client.get<UserResponse>('/api/user/me')).toMatchObject({ status: 200, body: { user: { email: user.email } } });

      expect((await client.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(200);
      expect(sessionId(client)).not.toBe(signedIn.id);
      // The session it replaced is gone from the store: its cookie is worth nothing now.
      expect(await store.get(signedIn.id ?? '')).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });
});
