import { ObjectId } from 'bson';
import Database from 'better-sqlite3';
import path from 'node:path';
import {
  ErrorBody,
  ErrorCode,
  LIMITS,
  ListResponse,
  SEARCH_QUERY_EMPTY_MESSAGE,
  SEARCH_QUERY_TOO_LONG_MESSAGE,
  SEARCH_RESULTS_MAX,
  SearchResponse,
  TodoResponse,
  TodosResponse,
  type Todo,
} from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall } from '@tm/test-support';
import { SQLITE_FILE } from './sqlite-todos.store.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Search (docs/PRODUCT.md §10.22) over real HTTP against the real service and its SQLite file (the FTS5 index
// and its triggers): matches in the title, the note and the subtasks, the last word as a prefix, accents and
// case aside, ranked; only the caller's live tasks; the task screen's filters together; bad input a 400 naming
// the field; a file from before search gains the index, filled once.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;

beforeEach(async () => {
  dir = tempDir('svc-todos-search-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const callAs = (userId: string, request: SignedCall): Promise<CallResult> => signedCall(service.url, { userId, ...request });
const call = (request: SignedCall): Promise<CallResult> => callAs(ALICE, request);

async function add(body: Record<string, unknown>, userId = ALICE): Promise<Todo> {
  const answer = await callAs(userId, { method: 'POST', path: '/todo/add-todo', body });
  expect([answer.status, answer.body]).toEqual([201, expect.anything()]);
  return TodoResponse.parse(answer.body).todo;
}
async function update(id: string, updateData: Record<string, unknown>): Promise<void> {
  expect((await call({ method: 'PUT', path: `/todo/update-todo/${id}`, body: { updateData } })).status).toBe(200);
}
const searchCall = (params: Record<string, string>, userId = ALICE) => callAs(userId, { path: `/todo/search?${new URLSearchParams(params).toString()}` });
async function search(params: Record<string, string>, userId = ALICE): Promise<SearchResponse> {
  const answer = await searchCall(params, userId);
  expect([answer.status, answer.body]).toEqual([200, expect.anything()]);
  return SearchResponse.parse(answer.body);
}
/** The titles a search answers, in its order. */
const titles = async (q: string, filters: Record<string, string> = {}, userId = ALICE) => (await search({ q, ...filters }, userId)).todos.map((todo) => todo.title);

/** A 400's issues, each as its path joined with dots and its message. */
function refusal(answer: CallResult): { path: string; message: string }[] {
  expect(answer.status).toBe(400);
  const body = ErrorBody.parse(answer.body);
  expect(body.code).toBe(ErrorCode.validation);
  return (body.issues ?? []).map(({ path: where, message }) => ({ path: where.join('.'), message }));
}

const subtask = (id: string, title: string, done = false) => ({ id, title, done });

describe('what a search finds (§10.22)', () => {
  test('a word of the title, of the note or of a subtask; every word must be there, each answered as the contracts’ Todo', async () => {
    await add({ title: 'Buy oat milk' });
    await add({ title: 'Weekend', note: 'Farmers market\nremember the milk crate' });
    await add({ title: 'Party', subtasks: [subtask('s1', 'Balloons'), subtask('s2', 'Milk for the punch', true)] });
    await add({ title: 'Call the bank' });
    expect((await titles('milk')).sort()).toEqual(['Buy oat milk', 'Party', 'Weekend']);
    expect(await titles('milk crate')).toEqual(['Weekend']);
    expect(await titles('balloons punch')).toEqual(['Party']);
    expect(await titles('milk bank')).toEqual([]);
    const [found] = (await search({ q: 'bank' })).todos;
    expect(Object.keys(found ?? {}).sort()).toEqual(['_id', 'completed', 'completedAt', 'createdAt', 'isPinned', 'title', 'updatedAt']);
  });

  test('the last word as the start of a word while it is typed, the others whole; case, accents and punctuation aside', async () => {
    await add({ title: 'Café crème with Zoë' });
    await add({ title: 'Milkshake' });
    expect(await titles('m')).toEqual(['Milkshake']);
    expect(await titles('MILKS')).toEqual(['Milkshake']);
    expect(await titles('milks shake')).toEqual([]);
    expect(await titles('cafe')).toEqual(['Café crème with Zoë']);
    expect(await titles('CAFÉ CREME zo')).toEqual(['Café crème with Zoë']);
    // FTS5 syntax typed in the field is only words: quotes, stars, OR, NOT, a column name, a colon.
    expect(await titles('"cafe" OR* title:')).toEqual([]);
    expect(await titles('cafe)(*"')).toEqual(['Café crème with Zoë']);
  });

  test('best match first (a word in the title before one in the note), then pinned, then newest', async () => {
    const inNote = await add({ title: 'Errands', note: 'stamps' });
    await add({ title: 'Stamps for letters' });
    const older = await add({ title: 'Old stamps' });
    const pinned = await add({ title: 'Pinned stamps' });
    await update(pinned._id, { isPinned: true });
    const order = await titles('stamps');
    expect(order.at(-1)).toBe(inNote.title);
    expect(order.indexOf('Pinned stamps')).toBeLessThan(order.indexOf(older.title));
  });

  test("another person's tasks never appear, nor deleted ones; a restored or edited task is found as it now is", async () => {
    await add({ title: 'Secret plan' }, BOB);
    const mine = await add({ title: 'My plan', note: 'draft' });
    expect(await titles('plan')).toEqual(['My plan']);
    expect(await titles('secret')).toEqual([]);
    expect(await titles('plan', {}, BOB)).toEqual(['Secret plan']);
    expect((await call({ method: 'DELETE', path: `/todo/delete-todo/${mine._id}` })).status).toBe(200);
    expect(await titles('plan')).toEqual([]);
    expect((await call({ method: 'POST', path: `/todo/restore-todo/${mine._id}` })).status).toBe(200);
    expect(await titles('draft')).toEqual(['My plan']);
    await update(mine._id, { title: 'My scheme', note: null });
    expect(await titles('plan')).toEqual([]);
    expect(await titles('draft')).toEqual([]);
    expect(await titles('scheme')).toEqual(['My scheme']);
    await update(mine._id, { completed: true });
    expect(await titles('scheme')).toEqual(['My scheme']);
  });

  test(`at most ${SEARCH_RESULTS_MAX} tasks, and how many more matched`, async () => {
    const commands = Array.from({ length: SEARCH_RESULTS_MAX + 5 }, (_, index) => ({ id: `add-${index}`, method: 'POST', path: '/todo/add-todo', body: { title: `Step ${index}` } }));
    expect((await call({ method: 'POST', path: '/todo/sync', body: { commands } })).status).toBe(200);
    const answer = await search({ q: 'step' });
    expect([answer.todos.length, answer.more]).toEqual([SEARCH_RESULTS_MAX, 5]);
    expect(answer.todos[0]?.title).toBe(`Step ${SEARCH_RESULTS_MAX + 4}`);
  });
});

describe('the filters narrow the matches, all together (§10.22)', () => {
  test('list (or the Inbox), status, priority, label and due date, on the person’s clock', async () => {
    const work = ListResponse.parse((await call({ method: 'POST', path: '/todo/lists', body: { name: 'Work' } })).body).list;
    await add({ title: 'Report draft', listId: work._id, priority: 1, labels: ['office'], due: '2026-12-06' });
    const done = await add({ title: 'Report sent', listId: work._id, labels: ['office'], due: '2026-12-08' });
    await update(done._id, { completed: true });
    await add({ title: 'Report to read at home', due: '2026-12-07T09:00' });
    const now = '2026-12-07T10:00';
    const sorted = async (filters: Record<string, string>) => (await titles('report', { now, ...filters })).sort();
    expect(await sorted({ listId: work._id })).toEqual(['Report draft', 'Report sent']);
    expect(await sorted({ listId: 'inbox' })).toEqual(['Report to read at home']);
    expect(await sorted({ status: 'completed' })).toEqual(['Report sent']);
    expect(await sorted({ status: 'active', listId: work._id })).toEqual(['Report draft']);
    expect(await sorted({ priority: '1' })).toEqual(['Report draft']);
    expect(await sorted({ priority: '4' })).toEqual(['Report sent', 'Report to read at home']);
    expect(await sorted({ label: 'OFFICE', status: 'active' })).toEqual(['Report draft']);
    expect(await sorted({ due: 'overdue' })).toEqual(['Report draft', 'Report to read at home']);
    expect(await sorted({ due: 'today' })).toEqual(['Report to read at home']);
    expect(await sorted({ due: 'week' })).toEqual(['Report sent', 'Report to read at home']);
    expect(await sorted({ due: 'none' })).toEqual([]);
    expect((await search({ q: 'report', listId: work._id, label: 'office', priority: '2' })).more).toBe(0);
  });
});

describe('bad input (§10.22)', () => {
  test('no q, a q without a word or too long, and a filter that is none of its values: 400 naming the field, nothing read', async () => {
    await add({ title: 'Anything' });
    expect(refusal(await call({ path: '/todo/search' }))).toEqual([{ path: 'q', message: SEARCH_QUERY_EMPTY_MESSAGE }]);
    expect(refusal(await searchCall({ q: '  "*  ' }))).toEqual([{ path: 'q', message: SEARCH_QUERY_EMPTY_MESSAGE }]);
    expect(refusal(await searchCall({ q: 'a'.repeat(LIMITS.searchQuery.max + 1) }))).toEqual([{ path: 'q', message: SEARCH_QUERY_TOO_LONG_MESSAGE }]);
    for (const [name, value] of [['listId', 'work'], ['status', 'done'], ['priority', '0'], ['label', 'two words'], ['due', 'soon'], ['now', 'tomorrow']] as const) {
      expect([name, refusal(await searchCall({ q: 'anything', [name]: value })).map((issue) => issue.path)]).toEqual([name, [name]]);
    }
    expect(TodosResponse.parse((await call({ path: '/todo/fetch-todo' })).body).todos.map((todo) => todo.title)).toEqual(['Anything']);
  });
});

describe('a file from before search (§10.22)', () => {
  test('gains the index at its next opening, filled once with its live tasks; writes keep it in step after', async () => {
    await add({ title: 'Kept task', note: 'with a note' });
    const gone = await add({ title: 'Deleted task' });
    expect((await call({ method: 'DELETE', path: `/todo/delete-todo/${gone._id}` })).status).toBe(200);
    await service.stop();
    // The file as a version without search left it: no index, no triggers.
    const db = new Database(path.join(dir.dir, SQLITE_FILE));
    db.exec('DROP TRIGGER todos_search_insert; DROP TRIGGER todos_search_update; DROP TRIGGER todos_search_delete; DROP TABLE todos_search;');
    db.close();
    service = await startTestService({ dataDir: dir.dir });
    expect(await titles('note')).toEqual(['Kept task']);
    expect(await titles('deleted')).toEqual([]);
    await add({ title: 'Another task' });
    expect((await titles('task')).sort()).toEqual(['Another task', 'Kept task']);
  });
});
