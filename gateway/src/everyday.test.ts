import type { BulkTodosResponse, Todo, TodoResponse, TodosResponse } from '@tm/contracts';
import { ApiClient, type RunningStack, signUp, startStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * The everyday calls beyond the spec (docs/PRODUCT.md §10.11: undo of a delete, the bulk actions) through
 * the gateway to the real svc-todos, with two users: nobody reaches another user's tasks.
 */

let stack: RunningStack<TestGateway>;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(async () => {
  await stack.stop();
});

async function signedUp(name: string): Promise<ApiClient> {
  return (await signUp(stack.url, { name })).client;
}

async function add(client: ApiClient, ...titles: string[]): Promise<Todo[]> {
  const todos: Todo[] = [];
  for (const title of titles) {
    const added = await client.post<TodoResponse>('/api/todo/add-todo', { title });
    expect(added.status).toBe(201);
    todos.push(added.body.todo);
  }
  return todos;
}

const list = async (client: ApiClient) => (await client.get<TodosResponse>('/api/todo/fetch-todo')).body.todos;

describe('undo of a delete: POST /api/todo/restore-todo/:todoId', () => {
  it('brings the task back exactly as it was, for its owner only', async () => {
    const alice = await signedUp('Alice');
    const bob = await signedUp('Bob');
    const [first, second] = await add(alice, 'keep me', 'and me');
    const pinned = (await alice.put<TodoResponse>(`/api/todo/update-todo/${first?._id}`, { updateData: { isPinned: true } })).body.todo;
    const before = await list(alice);
    expect((await alice.delete(`/api/todo/delete-todo/${pinned._id}`)).status).toBe(200);
    expect((await list(alice)).map((todo) => todo._id)).toEqual([second?._id]);

    // Bob can neither restore nor see it, whatever he tries.
    const bobs = await bob.post(`/api/todo/restore-todo/${pinned._id}`);
    expect(bobs.status).toBe(404);
    expect(bobs.body).toEqual({ message: 'This task can no longer be restored.', code: 'TODO.NOT_RESTORABLE' });
    expect(await list(bob)).toEqual([]);

    const restored = await alice.post<TodoResponse>(`/api/todo/restore-todo/${pinned._id.toUpperCase()}`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ message: expect.any(String), todo: pinned });
    expect(await list(alice)).toEqual(before);

    // Nothing (left) to restore: a task that is not deleted, one restored already, an unknown id.
    for (const id of [second?._id, pinned._id, '0123456789abcdef01234567']) {
      const again = await alice.post(`/api/todo/restore-todo/${id}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: 'This task can no longer be restored.', code: 'TODO.NOT_RESTORABLE' });
    }
    expect((await alice.post('/api/todo/restore-todo/not-an-id')).status).toBe(400);
  });
});

describe('bulk actions: PUT /api/todo/complete-all and DELETE /api/todo/clear-completed', () => {
  it('change the caller\'s tasks only, in one call each, and say how many', async () => {
    const alice = await signedUp('Alice');
    const bob = await signedUp('Bob');
    await add(alice, 'a1', 'a2', 'a3');
    const [bobTask] = await add(bob, 'b1');

    const bobAll = await bob.put<BulkTodosResponse>('/api/todo/complete-all', { completed: true });
    expect(bobAll.status).toBe(200);
    expect(bobAll.body).toEqual({ message: '1 task marked complete', count: 1, undoToken: expect.any(String) });
    expect((await list(alice)).every((todo) => !todo.completed)).toBe(true);

    const aliceAll = await alice.put<BulkTodosResponse>('/api/todo/complete-all', { completed: true });
    expect(aliceAll.body).toEqual({ message: '3 tasks marked complete', count: 3, undoToken: expect.any(String) });
    expect((await alice.put<BulkTodosResponse>('/api/todo/complete-all', { completed: true })).body).toEqual({
      message: 'All tasks are already complete',
      count: 0,
    });
    const back = await alice.put<BulkTodosResponse>('/api/todo/complete-all', { completed: false });
    expect(back.body).toEqual({ message: '3 tasks marked active', count: 3, undoToken: expect.any(String) });
    expect((await list(bob)).map((todo) => todo.completed)).toEqual([true]);

    // Alice clears nothing of Bob's; Bob's clear takes his completed task only.
    expect((await alice.delete<BulkTodosResponse>('/api/todo/clear-completed')).body).toEqual({ message: 'No completed tasks to clear', count: 0 });
    expect(await list(bob)).toHaveLength(1);
    const cleared = await bob.delete<BulkTodosResponse>('/api/todo/clear-completed');
    expect(cleared.body).toEqual({ message: '1 completed task cleared', count: 1, undoToken: expect.any(String) });
    expect(await list(bob)).toEqual([]);
    expect(await list(alice)).toHaveLength(3);

    // A cleared task can be restored by its owner only.
    expect((await alice.post(`/api/todo/restore-todo/${bobTask?._id}`)).status).toBe(404);
    expect((await bob.post(`/api/todo/restore-todo/${bobTask?._id}`)).status).toBe(200);
  });

  it('refuse a body that is not { completed: boolean } with 400 and change nothing', async () => {
    const alice = await signedUp('Alice');
    await add(alice, 'stays active');
    for (const body of [{}, { completed: 'yes' }, { completed: true, userId: 'x' }, [true]]) {
      const refused = await alice.put('/api/todo/complete-all', body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    }
    expect((await list(alice)).map((todo) => todo.completed)).toEqual([false]);
  });
});

describe('the new calls are guarded like the others', () => {
  // Each case is one object: jest would take a missing last argument of a tuple for a `done` callback.
  const calls: { method: string; path: string; body?: unknown }[] = [
    { method: 'POST', path: `/api/todo/restore-todo/${'a'.repeat(24)}` },
    { method: 'PUT', path: '/api/todo/complete-all', body: { completed: true } },
    { method: 'DELETE', path: '/api/todo/clear-completed' },
  ];

  it.each(calls)('$method $path: 401 without a session, 403 without the XSRF token', async ({ method, path, body }) => {
    const visitor = new ApiClient(stack.gateway.url);
    await visitor.get('/api/user/me');
    const anonymous = await visitor.request(method, path, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Not signed in', code: 'AUTH.UNAUTHENTICATED' });

    const alice = await signedUp('Alice');
    const [task] = await add(alice, 'untouched');
    const forged = await alice.request(method, path, { body, xsrf: false });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual(expect.objectContaining({ code: 'AUTH.XSRF_TOKEN_INVALID' }));
    const crossSite = await alice.request(method, path, { body, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    expect(await list(alice)).toEqual([task]);
  });
});
