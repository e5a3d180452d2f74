import type { TodoResponse, TodosResponse } from '@tm/contracts';
import { ApiClient, newUser, type RunningStack, startStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

let stack: RunningStack<TestGateway>;
let victim: ApiClient;
let other: ApiClient;
let todoId: string;

beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
  victim = new ApiClient(stack.gateway.url);
  await victim.get('/api/user/me');
  expect((await victim.post('/api/user/signup', newUser('Victim'))).status).toBe(201);
  todoId = (await victim.post<TodoResponse>('/api/todo/add-todo', { title: 'keep me' })).body.todo._id;
  other = new ApiClient(stack.gateway.url);
  await other.get('/api/user/me');
});
afterAll(async () => {
  await stack.stop();
});

const mutatingRoutes = (): [string, string, unknown][] => [
  ['POST', '/api/user/signup', newUser()],
  ['POST', '/api/user/login', { email: 'nobody@example.com', password: 'whatever-password' }],
  ['POST', '/api/user/logout', undefined],
  ['POST', '/api/todo/add-todo', { title: 'forged' }],
  ['PUT', `/api/todo/update-todo/${todoId}`, { updateData: { completed: true } }],
  ['DELETE', `/api/todo/delete-todo/${todoId}`, undefined],
];

async function expectUnchanged(): Promise<void> {
  const me = await victim.get('/api/user/me');
  expect(me.status).toBe(200);
  const list = await victim.get<TodosResponse>('/api/todo/fetch-todo');
  expect(list.body.todos).toHaveLength(1);
  expect(list.body.todos[0]).toMatchObject({ _id: todoId, title: 'keep me', completed: false });
}

describe('XSRF double-submit on every mutating route', () => {
  const cases: [string, (client: ApiClient) => Record<string, string> | undefined][] = [
    ['missing header', () => undefined],
    ['wrong header', () => ({ 'X-XSRF-TOKEN': 'not-the-token' })],
    ["another session's token", () => ({ 'X-XSRF-TOKEN': other.xsrfToken! })],
  ];

  for (const [label, headersFor] of cases) {
    it(`${label}: 403 on every mutating route and nothing changes`, async () => {
      for (const [method, path, body] of mutatingRoutes()) {
        const headers = headersFor(victim);
        const response = await victim.request(method, path, { body, xsrf: false, headers });
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
        expect(response.body).toEqual({ message: 'Missing or invalid XSRF token', code: 'AUTH.XSRF_TOKEN_INVALID' });
      }
      await expectUnchanged();
    });
  }

  it('refuses a matching header whose cookie belongs to another session', async () => {
    // Cookie tossing: the attacker plants its own XSRF cookie next to the victim's session cookie.
    const cookie = victim.cookieHeader().replace(/XSRF-TOKEN=[^;]+/, `XSRF-TOKEN=${other.xsrfToken!}`);
    const response = await victim.post('/api/todo/add-todo', { title: 'tossed' }, { headers: { cookie, 'X-XSRF-TOKEN': other.xsrfToken! } });
    expect(response.status).toBe(403);
    await expectUnchanged();
  });

  it('accepts the session\'s own token (the control case)', async () => {
    const response = await victim.put<TodoResponse>(`/api/todo/update-todo/${todoId}`, { updateData: { isPinned: false } });
    expect(response.status).toBe(200);
  });

  it('issues a readable XSRF cookie bound by an HttpOnly, signed, SameSite=Lax one, then an HttpOnly session cookie at sign-in', async () => {
    const fresh = new ApiClient(stack.gateway.url);
    const visit = await fresh.get('/api/user/me');
    const xsrf = visit.setCookies.find((c) => c.startsWith('XSRF-TOKEN='));
    const binding = visit.setCookies.find((c) => c.startsWith('tm.xsrf='));
    expect(xsrf).toMatch(/samesite=lax/i);
    expect(xsrf).not.toMatch(/httponly/i);
    expect(binding).toMatch(/httponly/i);
    expect(binding).toMatch(/samesite=lax/i);
    expect(visit.setCookies.some((c) => c.startsWith('tm.xsrf.sig='))).toBe(true);
    expect(visit.setCookies.some((c) => c.startsWith('tm.sid='))).toBe(false);
    const signup = await fresh.post('/api/user/signup', newUser());
    const session = signup.setCookies.find((c) => c.startsWith('tm.sid='));
    expect(session).toMatch(/httponly/i);
    expect(session).toMatch(/samesite=lax/i);
    expect(session).not.toMatch(/secure/i);
  });

  it("refuses a visitor's token whose signed cookie is forged or another visitor's", async () => {
    const visitor = new ApiClient(stack.gateway.url);
    await visitor.get('/api/user/me');
    const stranger = new ApiClient(stack.gateway.url);
    await stranger.get('/api/user/me');
    // The readable cookie and the header say the stranger's token; the signed binding is still the visitor's.
    const mixed = visitor.cookieHeader().replace(/XSRF-TOKEN=[^;]+/, `XSRF-TOKEN=${stranger.xsrfToken!}`);
    const tossed = await visitor.post('/api/user/login', { email: 'nobody@example.com', password: 'whatever-password' }, { headers: { cookie: mixed, 'X-XSRF-TOKEN': stranger.xsrfToken! } });
    expect(tossed.status).toBe(403);
    // A binding cookie with any value but no valid signature is no binding at all.
    const forged = `XSRF-TOKEN=made-up; tm.xsrf=made-up; tm.xsrf.sig=AAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    const answer = await visitor.post('/api/user/login', { email: 'nobody@example.com', password: 'whatever-password' }, { headers: { cookie: forged, 'X-XSRF-TOKEN': 'made-up' } });
    expect(answer.status).toBe(403);
  });
});
