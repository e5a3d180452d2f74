import { randomUUID } from 'node:crypto';
import { ErrorCode, IDEMPOTENCY_KEY_HEADER, TodoResponse, type TodosResponse, type UpdateTodoResponse } from '@tm/contracts';
import { type ApiClient, type RunningStack, signUp, startStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * Task writes with an `Idempotency-Key` (docs/PRODUCT.md §7) through the gateway to the real svc-todos, over
 * real HTTP: the gateway passes the header on, and a phone that times out and retries makes no duplicate.
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

const keyed = (key: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
const list = async (client: ApiClient) => (await client.get<TodosResponse>('/api/todo/fetch-todo')).body;
const answerOf = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

describe('POST /api/todo/add-todo with an Idempotency-Key, through the gateway', () => {
  it('20 identical adds at once with one key: exactly one task, 20 identical answers', async () => {
    const alice = await signedUp('Alice');
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => alice.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed(key))));
    const { todos, cursor } = await list(alice);
    expect(todos).toHaveLength(1);
    expect(answers.map(answerOf)).toEqual(Array.from({ length: 20 }, () => ({ status: 201, body: { message: 'Task added successfully', todo: todos[0] } })));
    expect(cursor).toBe('1');
  });

  it('a retry after the first completed: the same answer, no new task, no second change event', async () => {
    const alice = await signedUp('Alice');
    const key = randomUUID();
    const first = await alice.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed(key));
    expect(first.status).toBe(201);
    const before = await list(alice);
    const retry = await alice.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed(key));
    expect(answerOf(retry)).toEqual(answerOf(first));
    expect(await list(alice)).toEqual(before);
    expect(before).toEqual({ todos: [TodoResponse.parse(first.body).todo], lists: [], cursor: '1' });
  });

  it('the same key with another body: 422 TODO.IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const alice = await signedUp('Alice');
    const key = randomUUID();
    await alice.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed(key));
    const before = await list(alice);
    const other = await alice.post('/api/todo/add-todo', { title: 'Buy bread' }, keyed(key));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      message: 'This Idempotency-Key was already used for a different request. Send a new key for each new action.',
      code: ErrorCode.idempotencyKeyReused,
    });
    expect(await list(alice)).toEqual(before);
  });

  it("the same key of another user is that user's own: both writes are applied", async () => {
    const alice = await signedUp('Alice');
    const bob = await signedUp('Bob');
    const key = randomUUID();
    expect((await alice.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed(key))).status).toBe(201);
    expect((await bob.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed(key))).status).toBe(201);
    expect((await list(alice)).todos).toHaveLength(1);
    expect((await list(bob)).todos).toHaveLength(1);
  });

  it('without the header, as ever: two adds, two tasks; a repeated tick says the task already is so', async () => {
    const alice = await signedUp('Alice');
    await alice.post('/api/todo/add-todo', { title: 'Buy milk' });
    const { body } = await alice.post<TodoResponse>('/api/todo/add-todo', { title: 'Buy milk' });
    expect((await list(alice)).todos).toHaveLength(2);
    const tick = () => alice.put<UpdateTodoResponse>(`/api/todo/update-todo/${body.todo._id}`, { updateData: { completed: true } });
    expect((await tick()).body.message).toBe('Task completed');
    expect((await tick()).body.message).toBe('Task already completed');
  });

  it('a malformed key is a 400 from svc-todos, passed on', async () => {
    const alice = await signedUp('Alice');
    const refused = await alice.post('/api/todo/add-todo', { title: 'Buy milk' }, keyed('x'.repeat(256)));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'Idempotency-Key must be 1 to 255 printable ASCII characters', code: ErrorCode.validation });
    expect((await list(alice)).todos).toEqual([]);
  });
});
