import { CLIENT_ID_HEADER, type TodoChangeEvent, type TodoResponse, type TodosResponse } from '@tm/contracts';
import { ApiClient, openRawEventStream, type RawStream, type RunningServices, signUp, type SseEvent, startServices, upstreamsOf } from '@tm/test-support';
import { SESSION_COOKIE } from './session.middleware.js';
import { setTimeout as pause } from 'node:timers/promises';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * The live stream through the gateway (docs/PRODUCT.md §10.11.5), with the real svc-todos behind it: the
 * relay itself, who sees what, the caps, and every way a session (and so its streams) ends.
 */

let services: RunningServices;
let gateway: TestGateway;
const opened: RawStream[] = [];
const extraGateways: TestGateway[] = [];

type GatewayOverrides = Parameters<typeof startGateway>[1];

async function anotherGateway(overrides: GatewayOverrides = {}): Promise<TestGateway> {
  const started = await startGateway(upstreamsOf(services), overrides);
  extraGateways.push(started);
  return started;
}

beforeAll(async () => {
  services = await startServices();
  gateway = await startGateway(upstreamsOf(services));
});
afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await Promise.all(extraGateways.splice(0).map((started) => started.close()));
});
afterAll(async () => {
  await gateway.close();
  await services.stop();
});

interface User {
  client: ApiClient;
  id: string;
  email: string;
  password: string;
}

async function signedUp(on: TestGateway = gateway, name = 'Streamer'): Promise<User> {
  const { client, user, email, password } = await signUp(on.url, { name });
  return { client, id: user._id, email, password };
}

/** The same user signed in again in another browser (another session). */
async function signedInAgain(user: User, on: TestGateway = gateway): Promise<ApiClient> {
  const client = new ApiClient(on.url);
  await client.get('/api/user/me');
  expect((await client.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(200);
  return client;
}

/** A client of `on` holding the same cookies (the same session: the gateways share the session store). */
function withCookiesOf(client: ApiClient, on: TestGateway): ApiClient {
  const copy = new ApiClient(on.url);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

/** Opens the client's live stream on `on` (its own gateway by default); `query` and headers as a page would send. */
async function stream(client: ApiClient, { on = client.baseUrl, query = '', headers = {} }: { on?: string; query?: string; headers?: Record<string, string> } = {}) {
  const opening = await openRawEventStream(`${on}/api/todo/events${query}`, { cookie: client.cookieHeader(), ...headers });
  opened.push(opening);
  return opening;
}

const isChange = (event: SseEvent) => event.event === 'change';
const changeOf = (event: SseEvent) => JSON.parse(event.data) as TodoChangeEvent;

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await pause(20);
  }
}

describe('GET /api/todo/events relays the user\'s live stream', () => {
  it('answers the event-stream head at once, then retry and ready at the list\'s cursor', async () => {
    const alice = await signedUp();
    const list = await alice.client.get<TodosResponse>('/api/todo/fetch-todo');
    const live = await stream(alice.client, { query: `?after=${list.body.cursor}` });
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toBe('text/event-stream');
    expect(live.headers['cache-control']).toBe('no-store');
    expect(live.headers['x-accel-buffering']).toBe('no');
    expect(live.headers['content-length']).toBeUndefined();
    expect(live.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const ready = await live.waitFor((event) => event.event === 'ready');
    expect(JSON.parse(ready.data)).toEqual({ cursor: list.body.cursor });
    expect(ready.id).toBe(list.body.cursor);
    expect(live.retry).toBe(2000);
  });

  it('delivers a change of user A to A\'s stream with the page\'s X-Client-Id as origin; B\'s stream sees nothing', async () => {
    const alice = await signedUp(gateway, 'Alice');
    const bob = await signedUp(gateway, 'Bob');
    const aliceLive = await stream(alice.client);
    const bobLive = await stream(bob.client);
    await Promise.all([aliceLive, bobLive].map((live) => live.waitFor((event) => event.event === 'ready')));

    const added = await alice.client.post<TodoResponse>('/api/todo/add-todo', { title: 'Live one' }, { headers: { [CLIENT_ID_HEADER]: 'page-A_1' } });
    expect(added.status).toBe(201);
    const change = changeOf(await aliceLive.waitFor(isChange));
    expect(change).toEqual({ id: expect.stringMatching(/^\d+$/), origin: 'page-A_1', saved: [added.body.todo], removed: [] });

    // A malformed client id is not passed on: the change has no origin.
    const other = await alice.client.put<TodoResponse>(
      `/api/todo/update-todo/${added.body.todo._id}`,
      { updateData: { isPinned: true } },
      { headers: { [CLIENT_ID_HEADER]: 'not a valid id!' } },
    );
    expect(other.status).toBe(200);
    const second = changeOf(await aliceLive.waitFor((event) => isChange(event) && changeOf(event).id !== change.id));
    expect(second.origin).toBeNull();
    expect(BigInt(second.id)).toBeGreaterThan(BigInt(change.id));

    // Bob's own write reaches his stream only.
    expect((await bob.client.post('/api/todo/add-todo', { title: 'Bob alone' })).status).toBe(201);
    await bobLive.waitFor(isChange);
    await pause(300);
    expect(bobLive.events.filter(isChange)).toHaveLength(1);
    expect(bobLive.events.filter(isChange).map((event) => changeOf(event).saved[0]?.title)).toEqual(['Bob alone']);
    expect(aliceLive.events.filter(isChange).flatMap((event) => changeOf(event).saved.map((todo) => todo.title))).toEqual(['Live one', 'Live one']);
  });

  it('carries the bulk actions and undo as one event each', async () => {
    const alice = await signedUp();
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) ids.push((await alice.client.post<TodoResponse>('/api/todo/add-todo', { title })).body.todo._id);
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');

    expect((await alice.client.put('/api/todo/complete-all', { completed: true })).body).toEqual({ message: '3 tasks marked complete', count: 3, undoToken: expect.any(String) });
    const completed = changeOf(await live.waitFor(isChange));
    expect(completed.saved.map((todo) => todo._id).sort()).toEqual([...ids].sort());
    expect(completed.saved.every((todo) => todo.completed)).toBe(true);

    expect((await alice.client.delete(`/api/todo/delete-todo/${ids[0]}`)).status).toBe(200);
    expect((await alice.client.post(`/api/todo/restore-todo/${ids[0]}`)).status).toBe(200);
    expect((await alice.client.delete('/api/todo/clear-completed')).body).toEqual({ message: '3 completed tasks cleared', count: 3, undoToken: expect.any(String) });
    await until(() => live.events.filter(isChange).length >= 4);
    const [, deleted, restored, cleared] = live.events.filter(isChange).map(changeOf);
    expect(deleted).toMatchObject({ saved: [], removed: [ids[0]] });
    expect(restored?.saved.map((todo) => todo._id)).toEqual([ids[0]]);
    expect(cleared?.removed.sort()).toEqual([...ids].sort());
  });

  it('resumes after Last-Event-ID (and ?after=), replaying what was missed', async () => {
    const alice = await signedUp();
    const cursor = (await alice.client.get<TodosResponse>('/api/todo/fetch-todo')).body.cursor;
    for (const title of ['missed 1', 'missed 2']) await alice.client.post('/api/todo/add-todo', { title });
    const fromCursor = await stream(alice.client, { query: `?after=${cursor}` });
    const replayed = await fromCursor.waitFor((event) => event.event === 'ready');
    const changes = fromCursor.events.filter(isChange);
    expect(changes.map((event) => changeOf(event).saved[0]?.title)).toEqual(['missed 1', 'missed 2']);
    expect(replayed.id).toBe(changes[1]?.id);

    const resumed = await stream(alice.client, { query: `?after=${cursor}`, headers: { 'last-event-id': changes[0]?.id ?? '' } });
    await resumed.waitFor((event) => event.event === 'ready');
    expect(resumed.events.filter(isChange).map((event) => changeOf(event).saved[0]?.title)).toEqual(['missed 2']);
  });

  it('relays svc-todos\' refusal of a bad cursor as the usual JSON error', async () => {
    const alice = await signedUp();
    const bad = await stream(alice.client, { query: '?after=not-a-number' });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expect(bad.body).toEqual(expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.any(String) }));
    const badHeader = await stream(alice.client, { headers: { 'last-event-id': 'x' } });
    expect(badHeader.status).toBe(400);
    expect(gateway.streams.countOf(alice.client.cookies.get(SESSION_COOKIE) ?? '')).toBe(0);
  });

  it('needs a signed-in session: 401 in the usual shape otherwise; HEAD opens nothing', async () => {
    const anonymous = await openRawEventStream(`${gateway.url}/api/todo/events`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Not signed in', code: 'AUTH.UNAUTHENTICATED' });
    const visitor = new ApiClient(gateway.url);
    await visitor.get('/api/user/me');
    const visiting = await stream(visitor);
    expect(visiting.status).toBe(401);

    const alice = await signedUp();
    const head = await fetch(`${gateway.url}/api/todo/events`, { method: 'HEAD', headers: { cookie: alice.client.cookieHeader() } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(gateway.streams.size).toBe(0);
    // Another method on the path is the service's 405, never a stream.
    const post = await alice.client.post('/api/todo/events', {});
    expect(post.status).toBe(405);
    expect(post.body).toEqual(expect.objectContaining({ code: 'ROUTE.METHOD_NOT_ALLOWED' }));
  });

  it('outlives the upstream timeout (which bounds only the wait for the answer\'s head)', async () => {
    const quick = await anotherGateway({ upstreamTimeoutMs: 300 });
    // Signed up through the usual gateway (a password hash takes longer than 300 ms); the store is shared.
    const alice = await signedUp();
    alice.client = withCookiesOf(alice.client, quick);
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    await pause(1000);
    expect(live.isEnded).toBe(false);
    const added = await alice.client.post<TodoResponse>('/api/todo/add-todo', { title: 'after the timeout' });
    expect(changeOf(await live.waitFor(isChange)).saved).toEqual([added.body.todo]);
  });

  it('ends the upstream stream when the client goes away, and gives the place back', async () => {
    const alice = await signedUp();
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    expect(gateway.streams.size).toBe(1);
    live.close();
    await until(() => gateway.streams.size === 0);
    const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^gateway_live_streams\{[^}]*\} 0$/m);
  });

  it('counts open streams in /metrics', async () => {
    const alice = await signedUp();
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^gateway_live_streams\{[^}]*service="gateway"[^}]*\} 1$/m);
  });
});

describe('a resume far behind (PRODUCT §10.11.5)', () => {
  it('gets every missed change (or a reset), never a 5xx, when more than 3 MiB of changes wait behind the cursor', async () => {
    const alice = await signedUp();
    const cursor = (await alice.client.get<TodosResponse>('/api/todo/fetch-todo')).body.cursor;
    // 300 tasks with 500-character titles, then "Mark all complete" / "Mark all active" in turns: each of
    // those is one change carrying every task (about 0.2 MB), so the page missed more than 3 MiB.
    const title = (i: number) => `${String(i).padStart(3, '0')} ${'y'.repeat(496)}`;
    for (let start = 0; start < 300; start += 20) {
      const added = await Promise.all(Array.from({ length: 20 }, (_, i) => alice.client.post('/api/todo/add-todo', { title: title(start + i) })));
      expect(added.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    }
    let rounds = 0;
    for (; rounds < 16; rounds += 1) expect((await alice.client.put('/api/todo/complete-all', { completed: rounds % 2 === 0 })).status).toBe(200);
    const changes = 300 + rounds;

    const live = await stream(alice.client, { query: `?after=${cursor}` });
    expect(live.status).toBe(200);
    const ready = await live.waitFor((event) => event.event === 'ready', 30_000);
    expect(live.raw.length).toBeGreaterThan(3 * 1024 * 1024);
    const reset = live.events.find((event) => event.event === 'reset');
    if (reset) {
      // The other answer the product allows: start over from the current position (the page fetches its list once).
      expect(JSON.parse(ready.data)).toEqual(JSON.parse(reset.data));
    } else {
      const ids = live.events.filter(isChange).map((event) => Number(changeOf(event).id));
      expect(ids).toEqual(Array.from({ length: changes }, (_, i) => Number(cursor) + i + 1));
      expect(ready.id).toBe(String(Number(cursor) + changes));
    }
    // And the stream is live after it.
    const added = await alice.client.post<TodoResponse>('/api/todo/add-todo', { title: 'after the backlog' });
    const next = await live.waitFor((event) => isChange(event) && changeOf(event).saved[0]?._id === added.body.todo._id, 5_000);
    expect(Number(next.id)).toBe(Number(ready.id) + 1);
  }, 60_000);
});

describe('caps', () => {
  it('keeps places for others while one account holds all it may: per user, then per address', async () => {
    // A gateway capped at 30 streams, as in the attack: one account with 6 sessions of 5 streams would take all 30.
    const capped = await anotherGateway({ events: { maxPerSession: 5, maxPerUser: 10, maxPerAddress: 20, maxStreams: 30, sessionCheckMs: 15_000 } });
    const hog = await signedUp(capped, 'Hog');
    const sessions = [hog.client, ...(await Promise.all(Array.from({ length: 5 }, () => signedInAgain(hog, capped))))];
    const statuses: number[] = [];
    for (const client of sessions) for (let i = 0; i < 5; i += 1) statuses.push((await stream(client)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(capped.streams.size).toBe(10);
    // Another user still gets a live stream.
    const other = await signedUp(capped, 'Other');
    const theirs = await stream(other.client);
    expect(theirs.status).toBe(200);
    await theirs.waitFor((event) => event.event === 'ready', 5000);

    // Many accounts behind one address: the address's cap (20) leaves the rest of the process to others.
    const more = await Promise.all(Array.from({ length: 3 }, (_, i) => signedUp(capped, `Sybil ${i}`)));
    const sybil: number[] = [];
    for (const account of more) for (let i = 0; i < 5; i += 1) sybil.push((await stream(account.client)).status);
    expect(capped.streams.size).toBe(20);
    expect(sybil.filter((status) => status === 429).length).toBeGreaterThan(0);
    const refused = await stream(other.client);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many live connections from this address.', code: 'EVENTS.TOO_MANY_STREAMS' });
    const metrics = await (await fetch(`${capped.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_live_streams_refused_total\{[^}]*reason="user"[^}]*\} 20$/m);
  });

  it('refuses a session\'s stream beyond its cap with 429 and the process\'s beyond its cap with 503', async () => {
    const capped = await anotherGateway({ events: { maxPerSession: 2, maxPerUser: 1000, maxPerAddress: 1000, maxStreams: 3, sessionCheckMs: 15_000 } });
    const alice = await signedUp(capped, 'Alice');
    const bob = await signedUp(capped, 'Bob');
    const first = await stream(alice.client);
    const second = await stream(alice.client);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await stream(alice.client);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ message: 'Too many live connections for this session.', code: 'EVENTS.TOO_MANY_STREAMS' });

    // Another session of the same user has its own count; the process's cap counts everyone.
    const aliceElsewhere = await signedInAgain(alice, capped);
    expect((await stream(aliceElsewhere)).status).toBe(200);
    const full = await stream(bob.client);
    expect(full.status).toBe(503);
    expect(full.body).toEqual({ message: expect.any(String), code: 'EVENTS.TOO_MANY_STREAMS' });

    // A closed stream frees its place at once.
    first.close();
    await until(() => capped.streams.size === 2);
    expect((await stream(bob.client)).status).toBe(200);
    const metrics = await (await fetch(`${capped.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_live_streams_refused_total\{[^}]*reason="session"[^}]*\} 1$/m);
    expect(metrics).toMatch(/gateway_live_streams_refused_total\{[^}]*reason="process"[^}]*\} 1$/m);
    expect(metrics).toMatch(/^gateway_live_streams\{[^}]*\} 3$/m);
  });
});

describe('a stream ends with its session', () => {
  it('logout ends the streams of that session only', async () => {
    const alice = await signedUp();
    const phone = await signedInAgain(alice);
    const [tab1, tab2, onPhone] = [await stream(alice.client), await stream(alice.client), await stream(phone)];
    await Promise.all([tab1, tab2, onPhone].map((live) => live.waitFor((event) => event.event === 'ready')));

    expect((await alice.client.post('/api/user/logout')).status).toBe(200);
    await expect(tab1.ended()).resolves.toBe('end');
    await expect(tab2.ended()).resolves.toBe('end');
    await pause(200);
    expect(onPhone.isEnded).toBe(false);
    // Its reconnect is refused: the session is gone.
    expect((await stream(alice.client)).status).toBe(401);
    await phone.post('/api/todo/add-todo', { title: 'still live on the phone' });
    await onPhone.waitFor(isChange);
  });

  it('sign out everywhere ends every stream of the user (and no one else\'s)', async () => {
    const alice = await signedUp();
    const phone = await signedInAgain(alice);
    const bob = await signedUp(gateway, 'Bob');
    const streams = [await stream(alice.client), await stream(phone)];
    const bobLive = await stream(bob.client);
    await Promise.all([...streams, bobLive].map((live) => live.waitFor((event) => event.event === 'ready')));

    expect((await phone.post('/api/user/logout-all')).status).toBe(200);
    for (const live of streams) await expect(live.ended()).resolves.toBe('end');
    expect(bobLive.isEnded).toBe(false);
  });

  it('a password change ends every stream of the user; the rotated session opens a new one', async () => {
    const alice = await signedUp();
    const phone = await signedInAgain(alice);
    const streams = [await stream(alice.client), await stream(phone)];
    await Promise.all(streams.map((live) => live.waitFor((event) => event.event === 'ready')));

    const change = await alice.client.put('/api/user/password', { currentPassword: alice.password, newPassword: 'a brand new pass phrase 7' });
    expect(change.status).toBe(200);
    for (const live of streams) await expect(live.ended()).resolves.toBe('end');
    expect((await stream(phone)).status).toBe(401);
    const renewed = await stream(alice.client);
    expect(renewed.status).toBe(200);
    await renewed.waitFor((event) => event.event === 'ready');
  });

  it('deleting the account ends its streams', async () => {
    const alice = await signedUp();
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    expect((await alice.client.delete('/api/user/account', { body: { password: alice.password } })).status).toBe(200);
    await expect(live.ended()).resolves.toBe('end');
  });

  it('the session check ends a stream whose session was destroyed in the store directly', async () => {
    const checking = await anotherGateway({ events: { maxPerSession: 5, maxPerUser: 1000, maxPerAddress: 1000, maxStreams: 100, sessionCheckMs: 100 } });
    const alice = await signedUp(checking);
    const bob = await signedUp(checking, 'Bob');
    const live = await stream(alice.client);
    const bobLive = await stream(bob.client);
    await Promise.all([live, bobLive].map((one) => one.waitFor((event) => event.event === 'ready')));
    await pause(300);
    expect(live.isEnded).toBe(false);

    await checking.sessionStore.destroy(alice.client.cookies.get(SESSION_COOKIE) ?? '');
    await expect(live.ended(2000)).resolves.toBe('end');
    expect(bobLive.isEnded).toBe(false);
  });

  it('a logout through another gateway instance ends the stream here at the next check', async () => {
    const here = await anotherGateway({ events: { maxPerSession: 5, maxPerUser: 1000, maxPerAddress: 1000, maxStreams: 100, sessionCheckMs: 100 } });
    const there = await anotherGateway();
    const alice = await signedUp(here);
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    const elsewhere = withCookiesOf(alice.client, there);
    expect((await elsewhere.post('/api/user/logout')).status).toBe(200);
    await expect(live.ended(2000)).resolves.toBe('end');
  });

  it('the session check applies the idle timeout: an unused session\'s stream ends when the session would', async () => {
    const idle = await anotherGateway({
      session: { idleTimeoutMs: 1200, absoluteTimeoutMs: 60_000 },
      events: { maxPerSession: 5, maxPerUser: 1000, maxPerAddress: 1000, maxStreams: 100, sessionCheckMs: 100 },
    });
    const alice = await signedUp(idle);
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    const opened = Date.now();
    await expect(live.ended(4000)).resolves.toBe('end');
    expect(Date.now() - opened).toBeGreaterThanOrEqual(900);
    expect((await alice.client.get('/api/user/me')).status).toBe(401);
  });

  it('the session check applies the absolute lifetime', async () => {
    const short = await anotherGateway({
      session: { idleTimeoutMs: 60_000, absoluteTimeoutMs: 1000 },
      events: { maxPerSession: 5, maxPerUser: 1000, maxPerAddress: 1000, maxStreams: 100, sessionCheckMs: 100 },
    });
    const alice = await signedUp(short);
    const live = await stream(alice.client);
    await live.waitFor((event) => event.event === 'ready');
    await expect(live.ended(4000)).resolves.toBe('end');
  });
});

describe('draining', () => {
  it('ends every open stream at once and refuses new ones with 503, so pages reconnect elsewhere', async () => {
    const leaving = await anotherGateway();
    const alice = await signedUp(leaving);
    const bob = await signedUp(leaving, 'Bob');
    const streams = [await stream(alice.client), await stream(alice.client), await stream(bob.client)];
    await Promise.all(streams.map((live) => live.waitFor((event) => event.event === 'ready')));
    const started = Date.now();
    leaving.drain();
    for (const live of streams) await expect(live.ended(1000)).resolves.toBe('end');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(leaving.streams.size).toBe(0);
    const refused = await stream(alice.client);
    expect(refused.status).toBe(503);
    expect(refused.headers.connection).toBe('close');
    expect(refused.body).toEqual({ message: expect.any(String), code: 'SERVICE.UNAVAILABLE' });
    // Ordinary calls are still served while the gateway drains.
    expect((await alice.client.get('/api/todo/fetch-todo')).status).toBe(200);
  });
});
