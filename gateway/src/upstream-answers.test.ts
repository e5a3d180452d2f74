import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { ApiClient, newUser, openRawEventStream, type RunningServices, startServices, upstreamsOf } from '@tm/test-support';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * A stand-in for a broken deployment of a service (docs/ARCHITECTURE.md "Upstream answers"): it answers every
 * request with whatever `reply` says. Our own services are never replaced by it except to break them.
 */
interface Reply {
  status: number;
  type: string;
  body: string;
}

async function brokenService(reply: (path: string) => Reply): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    const { status, type, body } = reply(req.url ?? '/');
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let services: RunningServices;
beforeAll(async () => {
  services = await startServices();
});
afterAll(async () => {
  await services.stop();
});

const json = (status: number, body: unknown): Reply => ({ status, type: 'application/json', body: JSON.stringify(body) });
const badGateway = { message: expect.stringMatching(/service gave an invalid answer$/), code: 'UPSTREAM.BAD_GATEWAY' };

describe('upstream answers are checked before they are sent on', () => {
  const usersCases: [string, Reply][] = [
    ['malformed JSON', { status: 200, type: 'application/json', body: '{"message": "Logged in", "user": ' }],
    ['an HTML error page', { status: 500, type: 'text/html', body: '<h1>Internal Server Error</h1>' }],
    ['a user without an id', json(200, { message: 'Logged in successfully', user: { fullName: 'A', email: 'a@example.com' } })],
    ['a user id that is not an ObjectId', json(200, { message: 'ok', user: { _id: '../../etc', fullName: 'A', email: 'a@example.com' } })],
    ['an error without a message', json(401, { code: 'AUTH.INVALID_CREDENTIALS' })],
    ['a redirect', { status: 302, type: 'application/json', body: '{}' }],
    ['an empty body', { status: 200, type: 'application/json', body: '' }],
  ];

  it.each(usersCases)('login: svc-users answering %s gives 502 and signs nobody in', async (_label, reply) => {
    const users = await brokenService(() => reply);
    const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: users.url, todosUrl: services.todos.url });
    try {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      const login = await client.post('/api/user/login', { email: 'a@example.com', password: 'whatever it is' });
      expect(login.status).toBe(502);
      expect(login.body).toEqual(badGateway);
      expect((await client.get('/api/todo/fetch-todo')).status).toBe(401);
    } finally {
      await gateway.close();
      await users.close();
    }
  });

  /** A gateway on the real svc-users and a broken svc-todos, with a signed-in client. */
  async function withBrokenTodos(reply: (path: string) => Reply, run: (client: ApiClient, gateway: TestGateway) => Promise<void>) {
    const todos = await brokenService(reply);
    const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url });
    try {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
      await run(client, gateway);
    } finally {
      await gateway.close();
      await todos.close();
    }
  }

  it.each([
    ['fetch: malformed JSON', 'GET', '/api/todo/fetch-todo', { status: 200, type: 'application/json', body: '{"todos": [' }],
    ['fetch: a todo missing its title', 'GET', '/api/todo/fetch-todo', json(200, { message: 'ok', todos: [{ _id: 'a'.repeat(24), completed: false }] })],
    ['fetch: todos not an array', 'GET', '/api/todo/fetch-todo', json(200, { message: 'ok', todos: 'all of them' })],
    ['add: the wrong shape', 'POST', '/api/todo/add-todo', json(201, { ok: true })],
    ['update: plain text', 'PUT', `/api/todo/update-todo/${'b'.repeat(24)}`, { status: 200, type: 'text/plain', body: 'done' }],
    ['delete: JSON null', 'DELETE', `/api/todo/delete-todo/${'c'.repeat(24)}`, json(200, null)],
    ['restore: a todo without its flags', 'POST', `/api/todo/restore-todo/${'e'.repeat(24)}`, json(200, { message: 'ok', todo: { _id: 'e'.repeat(24), title: 'x' } })],
    ['complete-all: a negative count', 'PUT', '/api/todo/complete-all', json(200, { message: 'ok', count: -1 })],
    ['clear-completed: no count', 'DELETE', '/api/todo/clear-completed', json(200, { message: 'ok' })],
    ['fetch: a list without its cursor', 'GET', '/api/todo/fetch-todo', json(200, { todos: [] })],
    ['an unknown route answered 200', 'GET', '/api/todo/secret-admin', json(200, { message: 'ok' })],
    // A download (docs/PRODUCT.md §10.23): an attachment with its file name, JSON of its schema or CSV.
    ['export: a CSV that is no attachment', 'GET', '/api/todo/export?format=csv', { status: 200, type: 'text/csv; charset=utf-8', body: 'List,Title\r\n' }],
    ['export: JSON that is not the document', 'GET', '/api/todo/export?format=json', json(200, { format: 'something else' })],
    ['import: the wrong shape', 'POST', '/api/todo/import', json(200, { imported: 'all' })],
    ['a status outside HTTP\'s classes', 'GET', '/api/todo/fetch-todo', { status: 600, type: 'application/json', body: '{"message":"?"}' }],
  ])('%s gives 502 with the usual error body', async (_label, method, path, reply) => {
    await withBrokenTodos(() => reply, async (client) => {
      const answer = await client.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: { title: 'x', updateData: { completed: true } } });
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual(badGateway);
    });
  });

  /** A list of `count` valid tasks as svc-todos would send it: far more than one socket read. */
  function bigList(count: number) {
    const todos = Array.from({ length: count }, (_, index) => ({
      _id: index.toString(16).padStart(24, '0'),
      title: `Task ${index} “quoted” ☕`,
      completed: index % 2 === 0,
      isPinned: false,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      completedAt: index % 2 === 0 ? '2025-01-01T00:00:00.000Z' : null,
    }));
    return { todos, lists: [], cursor: '7' };
  }

  it('a large 2xx list arriving in many chunks is checked whole: one bad task at its very end gives 502', async () => {
    const list = bigList(2000);
    const broken = { ...list, todos: [...list.todos, { ...list.todos[0], createdAt: 'yesterday' }] };
    await withBrokenTodos(() => json(200, broken), async (client) => {
      const answer = await client.get('/api/todo/fetch-todo');
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual(badGateway);
    });
  });

  it('a large valid list is passed on byte for byte (the control case)', async () => {
    const text = JSON.stringify(bigList(2000));
    await withBrokenTodos(() => ({ status: 200, type: 'application/json', body: text }), async (client) => {
      const answer = await fetch(`${client.baseUrl}/api/todo/fetch-todo`, { headers: { cookie: client.cookieHeader() } });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(text);
    });
  });

  it('passes a well-formed error of the service through unchanged (the control case)', async () => {
    await withBrokenTodos(
      () => json(404, { message: 'Todo not found', code: 'TODO.NOT_FOUND' }),
      async (client) => {
        const answer = await client.delete(`/api/todo/delete-todo/${'d'.repeat(24)}`);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ message: 'Todo not found', code: 'TODO.NOT_FOUND' });
      },
    );
  });
});

describe('the live stream: an answer that is not a stream is checked like any other', () => {
  async function streamFrom(reply: (path: string) => Reply, overrides: Parameters<typeof startGateway>[1] = {}) {
    const todos = await brokenService(reply);
    const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url }, overrides);
    try {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
      const started = Date.now();
      const answer = await openRawEventStream(`${gateway.url}/api/todo/events?after=0`, { cookie: client.cookieHeader() });
      return { answer, ms: Date.now() - started, open: gateway.streams.size };
    } finally {
      await gateway.close();
      await todos.close();
    }
  }

  it.each([
    ['JSON with status 200', json(200, { message: 'ok' })],
    ['an HTML error page', { status: 500, type: 'text/html', body: '<h1>oops</h1>' }],
    ['204 without a body', { status: 204, type: 'text/event-stream', body: '' }],
    ['an error without a message', json(400, { code: 'VALIDATION_FAILED' })],
  ])('%s gives 502 with the usual error body', async (_label, reply) => {
    const { answer, open } = await streamFrom(() => reply);
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual(badGateway);
    expect(open).toBe(0);
  });

  it('a well-formed refusal is passed on as JSON; the path and query the service saw are the public ones', async () => {
    let seen = '';
    const { answer } = await streamFrom((path) => {
      seen = path;
      return json(400, { message: 'The cursor must be a whole number', code: 'VALIDATION_FAILED' });
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: 'The cursor must be a whole number', code: 'VALIDATION_FAILED' });
    expect(seen).toBe('/todo/events?after=0');
  });

  it('a service that sends no head within the upstream timeout gives 504; none listening gives 503', async () => {
    // Signed up through a gateway on the real services (a password hash takes longer than the short timeout).
    const usual = await startGateway(upstreamsOf(services));
    const client = new ApiClient(usual.url);
    await client.get('/api/user/me');
    expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
    await usual.close();
    const cookie = client.cookieHeader();

    const silent = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: url }, { upstreamTimeoutMs: 400 });
    try {
      const started = Date.now();
      const slow = await openRawEventStream(`${gateway.url}/api/todo/events`, { cookie });
      expect(slow.status).toBe(504);
      expect(slow.body).toEqual({ message: 'The todos service took too long to answer', code: 'UPSTREAM.TIMEOUT' });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(gateway.streams.size).toBe(0);
    } finally {
      await gateway.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
    const nowhere = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: url });
    try {
      const refused = await openRawEventStream(`${nowhere.url}/api/todo/events`, { cookie });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual(expect.objectContaining({ code: 'UPSTREAM.UNAVAILABLE' }));
      expect(nowhere.streams.size).toBe(0);
    } finally {
      await nowhere.close();
    }
  });
});

describe('/readyz names each dependency', () => {
  it('ready with everything up; degraded (still 200) with a service down; back to ready when it returns', async () => {
    const todos = await brokenService((path) => (path === '/readyz' ? json(503, { status: 'unavailable' }) : json(404, { message: 'no' })));
    const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url });
    const healthy = await startGateway(upstreamsOf(services));
    try {
      const down = await fetch(`${gateway.opsUrl}/readyz`);
      expect(down.status).toBe(200);
      expect(await down.json()).toEqual({ status: 'degraded', checks: { sessions: 'up', users: 'up', todos: 'down' } });
      const up = await fetch(`${healthy.opsUrl}/readyz`);
      expect(await up.json()).toEqual({ status: 'ready', checks: { sessions: 'up', users: 'up', todos: 'up' } });
    } finally {
      await Promise.all([gateway.close(), healthy.close()]);
      await todos.close();
    }
  });
});
