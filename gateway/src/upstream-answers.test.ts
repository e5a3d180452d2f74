import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { ApiClient } from '@tm/test-support';
import { newUser, startGateway, startServices, type Services, type TestGateway } from './test-stack.js';

/**
 * A stand-in for a broken deployment of a service (docs/RELIABILITY.md "Upstream answers"): it answers every
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

let services: Services;
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
    ['an unknown route answered 200', 'GET', '/api/todo/secret-admin', json(200, { message: 'ok' })],
    ['a status outside HTTP\'s classes', 'GET', '/api/todo/fetch-todo', { status: 600, type: 'application/json', body: '{"message":"?"}' }],
  ])('%s gives 502 with the usual error body', async (_label, method, path, reply) => {
    await withBrokenTodos(() => reply as Reply, async (client) => {
      const answer = await client.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: { title: 'x', updateData: { completed: true } } });
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual(badGateway);
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

describe('/readyz names each dependency', () => {
  it('ready with everything up; degraded (still 200) with a service down; back to ready when it returns', async () => {
    const todos = await brokenService((path) => (path === '/readyz' ? json(503, { status: 'unavailable' }) : json(404, { message: 'no' })));
    const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: todos.url });
    const healthy = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: services.todos.url });
    try {
      const down = await fetch(`${gateway.url}/readyz`);
      expect(down.status).toBe(200);
      expect(await down.json()).toEqual({ status: 'degraded', checks: { sessions: 'up', users: 'up', todos: 'down' } });
      const up = await fetch(`${healthy.url}/readyz`);
      expect(await up.json()).toEqual({ status: 'ready', checks: { sessions: 'up', users: 'up', todos: 'up' } });
    } finally {
      await Promise.all([gateway.close(), healthy.close()]);
      await todos.close();
    }
  });
});
