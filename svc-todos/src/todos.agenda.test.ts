import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import { addDays, agendaOf, AGENDA_DAYS, AgendaResponse, ErrorBody, ErrorCode, TodoResponse, TodosResponse, UpdateTodoResponse, type Todo } from '@tm/contracts';
import { signedCall, tempDir, type CallResult } from '@tm/test-support';
import { SQLITE_FILE } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Today and Upcoming (docs/PRODUCT.md §10.15) over real HTTP against the real service and its SQLite file:
// GET /todo/agenda answers the contracts' agendaOf over the user's open dated tasks for the person's own
// `today` (overdue oldest first, then each day that holds any, timed tasks first by time, then as the list
// orders them), never a completed, deleted or another user's task, within the days asked; a bad `today` or
// `days` is a 400 naming it, and an agenda changes nothing.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();
const TODAY = '2026-12-06';

let dir: ReturnType<typeof tempDir>;
let service: TestService;
/** One second between writes, so every task has its own `createdAt` and the list's order is the order of adding. */
let clock = Date.parse('2026-12-01T08:00:00.000Z');

beforeEach(async () => {
  dir = tempDir('svc-todos-agenda-');
  service = await startTestService({ dataDir: dir.dir, now: () => new Date((clock += 1000)) });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (method: string, path_: string, body?: unknown, userId = ALICE): Promise<CallResult> =>
  signedCall(service.url, { userId, method, path: path_, ...(body === undefined ? {} : { body }) });
const list = async (userId = ALICE) => TodosResponse.parse((await call('GET', '/todo/fetch-todo', undefined, userId)).body);
async function agenda(query: string, userId = ALICE): Promise<AgendaResponse> {
  const answer = await call('GET', `/todo/agenda${query}`, undefined, userId);
  expect([query, answer.status]).toEqual([query, 200]);
  return AgendaResponse.parse(answer.body);
}
async function add(title: string, due?: string, userId = ALICE): Promise<Todo> {
  const answer = await call('POST', '/todo/add-todo', due === undefined ? { title } : { title, due }, userId);
  expect(answer.status).toBe(201);
  return TodoResponse.parse(answer.body).todo;
}
async function update(id: string, updateData: Record<string, unknown>): Promise<Todo> {
  const answer = await call('PUT', `/todo/update-todo/${id}`, { updateData });
  expect(answer.status).toBe(200);
  return UpdateTodoResponse.parse(answer.body).todo;
}
/** An agenda by titles: the overdue ones, then each day's date with its titles. */
const titlesOf = ({ overdue, days }: AgendaResponse) => ({ overdue: overdue.map((todo) => todo.title), days: days.map(({ date, todos }) => [date, todos.map((todo) => todo.title)]) });

describe('GET /todo/agenda', () => {
  test('groups the open dated tasks: overdue oldest first, then each day in order, times first, then as the list orders them', async () => {
    await add('no date');
    await add('last week', '2026-11-29');
    await add('yesterday 09:00', '2026-12-05T09:00');
    await add('a month ago', '2026-11-06');
    await add('today, older');
    const pinned = await add('today, pinned', TODAY);
    await update(pinned._id, { isPinned: true });
    await add('today 18:00', '2026-12-06T18:00');
    await add('today 08:00, passed', '2026-12-06T08:00');
    const older = (await list()).todos.find((todo) => todo.title === 'today, older');
    await update(older?._id ?? '', { due: TODAY });
    await add('today, newest', TODAY);
    await add('in two days', '2026-12-08');
    await add('last day 23:59', '2026-12-12T23:59');
    await add('a day too far', '2026-12-13');
    await add('the next year', '2027-01-06');

    const answer = await agenda(`?today=${TODAY}`);
    expect(titlesOf(answer)).toEqual({
      overdue: ['a month ago', 'last week', 'yesterday 09:00'],
      days: [
        [TODAY, ['today 08:00, passed', 'today 18:00', 'today, pinned', 'today, newest', 'today, older']],
        ['2026-12-08', ['in two days']],
        ['2026-12-12', ['last day 23:59']],
      ],
    });
    expect(answer.today).toBe(TODAY);
    // Exactly the shared rule over the list the device holds (what the Today screen draws), tasks as listed.
    expect(answer).toEqual({ today: TODAY, ...agendaOf((await list()).todos, TODAY, AGENDA_DAYS.default) });
  });

  test('leaves out completed and deleted tasks, and takes them back once reopened or restored', async () => {
    const done = await add('done today', TODAY);
    const gone = await add('deleted, overdue', '2026-12-01');
    await add('open today', TODAY);
    await update(done._id, { completed: true });
    expect((await call('DELETE', `/todo/delete-todo/${gone._id}`)).status).toBe(200);
    expect(titlesOf(await agenda(`?today=${TODAY}`))).toEqual({ overdue: [], days: [[TODAY, ['open today']]] });

    await update(done._id, { completed: false });
    expect((await call('POST', `/todo/restore-todo/${gone._id}`)).status).toBe(200);
    expect(titlesOf(await agenda(`?today=${TODAY}`))).toEqual({ overdue: ['deleted, overdue'], days: [[TODAY, ['open today', 'done today']]] });
    // A task whose date is removed leaves the agenda.
    await update(done._id, { due: null });
    expect(titlesOf(await agenda(`?today=${TODAY}`)).days).toEqual([[TODAY, ['open today']]]);
  });

  test("never holds another user's tasks", async () => {
    await add("Alice's, today", TODAY);
    await add("Bob's, today", TODAY, BOB);
    await add("Bob's, overdue", '2026-12-01', BOB);
    expect(titlesOf(await agenda(`?today=${TODAY}`))).toEqual({ overdue: [], days: [[TODAY, ["Alice's, today"]]] });
    expect(titlesOf(await agenda(`?today=${TODAY}`, BOB))).toEqual({ overdue: ["Bob's, overdue"], days: [[TODAY, ["Bob's, today"]]] });
    expect(await agenda(`?today=${TODAY}`, new ObjectId().toHexString())).toEqual({ today: TODAY, overdue: [], days: [] });
  });

  test('covers the days asked from today on: 1 to 31, the default 7, by the calendar across month and year ends', async () => {
    const today = '2026-12-20';
    for (const offset of [-1, 0, 1, 6, 7, 11, 12, 30, 31]) await add(`day ${offset}`, addDays(today, offset));
    const dates = async (query: string) => (await agenda(`?today=${today}${query}`)).days.map(({ date }) => date);
    expect(await dates('&days=1')).toEqual(['2026-12-20']);
    expect(await dates('')).toEqual(['2026-12-20', '2026-12-21', '2026-12-26']);
    expect(await dates('&days=7')).toEqual(['2026-12-20', '2026-12-21', '2026-12-26']);
    expect(await dates('&days=12')).toEqual(['2026-12-20', '2026-12-21', '2026-12-26', '2026-12-27', '2026-12-31']);
    expect(await dates(`&days=${AGENDA_DAYS.max}`)).toEqual(['2026-12-20', '2026-12-21', '2026-12-26', '2026-12-27', '2026-12-31', '2027-01-01', '2027-01-19']);
    // However many days are asked, what lies before today is overdue.
    expect((await agenda(`?today=${today}&days=1`)).overdue.map((todo) => todo.title)).toEqual(['day -1']);
  });

  test.each([
    ['', 'today', 'missing'],
    ['?days=7', 'today', 'missing, with days'],
    ['?today=', 'today', 'empty'],
    ['?today=2026-02-30', 'today', 'no such day'],
    ['?today=2027-02-29', 'today', 'not a leap year'],
    ['?today=2026-12-06T09:00', 'today', 'a day and time, not a day'],
    ['?today=06/12/2026', 'today', 'another form'],
    ['?today=1969-12-31', 'today', 'before 1970'],
    ['?today=2026-12-06&today=2026-12-07', 'today', 'twice'],
    [`?today=${TODAY}&days=0`, 'days', 'zero days'],
    [`?today=${TODAY}&days=32`, 'days', 'more than 31'],
    [`?today=${TODAY}&days=x`, 'days', 'not a number'],
    [`?today=${TODAY}&days=1.5`, 'days', 'not whole'],
    [`?today=${TODAY}&days=-1`, 'days', 'negative'],
    [`?today=${TODAY}&days=`, 'days', 'empty'],
  ])('refuses %p (%s: %s) with a 400 naming the field, and changes nothing', async (query, field) => {
    await add('due today', TODAY);
    const before = await list();
    const answer = await call('GET', `/todo/agenda${query}`);
    expect(answer.status).toBe(400);
    const body = ErrorBody.parse(answer.body);
    expect(body.code).toBe(ErrorCode.validation);
    expect(body.issues?.map((issue) => issue.path)).toEqual([[field]]);
    expect(body.message.toLowerCase()).toContain(field);
    expect(await list()).toEqual(before);
  });

  test('only reads: the list and the change feed stay where they were', async () => {
    await add('due today', TODAY);
    const before = await list();
    await agenda(`?today=${TODAY}&days=31`);
    expect(await list()).toEqual(before);
  });
});

test('a file from before the agenda gains its index in place, and answers from it', async () => {
  await add('due today', TODAY);
  await service.stop();
  // The file as a version without the agenda left it: no index of open dated tasks.
  const db = new Database(path.join(dir.dir, SQLITE_FILE));
  db.exec('DROP INDEX todos_user_open_due');
  db.close();
  service = await startTestService({ dataDir: dir.dir });
  expect(titlesOf(await agenda(`?today=${TODAY}`))).toEqual({ overdue: [], days: [[TODAY, ['due today']]] });
  const reopened = new Database(path.join(dir.dir, SQLITE_FILE), { readonly: true });
  try {
    const plan = reopened.prepare("EXPLAIN QUERY PLAN SELECT id FROM todos WHERE user_id = ? AND completed = 0 AND due IS NOT NULL AND deleted_at IS NULL AND due < ?").all(ALICE, TODAY);
    expect(JSON.stringify(plan)).toContain('todos_user_open_due');
  } finally {
    reopened.close();
  }
});
