import { ObjectId } from 'bson';
import { BulkTodosResponse, ErrorCode, IDEMPOTENCY_KEY_HEADER, TodoResponse, UpdateTodoResponse, type Todo } from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall } from '@tm/test-support';
import type { SqliteTodosStore } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Task writes with an Idempotency-Key (docs/PRODUCT.md §7), over real HTTP against the real service and
// its SQLite store: a retried write is applied once and answered as the first was.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();
const REUSED = {
  message: 'This Idempotency-Key was already used for a different request. Send a new key for each new action.',
  code: ErrorCode.idempotencyKeyReused,
};

let dir: ReturnType<typeof tempDir>;
let service: TestService;
let store: SqliteTodosStore;

beforeEach(async () => {
  dir = tempDir('svc-todos-idempotency-');
  service = await startTestService({ dataDir: dir.dir });
  ({ store } = service);
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

/** A call of `userId` (Alice by default) with `key` as its Idempotency-Key (none: `undefined`). */
function call(request: SignedCall, key?: string, userId = ALICE): Promise<CallResult> {
  const headers = key === undefined ? request.headers : { ...request.headers, [IDEMPOTENCY_KEY_HEADER]: key };
  return signedCall(service.url, { userId, ...request, headers });
}
const add = (title: string, key?: string, userId = ALICE) => call({ method: 'POST', path: '/todo/add-todo', body: { title } }, key, userId);
const tasks = async (userId = ALICE) => (await store.list(userId)).todos;
/** The user's change feed position: one more per change event. */
const cursor = async (userId = ALICE) => (await store.feedPosition(userId)).cursor;
const answerOf = ({ status, body }: CallResult) => ({ status, body });

describe('POST /todo/add-todo with an Idempotency-Key', () => {
  test('20 identical adds at once with one key make exactly one task, and all 20 answer the same', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => add('Buy milk', 'phone-retry-1')));
    const [todo] = await tasks();
    expect(await tasks()).toHaveLength(1);
    const first = { status: 201, body: { message: 'Task added successfully', todo } };
    expect(TodoResponse.parse(first.body).todo.title).toBe('Buy milk');
    expect(answers.map(answerOf)).toEqual(Array.from({ length: 20 }, () => first));
    expect(await cursor()).toBe('1');
  });

  test('a retry after the first completed answers the same, adds nothing and sends no second change event', async () => {
    const events: string[] = [];
    store.onCommit((notice) => events.push(notice.id));
    const first = await add('Buy milk', 'k-1');
    expect(first.status).toBe(201);
    const retry = await add('Buy milk', 'k-1');
    expect(answerOf(retry)).toEqual(answerOf(first));
    expect(await tasks()).toEqual([TodoResponse.parse(first.body).todo]);
    expect(events).toEqual(['1']);
    expect(await store.eventsAfter(ALICE, '0', 10)).toHaveLength(1);
  });

  test('the same key with another body is refused with 422, and nothing is written', async () => {
    await add('Buy milk', 'k-1');
    const before = await store.list(ALICE);
    const other = await add('Buy bread', 'k-1');
    expect(answerOf(other)).toEqual({ status: 422, body: REUSED });
    // Another call under the key is another request too.
    expect(answerOf(await call({ method: 'DELETE', path: '/todo/clear-completed' }, 'k-1'))).toEqual({ status: 422, body: REUSED });
    expect(await store.list(ALICE)).toEqual(before);
  });

  test("the same key of another user is unrelated: each user's write is applied", async () => {
    const alices = await add('Buy milk', 'shared-key');
    const bobs = await add('Buy milk', 'shared-key', BOB);
    expect(alices.status).toBe(201);
    expect(bobs.status).toBe(201);
    expect(TodoResponse.parse(bobs.body).todo._id).not.toBe(TodoResponse.parse(alices.body).todo._id);
    expect(await tasks()).toHaveLength(1);
    expect(await tasks(BOB)).toHaveLength(1);
  });

  test('without the header every add is a new task, as ever', async () => {
    const first = await add('Buy milk');
    const second = await add('Buy milk');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await tasks()).map((todo) => todo.title)).toEqual(['Buy milk', 'Buy milk']);
    expect(await store.idempotencyRecord(ALICE, '')).toBeNull();
  });

  test('a key that is empty, longer than 255 characters or not printable ASCII is a 400 that writes nothing', async () => {
    for (const key of ['', 'x'.repeat(256), 'caf\u00e9']) {
      const refused = await add('Buy milk', key);
      expect([key, refused.status, refused.body]).toEqual([
        key,
        400,
        expect.objectContaining({ message: 'Idempotency-Key must be 1 to 255 printable ASCII characters', code: ErrorCode.validation }),
      ]);
    }
    expect((await add('Buy milk', 'x'.repeat(255))).status).toBe(201);
    expect((await add('Buy milk', ' !"#~ key with spaces')).status).toBe(201);
    expect(await tasks()).toHaveLength(2);
  });
});

describe('every other task write with an Idempotency-Key', () => {
  async function added(title: string): Promise<Todo> {
    return TodoResponse.parse((await add(title)).body).todo;
  }

  test('a retried tick answers "Task completed" with the same undo token, not "already completed"', async () => {
    const todo = await added('Tick me');
    const tick = { method: 'PUT', path: `/todo/update-todo/${todo._id}`, body: { updateData: { completed: true } } };
    const first = await call(tick, 'tick-1');
    expect(UpdateTodoResponse.parse(first.body)).toMatchObject({ message: 'Task completed', undoToken: expect.any(String) });
    expect(answerOf(await call(tick, 'tick-1'))).toEqual(answerOf(first));
    expect(await cursor()).toBe('2');
    // Without a key the repeat is a new request, told what the task already is.
    expect((await call(tick)).body).toMatchObject({ message: 'Task already completed' });
    // The same key on another task, or with another patch, is another request.
    const other = await added('Other');
    expect(answerOf(await call({ ...tick, path: `/todo/update-todo/${other._id}` }, 'tick-1'))).toEqual({ status: 422, body: REUSED });
    expect(answerOf(await call({ ...tick, body: { updateData: { completed: false } } }, 'tick-1'))).toEqual({ status: 422, body: REUSED });
    expect((await tasks()).find((task) => task._id === other._id)?.completed).toBe(false);
  });

  test('a retried delete answers 200 again, and a retried restore gives the task back once', async () => {
    const todo = await added('Delete me');
    const remove = { method: 'DELETE', path: `/todo/delete-todo/${todo._id}` };
    const removed = await call(remove, 'del-1');
    expect(answerOf(removed)).toEqual({ status: 200, body: { message: 'Task deleted successfully' } });
    expect(answerOf(await call(remove, 'del-1'))).toEqual(answerOf(removed));
    const restore = { method: 'POST', path: `/todo/restore-todo/${todo._id}` };
    const restored = await call(restore, 'restore-1');
    expect(restored.status).toBe(200);
    expect(answerOf(await call(restore, 'restore-1'))).toEqual(answerOf(restored));
    expect(await tasks()).toEqual([todo]);
    expect(await cursor()).toBe('3');
  });

  test('a refusal the rules decide (404) is kept and replayed as well', async () => {
    const unknown = new ObjectId().toHexString();
    const update = { method: 'PUT', path: `/todo/update-todo/${unknown}`, body: { updateData: { completed: true } } };
    const first = await call(update, 'nf-1');
    expect(answerOf(first)).toEqual({ status: 404, body: { message: 'Task not found', code: ErrorCode.todoNotFound } });
    expect(answerOf(await call(update, 'nf-1'))).toEqual(answerOf(first));
  });

  test('complete-all, clear-completed and restore-bulk: each retry answers as the first, with one change each', async () => {
    await added('one');
    await added('two');
    const completeAll = { method: 'PUT', path: '/todo/complete-all', body: { completed: true } };
    const marked = await call(completeAll, 'all-1');
    expect(BulkTodosResponse.parse(marked.body)).toMatchObject({ message: '2 tasks marked complete', count: 2 });
    expect(answerOf(await call(completeAll, 'all-1'))).toEqual(answerOf(marked));
    const clear = { method: 'DELETE', path: '/todo/clear-completed' };
    const cleared = await call(clear, 'clear-1');
    expect(cleared.body).toMatchObject({ message: '2 completed tasks cleared', count: 2 });
    expect(answerOf(await call(clear, 'clear-1'))).toEqual(answerOf(cleared));
    const undo = { method: 'POST', path: '/todo/restore-bulk', body: { undoToken: BulkTodosResponse.parse(cleared.body).undoToken } };
    const undone = await call(undo, 'undo-1');
    expect(undone.body).toMatchObject({ message: '2 tasks restored', count: 2 });
    expect(answerOf(await call(undo, 'undo-1'))).toEqual(answerOf(undone));
    expect(await tasks()).toHaveLength(2);
    expect(await cursor()).toBe('5');
  });
});
