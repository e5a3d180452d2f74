import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import { ChangesResponse, HistoryResponse, TodoResponse, TodosResponse, UpdateTodoResponse } from '@tm/contracts';
import { signedCall, tempDir, type CallResult } from '@tm/test-support';
import { SQLITE_FILE } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Due dates (docs/PRODUCT.md §10.14) over real HTTP against the real service and its SQLite file: set at add
// and by update, removed with null, kept in the history and the change feed like any field, refused with the
// field's name when not a real date, absent for a task without one (a client that knows nothing of dates sees
// the spec's task), and a file from before due dates migrated in place.

const ALICE = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;

beforeEach(async () => {
  dir = tempDir('svc-todos-dates-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (method: string, path_: string, body?: unknown): Promise<CallResult> => signedCall(service.url, { userId: ALICE, method, path: path_, ...(body === undefined ? {} : { body }) });
const list = async () => TodosResponse.parse((await call('GET', '/todo/fetch-todo')).body);
async function add(body: Record<string, unknown>) {
  const answer = await call('POST', '/todo/add-todo', body);
  expect(answer.status).toBe(201);
  return TodoResponse.parse(answer.body).todo;
}
const update = (id: string, updateData: Record<string, unknown>) => call('PUT', `/todo/update-todo/${id}`, { updateData });

describe('due dates', () => {
  test('are set at add (a day, or a day and time), and a task without one has no due field at all', async () => {
    const day = await add({ title: 'Renew passport', due: '2027-03-15' });
    const timed = await add({ title: 'Call the dentist', due: '2026-12-07T09:00' });
    const plain = await add({ title: 'Buy milk' });
    expect(day.due).toBe('2027-03-15');
    expect(timed.due).toBe('2026-12-07T09:00');
    expect('due' in plain).toBe(false);
    const { todos } = await list();
    expect(Object.fromEntries(todos.map((todo) => [todo.title, todo.due]))).toEqual({ 'Renew passport': '2027-03-15', 'Call the dentist': '2026-12-07T09:00', 'Buy milk': undefined });
    // The list's JSON is written by hand for speed (sqlite-todos.store.ts listJson): a due key only where there is a date.
    expect(todos.filter((todo) => 'due' in todo).map((todo) => todo.title)).toEqual(['Call the dentist', 'Renew passport']);
  });

  test('are changed and removed by update, in words, each value kept in the history and sent on the change feed', async () => {
    const task = await add({ title: 'Pay rent' });
    const { cursor } = await list();
    const set = await update(task._id, { due: '2027-01-01' });
    expect(UpdateTodoResponse.parse(set.body)).toMatchObject({ message: 'Due date set', todo: { due: '2027-01-01' } });
    const moved = await update(task._id, { due: '2027-01-01T08:30' });
    expect(UpdateTodoResponse.parse(moved.body)).toMatchObject({ message: 'Due date set', todo: { due: '2027-01-01T08:30' } });
    const again = await update(task._id, { due: '2027-01-01T08:30' });
    expect(UpdateTodoResponse.parse(again.body).message).toBe('Due date unchanged');
    const removed = await update(task._id, { due: null });
    const after = UpdateTodoResponse.parse(removed.body);
    expect(after.message).toBe('Due date removed');
    expect('due' in after.todo).toBe(false);
    expect((await list()).todos[0]).toEqual(after.todo);

    const history = HistoryResponse.parse((await call('GET', `/todo/history/${task._id}`)).body);
    expect(history.entries.map(({ field, before, after: value }) => [field, before, value])).toEqual([
      ['due', '2027-01-01T08:30', null],
      ['due', '2027-01-01', '2027-01-01T08:30'],
      ['due', null, '2027-01-01'],
    ]);
    const feed = ChangesResponse.parse((await call('GET', `/todo/changes?after=${cursor}`)).body);
    expect(feed.changes.map((change) => change.saved[0]?.due ?? null)).toEqual(['2027-01-01', '2027-01-01T08:30', null]);
  });

  test('a date with other fields changes them all, and the due date alone never ticks or keeps an undo', async () => {
    const task = await add({ title: 'Water plants' });
    const both = UpdateTodoResponse.parse((await update(task._id, { due: '2027-02-28', isPinned: true })).body);
    expect(both).toMatchObject({ message: 'Task updated', todo: { due: '2027-02-28', isPinned: true, completed: false } });
    expect(both.undoToken).toBeUndefined();
  });

  test.each([
    ['2026-02-29', 'not a leap year'],
    ['2026-02-30', 'no such day'],
    ['2026-13-01', 'no such month'],
    ['2026-04-31', 'April has 30 days'],
    ['2026-03-14T24:00', 'no hour 24'],
    ['2026-03-14T09:60', 'no minute 60'],
    ['2026-03-14T09', 'a time without minutes'],
    ['2026-3-14', 'one-digit month'],
    ['14/03/2026', 'another form'],
    ['2026-03-14T09:00:00Z', 'an instant, not a day and time'],
    ['1969-12-31', 'before 1970'],
    ['', 'empty'],
    [20260314, 'a number'],
  ] as [unknown, string][])('refuses %p (%s) with a 400 naming the field, and changes nothing', async (due) => {
    const task = await add({ title: 'Dentist', due: '2028-02-29' });
    const before = await list();
    const edited = await update(task._id, { due });
    expect(edited.status).toBe(400);
    expect(JSON.stringify(edited.body)).toContain('due');
    const added = await call('POST', '/todo/add-todo', { title: 'Another', due });
    expect(added.status).toBe(400);
    expect(JSON.stringify(added.body)).toContain('due');
    expect(await list()).toEqual(before);
  });
});

test('a file from before due dates gains the column in place: its tasks have none, and can be given one', async () => {
  const task = await add({ title: 'Written before dates' });
  await service.stop();
  // The file as the previous version left it: no due column, so no index of due dates either (Today and
  // Upcoming's, docs/PRODUCT.md §10.15, which the reopened store creates after the column).
  const db = new Database(path.join(dir.dir, SQLITE_FILE));
  db.exec('DROP INDEX todos_user_open_due; ALTER TABLE todos DROP COLUMN due');
  db.close();
  service = await startTestService({ dataDir: dir.dir });
  const { todos } = await list();
  expect(todos).toEqual([task]);
  expect(UpdateTodoResponse.parse((await update(task._id, { due: '2027-05-01' })).body).todo.due).toBe('2027-05-01');
  const migrated = new Database(path.join(dir.dir, SQLITE_FILE), { readonly: true });
  try {
    expect(migrated.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'todos_user_open_due'").all()).toEqual([{ name: 'todos_user_open_due' }]);
  } finally {
    migrated.close();
  }
});
