// Undo (restore), bulk actions and their undo (restore-bulk), completion times, the list's cursor and the
// change events' origin, over real HTTP against a listening svc-todos on a real SQLite file
// (docs/PRODUCT.md §10.11.3–5).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import {
  BulkTodosResponse,
  CLIENT_ID_HEADER,
  ErrorBody,
  ErrorCode,
  RestoreBulkResponse,
  TodoResponse,
  TodosResponse,
  UpdateTodoResponse,
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
const BULK_NOT_RESTORABLE = { message: 'These tasks can no longer be restored.', code: ErrorCode.todoNotRestorable };
/** What the server hands out as undo tokens: random (v4) UUIDs. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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
const restoreBulk = (undoToken: unknown, userId = ALICE, headers: Record<string, string> = {}) =>
  as(userId, { method: 'POST', path: '/todo/restore-bulk', body: { undoToken }, headers });

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

/** A bulk call's answer: the message and count, and an undo token exactly when something changed; resolves the token. */
function expectBulk(response: CallResult, message: string, count: number): string {
  expect(response.status).toBe(200);
  const body = BulkTodosResponse.strict().parse(response.body);
  if (count === 0) {
    expect(body).toEqual({ message, count });
    return '';
  }
  expect(body).toEqual({ message, count, undoToken: expect.stringMatching(UUID) });
  return body.undoToken ?? '';
}

/** A 200 of restore-bulk: the message, the count and the tasks; resolves the tasks. */
function expectRestored(response: CallResult, message: string, count: number): Todo[] {
  expect(response.status).toBe(200);
  const body = RestoreBulkResponse.strict().parse(response.body);
  expect({ message: body.message, count: body.count, tasks: body.todos.length }).toEqual({ message, count, tasks: count });
  return body.todos;
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
    expect(todos).toEqual([{ ...open, completed: true, updatedAt: expect.any(String), completedAt: todos[0]?.updatedAt }, done]);
    expect(Date.parse(todos[0]?.updatedAt ?? '')).toBeGreaterThan(Date.parse(open.updatedAt));
    // The task completed before keeps its own completion time.
    expect(done.completedAt).toBe(done.updatedAt);
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

describe('completion times (completedAt)', () => {
  test('add: null; tick: the write\'s time; an edit or a repeat keeps it; reopen: null; the list and events carry it', async () => {
    const added = await addTodo('task');
    expect(added.completedAt).toBeNull();
    skewMs = 1_000;
    const ticked = await update(added._id, { completed: true });
    expect(ticked.completedAt).toBe(ticked.updatedAt);
    expect(Date.parse(ticked.completedAt ?? '')).toBeGreaterThan(Date.parse(added.updatedAt));
    skewMs = 2_000;
    expect(await update(added._id, { completed: true })).toEqual(ticked);
    const renamed = await update(added._id, { title: 'renamed', isPinned: true });
    expect(renamed).toMatchObject({ completed: true, completedAt: ticked.completedAt });
    expect(renamed.updatedAt).not.toBe(ticked.updatedAt);
    expect((await fetchList()).todos).toEqual([renamed]);
    skewMs = 3_000;
    const reopened = await update(added._id, { completed: false });
    expect(reopened).toMatchObject({ completed: false, completedAt: null });
    expect((await store.eventsAfter(ALICE, '0', 10)).map((event) => event.saved[0]?.completedAt)).toEqual([
      null,
      ticked.completedAt,
      ticked.completedAt,
      null,
    ]);
  });

  test('complete-all sets it to the call\'s time on the tasks it ticks, clears it when marking all active', async () => {
    const early = await update((await addTodo('early'))._id, { completed: true });
    await addTodo('open');
    skewMs = 5_000;
    expectBulk(await completeAll(true), '1 task marked complete', 1);
    const [ticked, kept] = (await fetchList()).todos;
    expect(ticked).toMatchObject({ title: 'open', completedAt: ticked?.updatedAt });
    expect(kept).toEqual(early);
    expectBulk(await completeAll(false), '2 tasks marked active', 2);
    expect((await fetchList()).todos.map((todo) => todo.completedAt)).toEqual([null, null]);
  });
});

describe('POST /todo/restore-bulk (Undo of a bulk action)', () => {
  /** Alice's tasks: one active, two completed at different times (one pinned), and Bob's completed one. */
  async function someTasks(): Promise<{ before: TodosResponse; bobs: Todo }> {
    await addTodo('active');
    skewMs = 1_000;
    await update((await addTodo('done 1'))._id, { completed: true });
    skewMs = 2_000;
    await update((await addTodo('done 2'))._id, { completed: true, isPinned: true });
    const bobs = await update((await addTodo("bob's", BOB))._id, { completed: true }, BOB);
    skewMs = 3_000;
    return { before: await fetchList(), bobs };
  }

  test('after clear-completed: every cleared task back exactly (same id, flags, times, place), one event, once', async () => {
    const { before, bobs } = await someTasks();
    const token = expectBulk(await clearCompleted(), '2 completed tasks cleared', 2);
    const { cursor } = await fetchList();
    skewMs = 30_000;
    const restored = expectRestored(await restoreBulk(token, ALICE, { [CLIENT_ID_HEADER]: 'tab-1' }), '2 tasks restored', 2);
    expect(restored).toEqual(before.todos.filter((todo) => todo.completed));
    const after = await fetchList();
    expect(after.todos).toEqual(before.todos);
    // One change event for the whole undo, carrying the restored tasks in list order.
    expect(await store.eventsAfter(ALICE, cursor, 10)).toEqual([{ id: after.cursor, origin: 'tab-1', saved: restored, removed: [] }]);
    // Spent: a second Undo is refused and changes nothing.
    expectError(await restoreBulk(token), 404, BULK_NOT_RESTORABLE);
    expect(await fetchList()).toEqual(after);
    expect((await fetchList(BOB)).todos).toEqual([bobs]);
  });

  test('after complete-all: the previous completed, completedAt and updatedAt exactly; "1 task restored"', async () => {
    const { before } = await someTasks();
    const token = expectBulk(await completeAll(true), '1 task marked complete', 1);
    const restored = expectRestored(await restoreBulk(token), '1 task restored', 1);
    expect(restored).toEqual(before.todos.filter((todo) => todo.title === 'active'));
    expect((await fetchList()).todos).toEqual(before.todos);
  });

  test('after mark all active: each task completed again at its own earlier time', async () => {
    const { before } = await someTasks();
    const token = expectBulk(await completeAll(false), '2 tasks marked active', 2);
    skewMs = 10_000;
    const restored = expectRestored(await restoreBulk(token), '2 tasks restored', 2);
    expect(restored).toEqual(before.todos.filter((todo) => todo.completed));
    expect(restored.map((todo) => todo.completedAt)).toEqual([expect.any(String), expect.any(String)]);
    expect((await fetchList()).todos).toEqual(before.todos);
  });

  test('after complete-all, a task changed or deleted since is left alone and not counted', async () => {
    const a = await addTodo('a');
    const b = await addTodo('b');
    const c = await addTodo('c');
    skewMs = 1_000;
    const token = expectBulk(await completeAll(true), '3 tasks marked complete', 3);
    skewMs = 2_000;
    const reopened = await update(a._id, { completed: false });
    await remove(b._id);
    const restored = expectRestored(await restoreBulk(token), '1 task restored', 1);
    expect(restored).toEqual([c]);
    expect((await fetchList()).todos).toEqual([c, reopened]);
  });

  test('a token none of whose tasks is left as the call left them: 404, and it is spent', async () => {
    const todo = await addTodo('a');
    skewMs = 1_000;
    const token = expectBulk(await completeAll(true), '1 task marked complete', 1);
    skewMs = 2_000;
    const reopened = await update(todo._id, { completed: false });
    const { cursor } = await fetchList();
    expectError(await restoreBulk(token), 404, BULK_NOT_RESTORABLE);
    expect(await fetchList()).toEqual({ todos: [reopened], lists: [], cursor });
    await update(todo._id, { completed: true });
    expectError(await restoreBulk(token), 404, BULK_NOT_RESTORABLE);
  });

  test("another user's token, an unknown one and a made-up string all answer the same 404; the owner's still works", async () => {
    const { before } = await someTasks();
    const token = expectBulk(await clearCompleted(), '2 completed tasks cleared', 2);
    const afterClear = await fetchList();
    for (const response of [await restoreBulk(token, BOB), await restoreBulk(randomUUID()), await restoreBulk('not-a-token'), await restoreBulk(token.toUpperCase())]) {
      expectError(response, 404, BULK_NOT_RESTORABLE);
    }
    expect(await fetchList()).toEqual(afterClear);
    expect((await fetchList(BOB)).todos).toHaveLength(1);
    expectRestored(await restoreBulk(token), '2 tasks restored', 2);
    expect((await fetchList()).todos).toEqual(before.todos);
  });

  test('expires with the restore window (60 s): 404 then, and the tasks stay as they are', async () => {
    await someTasks();
    const cleared = expectBulk(await clearCompleted(), '2 completed tasks cleared', 2);
    const completed = expectBulk(await completeAll(true), '1 task marked complete', 1);
    const inWindow = await fetchList();
    skewMs = 3_000 + 60_000;
    expectError(await restoreBulk(cleared), 404, BULK_NOT_RESTORABLE);
    expectError(await restoreBulk(completed), 404, BULK_NOT_RESTORABLE);
    expect(await fetchList()).toEqual(inWindow);
  });

  test('within the window, late on: still restores', async () => {
    await someTasks();
    const token = expectBulk(await clearCompleted(), '2 completed tasks cleared', 2);
    skewMs = 3_000 + 55_000;
    expectRestored(await restoreBulk(token), '2 tasks restored', 2);
  });

  test.each<[string, Parameters<typeof as>[1], string]>([
    ['no body', { method: 'POST', path: '/todo/restore-bulk' }, ErrorCode.validation],
    ['an empty object', { method: 'POST', path: '/todo/restore-bulk', body: {} }, ErrorCode.validation],
    ['a number', { method: 'POST', path: '/todo/restore-bulk', body: { undoToken: 42 } }, ErrorCode.validation],
    ['null', { method: 'POST', path: '/todo/restore-bulk', body: { undoToken: null } }, ErrorCode.validation],
    ['an empty string', { method: 'POST', path: '/todo/restore-bulk', body: { undoToken: '' } }, ErrorCode.validation],
    ['a string over 128 characters', { method: 'POST', path: '/todo/restore-bulk', body: { undoToken: 'x'.repeat(129) } }, ErrorCode.validation],
    ['an extra key', { method: 'POST', path: '/todo/restore-bulk', body: { undoToken: randomUUID(), userId: BOB } }, ErrorCode.validation],
    ['malformed JSON', { method: 'POST', path: '/todo/restore-bulk', rawBody: '{"undoToken": "x"', headers: { 'content-type': 'application/json' } }, ErrorCode.malformedJson],
  ])('refuses %s with a 400 and changes nothing; the token still works', async (_name, request, code) => {
    await someTasks();
    const token = expectBulk(await clearCompleted(), '2 completed tasks cleared', 2);
    const afterClear = await fetchList();
    const response = await as(ALICE, request);
    expect(response.status).toBe(400);
    expect(StrictErrorBody.parse(response.body)).toMatchObject({ code });
    expect(await fetchList()).toEqual(afterClear);
    expectRestored(await restoreBulk(token), '2 tasks restored', 2);
  });

  test('a big list: 10 001 completed tasks cleared and restored, each in one transaction and one event', async () => {
    const count = 10_001;
    const seeded = new Database(path.join(dir.dir, SQLITE_FILE));
    try {
      const insert = seeded.prepare(
        'INSERT INTO todos (id, user_id, title, completed, is_pinned, created_at, updated_at, deleted_at, completed_at) VALUES (?, ?, ?, 1, ?, ?, ?, NULL, ?)',
      );
      const base = Date.now() - 3_600_000;
      seeded.transaction(() => {
        for (let i = 0; i < count; i += 1) insert.run(new ObjectId().toHexString(), ALICE, `Task ${i} ☕`, i % 97 === 0 ? 1 : 0, base + i, base + i + 1, base + i + 1);
      })();
    } finally {
      seeded.close();
    }
    await addTodo('active');
    const before = await fetchList();
    expect(before.todos).toHaveLength(count + 1);

    let started = performance.now();
    const token = expectBulk(await clearCompleted(), `${count} completed tasks cleared`, count);
    const clearMs = performance.now() - started;
    const { cursor } = await fetchList();
    started = performance.now();
    const restored = expectRestored(await restoreBulk(token), `${count} tasks restored`, count);
    const restoreMs = performance.now() - started;
    // Reported for the record (docs/PRODUCT.md §10.11.3); no threshold here: machines differ.
    console.log(`10 001 tasks over HTTP on SQLite: clear-completed ${clearMs.toFixed(0)} ms, restore-bulk ${restoreMs.toFixed(0)} ms`);

    expect(restored).toEqual(before.todos.filter((todo) => todo.completed));
    expect(await fetchList()).toEqual({ todos: before.todos, lists: [], cursor: String(BigInt(cursor) + 1n) });
    const [event, ...more] = await store.eventsAfter(ALICE, cursor, 10);
    expect(more).toEqual([]);
    expect(event?.saved).toHaveLength(count);
  });
});

describe('Undo of a tick: update-todo answers an undo token for restore-bulk (docs/PRODUCT.md §10.11.4)', () => {
  /** A PUT update-todo: 200, resolves its whole answer (strict: nothing but message, todo and the token). */
  async function put(id: string, updateData: Record<string, unknown>, userId = ALICE): Promise<UpdateTodoResponse> {
    const response = await as(userId, { method: 'PUT', path: `/todo/update-todo/${id}`, body: { updateData } });
    expect(response.status).toBe(200);
    return UpdateTodoResponse.strict().parse(response.body);
  }

  test('a tick: "Task completed" with a token; its undo puts back completed, completedAt and updatedAt exactly', async () => {
    const todo = await addTodo('Buy milk');
    const older = await addTodo('older');
    const before = await fetchList();
    skewMs = 1_000;
    const tick = await put(todo._id, { completed: true });
    expect(tick).toEqual({ message: 'Task completed', todo: { ...todo, completed: true, completedAt: expect.any(String), updatedAt: expect.any(String) }, undoToken: expect.stringMatching(UUID) });
    skewMs = 2_000;
    const restored = expectRestored(await restoreBulk(tick.undoToken, ALICE, { [CLIENT_ID_HEADER]: 'tab-1' }), '1 task restored', 1);
    expect(restored).toEqual([todo]);
    const after = await fetchList();
    expect(after.todos).toEqual(before.todos);
    expect(after.todos).toContainEqual(older);
    expect((await store.eventsAfter(ALICE, String(BigInt(after.cursor) - 1n), 10))[0]).toMatchObject({ origin: 'tab-1', saved: [todo], removed: [] });
    // Once.
    expectError(await restoreBulk(tick.undoToken), 404, BULK_NOT_RESTORABLE);
  });

  test('an untick: "Task marked active"; its undo completes the task again at its own earlier time', async () => {
    const todo = await addTodo('Water the plants');
    skewMs = 1_000;
    const done = (await put(todo._id, { completed: true })).todo;
    skewMs = 20_000;
    const untick = await put(todo._id, { completed: false });
    expect(untick).toMatchObject({ message: 'Task marked active', todo: { completed: false, completedAt: null }, undoToken: expect.stringMatching(UUID) });
    skewMs = 21_000;
    expect(expectRestored(await restoreBulk(untick.undoToken), '1 task restored', 1)).toEqual([done]);
    expect((await fetchList()).todos).toEqual([done]);
  });

  test('no token for a repeat, an edit, a pin or a patch of several fields', async () => {
    const todo = await addTodo('task');
    await put(todo._id, { completed: true });
    const answers = [
      await put(todo._id, { completed: true }),
      await put(todo._id, { title: 'renamed' }),
      await put(todo._id, { isPinned: true }),
      await put(todo._id, { completed: false, isPinned: false }),
    ];
    expect(answers.map(({ message, undoToken }) => [message, undoToken])).toEqual([
      ['Task already completed', undefined],
      ['Title changed', undefined],
      ['Task pinned', undefined],
      ['Task updated', undefined],
    ]);
  });

  test('too late once the task changed (another device), and another user cannot use it', async () => {
    const todo = await addTodo('task');
    skewMs = 1_000;
    const tick = await put(todo._id, { completed: true });
    expectError(await restoreBulk(tick.undoToken, BOB), 404, BULK_NOT_RESTORABLE);
    skewMs = 2_000;
    const renamed = (await put(todo._id, { title: 'renamed elsewhere' })).todo;
    expectError(await restoreBulk(tick.undoToken), 404, BULK_NOT_RESTORABLE);
    expect((await fetchList()).todos).toEqual([renamed]);
  });

  test('expires with the restore window (60 s)', async () => {
    const todo = await addTodo('task');
    const tick = await put(todo._id, { completed: true });
    const inWindow = await fetchList();
    skewMs = 61_000;
    expectError(await restoreBulk(tick.undoToken), 404, BULK_NOT_RESTORABLE);
    expect(await fetchList()).toEqual(inWindow);
  });
});

describe('bulk undo is all or nothing', () => {
  test('a restore-bulk whose change event cannot be stored restores nothing and keeps the token', async () => {
    await addTodo('open');
    await update((await addTodo('done'))._id, { completed: true });
    const token = expectBulk(await clearCompleted(), '1 completed task cleared', 1);
    const afterClear = await fetchList();
    const db = new Database(path.join(dir.dir, SQLITE_FILE));
    db.exec("CREATE TRIGGER fail_events BEFORE INSERT ON todo_events BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    try {
      expectError(await restoreBulk(token), 500, { message: 'Internal server error', code: ErrorCode.internal });
      expect(await fetchList()).toEqual(afterClear);
    } finally {
      db.exec('DROP TRIGGER fail_events');
      db.close();
    }
    expectRestored(await restoreBulk(token), '1 task restored', 1);
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
    expect(empty).toEqual({ todos: [], lists: [], cursor: '0' });
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
