import { createServer, request as httpRequest, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { once } from 'node:events';
import { LIMITS, type TodoResponse, type TodosResponse } from '@tm/contracts';
import { ApiClient, newUser, type RunningStack, startStack, upstreamsOf } from '@tm/test-support';
import { inProcessGateway, startGateway, type TestGateway } from './gateway.test-helpers.js';

let stack: RunningStack<TestGateway>;
let client: ApiClient;
let todoId: string;

beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
  client = new ApiClient(stack.gateway.url);
  await client.get('/api/user/me');
  expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
  todoId = (await client.post<TodoResponse>('/api/todo/add-todo', { title: 'original' })).body.todo._id;
});
afterAll(async () => {
  await stack.stop();
});

const errorShape = { message: expect.any(String), code: expect.any(String) };

async function expectListUnchanged(): Promise<void> {
  const list = await client.get<TodosResponse>('/api/todo/fetch-todo');
  expect(list.body.todos).toEqual([expect.objectContaining({ _id: todoId, title: 'original', completed: false, isPinned: false })]);
}

describe('bad input gets a clear 4xx and changes nothing', () => {
  const big = 'x'.repeat(LIMITS.bodyBytes + 1024);
  const cases: [string, string, string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }, number][] = [
    ['add: missing title', 'POST', '/api/todo/add-todo', { body: {} }, 400],
    ['add: title is a number', 'POST', '/api/todo/add-todo', { body: { title: 42 } }, 400],
    ['add: blank title', 'POST', '/api/todo/add-todo', { body: { title: '   ' } }, 400],
    ['add: title too long', 'POST', '/api/todo/add-todo', { body: { title: 'a'.repeat(501) } }, 400],
    ['add: malformed JSON', 'POST', '/api/todo/add-todo', { rawBody: '{"title": ', headers: { 'content-type': 'application/json' } }, 400],
    ['add: JSON array', 'POST', '/api/todo/add-todo', { body: ['title'] }, 400],
    ['add: text/plain', 'POST', '/api/todo/add-todo', { rawBody: 'title=x', headers: { 'content-type': 'text/plain' } }, 415],
    ['add: oversize', 'POST', '/api/todo/add-todo', { body: { title: big } }, 413],
    ['update: non-hex id', 'PUT', '/api/todo/update-todo/not-an-id', { body: { updateData: { completed: true } } }, 400],
    ['update: short id', 'PUT', '/api/todo/update-todo/abc123', { body: { updateData: { completed: true } } }, 400],
    ['update: missing updateData', 'PUT', '/api/todo/update-todo/:id', { body: { completed: true } }, 400],
    ['update: empty updateData', 'PUT', '/api/todo/update-todo/:id', { body: { updateData: {} } }, 400],
    ['update: wrong type', 'PUT', '/api/todo/update-todo/:id', { body: { updateData: { completed: 'yes' } } }, 400],
    ['update: unknown field', 'PUT', '/api/todo/update-todo/:id', { body: { updateData: { owner: 'someone else' } } }, 400],
    ['update: blank title', 'PUT', '/api/todo/update-todo/:id', { body: { updateData: { title: '  ' } } }, 400],
    ['update: title too long', 'PUT', '/api/todo/update-todo/:id', { body: { updateData: { title: 'a'.repeat(501) } } }, 400],
    ['update: malformed JSON', 'PUT', '/api/todo/update-todo/:id', { rawBody: '{', headers: { 'content-type': 'application/json' } }, 400],
    ['update: oversize', 'PUT', '/api/todo/update-todo/:id', { body: { updateData: { completed: true }, pad: big } }, 413],
    ['delete: non-hex id', 'DELETE', '/api/todo/delete-todo/zzzzzzzzzzzzzzzzzzzzzzzz', {}, 400],
    ['signup: missing fields', 'POST', '/api/user/signup', { body: { email: 'a@example.com' } }, 400],
    ['signup: bad email', 'POST', '/api/user/signup', { body: { fullName: 'A', email: 'not-an-email', password: 'long enough' } }, 400],
    ['signup: short password', 'POST', '/api/user/signup', { body: { fullName: 'A', email: 'short@example.com', password: 'short' } }, 400],
    ['signup: wrong types', 'POST', '/api/user/signup', { body: { fullName: 1, email: true, password: [] } }, 400],
    ['signup: malformed JSON', 'POST', '/api/user/signup', { rawBody: '{"fullName":', headers: { 'content-type': 'application/json' } }, 400],
    ['signup: oversize', 'POST', '/api/user/signup', { body: { fullName: big, email: 'x@example.com', password: 'long enough' } }, 413],
    ['login: missing password', 'POST', '/api/user/login', { body: { email: 'a@example.com' } }, 400],
    ['login: wrong types', 'POST', '/api/user/login', { body: { email: 5, password: 5 } }, 400],
    ['login: form encoded', 'POST', '/api/user/login', { rawBody: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415],
  ];

  it.each(cases)('%s → %s', async (_label, method, path, options, status) => {
    const response = await client.request(method, path.replace(':id', todoId), options);
    expect(response.status).toBe(status);
    expect(response.body).toEqual(expect.objectContaining(errorShape));
    if (status === 400) expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(js|ts):\d+/);
    // A validation message is for a person: no "<field>: " prefix (the issues carry the paths).
    if (status === 400) expect((response.body as { message: string }).message).not.toMatch(/^[\w.]+: /);
    await expectListUnchanged();
    expect((await client.get('/api/user/me')).status).toBe(200);
  });

  it.each([
    ['a title of only a zero-width space', '/api/todo/add-todo', { title: '\u200B' }, 'Enter a task before adding it.'],
    ['a title of only invisible characters', '/api/todo/add-todo', { title: ' \u200B\uFEFF\u2060\u3164 ' }, 'Enter a task before adding it.'],
    ['a blank title', '/api/todo/add-todo', { title: ' \t\n ' }, 'Enter a task before adding it.'],
    ['a title over 500 characters', '/api/todo/add-todo', { title: 'a'.repeat(LIMITS.todoTitle.max + 1) }, 'A task can be at most 500 characters long.'],
    ['a title of the wrong type', '/api/todo/add-todo', { title: 42 }, 'Title must be text'],
    ['a short password', '/api/user/signup', { fullName: 'A', email: 'short@example.com', password: 'short' }, 'Password must be at least 8 characters'],
    ['a bad email', '/api/user/signup', { fullName: 'A', email: 'not-an-email', password: 'long enough' }, 'Enter a valid email address'],
  ])('words the validation message for a person, without a field prefix: %s', async (_label, path, body, message) => {
    const response = await client.post(path, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message, code: 'VALIDATION_FAILED', issues: [expect.objectContaining({ message })] });
    await expectListUnchanged();
  });

  it('lists zod issues for a validation error', async () => {
    const response = await client.post('/api/user/signup', { fullName: '', email: 'x', password: '1' });
    expect(response.status).toBe(400);
    const body = response.body as { issues: { path: string[]; message: string }[] };
    expect(body.issues.map((issue) => issue.path[0]).sort()).toEqual(['email', 'fullName', 'password']);
  });

  it('answers unknown /api routes with 404 in the error shape', async () => {
    for (const path of ['/api/nothing-here', '/api/todo/unknown', '/api/user/unknown', '/api']) {
      const response = await client.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.body).toEqual(expect.objectContaining(errorShape));
    }
  });

  describe('requests the fuzzer found mishandled (docs/ARCHITECTURE.md "Testing")', () => {
    /** A request over a raw socket-level client (fetch cannot send a chunked DELETE or choose the framing). */
    function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const outgoing = httpRequest(`${stack.gateway.url}${path}`, { method, headers: { cookie: client.cookieHeader(), 'x-xsrf-token': client.xsrfToken ?? '', ...headers } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        outgoing.on('error', reject);
        if (body !== undefined) outgoing.write(body);
        outgoing.end();
      });
    }

    it('a body that claims to be gzip but is not: 415, not 500', async () => {
      const answer = await client.post('/api/todo/add-todo', undefined, { rawBody: '{"title":"x"}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual(expect.objectContaining(errorShape));
      await expectListUnchanged();
    });

    it('HEAD on a POST route: 405, not 500; OPTIONS: 204 from the gateway, not a 502', async () => {
      expect((await client.request('HEAD', '/api/todo/add-todo')).status).toBe(405);
      const options = await client.request('OPTIONS', '/api/user/me');
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE');
    });

    it('a trailing slash or other letter case is another path: 404, and nothing is written', async () => {
      for (const path of ['/api/todo/add-todo/', '/api/TODO/add-todo', '/api/todo/Add-Todo']) {
        const answer = await client.post(path, { title: 'slash' });
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      }
      expect((await client.delete(`/api/todo/delete-todo/${todoId}/`)).status).toBe(404);
      expect((await client.get('/api/user/me/')).status).toBe(404);
      await expectListUnchanged();
    });

    it('a chunked body is refused with 411 before anything is forwarded: no request smuggled behind a DELETE', async () => {
      const smuggled = `GET /user/me HTTP/1.1\r\nHost: users\r\nx-tm-user-id: ${'a'.repeat(24)}\r\n\r\n`;
      const answer = await rawRequest('DELETE', `/api/todo/delete-todo/${todoId}`, { 'transfer-encoding': 'chunked' }, smuggled);
      expect(answer.status).toBe(411);
      expect(JSON.parse(answer.body)).toEqual({ message: 'Send the request body with a Content-Length header', code: 'BODY.LENGTH_REQUIRED' });
      await expectListUnchanged();
    });
  });

  it('answers a signed-out call to a todo route with 401, whatever the route', async () => {
    const anonymous = new ApiClient(stack.gateway.url);
    await anonymous.get('/api/user/me');
    expect((await anonymous.post('/api/todo/add-todo', { title: 'x' })).status).toBe(401);
    expect((await anonymous.get('/api/todo/fetch-todo')).body).toEqual({ message: 'Not signed in', code: 'AUTH.UNAUTHENTICATED' });
  });
});

describe('failing dependencies get an honest 5xx', () => {
  let closedPort: number;
  beforeAll(async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
  });

  it('503 when a service is down; the other keeps working', async () => {
    const gateway = await startGateway({
      dataDir: stack.dataDir,
      usersUrl: stack.users.url,
      todosUrl: `http://127.0.0.1:${closedPort}`,
    });
    try {
      const user = new ApiClient(gateway.url);
      await user.get('/api/user/me');
      expect((await user.post('/api/user/signup', newUser())).status).toBe(201);
      const list = await user.get('/api/todo/fetch-todo');
      expect(list.status).toBe(503);
      expect(list.body).toEqual({ message: expect.stringMatching(/todos service is unavailable/), code: 'UPSTREAM.UNAVAILABLE' });
      expect((await user.get('/api/user/me')).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('504 when a service is slower than the upstream timeout, 502 when it hangs up', async () => {
    const sockets = new Set<Socket>();
    const misbehaving: Server = createServer((req, res) => {
      if (req.url?.startsWith('/todo/fetch-todo')) setTimeout(() => res.end("{}"), 4_000).unref();
      else req.socket.destroy();
    });
    misbehaving.on('connection', (socket) => sockets.add(socket));
    misbehaving.listen(0, '127.0.0.1');
    await once(misbehaving, 'listening');
    const port = (misbehaving.address() as { port: number }).port;
    const gateway = await startGateway(
      { dataDir: stack.dataDir, usersUrl: stack.users.url, todosUrl: `http://127.0.0.1:${port}` },
      { upstreamTimeoutMs: 1_500 },
    );
    try {
      const user = new ApiClient(gateway.url);
      await user.get('/api/user/me');
      expect((await user.post('/api/user/signup', newUser())).status).toBe(201);
      const slow = await user.get('/api/todo/fetch-todo');
      expect(slow.status).toBe(504);
      expect(slow.body).toEqual({ message: expect.stringMatching(/took too long/), code: 'UPSTREAM.TIMEOUT' });
      const reset = await user.post('/api/todo/add-todo', { title: 'x' });
      expect(reset.status).toBe(502);
      expect(reset.body).toEqual({ message: expect.any(String), code: 'UPSTREAM.BAD_GATEWAY' });
    } finally {
      await gateway.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => misbehaving.close(resolve));
    }
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a client exceeds the login limit', async () => {
    const gateway = await startGateway(
      upstreamsOf(stack),
      { authRateLimit: { points: 3, windowSeconds: 60 } },
    );
    try {
      const attacker = new ApiClient(gateway.url);
      await attacker.get('/api/user/me');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await attacker.post('/api/user/login', { email: 'victim@example.com', password: `guess-${i}` })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await attacker.post('/api/user/login', { email: 'victim@example.com', password: 'again' });
      expect(limited.body).toEqual({ message: expect.any(String), code: 'RATE_LIMITED' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  });
});
