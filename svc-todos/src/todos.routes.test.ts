import { randomUUID } from 'node:crypto';
import { ObjectId } from 'bson';
import {
  DeleteTodoResponse,
  ErrorBody,
  INTERNAL_API,
  ErrorCode,
  LIMITS,
  PurgeTodosResponse,
  TODO_TITLE_EDIT_EMPTY_MESSAGE,
  TODO_TITLE_EMPTY_MESSAGE,
  TODO_TITLE_TOO_LONG_MESSAGE,
  TodoResponse,
  TodosResponse,
  UpdateTodoResponse,
  type Todo,
} from '@tm/contracts';
import { IDENTITY_HEADERS, signIdentity } from '@tm/service-kit';
import { signedCall, tempDir, TEST_SECRET, type CallResult, type SignedCall, type Started } from '@tm/test-support';
import { z } from 'zod';
import type { SqliteTodosStore } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();
const NOT_FOUND_BODY = { message: 'Task not found', code: ErrorCode.todoNotFound };
// Strict: an error body carries nothing else (no stack, no internals).
const StrictErrorBody = z.strictObject(ErrorBody.shape);

let dir: ReturnType<typeof tempDir>;
let service: TestService;
let store: SqliteTodosStore;
let server: Started;

beforeEach(async () => {
  dir = tempDir('svc-todos-routes-');
  service = await startTestService({ dataDir: dir.dir });
  ({ store, server } = service);
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (request: SignedCall) => signedCall(server.url, request);
/** What the store holds for a user (read directly, not through the routes under test). */
const stored = async (userId = ALICE) => (await store.list(userId)).todos;
const asAlice = (request: SignedCall) => call({ userId: ALICE, ...request });
const updatePath = (id: string) => `/todo/update-todo/${id}`;
const deletePath = (id: string) => `/todo/delete-todo/${id}`;
const purge = { method: INTERNAL_API.purgeTodos.method, path: INTERNAL_API.purgeTodos.path };

async function addTodo(title: string, userId = ALICE): Promise<Todo> {
  const response = await call({ method: 'POST', path: '/todo/add-todo', userId, body: { title } });
  expect(response.status).toBe(201);
  return TodoResponse.parse(response.body).todo;
}

async function fetchTodos(userId = ALICE): Promise<Todo[]> {
  const response = await call({ path: '/todo/fetch-todo', userId });
  expect(response.status).toBe(200);
  return TodosResponse.parse(response.body).todos;
}

function expectError(response: CallResult, status: number, code: string, issues: 'with issues' | 'no issues'): ErrorBody {
  expect({ status: response.status, code: (response.body as ErrorBody | undefined)?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = StrictErrorBody.parse(response.body);
  if (issues === 'with issues') expect(body.issues?.length).toBeGreaterThan(0);
  else expect(body.issues).toBeUndefined();
  return body;
}

describe('the task flow', () => {
  test('add → fetch → complete → pin → delete', async () => {
    const added = await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: '  Buy milk  ' } });
    expect(added.status).toBe(201);
    const { message, todo } = TodoResponse.parse(added.body);
    expect(message).toBe('Task added successfully');
    expect(todo).toMatchObject({ title: 'Buy milk', completed: false, isPinned: false });
    const other = await addTodo('Walk the dog');
    expect(await fetchTodos()).toEqual([other, todo]);

    const completed = await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData: { completed: true } } });
    expect(completed.status).toBe(200);
    expect(UpdateTodoResponse.parse(completed.body)).toMatchObject({
      message: 'Task completed',
      todo: { _id: todo._id, completed: true, isPinned: false },
      undoToken: expect.any(String),
    });
    const pinned = await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData: { isPinned: true } } });
    const pinnedTodo = TodoResponse.parse(pinned.body).todo;
    expect(pinnedTodo).toMatchObject({ completed: true, isPinned: true });
    expect(await fetchTodos()).toEqual([pinnedTodo, other]);

    const deleted = await asAlice({ method: 'DELETE', path: deletePath(todo._id) });
    expect(deleted.status).toBe(200);
    expect(DeleteTodoResponse.strict().parse(deleted.body)).toEqual({ message: 'Task deleted successfully' });
    expect(await fetchTodos()).toEqual([other]);
    expectError(await asAlice({ method: 'DELETE', path: deletePath(todo._id) }), 404, ErrorCode.todoNotFound, 'no issues');
  });

  test('an empty list is an empty array, at feed position "0"', async () => {
    expect(await asAlice({ path: '/todo/fetch-todo' })).toMatchObject({ status: 200, body: { todos: [], lists: [], cursor: '0' } });
    expect(TodosResponse.strict().parse((await asAlice({ path: '/todo/fetch-todo' })).body)).toEqual({ todos: [], lists: [], cursor: '0' });
  });

  test('update-todo renames a task: trimmed, "Title changed", flags kept, no undo token', async () => {
    const todo = await addTodo('Buy milk');
    const renamed = await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData: { title: '  Buy oat milk  ' } } });
    expect(renamed.status).toBe(200);
    expect(UpdateTodoResponse.strict().parse(renamed.body)).toMatchObject({
      message: 'Title changed',
      todo: { _id: todo._id, title: 'Buy oat milk', completed: false, isPinned: false, createdAt: todo.createdAt },
    });
    const blank = await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData: { title: '   ' } } });
    expectError(blank, 400, ErrorCode.validation, 'with issues');
    expect((blank.body as { message: string }).message).toBe(TODO_TITLE_EDIT_EMPTY_MESSAGE);
    expect((await fetchTodos()).find((item) => item._id === todo._id)?.title).toBe('Buy oat milk');
  });

  test('repeating an update answers the same task (idempotent), saying it already was so, with no undo token', async () => {
    const todo = await addTodo('twice');
    const request = { method: 'PUT', path: updatePath(todo._id), body: { updateData: { completed: true } } };
    const first = UpdateTodoResponse.parse((await asAlice(request)).body);
    const second = await asAlice(request);
    expect(second.status).toBe(200);
    expect(UpdateTodoResponse.strict().parse(second.body)).toEqual({ message: 'Task already completed', todo: first.todo });
  });

  test('update-todo says what it changed, in the words of that change', async () => {
    const todo = await addTodo('Buy milk');
    const messageOf = async (updateData: Record<string, unknown>) => {
      const response = await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData } });
      expect(response.status).toBe(200);
      return UpdateTodoResponse.parse(response.body).message;
    };
    const said = [
      await messageOf({ completed: true }),
      await messageOf({ completed: false }),
      await messageOf({ completed: false }),
      await messageOf({ isPinned: true }),
      await messageOf({ isPinned: true }),
      await messageOf({ isPinned: false }),
      await messageOf({ isPinned: false }),
      await messageOf({ title: 'Buy oat milk' }),
      await messageOf({ title: 'Buy oat milk' }),
      // Several fields: what actually changed decides.
      await messageOf({ title: 'Buy oat milk', isPinned: true }),
      await messageOf({ title: 'Buy soy milk', completed: true, isPinned: true }),
      await messageOf({ title: 'Buy soy milk', completed: true, isPinned: true }),
    ];
    expect(said).toEqual([
      'Task completed',
      'Task marked active',
      'Task already active',
      'Task pinned',
      'Task already pinned',
      'Task unpinned',
      'Task already unpinned',
      'Title changed',
      'Title unchanged',
      'Task pinned',
      'Task updated',
      'Task unchanged',
    ]);
  });

  test('upper-case hex ids name the same task', async () => {
    const todo = await addTodo('case');
    const response = await asAlice({ method: 'PUT', path: updatePath(todo._id.toUpperCase()), body: { updateData: { isPinned: true } } });
    expect(TodoResponse.parse(response.body).todo).toMatchObject({ _id: todo._id, isPinned: true });
  });

  test('a title of exactly the maximum length is accepted; fields the client sets are ignored', async () => {
    const title = 'x'.repeat(LIMITS.todoTitle.max);
    const response = await asAlice({
      method: 'POST',
      path: '/todo/add-todo',
      body: { title: `  ${title}  `, completed: true, isPinned: true, _id: new ObjectId().toHexString() },
    });
    expect(response.status).toBe(201);
    expect(TodoResponse.parse(response.body).todo).toMatchObject({ title, completed: false, isPinned: false });
  });
});

describe('users are isolated', () => {
  test("another user's task answers 404 exactly like an unknown id, and stays untouched", async () => {
    const todo = await addTodo('mine');
    const byBob = await call({ method: 'PUT', path: updatePath(todo._id), userId: BOB, body: { updateData: { completed: true } } });
    const unknown = await asAlice({ method: 'PUT', path: updatePath(new ObjectId().toHexString()), body: { updateData: { completed: true } } });
    expectError(byBob, 404, ErrorCode.todoNotFound, 'no issues');
    expect(byBob.body).toEqual(NOT_FOUND_BODY);
    expect(unknown.body).toEqual(byBob.body);

    const deleteByBob = await call({ method: 'DELETE', path: deletePath(todo._id), userId: BOB });
    expect(deleteByBob.status).toBe(404);
    expect(deleteByBob.body).toEqual(NOT_FOUND_BODY);
    expect(await fetchTodos(ALICE)).toEqual([todo]);
    expect(await fetchTodos(BOB)).toEqual([]);
  });
});

describe('DELETE /internal/todos (account deletion)', () => {
  test("deletes every task of the signed-in user, answers the count, and leaves other users' tasks", async () => {
    await addTodo('one');
    const pinned = await addTodo('two');
    await asAlice({ method: 'PUT', path: updatePath(pinned._id), body: { updateData: { isPinned: true, completed: true } } });
    const bobs = await addTodo('not yours', BOB);

    const purged = await asAlice(purge);
    expect(purged.status).toBe(200);
    expect(PurgeTodosResponse.strict().parse(purged.body)).toEqual({ message: 'All tasks deleted', deletedCount: 2 });
    expect(await fetchTodos(ALICE)).toEqual([]);
    expect(await fetchTodos(BOB)).toEqual([bobs]);
  });

  test('is idempotent: a repeat, or a user without tasks, answers a count of 0', async () => {
    await addTodo('gone');
    expect((await asAlice(purge)).body).toEqual({ message: 'All tasks deleted', deletedCount: 1 });
    expect(await asAlice(purge)).toMatchObject({ status: 200, body: { message: 'All tasks deleted', deletedCount: 0 } });
  });

  test('is not reachable under the public /todo prefix, and only DELETE is allowed', async () => {
    const todo = await addTodo('kept');
    expectError(await asAlice({ method: 'DELETE', path: '/todo/internal/todos' }), 404, ErrorCode.routeNotFound, 'no issues');
    const wrongMethod = await asAlice({ method: 'POST', path: purge.path });
    expectError(wrongMethod, 405, ErrorCode.methodNotAllowed, 'no issues');
    expect(wrongMethod.headers.get('allow')).toContain('DELETE');
    expect(await stored()).toEqual([todo]);
  });
});

describe('bad input is refused with 400/413/415 and writes nothing', () => {
  const oversized = { title: 'x'.repeat(LIMITS.bodyBytes + 1) };
  const textPlain = { rawBody: 'title=hello', headers: { 'content-type': 'text/plain' } };
  const malformed = { rawBody: '{"title": "x"', headers: { 'content-type': 'application/json' } };

  test.each<[string, Partial<SignedCall>, number, string, 'with issues' | 'no issues']>([
    ['missing title', { body: {} }, 400, ErrorCode.validation, 'with issues'],
    ['no body at all', {}, 400, ErrorCode.validation, 'with issues'],
    ['title of the wrong type', { body: { title: 42 } }, 400, ErrorCode.validation, 'with issues'],
    ['null title', { body: { title: null } }, 400, ErrorCode.validation, 'with issues'],
    ['blank title after trimming', { body: { title: ' \t\n ' } }, 400, ErrorCode.validation, 'with issues'],
    ['title too long', { body: { title: 'x'.repeat(LIMITS.todoTitle.max + 1) } }, 400, ErrorCode.validation, 'with issues'],
    ['a JSON array body', { body: [{ title: 'x' }] }, 400, ErrorCode.validation, 'with issues'],
    ['malformed JSON', malformed, 400, ErrorCode.malformedJson, 'no issues'],
    ['a body over 64 KiB', { body: oversized }, 413, ErrorCode.bodyTooLarge, 'no issues'],
    ['a text/plain body', textPlain, 415, ErrorCode.unsupportedMediaType, 'no issues'],
  ])('add-todo: %s', async (_name, request, status, code, issues) => {
    expectError(await asAlice({ method: 'POST', path: '/todo/add-todo', ...request }), status, code, issues);
    expect(await stored()).toEqual([]);
  });

  test('add-todo: a blank title is refused in plain words; the issues name the field', async () => {
    const body = expectError(
      await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: '   ' } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.message).toBe('Enter a task before adding it.');
    expect(body.issues).toEqual([{ path: ['title'], message: TODO_TITLE_EMPTY_MESSAGE }]);
  });

  test.each([
    ['a zero-width space', '\u200B'],
    ['zero-width space, BOM and word joiner with spaces', ' \u200B\uFEFF\u2060 '],
    ['a Hangul filler', '\u3164'],
    ['ideographic and no-break spaces', '\u3000\u00A0'],
  ])('add-todo: a title of only %s is refused as empty and writes nothing', async (_name, title) => {
    const kept = await addTodo('already there');
    const body = expectError(
      await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.message).toBe('Enter a task before adding it.');
    expect(body.issues).toEqual([{ path: ['title'], message: TODO_TITLE_EMPTY_MESSAGE }]);
    expect(await fetchTodos()).toEqual([kept]);
  });

  test.each([
    ['an RLO (U+202E)', '\u202E'],
    ['every embedding, override and isolate control', '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069'],
    ['isolates around spaces', ' \u2067   \u2069 '],
  ])('add-todo: a title of only bidi controls (%s) is empty once they are removed: refused, nothing written', async (_name, title) => {
    const kept = await addTodo('already there');
    const body = expectError(
      await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.message).toBe(TODO_TITLE_EMPTY_MESSAGE);
    expect(body.issues).toEqual([{ path: ['title'], message: TODO_TITLE_EMPTY_MESSAGE }]);
    expect(await fetchTodos()).toEqual([kept]);
  });

  test('update-todo: a new title of only bidi controls is refused with the edit\'s words; the task keeps its title', async () => {
    const todo = await addTodo('Buy milk');
    const body = expectError(
      await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData: { title: '\u202E\u2066 \u2069\u202C' } } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.message).toBe(TODO_TITLE_EDIT_EMPTY_MESSAGE);
    expect(await fetchTodos()).toEqual([todo]);
  });

  test('add-todo and update-todo: bidi embedding, override and isolate controls are removed; LRM, RLM and ALM are kept', async () => {
    const added = await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: ' \u202EPay Bob 100 \u202D05 ot\u202C ' } });
    expect(added.status).toBe(201);
    const todo = TodoResponse.parse(added.body).todo;
    expect(todo.title).toBe('Pay Bob 100 05 ot');
    const marks = 'שלום\u200E!\u200F a\u061Cb';
    const edited = await asAlice({ method: 'PUT', path: updatePath(todo._id), body: { updateData: { title: `\u2067${marks}\u2069\u202A\u202B` } } });
    expect(edited.status).toBe(200);
    expect(TodoResponse.parse(edited.body).todo.title).toBe(marks);
    expect((await fetchTodos()).map((item) => item.title)).toEqual([marks]);
    // The length is counted without them: 500 visible characters and a control are accepted.
    const long = await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: `\u202E${'x'.repeat(LIMITS.todoTitle.max)}\u202C` } });
    expect(long.status).toBe(201);
    expect(TodoResponse.parse(long.body).todo.title).toBe('x'.repeat(LIMITS.todoTitle.max));
  });

  test('add-todo: a title over the limit is refused in plain words and writes nothing', async () => {
    const kept = await addTodo('already there');
    const body = expectError(
      await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: 'x'.repeat(LIMITS.todoTitle.max + 1) } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.message).toBe('A task can be at most 500 characters long.');
    expect(body.issues).toEqual([{ path: ['title'], message: TODO_TITLE_TOO_LONG_MESSAGE }]);
    expect(await fetchTodos()).toEqual([kept]);
  });

  test('add-todo: a title of the wrong type names the field in words', async () => {
    const body = expectError(
      await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: 42 } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.message).toBe('Title must be text');
    expect(body.issues).toEqual([{ path: ['title'], message: 'Title must be text' }]);
  });

  test('add-todo: visible text with a zero-width space inside is kept as sent (trimmed)', async () => {
    const added = await asAlice({ method: 'POST', path: '/todo/add-todo', body: { title: '  a\u200Bb  ' } });
    expect(added.status).toBe(201);
    expect(TodoResponse.parse(added.body).todo.title).toBe('a\u200Bb');
    expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['a\u200Bb']);
  });

  test.each<[string, Partial<SignedCall>, number, string, 'with issues' | 'no issues']>([
    ['missing updateData', { body: {} }, 400, ErrorCode.validation, 'with issues'],
    ['flags outside updateData', { body: { completed: true } }, 400, ErrorCode.validation, 'with issues'],
    ['empty updateData', { body: { updateData: {} } }, 400, ErrorCode.validation, 'with issues'],
    ['null updateData', { body: { updateData: null } }, 400, ErrorCode.validation, 'with issues'],
    ['a string flag', { body: { updateData: { completed: 'true' } } }, 400, ErrorCode.validation, 'with issues'],
    ['a null flag', { body: { updateData: { isPinned: null } } }, 400, ErrorCode.validation, 'with issues'],
    ['an extra key', { body: { updateData: { completed: true, owner: 'bob' } } }, 400, ErrorCode.validation, 'with issues'],
    ['a blank title', { body: { updateData: { title: ' \u200B ' } } }, 400, ErrorCode.validation, 'with issues'],
    ['a title over 500 characters', { body: { updateData: { title: 'x'.repeat(501) } } }, 400, ErrorCode.validation, 'with issues'],
    ['a title that is not text', { body: { updateData: { title: 42 } } }, 400, ErrorCode.validation, 'with issues'],
    ['malformed JSON', malformed, 400, ErrorCode.malformedJson, 'no issues'],
    ['a body over 64 KiB', { body: { updateData: { completed: true }, pad: oversized.title } }, 413, ErrorCode.bodyTooLarge, 'no issues'],
    ['a text/plain body', textPlain, 415, ErrorCode.unsupportedMediaType, 'no issues'],
  ])('update-todo: %s', async (_name, request, status, code, issues) => {
    const todo = await addTodo('unchanged');
    expectError(await asAlice({ method: 'PUT', path: updatePath(todo._id), ...request }), status, code, issues);
    expect(await stored()).toEqual([todo]);
  });

  const badIds = [
    ['non-hex', 'zzzzzzzzzzzzzzzzzzzzzzzz'],
    ['too short', 'a'.repeat(23)],
    ['too long', 'a'.repeat(25)],
    ['a word', 'not-an-id'],
  ];

  test.each(badIds)('update-todo: a %s id', async (_name, id) => {
    const todo = await addTodo('unchanged');
    const body = expectError(
      await asAlice({ method: 'PUT', path: updatePath(id), body: { updateData: { completed: true } } }),
      400, ErrorCode.validation, 'with issues',
    );
    expect(body.issues?.[0]?.path).toEqual(['todoId']);
    expect(await stored()).toEqual([todo]);
  });

  test.each(badIds)('delete-todo: a %s id', async (_name, id) => {
    const todo = await addTodo('kept');
    const body = expectError(await asAlice({ method: 'DELETE', path: deletePath(id) }), 400, ErrorCode.validation, 'with issues');
    expect(body.issues?.[0]?.path).toEqual(['todoId']);
    expect(await stored()).toEqual([todo]);
  });

  test('delete-todo: a text/plain body is refused before anything is deleted', async () => {
    const todo = await addTodo('kept');
    expectError(await asAlice({ method: 'DELETE', path: deletePath(todo._id), ...textPlain }), 415, ErrorCode.unsupportedMediaType, 'no issues');
    expect(await stored()).toEqual([todo]);
  });
});

describe('only requests the gateway signed for a user are served', () => {
  const routes: Array<[string, (id: string) => SignedCall]> = [
    ['fetch-todo', () => ({ path: '/todo/fetch-todo' })],
    ['add-todo', () => ({ method: 'POST', path: '/todo/add-todo', body: { title: 'sneaky' } })],
    ['update-todo', (id) => ({ method: 'PUT', path: updatePath(id), body: { updateData: { completed: true } } })],
    ['delete-todo', (id) => ({ method: 'DELETE', path: deletePath(id) })],
    ['restore-todo', (id) => ({ method: 'POST', path: `/todo/restore-todo/${id}` })],
    ['complete-all', () => ({ method: 'PUT', path: '/todo/complete-all', body: { completed: true } })],
    ['clear-completed', () => ({ method: 'DELETE', path: '/todo/clear-completed' })],
    ['restore-bulk', () => ({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: randomUUID() } })],
    ['events', () => ({ path: '/todo/events' })],
    ['purge (internal)', () => purge],
  ];

  test.each(routes)('%s: unsigned → 401', async (_name, request) => {
    const todo = await addTodo('untouched');
    const { method = 'GET', path, body } = request(todo._id);
    const response = await fetch(server.url + path, {
      method,
      headers: { 'content-type': 'application/json', [IDENTITY_HEADERS.userId]: ALICE },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Request was not signed by the gateway', code: ErrorCode.badSignature });
    expect(await stored()).toEqual([todo]);
  });

  test.each(routes)('%s: signed with the wrong secret → 401', async (_name, request) => {
    const todo = await addTodo('untouched');
    const response = await asAlice({ ...request(todo._id), secret: `${TEST_SECRET}-but-wrong` });
    expectError(response, 401, ErrorCode.badSignature, 'no issues');
    expect(await stored()).toEqual([todo]);
  });

  test.each(routes)('%s: signed without a user → 401 not signed in', async (_name, request) => {
    const todo = await addTodo('untouched');
    expectError(await call(request(todo._id)), 401, ErrorCode.unauthenticated, 'no issues');
    expect(await stored()).toEqual([todo]);
  });

  test('a stale signature → 401', async () => {
    const requestId = randomUUID();
    const request = { method: 'GET', url: '/todo/fetch-todo', userId: ALICE, requestId };
    const headers = { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, request, Date.now() - 60_000) };
    const response = await fetch(`${server.url}/todo/fetch-todo`, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: ErrorCode.badSignature });
  });

  test('the request id is covered by the signature: changing it → 401', async () => {
    const response = await asAlice({ path: '/todo/fetch-todo', headers: { 'x-request-id': 'req-1234567890' } });
    expectError(response, 401, ErrorCode.badSignature, 'no issues');
  });

  test('the user id is covered by the signature: swapping it → 401', async () => {
    const todo = await addTodo('alice only');
    const response = await call({ path: '/todo/fetch-todo', userId: ALICE, headers: { [IDENTITY_HEADERS.userId]: BOB } });
    expectError(response, 401, ErrorCode.badSignature, 'no issues');
    const swapped = await call({ method: 'DELETE', path: deletePath(todo._id), userId: BOB, headers: { [IDENTITY_HEADERS.userId]: ALICE } });
    expectError(swapped, 401, ErrorCode.badSignature, 'no issues');
    expect(await stored()).toEqual([todo]);
  });
});

describe('routing and health', () => {
  test('an unknown route → 404 in the error shape', async () => {
    expectError(await asAlice({ path: '/todo/nope' }), 404, ErrorCode.routeNotFound, 'no issues');
    expectError(await asAlice({ path: '/api/todo/fetch-todo' }), 404, ErrorCode.routeNotFound, 'no issues');
  });

  test('a known path with the wrong method → 405 with Allow', async () => {
    const response = await asAlice({ method: 'GET', path: '/todo/add-todo' });
    expectError(response, 405, ErrorCode.methodNotAllowed, 'no issues');
    expect(response.headers.get('allow')).toContain('POST');
  });

  test('/healthz, /readyz and /metrics answer without a signature', async () => {
    await addTodo('counted');
    const health = await fetch(`${server.url}/healthz`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await fetch(`${server.url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ready', checks: { store: 'up', writes: 'up' } } });
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/todo\/add-todo"[^}]*\} 1/);
  });

  test('/readyz turns 503 while the process drains', async () => {
    service.app.drain();
    const draining = await fetch(`${server.url}/readyz`);
    expect({ status: draining.status, body: await draining.json() }).toEqual({ status: 503, body: { status: 'draining' } });
  });

  test('/readyz answers 503 when the store does not answer', async () => {
    await store.close();
    const ready = await fetch(`${server.url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 503, body: { status: 'unavailable' } });
  });

  test('the request id the gateway sent is kept and echoed', async () => {
    const requestId = 'req-1234567890';
    const request = { method: 'GET', url: '/todo/fetch-todo', userId: ALICE, requestId };
    const headers = { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, request) };
    const response = await fetch(`${server.url}/todo/fetch-todo`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(requestId);
  });
});
