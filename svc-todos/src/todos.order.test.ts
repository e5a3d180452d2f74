import { ObjectId } from 'bson';
import {
  ChangesResponse,
  ErrorBody,
  ErrorCode,
  HistoryResponse,
  LIST_ORDER_MESSAGE,
  orderKeyBetween,
  placeBetween,
  SyncResponse,
  TEMP_ID_PREFIX,
  UPDATE_MESSAGES,
  type SyncCommand,
  type Todo,
} from '@tm/contracts';
import { tempDir } from '@tm/test-support';
import { taskCalls } from './todos.calls.test-helpers.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// A person's own order (docs/PRODUCT.md §10.24) over real HTTP against the real service and its SQLite file:
// a move writes the moved task's order key only, in one request; the list answers pinned first, then by key,
// the tasks nobody moved newest first among them; two moves at once to one place both stand, the higher id
// first; a bad key is refused naming `order`, nothing changed; a client that never sends a key sees the spec's
// list (§2, §7).

const ALICE = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;
let clock = Date.parse('2026-03-01T09:00:00.000Z');

beforeEach(async () => {
  dir = tempDir('svc-todos-order-');
  // Each task a second after the one before: "newest first" is then the reverse of the order of adding.
  service = await startTestService({ dataDir: dir.dir, now: () => new Date((clock += 1000)) });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const alice = taskCalls(() => service.url, ALICE);
const { call, updateCall, update } = alice;
const list = async () => (await alice.list()).todos;
const titles = async () => (await list()).map((todo) => todo.title);
const add = (title: string): Promise<Todo> => alice.add({ title });

/** The key that puts `moved` at `index` among the other tasks of the list as it is (placeBetween, as the device does). */
async function keyAt(moved: Todo, index: number): Promise<string> {
  const others = (await list()).filter((todo) => todo._id !== moved._id && todo.isPinned === moved.isPinned);
  const { before, after } = placeBetween(others, index);
  return orderKeyBetween(before, after);
}

/** Adds A…E (E newest): the list reads E D C B A. */
async function five(): Promise<Record<string, Todo>> {
  const tasks: Record<string, Todo> = {};
  for (const title of ['A', 'B', 'C', 'D', 'E']) tasks[title] = await add(title);
  return tasks;
}

describe('the order of tasks nobody moved (§2)', () => {
  test('pinned first, then newest first, with no order key on any task', async () => {
    const { B } = await five();
    await update(B!._id, { isPinned: true });
    expect(await titles()).toEqual(['B', 'E', 'D', 'C', 'A']);
    for (const todo of await list()) expect(todo.order).toBeUndefined();
  });
});

describe('a move (§10.24)', () => {
  test('writes the moved task only, in one request: its key, the list answers it in its place, the others untouched', async () => {
    const { A } = await five();
    const before = await list();
    const order = await keyAt(A!, 1);
    const answer = await update(A!._id, { order });
    expect(answer).toMatchObject({ message: UPDATE_MESSAGES.order.set, todo: { _id: A!._id, order } });
    expect(await titles()).toEqual(['E', 'A', 'D', 'C', 'B']);
    // Nobody else was renumbered: every other task is exactly as it was.
    const after = await list();
    expect(after.filter((todo) => todo._id !== A!._id)).toEqual(before.filter((todo) => todo._id !== A!._id));
    // The store's list and its JSON answer agree, and the history and the change feed carry the move.
    expect((await service.store.list(ALICE)).todos).toEqual(after);
    const history = HistoryResponse.parse((await call({ path: `/todo/history/${A!._id}` })).body).entries;
    expect(history.map(({ field, before: was, after: is }) => [field, was, is])).toEqual([['order', null, order]]);
    const feed = ChangesResponse.parse((await call({ path: '/todo/changes?after=0' })).body);
    expect(feed.changes.at(-1)?.saved).toEqual([answer.todo]);
  });

  test('to the top, to the end, next to a moved task; the same key again is "already there"; null puts it back', async () => {
    const { A, B, C, E } = await five();
    await update(A!._id, { order: await keyAt(A!, 0) });
    expect(await titles()).toEqual(['A', 'E', 'D', 'C', 'B']);
    await update(E!._id, { order: await keyAt(E!, 4) });
    expect(await titles()).toEqual(['A', 'D', 'C', 'B', 'E']);
    await update(C!._id, { order: await keyAt(C!, 1) });
    expect(await titles()).toEqual(['A', 'C', 'D', 'B', 'E']);
    const again = await update(C!._id, { order: (await list())[1]!.order });
    expect(again.message).toBe(UPDATE_MESSAGES.already.order);
    await update(C!._id, { order: null });
    expect(await titles()).toEqual(['A', 'D', 'C', 'B', 'E']);
    // A pin still comes first, whatever the keys.
    await update(B!._id, { isPinned: true });
    expect(await titles()).toEqual(['B', 'A', 'D', 'C', 'E']);
  });

  test('two devices moving two tasks to the same place at once: both stand, the higher id first, and a later move between them still fits', async () => {
    const { A, B } = await five();
    const order = await keyAt(A!, 1);
    const answers = await Promise.all([updateCall(A!._id, { order }), updateCall(B!._id, { order })]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const [first, second] = A!._id > B!._id ? ['A', 'B'] : ['B', 'A'];
    expect(await titles()).toEqual(['E', first, second, 'D', 'C']);
    // C placed between the two tied tasks goes right after them (no key lies between equal keys).
    const C = (await list()).find((todo) => todo.title === 'C')!;
    await update(C._id, { order: await keyAt(C, 2) });
    expect(await titles()).toEqual(['E', first, second, 'C', 'D']);
  });

  test('the sync call carries a move made offline, applied once', async () => {
    const { A } = await five();
    const commands: SyncCommand[] = [{ id: 'order-move-1', method: 'PUT', path: `/todo/update-todo/${A!._id}`, body: { updateData: { order: await keyAt(A!, 0) } } }];
    const send = async () => SyncResponse.parse((await call({ method: 'POST', path: '/todo/sync', body: { commands } })).body).results;
    const results = await send();
    expect(results.map((result) => result.status)).toEqual([200]);
    expect(await titles()).toEqual(['A', 'E', 'D', 'C', 'B']);
    const { cursor } = await service.store.feedPosition(ALICE);
    expect(await send()).toEqual(results);
    expect((await service.store.feedPosition(ALICE)).cursor).toBe(cursor);
  });
});

describe('a bad move', () => {
  const BAD: [string, unknown][] = [
    ['empty', ''],
    ['a space', 'a0 '],
    ['a trailing zero', 'a00'],
    ['not base 62', 'a0~'],
    ['too long', `a0${'V'.repeat(200)}`],
    ['a number', 5],
    ['an object', { before: 'x' }],
  ];
  test.each(BAD)('%s: 400 naming order, nothing changed', async (_, order) => {
    const { A } = await five();
    const before = await list();
    const { cursor } = await service.store.feedPosition(ALICE);
    const answer = await updateCall(A!._id, { order });
    expect(answer.status).toBe(400);
    const body = ErrorBody.parse(answer.body);
    expect(body.code).toBe(ErrorCode.validation);
    expect(body.issues?.map(({ path }) => path.join('.'))).toEqual(['updateData.order']);
    if (typeof order === 'string') expect(body.issues?.[0]?.message).toBe(LIST_ORDER_MESSAGE);
    expect(await list()).toEqual(before);
    expect((await service.store.feedPosition(ALICE)).cursor).toBe(cursor);
  });

  test('a move of a task that is not there: 404, nothing changed', async () => {
    await five();
    const before = await list();
    const answer = await updateCall(new ObjectId().toHexString(), { order: 'a0' });
    expect(answer.status).toBe(404);
    expect(await list()).toEqual(before);
  });

  test('a move of a task added offline that never arrived: the sync call answers it alone with 404', async () => {
    await five();
    const commands: SyncCommand[] = [{ id: 'order-lost-1', method: 'PUT', path: `/todo/update-todo/${TEMP_ID_PREFIX}nothing`, body: { updateData: { order: 'a0' } } }];
    const results = SyncResponse.parse((await call({ method: 'POST', path: '/todo/sync', body: { commands } })).body).results;
    expect(results.map((result) => result.status)).not.toContain(200);
  });
});

describe('a client that never sends a key (§7)', () => {
  test('sees no order on its tasks, and the tasks nobody moved keep pinned first, newest first, around a moved one', async () => {
    const { A, C } = await five();
    await update(C!._id, { isPinned: true });
    await update(A!._id, { order: await keyAt(A!, 2) });
    const raw = (await call({ path: '/todo/fetch-todo' })).body as { todos: Record<string, unknown>[] };
    expect(raw.todos.map((todo) => todo.title)).toEqual(['C', 'E', 'D', 'A', 'B']);
    expect(raw.todos.filter((todo) => 'order' in todo).map((todo) => todo.title)).toEqual(['A']);
    const added = await add('F');
    expect(Object.keys(added)).not.toContain('order');
    expect(await titles()).toEqual(['C', 'F', 'E', 'D', 'A', 'B']);
  });
});
