import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import { ChangesResponse, ErrorBody, ErrorCode, HistoryResponse, REMINDER_MAX_MINUTES, REMINDERS_MAX, RestoreBulkResponse, TodoResponse, TodosResponse, UPDATE_MESSAGES, UpdateTodoResponse, type Todo } from '@tm/contracts';
import { REPEAT_MESSAGES } from '@tm/contracts/repeat';
import { signedCall, tempDir, type CallResult } from '@tm/test-support';
import { SQLITE_FILE, SqliteTodosStore } from './sqlite-todos.store.js';
import { REMINDERS_NEED_DUE } from './todos.domain.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Repeating tasks (docs/PRODUCT.md §10.16) and reminders (§10.17) over real HTTP against the real service and
// its SQLite file: set at add and by update, refused with the field's name when the task cannot keep them
// (a repeat or reminders need a due date, a repeat must be a rule that falls after it), a tick of a repeating
// task that keeps it open at its next date (counted from the person's `today`, or the UTC day without one)
// with its undo, tasks without them answered in the spec's shape (§7), and a file from before them migrated in
// place.

const ALICE = new ObjectId().toHexString();
/** The service's clock: one second per write, from an evening in UTC (the person's day may differ from UTC's). */
const START = Date.parse('2027-01-05T23:30:00.000Z');

let dir: ReturnType<typeof tempDir>;
let service: TestService;
let clock = START;

const startService = async () => {
  service = await startTestService({ dataDir: dir.dir, now: () => new Date((clock += 1000)) });
};
beforeEach(async () => {
  dir = tempDir('svc-todos-repeat-');
  clock = START;
  await startService();
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (method: string, path_: string, body?: unknown): Promise<CallResult> => signedCall(service.url, { userId: ALICE, method, path: path_, ...(body === undefined ? {} : { body }) });
const list = async () => TodosResponse.parse((await call('GET', '/todo/fetch-todo')).body);
const addCall = (body: Record<string, unknown>) => call('POST', '/todo/add-todo', body);
async function add(body: Record<string, unknown>): Promise<Todo> {
  const answer = await addCall(body);
  expect([answer.status, answer.body]).toEqual([201, expect.anything()]);
  return TodoResponse.parse(answer.body).todo;
}
const updateCall = (id: string, updateData: Record<string, unknown>, today?: string) =>
  call('PUT', `/todo/update-todo/${id}`, { updateData, ...(today === undefined ? {} : { today }) });
async function update(id: string, updateData: Record<string, unknown>, today?: string): Promise<UpdateTodoResponse> {
  const answer = await updateCall(id, updateData, today);
  expect([answer.status, answer.body]).toEqual([200, expect.anything()]);
  return UpdateTodoResponse.parse(answer.body);
}
/** The issues of a 400 (the contracts' error body): resolves the path of each. */
function refusedPaths(answer: CallResult): (string | number)[][] {
  expect(answer.status).toBe(400);
  const body = ErrorBody.parse(answer.body);
  expect(body.code).toBe(ErrorCode.validation);
  return (body.issues ?? []).map((issue) => issue.path);
}
/** Whether a path names `field`, at the top of a body or inside updateData. */
const names = (field: string) => (paths: (string | number)[][]) => paths[0]?.[0] === field || (paths[0]?.[0] === 'updateData' && paths[0][1] === field);

/** What the spec's task has (§7): a client that knows nothing of dates or repeats sees exactly these keys. */
const SPEC_KEYS = ['_id', 'completed', 'completedAt', 'createdAt', 'isPinned', 'title', 'updatedAt'];

describe('a repeat and reminders at add (§10.16, §10.17)', () => {
  test('are kept as given, reminders ascending, and read back the same from the list and the store', async () => {
    const todo = await add({ title: 'Water plants', due: '2027-01-04T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH', repeatFrom: 'completion', reminders: [60, 0, 1440] });
    expect(todo).toMatchObject({ due: '2027-01-04T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH', repeatFrom: 'completion', reminders: [0, 60, 1440] });
    expect('repeatDone' in todo).toBe(false);
    const prefixed = await add({ title: 'Pay rent', due: '2027-02-01', repeat: 'RRULE:FREQ=MONTHLY' });
    expect(prefixed.repeat).toBe('RRULE:FREQ=MONTHLY');
    expect('repeatFrom' in prefixed || 'reminders' in prefixed).toBe(false);
    expect((await list()).todos).toEqual([prefixed, todo]);
    // The list's JSON is written by hand from the rows (listJson): the extras spliced in read as JSON.stringify would write them.
    expect(await service.store.listJson(ALICE)).toBe(JSON.stringify(await service.store.list(ALICE)));
  });

  test('a repeat without a due date is refused naming repeat, and nothing is stored', async () => {
    const before = await list();
    const answer = await addCall({ title: 'Stretch', repeat: 'FREQ=DAILY' });
    expect(refusedPaths(answer)).toEqual([['repeat']]);
    expect(ErrorBody.parse(answer.body).issues?.[0]?.message).toBe(REPEAT_MESSAGES.needsDue);
    expect(await list()).toEqual(before);
  });

  test('reminders without a due date are refused naming reminders, and nothing is stored', async () => {
    const before = await list();
    const answer = await addCall({ title: 'Stretch', reminders: [10] });
    expect(refusedPaths(answer)).toEqual([['reminders']]);
    expect(ErrorBody.parse(answer.body).issues?.[0]?.message).toBe(REMINDERS_NEED_DUE);
    expect(await list()).toEqual(before);
  });
});

describe('refusals name the field and change nothing, at add and at update', () => {
  const BAD_RULES: [string, unknown][] = [
    ['garbage', 'every monday'],
    ['an unknown part', 'FREQ=DAILY;FOO=1'],
    ['COUNT', 'FREQ=DAILY;COUNT=3'],
    ['SECONDLY', 'FREQ=SECONDLY'],
    ['DTSTART', 'FREQ=DAILY;DTSTART=20270101T090000'],
    ['a rule that never falls', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'],
    ['UNTIL before the due date', 'FREQ=DAILY;UNTIL=20261231'],
    ['not text', 7],
    ['empty', ''],
  ];
  const BAD_REMINDERS: [string, unknown][] = [
    [`more than ${REMINDERS_MAX}`, Array.from({ length: REMINDERS_MAX + 1 }, (_, index) => index * 5)],
    ['after the due time (negative)', [-5]],
    ['the same time twice', [10, 10]],
    ['not whole minutes', [1.5]],
    ['more than four weeks before', [REMINDER_MAX_MINUTES + 1]],
    ['not a list', 10],
  ];

  test.each([...BAD_RULES.map(([why, value]) => ['repeat', why, value] as const), ...BAD_REMINDERS.map(([why, value]) => ['reminders', why, value] as const)])(
    '%s: %s',
    async (field, _, value) => {
      const task = await add({ title: 'Dentist', due: '2027-01-01' });
      const before = await list();
      expect(names(field)(refusedPaths(await addCall({ title: 'Another', due: '2027-01-01', [field]: value })))).toBe(true);
      expect(names(field)(refusedPaths(await updateCall(task._id, { [field]: value })))).toBe(true);
      expect(await list()).toEqual(before);
    },
  );

  test('the limits themselves are kept: ten reminders, four weeks before, at the due time', async () => {
    const reminders = [0, ...Array.from({ length: REMINDERS_MAX - 2 }, (_, index) => (index + 1) * 15), REMINDER_MAX_MINUTES];
    expect((await add({ title: 'Exam', due: '2027-06-01T09:00', reminders })).reminders).toEqual(reminders);
  });

  test.each([
    ['a repeat on a task without a due date', { repeat: 'FREQ=DAILY' }, 'repeat'],
    ['reminders on a task without a due date', { reminders: [5] }, 'reminders'],
  ])('%s: 400 naming it', async (_, updateData, field) => {
    const task = await add({ title: 'Undated' });
    const before = await list();
    expect(refusedPaths(await updateCall(task._id, updateData))).toEqual([[field]]);
    expect(await list()).toEqual(before);
  });

  test('a repeat set with due: null is refused too: the date it needs is being removed', async () => {
    const task = await add({ title: 'Dated', due: '2027-01-01' });
    const before = await list();
    expect(refusedPaths(await updateCall(task._id, { due: null, repeat: 'FREQ=DAILY' }))).toEqual([['repeat']]);
    expect(await list()).toEqual(before);
  });

  test.each([['2027-02-30'], ['05/01/2027'], ['2027-01-05T09:00'], [20270105]])('a today of %p is refused naming today', async (today) => {
    const task = await add({ title: 'Daily', due: '2027-01-01', repeat: 'FREQ=DAILY' });
    const before = await list();
    const answer = await call('PUT', `/todo/update-todo/${task._id}`, { updateData: { completed: true }, today });
    expect(refusedPaths(answer)[0]?.[0]).toBe('today');
    expect(await list()).toEqual(before);
  });
});

describe('a tick of a repeating task (§10.16)', () => {
  test('keeps it open at its next date, with the completion kept, a change event, a history entry for due, and an undo that puts it back exactly', async () => {
    const task = await add({ title: 'Water plants', due: '2027-01-04T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH', reminders: [30] });
    const { cursor } = await list();
    const answer = await update(task._id, { completed: true }, '2027-01-05');
    expect(answer.message).toBe(UPDATE_MESSAGES.repeated);
    expect(answer.message).toBe('Task completed; it repeats');
    const ticked = answer.todo;
    expect(ticked).toEqual({ ...task, due: '2027-01-07T09:00', repeatDone: [ticked.updatedAt], updatedAt: ticked.updatedAt });
    expect(ticked.updatedAt).not.toBe(task.updatedAt);
    expect(answer.undoToken).toEqual(expect.any(String));
    expect((await list()).todos).toEqual([ticked]);

    const feed = ChangesResponse.parse((await call('GET', `/todo/changes?after=${cursor}`)).body);
    expect(feed.changes.map((change) => change.saved)).toEqual([[ticked]]);
    const history = HistoryResponse.parse((await call('GET', `/todo/history/${task._id}`)).body);
    expect(history.entries.map(({ field, before, after }) => [field, before, after])).toEqual([['due', '2027-01-04T09:00', '2027-01-07T09:00']]);

    const undone = await call('POST', '/todo/restore-bulk', { undoToken: answer.undoToken });
    expect(undone.status).toBe(200);
    expect(RestoreBulkResponse.parse(undone.body).todos).toEqual([task]);
    expect((await list()).todos).toEqual([task]);
    // The token is spent.
    expect((await call('POST', '/todo/restore-bulk', { undoToken: answer.undoToken })).status).not.toBe(200);
  });

  test('the undo of a second tick puts back the first completion and its date, no more', async () => {
    const task = await add({ title: 'Stretch', due: '2027-01-04', repeat: 'FREQ=DAILY' });
    const first = (await update(task._id, { completed: true }, '2027-01-04')).todo;
    expect(first).toMatchObject({ due: '2027-01-05', repeatDone: [first.updatedAt], completed: false, completedAt: null });
    const second = await update(task._id, { completed: true }, '2027-01-05');
    expect(second.todo).toMatchObject({ due: '2027-01-06', repeatDone: [first.updatedAt, second.todo.updatedAt] });
    const undone = await call('POST', '/todo/restore-bulk', { undoToken: second.undoToken });
    expect(RestoreBulkResponse.parse(undone.body).todos).toEqual([first]);
    expect((await list()).todos).toEqual([first]);
  });

  test('from completion: counted from the person’s today, at the due time of day', async () => {
    const task = await add({ title: 'Descale kettle', due: '2027-01-01T07:00', repeat: 'FREQ=DAILY;INTERVAL=3', repeatFrom: 'completion' });
    expect((await update(task._id, { completed: true }, '2027-01-10')).todo.due).toBe('2027-01-13T07:00');
  });

  test('from the schedule: an overdue task moves to its first date not before today', async () => {
    const task = await add({ title: 'Bins', due: '2026-12-01', repeat: 'FREQ=WEEKLY' });
    expect((await update(task._id, { completed: true }, '2027-01-05')).todo.due).toBe('2027-01-05');
  });

  test('a client that sends no today gets the UTC day of the tick; one that does, its own day', async () => {
    const utc = await add({ title: 'UTC client', due: '2027-01-01', repeat: 'FREQ=DAILY' });
    const auckland = await add({ title: 'Auckland client', due: '2027-01-01', repeat: 'FREQ=DAILY' });
    // The service's clock reads 23:30 UTC on 5 January: it is already the 6th in Auckland.
    expect((await update(utc._id, { completed: true })).todo.due).toBe('2027-01-05');
    expect((await update(auckland._id, { completed: true }, '2027-01-06')).todo.due).toBe('2027-01-06');
  });

  test('a repeat whose UNTIL has passed completes the task as any task is', async () => {
    const task = await add({ title: 'Course', due: '2027-01-04', repeat: 'FREQ=DAILY;UNTIL=20270105' });
    const answer = await update(task._id, { completed: true }, '2027-01-06');
    expect(answer.message).toBe(UPDATE_MESSAGES.completed.true);
    expect(answer.todo).toMatchObject({ completed: true, due: '2027-01-04', completedAt: answer.todo.updatedAt });
    expect('repeatDone' in answer.todo).toBe(false);
  });

  test('a whole-day task with an hourly rule is refused at add, or moves to a later date when ticked', async () => {
    const answer = await addCall({ title: 'Drink water', due: '2027-01-04', repeat: 'FREQ=HOURLY' });
    if (answer.status === 400) return expect(refusedPaths(answer)).toEqual([['repeat']]);
    const { todo } = TodoResponse.parse(answer.body);
    const ticked = await update(todo._id, { completed: true }, '2027-01-04');
    expect(ticked.todo.due).not.toBe('2027-01-04');
  });

  test('complete-all completes a repeating task as it stands, without moving it', async () => {
    const task = await add({ title: 'Daily', due: '2027-01-04', repeat: 'FREQ=DAILY' });
    expect((await call('PUT', '/todo/complete-all', { completed: true })).status).toBe(200);
    expect((await list()).todos).toEqual([{ ...task, completed: true, completedAt: expect.any(String), updatedAt: expect.any(String) }]);
  });
});

describe('a tick sent again is applied once (§7, §10.4): the task moves one date, not two', () => {
  test('with the same Idempotency-Key, the answer is replayed', async () => {
    const task = await add({ title: 'Daily', due: '2027-01-04', repeat: 'FREQ=DAILY' });
    const tick = () => signedCall(service.url, { userId: ALICE, method: 'PUT', path: `/todo/update-todo/${task._id}`, body: { updateData: { completed: true }, today: '2027-01-04' }, headers: { 'idempotency-key': 'tick-1' } });
    const first = await tick();
    const again = await tick();
    expect(again.body).toEqual(first.body);
    expect((await list()).todos.map((todo) => [todo.due, todo.repeatDone?.length])).toEqual([['2027-01-05', 1]]);
  });

  test('a queued tick synced twice (offline, §10.4) with the day it was done', async () => {
    const task = await add({ title: 'Daily', due: '2027-01-01T08:00', repeat: 'FREQ=DAILY' });
    const command = { id: 'offline-tick', method: 'PUT', path: `/todo/update-todo/${task._id}`, body: { updateData: { completed: true }, today: '2027-01-03' } };
    for (let round = 0; round < 2; round += 1) {
      const answer = await call('POST', '/todo/sync', { commands: [command] });
      expect(answer.status).toBe(200);
    }
    expect((await list()).todos.map((todo) => [todo.due, todo.repeatDone?.length])).toEqual([['2027-01-03T08:00', 1]]);
  });
});

describe('changing a repeat (§10.14, §10.16, §10.17)', () => {
  test('removing the due date removes the repeat, its repeatFrom and the reminders', async () => {
    const task = await add({ title: 'Gym', due: '2027-01-04T18:00', repeat: 'FREQ=WEEKLY', repeatFrom: 'completion', reminders: [15] });
    const { todo } = await update(task._id, { due: null });
    expect(Object.keys(todo).sort()).toEqual(SPEC_KEYS);
    expect((await list()).todos).toEqual([todo]);
    const history = HistoryResponse.parse((await call('GET', `/todo/history/${task._id}`)).body);
    expect(history.entries.map(({ field, before, after }) => [field, before, after]).sort()).toEqual(
      [['due', '2027-01-04T18:00', null], ['repeat', 'FREQ=WEEKLY', null], ['repeatFrom', 'completion', null], ['reminders', '15', null]].sort(),
    );
  });

  test('a repeat is set, changed and removed by update, in words; removing it removes repeatFrom', async () => {
    const task = await add({ title: 'Read', due: '2027-01-04' });
    expect(await update(task._id, { repeat: 'FREQ=DAILY' })).toMatchObject({ message: 'Repeat set', todo: { repeat: 'FREQ=DAILY' } });
    expect((await update(task._id, { repeat: 'FREQ=DAILY' })).message).toBe('Repeat unchanged');
    expect((await update(task._id, { repeatFrom: 'completion' })).todo.repeatFrom).toBe('completion');
    const removed = await update(task._id, { repeat: null });
    expect('repeat' in removed.todo || 'repeatFrom' in removed.todo).toBe(false);
    expect((await update(task._id, { reminders: [5, 0] })).todo.reminders).toEqual([0, 5]);
    expect(await update(task._id, { reminders: [] })).toMatchObject({ message: 'Reminders removed' });
    expect(Object.keys((await list()).todos[0] ?? {}).sort()).toEqual([...SPEC_KEYS, 'due'].sort());
  });
});

describe('the spec’s calls answer the spec’s shape for a task without dates (§7)', () => {
  test('add, tick, list and untick: no new keys', async () => {
    const task = await add({ title: 'Buy milk' });
    expect(Object.keys(task).sort()).toEqual(SPEC_KEYS);
    const ticked = await update(task._id, { completed: true });
    expect(ticked.message).toBe('Task completed');
    expect(Object.keys(ticked.todo).sort()).toEqual(SPEC_KEYS);
    expect(Object.keys((await update(task._id, { completed: false })).todo).sort()).toEqual(SPEC_KEYS);
    const raw = (await call('GET', '/todo/fetch-todo')).body as { todos: object[] };
    expect(raw.todos.map((todo) => Object.keys(todo).sort())).toEqual([SPEC_KEYS]);
  });
});

/** The two tables as the version before repeats and reminders wrote them: no todos.extras, no todo_undo_items.prev_moved. */
const OLD_TABLES = `
  CREATE TABLE todos (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, title TEXT NOT NULL,
    completed INTEGER NOT NULL CHECK (completed IN (0, 1)), is_pinned INTEGER NOT NULL CHECK (is_pinned IN (0, 1)),
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER, completed_at INTEGER, due TEXT
  ) STRICT;
  CREATE TABLE todo_undo_batches (
    token TEXT PRIMARY KEY, user_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('clear-completed', 'complete-all')),
    completed INTEGER CHECK (completed IN (0, 1)), created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE todo_undo_items (
    token TEXT NOT NULL, todo_id TEXT NOT NULL, prev_completed INTEGER, prev_completed_at INTEGER, prev_updated_at INTEGER,
    PRIMARY KEY (token, todo_id)
  ) STRICT, WITHOUT ROWID;
`;

test('a file from before repeats gains the columns in place: its tasks and a pending undo read as before, and can be given a repeat', async () => {
  await service.stop();
  dir.remove();
  dir = tempDir('svc-todos-repeat-old-');
  const iso = (ms: number) => new Date(ms).toISOString();
  const [dated, ticked] = [new ObjectId().toHexString(), new ObjectId().toHexString()];
  const old = new Database(path.join(dir.dir, SQLITE_FILE));
  old.exec(OLD_TABLES);
  const insert = old.prepare('INSERT INTO todos VALUES (?, ?, ?, ?, 0, ?, ?, NULL, ?, ?)');
  insert.run(dated, ALICE, 'dated', 0, START - 9_000, START - 9_000, null, '2027-01-04T09:00');
  // Ticked just before the upgrade, its undo still pending.
  insert.run(ticked, ALICE, 'ticked', 1, START - 8_000, START - 1_000, START - 1_000, null);
  old.prepare("INSERT INTO todo_undo_batches VALUES ('old-tick', ?, 'complete-all', 1, ?)").run(ALICE, START - 1_000);
  old.prepare("INSERT INTO todo_undo_items VALUES ('old-tick', ?, 0, NULL, ?)").run(ticked, START - 8_000);
  old.close();

  await startService();
  const datedTodo: Todo = { _id: dated, title: 'dated', completed: false, isPinned: false, createdAt: iso(START - 9_000), updatedAt: iso(START - 9_000), completedAt: null, due: '2027-01-04T09:00' };
  const tickedTodo: Todo = { _id: ticked, title: 'ticked', completed: true, isPinned: false, createdAt: iso(START - 8_000), updatedAt: iso(START - 1_000), completedAt: iso(START - 1_000) };
  expect((await list()).todos).toEqual([tickedTodo, datedTodo]);
  expect(await service.store.listJson(ALICE)).toBe(JSON.stringify(await service.store.list(ALICE)));
  // The pending undo of before works: prev_moved is NULL, so only the completion comes back.
  const undone = await call('POST', '/todo/restore-bulk', { undoToken: 'old-tick' });
  expect(RestoreBulkResponse.parse(undone.body).todos).toEqual([{ ...tickedTodo, completed: false, completedAt: null, updatedAt: iso(START - 8_000) }]);
  const repeating = await update(dated, { repeat: 'FREQ=DAILY', reminders: [0] });
  expect(repeating.todo).toMatchObject({ due: '2027-01-04T09:00', repeat: 'FREQ=DAILY', reminders: [0] });
  expect((await update(dated, { completed: true }, '2027-01-05')).todo.due).toBe('2027-01-05T09:00');
  await service.stop();

  // The migrated file has the columns of a new one, in the same order.
  const fresh = tempDir('svc-todos-repeat-new-');
  await SqliteTodosStore.open({ dataDir: fresh.dir }).close();
  const migrated = new Database(path.join(dir.dir, SQLITE_FILE), { readonly: true });
  const newFile = new Database(path.join(fresh.dir, SQLITE_FILE), { readonly: true });
  try {
    const columnsIn = (file: Database.Database, table: string) => file.prepare('SELECT name, type FROM pragma_table_info(?)').all(table);
    for (const table of ['todos', 'todo_undo_items']) expect(columnsIn(migrated, table)).toEqual(columnsIn(newFile, table));
    expect(columnsIn(migrated, 'todos')).toContainEqual({ name: 'extras', type: 'TEXT' });
    expect(columnsIn(migrated, 'todo_undo_items')).toContainEqual({ name: 'prev_moved', type: 'TEXT' });
  } finally {
    migrated.close();
    newFile.close();
    fresh.remove();
  }
  await startService();
});
