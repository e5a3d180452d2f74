// Undo (restore), bulk actions, the list's cursor and the change events' origin, over real HTTP against a
// listening svc-todos on a real SQLite file (docs/PRODUCT.md §10.11.3–5).
import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import {
  BulkTodosResponse,
  CLIENT_ID_HEADER,
  ErrorBody,
  ErrorCode,
  TodoResponse,
  TodosResponse,
  type Todo,
} from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall, type Started } from '@tm/test-support';
import { z } from 'zod';
import { SQLITE_FILE, type SqliteTodosStore } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();
const StrictErrorBody = z.strictObject(ErrorBody.shape);
const NOT_RESTORABLE = { message: 'This task can no longer be restored.', code: ErrorCode.todoNotRestorable };

let dir: ReturnType<typeof tempDir>;
let service: TestService;
let store: SqliteTodosStore;
let server: Started;
/** The store's clock runs this far ahead of the real one (the identity signature keeps real time). */
let skewMs: number;

beforeEach(async () => {
  dir = tempDir('svc-todos-undo-bulk-');
  skewMs = 0;
  service = await startTestService({ dataDir: dir.dir, now: () => new Date(Date.now() + skewMs) });
  ({ store, server } = service);
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (request: SignedCall) => signedCall(server.url, request);
const as = (userId: string, request: SignedCall) => call({ userId, ...request });
const restorePath = (id: string) => `/todo/restore-todo/${id}`;
const completeAll = (completed: unknown, userId = ALICE) => as(userId, { method: 'PUT', path: '/todo/complete-all', body: { completed } });
const clearCompleted = (userId = ALICE) => as(userId, { method: 'DELETE', path: '/todo/clear-completed' });

async function addTodo(title: string, userId = ALICE, headers: Record<string, string> = {}): Promise<Todo> {
  const response = await as(userId, { method: 'POST', path: '/todo/add-todo', body: { title }, headers });
  expect(response.status).toBe(201);
  return TodoResponse.parse(response.body).todo;
}

async function update(id: string, updateData: Record<string, unknown>, userId = ALICE): Promise<Todo> {
  const response = await as(userId, { method: 'PUT', path: `/todo/update-todo/${id}`, body: { updateData } });
  expect(response.status).toBe(200);
  return TodoResponse.parse(response.body).todo;
}

async function remove(id: string, userId = ALICE): Promise<void> {
  expect((await as(userId, { method: 'DELETE', path: `/todo/delete-todo/${id}` })).status).toBe(200);
}

async function fetchList(userId = ALICE): Promise<TodosResponse> {
  const response = await as(userId, { path: '/todo/fetch-todo' });
  expect(response.status).toBe(200);
  return TodosResponse.strict().parse(response.body);
}

function expectError(response: CallResult, status: number, body: { message: string; code: string }): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(StrictErrorBody.parse(response.body)).toEqual(body);
}

function expectBulk(response: CallResult, message: string, count: number): void {
  expect(response.status).toBe(200);
  expect(BulkTodosResponse.strict().parse(response.body)).toEqual({ message, count });
}

describe('POST /todo/restore-todo/:todoId (Undo)', () => {
  test('brings a deleted task back exactly: same id, title, flags, timestamps, and so the same place', async () => {
    await addTodo('oldest');
    const middle = await addTodo('middle');
    await addTodo('newest');
    await update(middle._id, { isPinned: true, completed: true });
    const before = await fetchList();
    await remove(middle._id);
    const afterDelete = await fetchList();
    expect(afterDelete.todos).toEqual(before.todos.filter((todo) => todo._id !== middle._id));

    skewMs = 30_000;
    const restored = await as(ALICE, { method: 'POST', path: restorePath(middle._id) });
    expect(restored.status).toBe(200);
    const body = TodoResponse.strict().parse(restored.body);
    expect(body).toEqual({ message: 'Task restored', todo: before.todos.find((todo) => todo._id === middle._id) });
    const after = await fetchList();
    expect(after.todos).toEqual(before.todos);
    expect(BigInt(after.cursor)).toBeGreaterThan(BigInt(afterDelete.cursor));
  });

  test('after the restore window: 404 "This task can no longer be restored." and the task stays gone', async () => {
    const todo = await addTodo('too late');
    await remove(todo._id);
    skewMs = 60_000;
    expectError(await as(ALICE, { method: 'POST', path: restorePath(todo._id) }), 404, NOT_RESTORABLE);
    expect((await fetchList()).todos).toEqual([]);
  });

  test("a task never deleted, an unknown id, another user's task and a second Undo all answer the same 404", async () => {
    const live = await addTodo('live');
    const deleted = await addTodo('deleted');
    await remove(deleted._id);
    const unknown = new ObjectId().toHexString();
    const byBob = await as(BOB, { method: 'POST', path: restorePath(deleted._id) });
    expectError(byBob, 404, NOT_RESTORABLE);
    expectError(await as(ALICE, { method: 'POST', path: restorePath(live._id) }), 404, NOT_RESTORABLE);
    expectError(await as(ALICE, { method: 'POST', path: restorePath(unknown) }), 404, NOT_RESTORABLE);
    // Bob's attempt changed nothing: Alice can still undo, once.
    expect((await as(ALICE, { method: 'POST', path: restorePath(deleted._id) })).status).toBe(200);
    expectError(await as(ALICE, { method: 'POST', path: restorePath(deleted._id) }), 404, NOT_RESTORABLE);
    expect((await fetchList(BOB)).todos).toEqual([]);
    expect((await fetchList()).todos).toEqual([deleted, live]);
  });

  test('a bad id is a 400 that names todoId', async () => {
    const response = await as(ALICE, { method: 'POST', path: restorePath('not-an-id') });
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).issues?.[0]?.path).toEqual(['todoId']);
  });

  test('a deleted task answers update and delete exactly like an unknown one', async () => {
    const todo = await addTodo('deleted');
    await remove(todo._id);
    const notFound = { message: 'Task not found', code: ErrorCode.todoNotFound };
    expectError(await as(ALICE, { method: 'PUT', path: `/todo/update-todo/${todo._id}`, body: { updateData: { completed: true } } }), 404, notFound);
    expectError(await as(ALICE, { method: 'DELETE', path: `/todo/delete-todo/${todo._id}` }), 404, notFound);
  });
});

describe('PUT /todo/complete-all', () => {
  test('marks every task complete, then active again, with the count in words; repeats change nothing', async () => {
    const a = await addTodo('a');
    await addTodo('b');
    await addTodo('c');
    await update(a._id, { completed: true });
    const bobs = await addTodo("bob's", BOB);

    expectBulk(await completeAll(true), '2 tasks marked complete', 2);
    expect((await fetchList()).todos.every((todo) => todo.completed)).toBe(true);
    const settled = await fetchList();
    expectBulk(await completeAll(true), 'All tasks are already complete', 0);
    expect(await fetchList()).toEqual(settled);

    expectBulk(await completeAll(false), '3 tasks marked active', 3);
    expectBulk(await completeAll(false), 'All tasks are already active', 0);
    await update(a._id, { completed: true });
    expectBulk(await completeAll(false), '1 task marked active', 1);
    expect((await fetchList(BOB)).todos).toEqual([bobs]);
  });

  test('one task: "1 task marked complete"; only the changed task gets a new updatedAt', async () => {
    const done = await update((await addTodo('done'))._id, { completed: true });
    const open = await addTodo('open');
    skewMs = 5_000;
    expectBulk(await completeAll(true), '1 task marked complete', 1);
    const { todos } = await fetchList();
    expect(todos).toEqual([{ ...open, completed: true, updatedAt: expect.any(String) }, done]);
    expect(Date.parse(todos[0]?.updatedAt ?? '')).toBeGreaterThan(Date.parse(open.updatedAt));
  });

  test.each([
    ['no body', undefined],
    ['a string', 'yes'],
    ['null', null],
  ])('refuses %s as `completed` with a 400 and changes nothing', async (_name, completed) => {
    const todo = await addTodo('unchanged');
    const response = await as(ALICE, { method: 'PUT', path: '/todo/complete-all', body: completed === undefined ? {} : { completed } });
    expect(response.status).toBe(400);
    expect(StrictErrorBody.parse(response.body)).toMatchObject({ code: ErrorCode.validation, issues: [{ path: ['completed'] }] });
    expect((await fetchList()).todos).toEqual([todo]);
  });

  test('refuses unknown fields (strict body)', async () => {
    const response = await as(ALICE, { method: 'PUT', path: '/todo/complete-all', body: { completed: true, userId: BOB } });
    expect(response.status).toBe(400);
  });
});

describe('DELETE /todo/clear-completed', () => {
  test('deletes the completed tasks of the user only, says how many, and each can still be undone', async () => {
    const open = await addTodo('open');
    const first = await update((await addTodo('first'))._id, { completed: true });
    const second = await update((await addTodo('second'))._id, { completed: true });
    const bobs = await update((await addTodo("bob's", BOB))._id, { completed: true }, BOB);

    expectBulk(await clearCompleted(), '2 completed tasks cleared', 2);
    expect((await fetchList()).todos).toEqual([open]);
    expect((await fetchList(BOB)).todos).toEqual([bobs]);
    expectBulk(await clearCompleted(), 'No completed tasks to clear', 0);

    expect(TodoResponse.parse((await as(ALICE, { method: 'POST', path: restorePath(first._id) })).body).todo).toEqual(first);
    expectBulk(await clearCompleted(), '1 completed task cleared', 1);
    expect((await fetchList()).todos).toEqual([open]);
    expectError(await as(BOB, { method: 'POST', path: restorePath(second._id) }), 404, NOT_RESTORABLE);
  });
});

describe('bulk actions are all or nothing', () => {
  test('a failure inside the transaction (the change event cannot be stored) leaves every task as it was', async () => {
    await addTodo('a');
    await update((await addTodo('b'))._id, { completed: true });
    await addTodo('c');
    const before = await fetchList();
    // A trigger makes the event insert fail after the bulk UPDATE already ran inside the same transaction.
    const db = new Database(path.join(dir.dir, SQLITE_FILE));
    db.exec("CREATE TRIGGER fail_events BEFORE INSERT ON todo_events BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    try {
      for (const response of [await completeAll(true), await completeAll(false), await clearCompleted()]) {
        expectError(response, 500, { message: 'Internal server error', code: ErrorCode.internal });
      }
      expect(await fetchList()).toEqual(before);
    } finally {
      db.exec('DROP TRIGGER fail_events');
      db.close();
    }
    expectBulk(await completeAll(true), '2 tasks marked complete', 2);
  });
});

describe('the list cursor and the origin of changes', () => {
  test('fetch-todo answers the feed position; each write moves it, a no-op does not', async () => {
    const empty = await fetchList();
    expect(empty).toEqual({ todos: [], cursor: '0' });
    const todo = await addTodo('x');
    const one = await fetchList();
    expect(BigInt(one.cursor)).toBeGreaterThan(0n);
    await update(todo._id, { completed: false });
    expect((await fetchList()).cursor).toBe(one.cursor);
    await update(todo._id, { completed: true });
    const two = await fetchList();
    expect(BigInt(two.cursor)).toBeGreaterThan(BigInt(one.cursor));
    expect((await store.eventsAfter(ALICE, one.cursor, 10)).map((event) => event.id)).toEqual([two.cursor]);
  });

  test.each([
    ['a valid client id is the origin', 'tab-7_Zq', 'tab-7_Zq'],
    ['64 characters are accepted', 'x'.repeat(64), 'x'.repeat(64)],
    ['65 characters are no origin', 'x'.repeat(65), null],
    ['a space is no origin', 'tab 7', null],
    ['a dot is no origin', 'tab.7', null],
  ])(`${CLIENT_ID_HEADER}: %s`, async (_name, header, origin) => {
    await addTodo('x', ALICE, { [CLIENT_ID_HEADER]: header });
    const [event] = await store.eventsAfter(ALICE, '0', 10);
    expect(event?.origin).toBe(origin);
  });

  test('writes without the header have no origin; every write carries its own', async () => {
    const todo = await addTodo('x');
    await as(ALICE, { method: 'PUT', path: `/todo/update-todo/${todo._id}`, body: { updateData: { isPinned: true } }, headers: { 'x-client-id': 'b' } });
    await as(ALICE, { method: 'DELETE', path: `/todo/delete-todo/${todo._id}`, headers: { [CLIENT_ID_HEADER]: 'c' } });
    await as(ALICE, { method: 'POST', path: restorePath(todo._id), headers: { [CLIENT_ID_HEADER]: 'd' } });
    await as(ALICE, { method: 'PUT', path: '/todo/complete-all', body: { completed: true }, headers: { [CLIENT_ID_HEADER]: 'e' } });
    await as(ALICE, { method: 'DELETE', path: '/todo/clear-completed', headers: { [CLIENT_ID_HEADER]: 'f' } });
    expect((await store.eventsAfter(ALICE, '0', 10)).map((event) => event.origin)).toEqual([null, 'b', 'c', 'd', 'e', 'f']);
  });
});
