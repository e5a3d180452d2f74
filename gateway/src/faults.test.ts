import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, type TodoResponse, type TodosResponse } from '@tm/contracts';
import { ApiClient, newUser, type RequestOptions, type RunningProcess, type RunningServices, signUp, startProcess, startServices, startTcpRelay, TEST_SECRET } from '@tm/test-support';
import { connectRedis, REDIS_COMMAND_TIMEOUT_MS } from './redis-connection.js';
import { RedisSessionStore } from './redis-session.store.js';
import { keepOpen, startGateway } from './gateway.test-helpers.js';

/**
 * Faults while requests flow (docs/OPERATIONS.md "A service or a store unreachable"): a service stopped, a service slower than the upstream
 * timeout, Redis unreachable. Real processes, real Redis (through a relay this file controls), real HTTP.
 * Each part prints one `faults:` line with what it measured.
 */

/** The slow-service part: svc-users held longer than this. */
const UPSTREAM_TIMEOUT_MS = 1_500;
/**
 * The stopped-service part: sign-ins (one Argon2id hash, ~15 ms, but far longer on a loaded machine) must get
 * through, so the timeout there is roomier; the 503s themselves must come at once, well under MARGIN_MS.
 */
const OUTAGE_UPSTREAM_TIMEOUT_MS = 5_000;
/** Scheduling slack on a busy CI machine on top of a limit. */
const MARGIN_MS = 1_000;

interface Answer {
  label: string;
  status: number;
  body: unknown;
  json: boolean;
  startedAt: number;
  endedAt: number;
  ms: number;
}

/** One request, timed; a network error (the gateway hung up) is status 0, which no test allows. */
async function send(client: ApiClient, label: string, method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer> {
  const startedAt = Date.now();
  let status = 0;
  let answerBody: unknown;
  let json = false;
  try {
    const result = await client.request(method, path, body === undefined ? options : { ...options, body });
    status = result.status;
    answerBody = result.body;
    json = (result.headers.get('content-type') ?? '').startsWith('application/json') && typeof result.body === 'object';
  } catch (error) {
    answerBody = String(error);
  }
  const endedAt = Date.now();
  return { label, status, body: answerBody, json, startedAt, endedAt, ms: endedAt - startedAt };
}

function codeOf(answer: Answer): unknown {
  return (answer.body as { code?: unknown } | undefined)?.code;
}

function messageOf(answer: Answer): string {
  const message = (answer.body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : '';
}

/** The usual error body: `{ message, code }`, as JSON. */
function isErrorBody(answer: Answer): boolean {
  return answer.json && messageOf(answer) !== '' && typeof codeOf(answer) === 'string';
}

/** `loops` clients each running `step` back to back (with a short pause) until the returned stop is awaited. */
function flow(loops: number, step: (loop: number, n: number) => Promise<void>, pauseMs = 10): () => Promise<void> {
  let running = true;
  const done = Array.from({ length: loops }, async (_unused, loop) => {
    for (let n = 0; running; n += 1) {
      await step(loop, n);
      await sleep(pauseMs);
    }
  });
  return async () => {
    running = false;
    await Promise.all(done);
  };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

async function health(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

function max(values: number[]): number {
  return values.reduce((a, b) => Math.max(a, b), 0);
}

function min(values: number[]): number {
  return values.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
}

/** A signed-in user: a client with a session, plus the credentials to sign in again. */
async function signedUp(baseUrl: string, client = new ApiClient(baseUrl)): Promise<{ client: ApiClient; email: string; password: string }> {
  const { email, password } = await signUp(baseUrl, { name: 'Faults', client });
  return { client, email, password };
}

let services: RunningServices;
/** svc-todos as it currently runs (part 1 replaces it). */
let todos: RunningProcess;

beforeAll(async () => {
  services = await startServices();
  todos = services.todos;
});
afterAll(async () => {
  if (todos !== services.todos) await todos.stop();
  await services.stop();
});

describe('a service stopped while requests flow', () => {
  it('answers JSON 503 at once, keeps sign-in working, and recovers without restarting the gateway', async () => {
    const gateway = await startGateway(
      { dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url },
      { upstreamTimeoutMs: OUTAGE_UPSTREAM_TIMEOUT_MS },
    );
    let stopFlow = async (): Promise<void> => undefined;
    try {
      const { client, email, password } = await signedUp(gateway.url);
      const answers: Answer[] = [];
      const acknowledged: string[] = [];
      stopFlow = flow(4, async (loop, n) => {
        const added = await send(client, 'add', 'POST', '/api/todo/add-todo', { title: `loop ${loop} #${n}` });
        answers.push(added);
        if (added.status === 201) acknowledged.push((added.body as TodoResponse).todo._id);
        answers.push(await send(client, 'fetch', 'GET', '/api/todo/fetch-todo'));
      });

      await sleep(600);
      const stopping = Date.now();
      await todos.stop('SIGTERM');
      const stoppedAt = Date.now();
      await sleep(300);

      expect(await health(`${gateway.opsUrl}/readyz`)).toEqual({
        status: 200,
        body: { status: 'degraded', checks: { sessions: 'up', users: 'up', todos: 'down' } },
      });
      const other = new ApiClient(gateway.url);
      await other.get('/api/user/me');
      const login = await send(other, 'login', 'POST', '/api/user/login', { email, password });
      expect(login.status).toBe(200);
      expect((await other.get('/api/user/me')).status).toBe(200);

      await sleep(Math.max(0, stoppedAt + 1_500 - Date.now()));
      todos = await startProcess('svc-todos', { DATA_DIR: services.dataDir, INTERNAL_SECRET: TEST_SECRET, TODOS_PORT: String(services.todos.port) });
      const restartedAt = Date.now();
      const recovered = () => answers.filter((a) => a.endedAt > stoppedAt && a.status >= 200 && a.status < 300);
      await waitFor('a 2xx answer after the restart', () => recovered().length > 0);
      const firstRecovered = min(recovered().map((a) => a.endedAt));
      await sleep(500);
      await stopFlow();

      expect(await health(`${gateway.opsUrl}/readyz`)).toEqual({
        status: 200,
        body: { status: 'ready', checks: { sessions: 'up', users: 'up', todos: 'up' } },
      });
      const list = await client.get<TodosResponse>('/api/todo/fetch-todo');
      expect(list.status).toBe(200);
      const stored = new Set(list.body.todos.map((todo) => todo._id));
      const lost = acknowledged.filter((id) => !stored.has(id));

      const ok = (a: Answer) => a.status >= 200 && a.status < 300 && a.json;
      const unavailable = (a: Answer) =>
        a.status === 503 && codeOf(a) === ErrorCode.upstreamUnavailable && /todos service is unavailable/.test(messageOf(a));
      // A connection the stopping service closed under a request in flight: allowed, as the usual error body.
      const cut = (a: Answer) => a.status === 502 && codeOf(a) === ErrorCode.badGateway && isErrorBody(a);
      expect(answers.filter((a) => !(ok(a) || (unavailable(a) && isErrorBody(a)) || cut(a)))).toEqual([]);
      expect(answers.filter((a) => a.ms > OUTAGE_UPSTREAM_TIMEOUT_MS + MARGIN_MS)).toEqual([]);
      const failed = answers.filter((a) => !ok(a));
      // Refused connections are answered at once: nothing sent once the service is gone waits for the upstream
      // timeout. (A request sent while it was stopping waits for its stop, at most the timeout, checked above.)
      expect(failed.filter((a) => a.startedAt >= stoppedAt && a.ms > MARGIN_MS)).toEqual([]);
      expect(failed.filter((a) => a.startedAt >= stoppedAt).length).toBeGreaterThan(0);
      expect(failed.filter(unavailable).length).toBeGreaterThan(0);
      expect(answers.filter((a) => ok(a) && a.startedAt >= restartedAt).length).toBeGreaterThan(0);
      expect(lost).toEqual([]);

      const during = answers.filter((a) => a.endedAt >= stopping && a.endedAt < firstRecovered);
      const cuts = failed.filter(cut);
      console.log(
        `faults: todos stopped (SIGTERM) for ${restartedAt - stopping} ms under 4 clients adding/fetching → ` +
          `${failed.filter(unavailable).length} answers 503 UPSTREAM.UNAVAILABLE in ≤ ${max(failed.filter(unavailable).map((a) => a.ms))} ms` +
          `${cuts.length ? `, ${cuts.length} 502 UPSTREAM.BAD_GATEWAY (${cuts.map((a) => a.label).join(', ')}: connection closed by the stopping service)` : ''}; ` +
          `every answer from the stop to the recovery ≤ ${max(during.map((a) => a.ms))} ms (errors must come in < ${MARGIN_MS} ms); ` +
          `login during the outage 200 in ${login.ms} ms; /readyz 200 degraded (todos: down); ` +
          `recovered ${Math.max(0, firstRecovered - restartedAt)} ms after the restart, gateway not restarted; ` +
          `${acknowledged.length} adds acknowledged, ${lost.length} lost (${answers.length} requests)`,
      );
    } finally {
      // Loops still running (a failed expectation) end once the gateway is gone.
      const stopped = stopFlow();
      await gateway.close();
      await stopped;
    }
  });
});

describe('a service slower than the upstream timeout', () => {
  it('answers JSON 504 at the timeout with a clear message, and recovers when the service is fast again', async () => {
    const relay = await startTcpRelay({ host: '127.0.0.1', port: services.users.port });
    // Signing up takes a password hash and a strength check, which on a loaded machine may exceed 1.5 s: it is done on a
    // gateway with the usual timeout that shares the session store, so the session is valid on both.
    const setup = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url });
    const gateway = await startGateway(
      { dataDir: services.dataDir, usersUrl: `http://${relay.host}:${relay.port}`, todosUrl: todos.url },
      { upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS },
      keepOpen(setup.sessionStore),
    );
    let stopFlow = async (): Promise<void> => undefined;
    try {
      const { client: onSetup, email, password } = await signedUp(setup.url);
      const client = new ApiClient(gateway.url);
      for (const [name, value] of onSetup.cookies) client.cookies.set(name, value);
      expect((await client.get('/api/user/me')).status).toBe(200);
      const answers: Answer[] = [];
      stopFlow = flow(3, async () => {
        answers.push(await send(client, 'me', 'GET', '/api/user/me'));
        answers.push(await send(client, 'fetch', 'GET', '/api/todo/fetch-todo'));
      }, 20);

      await sleep(400);
      const heldMs = 4_000;
      relay.delay(heldMs);
      const slowFrom = Date.now();
      const other = new ApiClient(gateway.url);
      await other.get('/api/user/me');
      const login = await send(other, 'login', 'POST', '/api/user/login', { email, password });
      expect(login).toMatchObject({ status: 504, json: true, body: { message: 'The users service took too long to answer', code: ErrorCode.upstreamTimeout } });
      expect(login.ms).toBeGreaterThanOrEqual(UPSTREAM_TIMEOUT_MS - 100);
      expect(login.ms).toBeLessThanOrEqual(UPSTREAM_TIMEOUT_MS + MARGIN_MS);
      expect(await health(`${gateway.opsUrl}/readyz`)).toEqual({
        status: 200,
        body: { status: 'degraded', checks: { sessions: 'up', users: 'down', todos: 'up' } },
      });

      await sleep(Math.max(0, slowFrom + 3_000 - Date.now()));
      relay.delay(0);
      const fastFrom = Date.now();
      const first = await send(client, 'me', 'GET', '/api/user/me');
      expect(first.status).toBe(200);
      // A sign-in is one password hash: on a loaded machine one attempt may still be over 1.5 s.
      let relogin = await send(other, 'login', 'POST', '/api/user/login', { email, password });
      for (let attempt = 1; attempt < 3 && relogin.status === 504; attempt += 1) {
        relogin = await send(other, 'login', 'POST', '/api/user/login', { email, password });
      }
      expect(relogin.status).toBe(200);
      await waitFor('the clients to get 200 from svc-users again', () =>
        answers.some((a) => a.label === 'me' && a.status === 200 && a.startedAt >= fastFrom),
      );
      await sleep(300);
      await stopFlow();

      expect(await health(`${gateway.opsUrl}/readyz`)).toEqual({
        status: 200,
        body: { status: 'ready', checks: { sessions: 'up', users: 'up', todos: 'up' } },
      });
      const ok = (a: Answer) => a.status >= 200 && a.status < 300 && a.json;
      const timedOut = (a: Answer) =>
        a.status === 504 && codeOf(a) === ErrorCode.upstreamTimeout && isErrorBody(a) && /users service took too long/.test(messageOf(a));
      expect(answers.filter((a) => !(ok(a) || timedOut(a)))).toEqual([]);
      expect(answers.filter((a) => a.ms > UPSTREAM_TIMEOUT_MS + MARGIN_MS)).toEqual([]);
      const slow = answers.filter(timedOut);
      expect(slow.length).toBeGreaterThan(0);
      // A 504 is honest: the gateway waited for the timeout, it did not give up early.
      expect(slow.filter((a) => a.ms < UPSTREAM_TIMEOUT_MS - 100)).toEqual([]);
      const todoAnswers = answers.filter((a) => a.label === 'fetch');
      expect(todoAnswers.filter((a) => a.status !== 200)).toEqual([]);
      expect(answers.filter((a) => a.label === 'me' && ok(a) && a.startedAt >= fastFrom).length).toBeGreaterThan(0);

      console.log(
        `faults: svc-users held ${heldMs / 1000} s (upstream timeout ${UPSTREAM_TIMEOUT_MS} ms) under 3 clients → ` +
          `${slow.length} answers 504 UPSTREAM.TIMEOUT in ${min(slow.map((a) => a.ms))}–${max(slow.map((a) => a.ms))} ms; ` +
          `login 504 "${messageOf(login)}" in ${login.ms} ms; /readyz 200 degraded (users: down); ` +
          `todo routes unaffected (${todoAnswers.length} answers 200, ≤ ${max(todoAnswers.map((a) => a.ms))} ms); ` +
          `recovered ${first.endedAt - fastFrom} ms after the delay was removed, login 200 in ${relogin.ms} ms`,
      );
    } finally {
      const stopped = stopFlow();
      await gateway.close();
      await stopped;
      await setup.close();
      await relay.close();
    }
  });
});

const redisUrl = process.env.REDIS_URL;

/** Clients come from this address (X-Forwarded-For, trusted): rate-limit keys of their own in the shared Redis. */
class FromAddress extends ApiClient {
  constructor(
    baseUrl: string,
    private readonly address: string,
  ) {
    super(baseUrl);
  }

  override request<T = unknown>(method: string, path: string, options: RequestOptions = {}) {
    return super.request<T>(method, path, { ...options, headers: { 'x-forwarded-for': this.address, ...options.headers } });
  }
}

if (!redisUrl) {
  console.warn('Redis fault suite skipped: REDIS_URL is not set (CI sets it; try REDIS_URL=redis://127.0.0.1:6379)');
  // Skipped on purpose: there is no Redis to talk to without REDIS_URL, and we never fake one.
  describe.skip('Redis unreachable while requests flow (REDIS_URL not set)', () => { // reason: no Redis to talk to without REDIS_URL
    it('needs REDIS_URL', () => undefined);
  });
} else {
  /** A Redis client that reaches the real Redis through a relay the test can cut and restore. */
  async function redisThroughRelay(url: string) {
    const target = new URL(url);
    const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 6379) });
    const throughRelay = new URL(url);
    throughRelay.hostname = relay.host;
    throughRelay.port = String(relay.port);
    return { relay, redis: await connectRedis(throughRelay.toString()) };
  }

  describe('Redis unreachable while requests flow', () => {
    it('answers JSON 503 fast, login fails with a clear message, /readyz names sessions, and it recovers by itself', async () => {
      const { relay, redis } = await redisThroughRelay(redisUrl);
      const gateway = await startGateway(
        { dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url },
        {
          trustProxy: true,
          authRateLimit: { points: 10_000, windowSeconds: 60 },
          accountThrottle: { failLimit: 10, windowSeconds: 60, lockoutSeconds: 60 },
        },
        new RedisSessionStore(redis),
        redis,
      );
      let stopFlows = async (): Promise<void> => undefined;
      try {
        const address = `203.0.113.${1 + (process.pid % 250)}`;
        const { client, email, password } = await signedUp(gateway.url, new FromAddress(gateway.url, address));
        const signer = new FromAddress(gateway.url, address);
        await signer.get('/api/user/me');
        const answers: Answer[] = [];
        const acknowledged: string[] = [];
        const stopUsers = flow(3, async (loop, n) => {
          answers.push(await send(client, 'me', 'GET', '/api/user/me'));
          const added = await send(client, 'add', 'POST', '/api/todo/add-todo', { title: `redis ${loop} #${n}` });
          answers.push(added);
          if (added.status === 201) acknowledged.push((added.body as TodoResponse).todo._id);
          answers.push(await send(client, 'fetch', 'GET', '/api/todo/fetch-todo'));
        });
        // Sign-ins go through the limiters and the account throttle, in Redis too.
        const stopLogins = flow(1, async () => {
          answers.push(await send(signer, 'login', 'POST', '/api/user/login', { email, password }));
        });
        stopFlows = async () => {
          await Promise.all([stopUsers(), stopLogins()]);
        };

        await sleep(600);
        await relay.cut();
        const cutAt = Date.now();
        await sleep(300);
        const ready = await health(`${gateway.opsUrl}/readyz`);
        expect(ready).toEqual({ status: 503, body: { status: 'unavailable', checks: { sessions: 'down', users: 'up', todos: 'up' } } });
        expect((await health(`${gateway.url}/healthz`)).status).toBe(200);
        const login = await send(signer, 'login', 'POST', '/api/user/login', { email, password });
        expect(login).toMatchObject({ status: 503, json: true, body: { code: ErrorCode.unavailable } });
        expect(messageOf(login)).toMatch(/temporarily unavailable/);
        expect(login.ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 500);

        await sleep(Math.max(0, cutAt + 2_500 - Date.now()));
        await relay.restore();
        const restoredAt = Date.now();
        const recovered = () => answers.filter((a) => a.startedAt >= restoredAt && a.status >= 200 && a.status < 300);
        await waitFor('a 2xx answer after Redis is reachable again', () => recovered().length > 0);
        const firstRecovered = min(recovered().map((a) => a.endedAt));
        await waitFor('/readyz 200 again', async () => (await fetch(`${gateway.opsUrl}/readyz`)).status === 200);
        const readyAgainAt = Date.now();
        await sleep(500);
        await stopFlows();

        expect(await health(`${gateway.opsUrl}/readyz`)).toEqual({
          status: 200,
          body: { status: 'ready', checks: { sessions: 'up', users: 'up', todos: 'up' } },
        });
        const relogin = await send(signer, 'login', 'POST', '/api/user/login', { email, password });
        expect(relogin.status).toBe(200);
        const list = await client.get<TodosResponse>('/api/todo/fetch-todo');
        const stored = new Set(list.body.todos.map((todo) => todo._id));
        const lost = acknowledged.filter((id) => !stored.has(id));

        const ok = (a: Answer) => a.status >= 200 && a.status < 300 && a.json;
        const unavailable = (a: Answer) =>
          a.status === 503 && codeOf(a) === ErrorCode.unavailable && isErrorBody(a) && /temporarily unavailable/.test(messageOf(a));
        expect(answers.filter((a) => !(ok(a) || unavailable(a)))).toEqual([]);
        const failed = answers.filter(unavailable);
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.filter((a) => a.label === 'login').length).toBeGreaterThan(0);
        // Fast: well under the store's own 2 s timeout (a disconnected client queues nothing).
        expect(answers.filter((a) => a.ms > REDIS_COMMAND_TIMEOUT_MS + 500)).toEqual([]);
        expect(lost).toEqual([]);

        // Requests in flight at the cut (a login waiting for svc-users' password hash) fail when they next touch Redis.
        const afterCut = failed.filter((a) => a.startedAt >= cutAt);
        const logins = failed.filter((a) => a.label === 'login');
        console.log(
          `faults: Redis cut off (relay closed) for ${restoredAt - cutAt} ms under 3 clients + 1 signing in → ` +
            `${failed.length} answers 503 SERVICE.UNAVAILABLE, those sent during the outage in ≤ ${max(afterCut.map((a) => a.ms))} ms ` +
            `(those in flight at the cut ≤ ${max(failed.map((a) => a.ms))} ms); ${logins.length} logins 503 ` +
            `"${messageOf(logins.find((a) => a.startedAt >= cutAt) ?? logins[0]!)}" in ≤ ${max(logins.filter((a) => a.startedAt >= cutAt).map((a) => a.ms))} ms; ` +
            `/readyz 503 (sessions: down), /healthz 200; recovered ${firstRecovered - restoredAt} ms after Redis was reachable again, ` +
            `/readyz 200 after ${readyAgainAt - restoredAt} ms, nothing restarted; ${acknowledged.length} adds acknowledged, ` +
            `${lost.length} lost (${answers.length} requests)`,
        );
      } finally {
        const stopped = stopFlows();
        await gateway.close();
        await stopped;
        await relay.close();
      }
    });

    // Found by this file: the first call of a browser (no session yet) used to save a new session, and a store that
    // failed at that moment gave a 500. Visitors now keep nothing in the store (their XSRF token is a signed
    // cookie), so they are answered while Redis is away; signing in, which must save a session, is a JSON 503.
    it('a visitor is answered while Redis is unreachable, and signing in then is a JSON 503 (not 500)', async () => {
      const { relay, redis } = await redisThroughRelay(redisUrl);
      const gateway = await startGateway(
        { dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url },
        {},
        new RedisSessionStore(redis),
        redis,
      );
      try {
        expect((await new ApiClient(gateway.url).get('/api/user/me')).status).toBe(401);
        await relay.cut();
        const visitor = new ApiClient(gateway.url);
        expect(await send(visitor, 'visitor', 'GET', '/api/user/me')).toMatchObject({ status: 401, json: true });
        const signup = await send(visitor, 'signup', 'POST', '/api/user/signup', newUser('Outage'));
        expect(signup).toMatchObject({ status: 503, json: true, body: { code: ErrorCode.unavailable } });
      } finally {
        await relay.restore();
        await gateway.close();
        await relay.close();
      }
    });
  });
}
