import { ObjectId } from 'bson';
import type { TodoChangeEvent} from '@tm/contracts';
import { ImportRefusal, ImportResponse, TodoResponse, TodosResponse, TransferDocument, type Todo } from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall } from '@tm/test-support';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Import and export (docs/PRODUCT.md §10.23) over real HTTP against the real service and its SQLite file: the
// JSON export imported into a fresh account gives the same tasks, lists, labels, notes and subtasks; a Todoist
// CSV's priorities, labels, subtasks, notes, sections and dates; wrong columns and a bad row among good ones are
// refused with every problem named and nothing written; nobody else's tasks are exported; a formula in a cell is
// written as text.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;

beforeEach(async () => {
  dir = tempDir('svc-todos-transfer-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const callAs = (userId: string, request: SignedCall): Promise<CallResult> => signedCall(service.url, { userId, ...request });
const listOf = async (userId: string) => TodosResponse.parse((await callAs(userId, { path: '/todo/fetch-todo' })).body);
async function add(userId: string, body: Record<string, unknown>): Promise<Todo> {
  const answer = await callAs(userId, { method: 'POST', path: '/todo/add-todo', body });
  expect(answer.status).toBe(201);
  return TodoResponse.parse(answer.body).todo;
}
const importFile = (userId: string, fileName: string, content: string, dryRun?: boolean) =>
  callAs(userId, { method: 'POST', path: '/todo/import', body: { fileName, content, ...(dryRun === undefined ? {} : { dryRun }) } });

/** A Todoist project's CSV export, as Todoist writes one (newer columns, a meta row, blank rows between items). */
const TODOIST = [
  'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG',
  'meta,view_style,list,,,,,,,,,,,',
  'task,Buy milk @errand @Home,"Semi-skimmed,\nnot the oat one",1,1,Ann (123),,2026-12-24,en,Europe/Paris,,,,',
  ',,,,,,,,,,,,,',
  'task,Eggs,,4,2,Ann (123),,,en,Europe/Paris,,,,',
  'task,Bread,,4,2,Ann (123),,,en,Europe/Paris,,,,',
  "note,Ask for the bakery's rye,,,,Ann (123),,,,,,,,",
  ',,,,,,,,,,,,,',
  'task,Call the plumber,,2,1,Ann (123),,every monday,en,Europe/Paris,,,,',
  ',,,,,,,,,,,,,',
  'section,Weekend,,,,,,,,,,,,',
  'task,Clean the bikes @garage,,3,1,Ann (123),,2026-12-26 10:30,en,Europe/Paris,,,,',
].join('\n');

describe('export', () => {
  test('JSON: a versioned document of the lists, tasks and history, downloaded with a dated file name; only the caller’s', async () => {
    const work = (await callAs(ALICE, { method: 'POST', path: '/todo/lists', body: { name: 'Work', colour: 'blue' } })).body as { list: { _id: string } };
    const task = await add(ALICE, { title: 'Report', listId: work.list._id, priority: 1, labels: ['office'], note: 'Due Friday', subtasks: [{ id: 'a', title: 'Draft', done: true }] });
    await callAs(ALICE, { method: 'PUT', path: `/todo/update-todo/${task._id}`, body: { updateData: { isPinned: true } } });
    await add(BOB, { title: 'Bob’s secret' });

    const answer = await callAs(ALICE, { path: '/todo/export?format=json' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="task-manager-\d{4}-\d{2}-\d{2}\.json"$/);
    const document = TransferDocument.parse(answer.body);
    expect(document).toMatchObject({ format: 'task-manager', version: 1 });
    expect(document.lists.map((list) => list.name)).toEqual(['Work']);
    expect(document.tasks).toEqual([expect.objectContaining({ title: 'Report', isPinned: true, priority: 1, labels: ['office'], note: 'Due Friday', subtasks: [{ id: 'a', title: 'Draft', done: true }] })]);
    expect(document.history).toEqual([expect.objectContaining({ todoId: task._id, field: 'isPinned', before: false, after: true })]);
    expect(JSON.stringify(document)).not.toContain('Bob’s secret');
  });

  test('CSV: one row per task under clear columns, RFC 4180 quoting, and a formula written as text', async () => {
    await add(ALICE, { title: '=HYPERLINK("http://evil.example","click")', labels: ['a', 'b'], priority: 2, due: '2026-12-24' });
    await add(ALICE, { title: 'Plain, with a comma', note: '@SUM(A1)\nsecond line' });
    await add(BOB, { title: 'Not Alice’s' });
    const answer = await callAs(ALICE, { path: '/todo/export?format=csv' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/filename="task-manager-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = String(answer.body).replace(/^\uFEFF/, '');
    const [header, ...rows] = text.split('\r\n');
    expect(header).toBe('List,Title,Note,Subtasks,Done,Pinned,Due,Repeat,Priority,Labels,Created,Completed');
    expect(text).toContain(`Inbox,"'=HYPERLINK(""http://evil.example"",""click"")",,,no,no,2026-12-24,,P2,a b,`);
    expect(text).toContain(`Inbox,"Plain, with a comma","'@SUM(A1)\nsecond line",`);
    expect(text).not.toContain('Not Alice’s');
    expect(rows.filter((row) => row.startsWith('Inbox,'))).toHaveLength(2);
  });

  test('a format that is neither json nor csv is a 400 naming it', async () => {
    const answer = await callAs(ALICE, { path: '/todo/export?format=xml' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', issues: [expect.objectContaining({ path: ['format'] })] });
  });
});

describe('import', () => {
  test('our JSON round-trips into a fresh account: the same tasks, lists, labels, notes and subtasks, in one event', async () => {
    const work = (await callAs(ALICE, { method: 'POST', path: '/todo/lists', body: { name: 'Work', colour: 'teal' } })).body as { list: { _id: string } };
    await add(ALICE, { title: 'Inbox task', due: '2026-12-24T09:00', repeat: 'FREQ=WEEKLY', reminders: [10] });
    await add(ALICE, { title: 'Work task', listId: work.list._id, priority: 2, labels: ['Office', 'call'], note: 'Ring first', subtasks: [{ id: 's1', title: 'Find number', done: false }] });
    const exported = TransferDocument.parse((await callAs(ALICE, { path: '/todo/export?format=json' })).body);

    const dry = await importFile(BOB, 'task-manager-2026-12-07.json', JSON.stringify(exported), true);
    expect(ImportResponse.parse(dry.body)).toMatchObject({ dryRun: true, tasks: 2, lists: 2, newLists: ['Work'], message: '2 tasks in 2 lists' });
    expect((await listOf(BOB)).todos).toEqual([]);

    const answer = await callAs(BOB, { method: 'POST', path: '/todo/import', body: { fileName: 'task-manager-2026-12-07.json', content: JSON.stringify(exported) }, headers: { 'X-Client-Id': 'importing-page' } });
    expect([answer.status, answer.body]).toEqual([200, expect.objectContaining({ message: 'Imported 2 tasks into 2 lists.', tasks: 2 })]);
    const bob = await listOf(BOB);
    const strip = ({ _id: _a, updatedAt: _u, listId: _l, ...rest }: Todo) => rest;
    expect(bob.todos.map(strip)).toEqual(exported.tasks.map(strip));
    expect(bob.lists.map(({ name, colour }) => ({ name, colour }))).toEqual([{ name: 'Work', colour: 'teal' }]);
    expect(bob.todos.find((todo) => todo.title === 'Work task')?.listId).toBe(bob.lists[0]?._id);
    // One change event for the whole import.
    const changes = (await callAs(BOB, { path: '/todo/changes?after=0' })).body as { changes: TodoChangeEvent[] };
    expect(changes.changes).toHaveLength(1);
    // No origin: the importing page's own task screen takes the tasks from the event too.
    expect(changes.changes[0]?.origin).toBeNull();
    expect(changes.changes[0]?.saved).toHaveLength(2);
  });

  test('a Todoist CSV: the project a list, sections lists, priorities, labels, subtasks, notes, ISO dates due and others kept as text', async () => {
    const answer = await importFile(ALICE, 'Groceries.csv', TODOIST);
    expect(answer.status).toBe(200);
    const result = ImportResponse.parse(answer.body);
    expect(result).toMatchObject({ tasks: 3, lists: 2, newLists: ['Groceries', 'Groceries / Weekend'], message: 'Imported 3 tasks into 2 lists.' });
    expect(result.keptAsText).toEqual([expect.objectContaining({ line: 10, field: 'DATE', message: expect.stringContaining('every monday') })]);
    const { todos, lists } = await listOf(ALICE);
    const listName = (todo: Todo | undefined) => lists.find((list) => list._id === todo?.listId)?.name;
    const milk = todos.find((todo) => todo.title === 'Buy milk');
    expect(milk).toMatchObject({ priority: 1, labels: ['errand', 'Home'], due: '2026-12-24', note: "Semi-skimmed,\nnot the oat one\n\nAsk for the bakery's rye" });
    expect(milk?.subtasks?.map(({ title, done }) => ({ title, done }))).toEqual([{ title: 'Eggs', done: false }, { title: 'Bread', done: false }]);
    expect(listName(milk)).toBe('Groceries');
    const plumber = todos.find((todo) => todo.title === 'Call the plumber');
    expect(plumber).toMatchObject({ priority: 2, note: 'Todoist date: every monday' });
    expect(plumber?.due).toBeUndefined();
    const bikes = todos.find((todo) => todo.title === 'Clean the bikes');
    expect(bikes).toMatchObject({ priority: 3, labels: ['garage'], due: '2026-12-26T10:30' });
    expect(listName(bikes)).toBe('Groceries / Weekend');
    // The file's order: its first task first (all made at one time).
    expect(todos.map((todo) => todo.title)).toEqual(['Buy milk', 'Call the plumber', 'Clean the bikes']);
  });

  test('a second import of the same project goes into the list it made (case aside), not a new one', async () => {
    await callAs(ALICE, { method: 'POST', path: '/todo/lists', body: { name: 'groceries' } });
    const answer = await importFile(ALICE, 'Groceries.csv', 'TYPE,CONTENT,PRIORITY\ntask,Apples,4\n');
    expect(ImportResponse.parse(answer.body)).toMatchObject({ tasks: 1, newLists: [] });
    const { todos, lists } = await listOf(ALICE);
    expect(lists.map((list) => list.name)).toEqual(['groceries']);
    expect(todos[0]?.listId).toBe(lists[0]?._id);
  });

  test('a CSV with the wrong columns is a 400 naming them, and nothing changes', async () => {
    await add(ALICE, { title: 'Kept' });
    const answer = await importFile(ALICE, 'tasks.csv', 'Name,When\nMilk,tomorrow\n');
    expect(answer.status).toBe(400);
    const refusal = ImportRefusal.parse(answer.body);
    expect(refusal.problems).toEqual([expect.objectContaining({ line: 1, field: 'columns', message: expect.stringContaining('no TYPE and CONTENT columns (its columns: NAME, WHEN)') })]);
    expect((await listOf(ALICE)).todos.map((todo) => todo.title)).toEqual(['Kept']);
  });

  test('a bad row among good ones: every problem with its line and field, and not one task or list written', async () => {
    await add(ALICE, { title: 'Before' });
    const before = await listOf(ALICE);
    const file = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,DATE',
      'task,Good one,,1,1,',
      'task,Bad priority,,7,1,',
      'task,Bad date,,4,1,2026-02-30',
      'task,,,4,1,',
      'task,Bad label @has:colon,,4,1,',
      'frobnicate,What,,,,',
      'task,Good two,,4,1,',
    ].join('\n');
    const answer = await importFile(ALICE, 'Mixed.csv', file);
    expect(answer.status).toBe(400);
    const refusal = ImportRefusal.parse(answer.body);
    expect(refusal.message).toBe('The file has 5 problems; nothing was imported.');
    expect(refusal.problemCount).toBe(5);
    expect(refusal.problems.map(({ line, field }) => [line, field])).toEqual([
      [3, 'PRIORITY'],
      [4, 'DATE'],
      [5, 'CONTENT'],
      [6, 'CONTENT'],
      [7, 'TYPE'],
    ]);
    const after = await listOf(ALICE);
    expect(after.todos).toEqual(before.todos);
    expect(after.lists).toEqual([]);
    expect(after.cursor).toBe(before.cursor);
  });

  test('a JSON of ours with a bad task names its path, and writes nothing; a JSON of another app is named as such', async () => {
    const document = { format: 'task-manager', version: 1, exportedAt: new Date().toISOString(), lists: [], tasks: [{ title: 'ok' }, { title: '   ', labels: ['no spaces allowed'] }], history: [] };
    const answer = await importFile(BOB, 'mine.json', JSON.stringify(document));
    expect(answer.status).toBe(400);
    expect(ImportRefusal.parse(answer.body).problems.map(({ path }) => path)).toEqual(['tasks[1].title', 'tasks[1].labels.0']);
    const other = await importFile(BOB, 'other.json', JSON.stringify({ items: [] }));
    expect(ImportRefusal.parse(other.body).problems).toEqual([expect.objectContaining({ field: 'format' })]);
    expect((await listOf(BOB)).todos).toEqual([]);
  });

  test('under an Idempotency-Key an import is applied once: a retry answers as the first did; the key with another file is refused', async () => {
    const headers = { 'Idempotency-Key': 'import-once-1' };
    const body = { fileName: 'Once.csv', content: 'TYPE,CONTENT\ntask,Only once\n' };
    const first = await callAs(ALICE, { method: 'POST', path: '/todo/import', body, headers });
    const retry = await callAs(ALICE, { method: 'POST', path: '/todo/import', body, headers });
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.body).toEqual(first.body);
    expect((await listOf(ALICE)).todos.map((todo) => todo.title)).toEqual(['Only once']);
    const other = await callAs(ALICE, { method: 'POST', path: '/todo/import', body: { ...body, content: 'TYPE,CONTENT\ntask,Another\n' }, headers });
    expect([other.status, (other.body as { code: string }).code]).toEqual([422, 'TODO.IDEMPOTENCY_KEY_REUSED']);
    expect((await listOf(ALICE)).todos).toHaveLength(1);
  });

  test('our own CSV export is told apart: import the JSON instead', async () => {
    await add(ALICE, { title: 'Row' });
    const csv = String((await callAs(ALICE, { path: '/todo/export?format=csv' })).body);
    const answer = await importFile(ALICE, 'task-manager.csv', csv);
    expect(answer.status).toBe(400);
    expect(ImportRefusal.parse(answer.body).problems[0]?.message).toContain('import the JSON export instead');
  });
});
