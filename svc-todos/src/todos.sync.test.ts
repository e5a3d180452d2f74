import { ObjectId } from 'bson';
import { ChangesResponse, ErrorCode, HistoryResponse, LIMITS, SyncResponse, TEMP_ID_PREFIX, TodoResponse, UpdateTodoResponse, type SyncCommand } from '@tm/contracts';
import { signedCall, tempDir, type CallResult } from '@tm/test-support';
import type { SqliteTodosStore } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// The sync calls of offline-first tasks (docs/PRODUCT.md §10.4), over real HTTP against the real service and
// its SQLite store: queued writes in one call, each applied once; temporary ids; the change feed as JSON;
// the change history with conflicts.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;
let store: SqliteTodosStore;

beforeEach(async () => {
  dir = tempDir('svc-todos-sync-');
  service = await startTestService({ dataDir: dir.dir });
  ({ store } = service);
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

let nextId = 0;
const commandId = () => `cmd-${++nextId}`;
const addCommand = (title: string, id = commandId()): SyncCommand => ({ id, method: 'POST', path: '/todo/add-todo', body: { title } });
const updateCommand = (taskId: string, updateData: Record<string, unknown>, base?: Record<string, unknown>, id = commandId()): SyncCommand => ({
  id,
  method: 'PUT',
  path: `/todo/update-todo/${taskId}`,
  body: base === undefined ? { updateData } : { updateData, base },
});
const deleteCommand = (taskId: string, id = commandId()): SyncCommand => ({ id, method: 'DELETE', path: `/todo/delete-todo/${taskId}` });

async function sync(commands: SyncCommand[], userId = ALICE): Promise<SyncResponse['results']> {
  const answer = await signedCall(service.url, { userId, method: 'POST', path: '/todo/sync', body: { commands } });
  expect(answer.status).toBe(200);
  return SyncResponse.parse(answer.body).results;
}
const get = (path: string, userId = ALICE): Promise<CallResult> => signedCall(service.url, { userId, method: 'GET', path });
const tasks = async (userId = ALICE) => (await store.list(userId)).todos;

describe('POST /todo/sync', () => {
  test('applies the commands in order, each answered as its call would be, a temporary id naming the task an earlier command added', async () => {
    const add = addCommand('Buy milk');
    const temp = `${TEMP_ID_PREFIX}${add.id}`;
    const results = await sync([add, updateCommand(temp, { title: 'Buy oat milk' }), updateCommand(temp, { completed: true }), addCommand('Call mum')]);
    expect(results.map((result) => [result.id, result.status])).toEqual([
      [add.id, 201],
      ['cmd-2', 200],
      ['cmd-3', 200],
      ['cmd-4', 201],
    ]);
    const added = TodoResponse.parse(results[0]?.body).todo;
    expect(UpdateTodoResponse.parse(results[1]?.body)).toMatchObject({ message: 'Title changed', todo: { _id: added._id, title: 'Buy oat milk' } });
    expect(UpdateTodoResponse.parse(results[2]?.body).message).toBe('Task completed');
    expect((await tasks()).map((todo) => [todo.title, todo.completed])).toEqual([
      ['Call mum', false],
      ['Buy oat milk', true],
    ]);
  });

  test('the same batch sent again (its answer was lost) changes nothing and answers exactly as the first time', async () => {
    const add = addCommand('Buy milk');
    const batch = [add, updateCommand(`${TEMP_ID_PREFIX}${add.id}`, { isPinned: true }), addCommand('Walk the dog')];
    const first = await sync(batch);
    const cursor = (await store.feedPosition(ALICE)).cursor;
    const again = await sync(batch);
    expect(again).toEqual(first);
    expect(await tasks()).toHaveLength(2);
    expect((await store.feedPosition(ALICE)).cursor).toBe(cursor);
  });

  test('a retried add sent alone with its command id as Idempotency-Key is the same write', async () => {
    const add = addCommand('Buy milk');
    const [viaSync] = await sync([add]);
    const alone = await signedCall(service.url, { userId: ALICE, method: 'POST', path: '/todo/add-todo', body: { title: 'Buy milk' }, headers: { 'Idempotency-Key': add.id } });
    expect({ status: alone.status, body: alone.body }).toEqual({ status: viaSync?.status, body: viaSync?.body });
    expect(await tasks()).toHaveLength(1);
  });

  test('a refused command is answered with its reason and the others still apply; a command naming its add gets 424', async () => {
    const tooLong = addCommand('x'.repeat(LIMITS.todoTitle.max + 1));
    const results = await sync([tooLong, updateCommand(`${TEMP_ID_PREFIX}${tooLong.id}`, { completed: true }), addCommand('Fine'), deleteCommand(new ObjectId().toHexString())]);
    expect(results.map((result) => result.status)).toEqual([400, 424, 201, 404]);
    expect(results[0]?.body).toMatchObject({ code: ErrorCode.validation, message: expect.stringMatching(/500 characters/) });
    expect(results[1]?.body).toEqual({ code: ErrorCode.dependencyFailed, message: expect.stringMatching(/never added/) });
    expect(results[3]?.body).toEqual({ code: ErrorCode.todoNotFound, message: 'Task not found' });
    expect((await tasks()).map((todo) => todo.title)).toEqual(['Fine']);
  });

  test('a temporary id is the user’s own: another user naming it gets 424', async () => {
    const add = addCommand('Alice’s task');
    await sync([add]);
    const [result] = await sync([updateCommand(`${TEMP_ID_PREFIX}${add.id}`, { title: 'Mine now' })], BOB);
    expect(result?.status).toBe(424);
    expect((await tasks()).map((todo) => todo.title)).toEqual(['Alice’s task']);
  });

  test('a malformed batch is a 400 naming the field and writes nothing; an unknown call is refused in its result', async () => {
    const empty = await signedCall(service.url, { userId: ALICE, method: 'POST', path: '/todo/sync', body: { commands: [] } });
    expect(empty.status).toBe(400);
    const tooMany = Array.from({ length: LIMITS.sync.commands + 1 }, () => addCommand('x'));
    const over = await signedCall(service.url, { userId: ALICE, method: 'POST', path: '/todo/sync', body: { commands: tooMany } });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: ErrorCode.validation, issues: [expect.objectContaining({ path: ['commands'] })] });
    const [unknown] = await sync([{ id: 'x-1', method: 'POST', path: '/user/logout' }]);
    expect(unknown?.status).toBe(400);
    expect(await tasks()).toEqual([]);
  });

  test('the most commands a call takes, over 64 KiB, fit in one call', async () => {
    const commands = Array.from({ length: LIMITS.sync.commands }, (_, index) => addCommand(`Task ${index} ${'·'.repeat(100)}`));
    expect(JSON.stringify({ commands }).length).toBeGreaterThan(LIMITS.bodyBytes);
    const results = await sync(commands);
    expect(results.every((result) => result.status === 201)).toBe(true);
    expect(await tasks()).toHaveLength(LIMITS.sync.commands);
  });
});

describe('GET /todo/changes', () => {
  test('sends the changes after a position in order, a page at a time, then nothing more', async () => {
    const [first] = await sync([addCommand('One')]);
    const id = TodoResponse.parse(first?.body).todo._id;
    await sync([updateCommand(id, { completed: true }), deleteCommand(id)]);
    const answer = ChangesResponse.parse((await get('/todo/changes?after=1')).body);
    expect(answer).toMatchObject({ cursor: '3', more: false, reset: false });
    expect(answer.changes.map((change) => [change.id, change.saved.map((todo) => todo.completed), change.removed])).toEqual([
      ['2', [true], []],
      ['3', [], [id]],
    ]);
    expect(ChangesResponse.parse((await get('/todo/changes?after=3')).body)).toEqual({ changes: [], cursor: '3', more: false, reset: false });
  });

  test('a position ahead of the feed (another account, a purged one) is a reset to the current cursor; a bad one a 400', async () => {
    await sync([addCommand('One')]);
    expect(ChangesResponse.parse((await get('/todo/changes?after=99')).body)).toEqual({ changes: [], cursor: '1', more: false, reset: true });
    const bad = await get('/todo/changes?after=abc');
    expect(bad.status).toBe(400);
    expect((await get('/todo/changes')).status).toBe(400);
  });

  test('a position older than the events kept is a reset, never a 5xx', async () => {
    await sync([addCommand('One'), addCommand('Two')]);
    // Age the feed past its retention: the sweep trims every event kept so far.
    const later = new Date(Date.now() + 24 * 60 * 60_000);
    await service.stop();
    service = await startTestService({ dataDir: dir.dir, now: () => later });
    ({ store } = service);
    await store.sweep();
    expect(ChangesResponse.parse((await get('/todo/changes?after=0')).body)).toMatchObject({ changes: [], reset: true, cursor: '2' });
  });
});

describe('GET /todo/history/:todoId and conflicts', () => {
  test('two devices change different fields of one task from the same base: both changes stand, no conflict', async () => {
    const [added] = await sync([addCommand('Plan trip')]);
    const todo = TodoResponse.parse(added?.body).todo;
    await sync([updateCommand(todo._id, { title: 'Plan the trip' }, { title: 'Plan trip' })]);
    const [pin] = await sync([updateCommand(todo._id, { isPinned: true }, { isPinned: false })]);
    expect(UpdateTodoResponse.parse(pin?.body).conflicts).toBeUndefined();
    expect(await tasks()).toEqual([expect.objectContaining({ title: 'Plan the trip', isPinned: true })]);
  });

  test('the same field on two devices: the later wins, and the value it replaced is in the history, marked a conflict', async () => {
    const [added] = await sync([addCommand('Plan trip')]);
    const todo = TodoResponse.parse(added?.body).todo;
    await sync([updateCommand(todo._id, { title: 'Phone: Plan trip to Rome' }, { title: 'Plan trip' })]);
    const [laptop] = await sync([updateCommand(todo._id, { title: 'Laptop: Plan trip to Oslo' }, { title: 'Plan trip' })]);
    expect(UpdateTodoResponse.parse(laptop?.body)).toMatchObject({ conflicts: ['title'], todo: { title: 'Laptop: Plan trip to Oslo' } });
    const history = HistoryResponse.parse((await get(`/todo/history/${todo._id}`)).body).entries;
    expect(history.map(({ field, before, after, conflict, version }) => ({ field, before, after, conflict, version }))).toEqual([
      { field: 'title', before: 'Phone: Plan trip to Rome', after: 'Laptop: Plan trip to Oslo', conflict: true, version: '3' },
      { field: 'title', before: 'Plan trip', after: 'Phone: Plan trip to Rome', conflict: false, version: '2' },
    ]);
    // Restoring the loser's value is an ordinary edit; it is in the history too.
    await sync([updateCommand(todo._id, { title: 'Phone: Plan trip to Rome' })]);
    expect((await tasks())[0]?.title).toBe('Phone: Plan trip to Rome');
    expect(HistoryResponse.parse((await get(`/todo/history/${todo._id}`)).body).entries).toHaveLength(3);
  });

  test('a task deleted elsewhere: the change answers 404 Task not found, and the task’s history is still there', async () => {
    const [added] = await sync([addCommand('Plan trip')]);
    const todo = TodoResponse.parse(added?.body).todo;
    await sync([updateCommand(todo._id, { isPinned: true }), deleteCommand(todo._id)]);
    const [late] = await sync([updateCommand(todo._id, { title: 'Too late' }, { title: 'Plan trip' })]);
    expect(late).toMatchObject({ status: 404, body: { code: ErrorCode.todoNotFound } });
    expect(HistoryResponse.parse((await get(`/todo/history/${todo._id}`)).body).entries.map((entry) => entry.field)).toEqual(['isPinned']);
  });

  test('another user’s task has no history to see, exactly like an unknown id; a malformed id is a 400', async () => {
    const [added] = await sync([addCommand('Plan trip')]);
    const todo = TodoResponse.parse(added?.body).todo;
    await sync([updateCommand(todo._id, { completed: true })]);
    expect((await get(`/todo/history/${todo._id}`, BOB)).body).toEqual({ entries: [] });
    expect((await get(`/todo/history/${new ObjectId().toHexString()}`)).body).toEqual({ entries: [] });
    expect((await get('/todo/history/not-an-id')).status).toBe(400);
  });
});
