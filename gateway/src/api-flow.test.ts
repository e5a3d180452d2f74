import type { Todo, TodosResponse, TodoResponse, UserResponse } from '@tm/contracts';
import { IDENTITY_HEADERS } from '@tm/service-kit';
import { ApiClient, newUser, type RunningStack, signUp, startStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

let stack: RunningStack<TestGateway>;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(async () => {
  await stack.stop();
});

/** A client that visited the app (has its XSRF cookie) and signed up. */
async function signedUpClient(name?: string): Promise<{ client: ApiClient; user: UserResponse['user'] }> {
  const { client, user } = await signUp(stack.url, { name });
  return { client, user };
}

describe('the whole flow through the gateway', () => {
  it('signup → me → add → fetch → complete → pin → delete → logout → me is 401', async () => {
    const client = new ApiClient(stack.gateway.url);
    const visit = await client.get('/api/user/me');
    expect(visit.status).toBe(401);
    expect(visit.body).toEqual({ message: 'Not signed in', code: 'AUTH.UNAUTHENTICATED' });
    expect(client.xsrfToken).toMatch(/^[\w-]{43}$/);

    const payload = newUser('Ada Lovelace');
    const signup = await client.post<UserResponse>('/api/user/signup', payload);
    expect(signup.status).toBe(201);
    expect(signup.body.user).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), fullName: 'Ada Lovelace', email: payload.email });

    const me = await client.get<UserResponse>('/api/user/me');
    expect(me.status).toBe(200);
    expect(me.body.user.fullName).toBe('Ada Lovelace');
    expect(me.body.message).toEqual(expect.any(String));

    const first = await client.post<TodoResponse>('/api/todo/add-todo', { title: '  Write the spec  ' });
    expect(first.status).toBe(201);
    expect(first.body.todo).toMatchObject({ title: 'Write the spec', completed: false, isPinned: false });
    const second = await client.post<TodoResponse>('/api/todo/add-todo', { title: 'Ship it' });
    expect(second.status).toBe(201);

    const listed = await client.get<TodosResponse>('/api/todo/fetch-todo');
    expect(listed.status).toBe(200);
    expect(listed.body.todos.map((t: Todo) => t.title)).toEqual(['Ship it', 'Write the spec']);

    const id = first.body.todo._id;
    const completed = await client.put<TodoResponse>(`/api/todo/update-todo/${id}`, { updateData: { completed: true } });
    expect(completed.status).toBe(200);
    expect(completed.body.todo).toMatchObject({ _id: id, completed: true, isPinned: false });

    const pinned = await client.put<TodoResponse>(`/api/todo/update-todo/${id}`, { updateData: { isPinned: true } });
    expect(pinned.body.todo).toMatchObject({ completed: true, isPinned: true });
    const again = await client.put<TodoResponse>(`/api/todo/update-todo/${id}`, { updateData: { isPinned: true } });
    expect(again.status).toBe(200);
    expect(again.body.todo).toMatchObject({ completed: true, isPinned: true });

    const pinnedFirst = await client.get<TodosResponse>('/api/todo/fetch-todo');
    expect(pinnedFirst.body.todos.map((t: Todo) => t.title)).toEqual(['Write the spec', 'Ship it']);

    const deleted = await client.delete<{ message: string }>(`/api/todo/delete-todo/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toEqual(expect.any(String));
    const afterDelete = await client.get<TodosResponse>('/api/todo/fetch-todo');
    expect(afterDelete.body.todos.map((t: Todo) => t.title)).toEqual(['Ship it']);

    const logout = await client.post<{ message: string }>('/api/user/logout');
    expect(logout.status).toBe(200);
    expect(logout.body.message).toBe('Logged out successfully');
    expect((await client.get('/api/user/me')).status).toBe(401);
    expect((await client.get('/api/todo/fetch-todo')).status).toBe(401);

    const login = await client.post<UserResponse>('/api/user/login', { email: payload.email.toUpperCase(), password: payload.password });
    expect(login.status).toBe(200);
    expect(login.body.user._id).toBe(signup.body.user._id);
    expect((await client.get<TodosResponse>('/api/todo/fetch-todo')).body.todos).toHaveLength(1);
  });

  it('answers every response with the request id the gateway created', async () => {
    const client = new ApiClient(stack.gateway.url);
    const response = await client.get('/api/user/me', { headers: { 'x-request-id': 'client-chosen-id-123' } });
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(id).not.toBe('client-chosen-id-123');
  });

  it('keeps each user to their own tasks: another user\'s id is a 404 and changes nothing', async () => {
    const alice = await signedUpClient('Alice');
    const bob = await signedUpClient('Bob');
    const todo = (await alice.client.post<TodoResponse>('/api/todo/add-todo', { title: 'Alice only' })).body.todo;

    const update = await bob.client.put(`/api/todo/update-todo/${todo._id}`, { updateData: { completed: true } });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ message: 'Task not found', code: 'TODO.NOT_FOUND' });
    const unknown = await bob.client.put('/api/todo/update-todo/0123456789abcdef01234567', { updateData: { completed: true } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(update.body);

    const removal = await bob.client.delete(`/api/todo/delete-todo/${todo._id}`);
    expect(removal.status).toBe(404);
    expect(removal.body).toEqual(update.body);

    expect((await bob.client.get<TodosResponse>('/api/todo/fetch-todo')).body.todos).toEqual([]);
    const alicesList = (await alice.client.get<TodosResponse>('/api/todo/fetch-todo')).body.todos;
    expect(alicesList).toEqual([todo]);
  });

  it('ignores identity headers a client sends to the gateway', async () => {
    const alice = await signedUpClient('Alice');
    await alice.client.post('/api/todo/add-todo', { title: 'secret' });
    const mallory = new ApiClient(stack.gateway.url);
    await mallory.get('/api/user/me');
    const forged = await mallory.get('/api/todo/fetch-todo', { headers: { [IDENTITY_HEADERS.userId]: alice.user._id } });
    expect(forged.status).toBe(401);
    const signedIn = await signedUpClient('Mallory');
    const list = await signedIn.client.get<TodosResponse>('/api/todo/fetch-todo', {
      headers: { [IDENTITY_HEADERS.userId]: alice.user._id, [IDENTITY_HEADERS.signature]: 'x', [IDENTITY_HEADERS.timestamp]: '1' },
    });
    expect(list.status).toBe(200);
    expect(list.body.todos).toEqual([]);
  });

  it('refuses a forged identity header sent straight to a service with 401', async () => {
    const alice = await signedUpClient('Alice');
    await alice.client.post('/api/todo/add-todo', { title: 'secret' });
    const direct = await fetch(`${stack.todos.url}/todo/fetch-todo`, {
      headers: { [IDENTITY_HEADERS.userId]: alice.user._id, [IDENTITY_HEADERS.timestamp]: String(Date.now()), [IDENTITY_HEADERS.signature]: 'AAAA' },
    });
    expect(direct.status).toBe(401);
    const body = (await direct.json()) as { message: string; code: string };
    expect(body.code).toBe('AUTH.BAD_INTERNAL_SIGNATURE');
    const me = await fetch(`${stack.users.url}/user/me`, { headers: { [IDENTITY_HEADERS.userId]: alice.user._id } });
    expect(me.status).toBe(401);
  });

  it('logs the gateway\'s request id in the service that handled the request', async () => {
    const alice = await signedUpClient('Alice');
    const response = await alice.client.get('/api/todo/fetch-todo');
    const id = response.headers.get('x-request-id');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const logged = stack.todos.logs.filter((line) => (line.req as { id?: string } | undefined)?.id === id);
    expect(logged.length).toBeGreaterThan(0);
    expect(response.headers.get('x-request-id')).toBe(id);
  });
});
