import { ObjectId } from 'bson';
import {
  BulkTodosResponse,
  ChangesResponse,
  DeleteListResponse,
  ErrorBody,
  ErrorCode,
  LIMITS,
  LIST_COLOUR_MESSAGE,
  LIST_NAME_EMPTY_MESSAGE,
  LIST_NAME_INBOX_MESSAGE,
  LIST_NAME_TOO_LONG_MESSAGE,
  LIST_ORDER_MESSAGE,
  ListResponse,
  LISTS_FULL_MESSAGE,
  listNameTakenMessage,
  orderKeyBetween,
  RestoreBulkResponse,
  StreamPosition,
  SyncResponse,
  TEMP_ID_PREFIX,
  TodoChangeEvent,
  TodoResponse,
  TodosResponse,
  UpdateTodoResponse,
  type SyncCommand,
  type TaskList,
  type Todo,
} from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall } from '@tm/test-support';
import { z } from 'zod';
import { NO_SUCH_LIST_MESSAGE } from './todos.domain.js';
import { openEventStream, startTestService, type EventStreamClient, type TestService } from './todos.test-helpers.js';

// Lists of tasks (docs/PRODUCT.md §10.19) over real HTTP against the real service and its SQLite file: the
// list calls and their refusals, a list's delete and its undo, the tasks' listId, the bulk calls scoped to a
// list, the live stream, the sync call with temporary list ids, and a client that knows nothing of lists.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();
// Strict: an error body carries nothing else.
const StrictErrorBody = z.strictObject(ErrorBody.shape);

let dir: ReturnType<typeof tempDir>;
let service: TestService;
const streams: EventStreamClient[] = [];

beforeEach(async () => {
  dir = tempDir('svc-todos-lists-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await service.stop();
  dir.remove();
});

const call = (request: SignedCall, userId = ALICE): Promise<CallResult> => signedCall(service.url, { userId, ...request });
const fetchAll = async (userId = ALICE) => TodosResponse.strict().parse((await call({ path: '/todo/fetch-todo' }, userId)).body);

async function createList(body: Record<string, unknown>, userId = ALICE): Promise<TaskList> {
  const response = await call({ method: 'POST', path: '/todo/lists', body }, userId);
  expect(response.status).toBe(201);
  const answer = ListResponse.strict().parse(response.body);
  expect(answer.message).toBe('List created');
  return answer.list;
}

async function addTask(title: string, listId?: string, userId = ALICE): Promise<Todo> {
  const response = await call({ method: 'POST', path: '/todo/add-todo', body: listId === undefined ? { title } : { title, listId } }, userId);
  expect(response.status).toBe(201);
  return TodoResponse.parse(response.body).todo;
}

/** A refusal: its status and code, its issues' fields, and that nothing else is in the body. */
function refusal(response: CallResult): { status: number; code: string | undefined; fields: unknown[]; body: ErrorBody } {
  const body = StrictErrorBody.parse(response.body);
  return { status: response.status, code: body.code, fields: (body.issues ?? []).map((issue) => issue.path.join('.')), body };
}

/** What the store holds, and where the feed stands: a refused call must leave both as they were. */
const snapshot = async (userId = ALICE) => ({ list: await service.store.list(userId), feed: await service.store.feedPosition(userId) });

describe('POST /todo/lists, PUT and DELETE /todo/lists/:listId', () => {
  test('each bad input is a clear 4xx naming its field, and changes nothing', async () => {
    const work = await createList({ name: 'Work' });
    const bobs = await createList({ name: 'Bob’s' }, BOB);
    const before = await snapshot();
    const cases: Array<[SignedCall, { status: number; code: string; fields: string[]; message?: string }]> = [
      [{ method: 'POST', path: '/todo/lists', body: { name: '' } }, { status: 400, code: ErrorCode.validation, fields: ['name'], message: LIST_NAME_EMPTY_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: { name: '  \u200b ' } }, { status: 400, code: ErrorCode.validation, fields: ['name'], message: LIST_NAME_EMPTY_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: { name: 'x'.repeat(61) } }, { status: 400, code: ErrorCode.validation, fields: ['name'], message: LIST_NAME_TOO_LONG_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: { name: ' inbox ' } }, { status: 400, code: ErrorCode.validation, fields: ['name'], message: LIST_NAME_INBOX_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: {} }, { status: 400, code: ErrorCode.validation, fields: ['name'] }],
      [{ method: 'POST', path: '/todo/lists', body: { name: 'wOrK' } }, { status: 409, code: ErrorCode.listNameTaken, fields: ['name'], message: listNameTakenMessage('wOrK') }],
      [{ method: 'POST', path: '/todo/lists', body: { name: 'New', colour: 'mauve' } }, { status: 400, code: ErrorCode.validation, fields: ['colour'], message: LIST_COLOUR_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: { name: 'New', order: 'a0 ' } }, { status: 400, code: ErrorCode.validation, fields: ['order'], message: LIST_ORDER_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: { name: 'New', order: 'x'.repeat(129) } }, { status: 400, code: ErrorCode.validation, fields: ['order'], message: LIST_ORDER_MESSAGE }],
      [{ method: 'POST', path: '/todo/lists', body: { name: 'New', archived: true } }, { status: 400, code: ErrorCode.validation, fields: [''] }],
      [{ method: 'PUT', path: `/todo/lists/${work._id}`, body: {} }, { status: 400, code: ErrorCode.validation, fields: [''] }],
      [{ method: 'PUT', path: `/todo/lists/${work._id}`, body: { colour: 'black' } }, { status: 400, code: ErrorCode.validation, fields: ['colour'] }],
      [{ method: 'PUT', path: `/todo/lists/${work._id}`, body: { order: '' } }, { status: 400, code: ErrorCode.validation, fields: ['order'] }],
      [{ method: 'PUT', path: `/todo/lists/${work._id}`, body: { name: 'Inbox' } }, { status: 400, code: ErrorCode.validation, fields: ['name'] }],
      [{ method: 'PUT', path: '/todo/lists/nope', body: { archived: true } }, { status: 400, code: ErrorCode.validation, fields: ['listId'] }],
      [{ method: 'PUT', path: `/todo/lists/${new ObjectId().toHexString()}`, body: { archived: true } }, { status: 404, code: ErrorCode.listNotFound, fields: [], message: 'List not found' }],
      [{ method: 'PUT', path: `/todo/lists/${bobs._id}`, body: { archived: true } }, { status: 404, code: ErrorCode.listNotFound, fields: [], message: 'List not found' }],
      [{ method: 'DELETE', path: `/todo/lists/${new ObjectId().toHexString()}` }, { status: 404, code: ErrorCode.listNotFound, fields: [], message: 'List not found' }],
      [{ method: 'DELETE', path: `/todo/lists/${bobs._id}` }, { status: 404, code: ErrorCode.listNotFound, fields: [], message: 'List not found' }],
      [{ method: 'POST', path: '/todo/add-todo', body: { title: 't', listId: new ObjectId().toHexString() } }, { status: 400, code: ErrorCode.validation, fields: ['listId'], message: NO_SUCH_LIST_MESSAGE }],
      [{ method: 'POST', path: '/todo/add-todo', body: { title: 't', listId: bobs._id } }, { status: 400, code: ErrorCode.validation, fields: ['listId'], message: NO_SUCH_LIST_MESSAGE }],
      [{ method: 'POST', path: '/todo/add-todo', body: { title: 't', listId: 'work' } }, { status: 400, code: ErrorCode.validation, fields: ['listId'] }],
      [{ method: 'PUT', path: '/todo/complete-all', body: { completed: true, listId: 'work' } }, { status: 400, code: ErrorCode.validation, fields: ['listId'] }],
      [{ method: 'DELETE', path: '/todo/clear-completed?listId=work' }, { status: 400, code: ErrorCode.validation, fields: ['listId'] }],
    ];
    for (const [request, expected] of cases) {
      const { status, code, fields, body } = refusal(await call(request));
      expect([request, { status, code, fields }]).toEqual([request, { status: expected.status, code: expected.code, fields: expected.fields }]);
      if (expected.message !== undefined) expect([request, body.issues?.[0]?.message ?? body.message]).toEqual([request, expected.message]);
    }
    expect(await snapshot()).toEqual(before);
    // Bob's list is untouched by Alice's calls.
    expect((await fetchAll(BOB)).lists).toEqual([bobs]);
  });

  test('update-todo naming another user\'s or an unknown list is a 400 on listId; the task stays where it was', async () => {
    const task = await addTask('Report');
    const bobs = await createList({ name: 'Bob' }, BOB);
    const before = await snapshot();
    for (const listId of [bobs._id, new ObjectId().toHexString()]) {
      const response = await call({ method: 'PUT', path: `/todo/update-todo/${task._id}`, body: { updateData: { listId, title: 'Moved?' } } });
      expect(refusal(response)).toEqual(expect.objectContaining({ status: 400, code: ErrorCode.validation, fields: ['listId'] }));
      expect(refusal(response).body.issues).toEqual([{ path: ['listId'], message: NO_SUCH_LIST_MESSAGE }]);
    }
    expect(await snapshot()).toEqual(before);
  });

  test(`the ${LIMITS.lists + 1}st list is refused with LIST.LIMIT_REACHED, and nothing is written`, async () => {
    for (let i = 0; i < LIMITS.lists; i += 1) await service.store.createList(ALICE, { name: `List ${i}` });
    const before = await snapshot();
    const response = await call({ method: 'POST', path: '/todo/lists', body: { name: 'One more' } });
    expect(refusal(response)).toEqual({ status: 409, code: ErrorCode.listsFull, fields: [], body: { message: LISTS_FULL_MESSAGE, code: ErrorCode.listsFull } });
    expect(await snapshot()).toEqual(before);
  });

  test('PUT says what it changed; a repeat answers 200 "List unchanged" and appends nothing', async () => {
    const work = await createList({ name: 'Work' });
    await createList({ name: 'Home' });
    const put = async (body: Record<string, unknown>) => {
      const response = await call({ method: 'PUT', path: `/todo/lists/${work._id}`, body });
      expect(response.status).toBe(200);
      return ListResponse.strict().parse(response.body);
    };
    expect((await put({ name: '  Job ' })).message).toBe('List renamed');
    expect((await put({ colour: 'blue' })).message).toBe('List colour changed');
    expect((await put({ order: orderKeyBetween(null, work.order) })).message).toBe('List moved');
    expect((await put({ archived: true })).message).toBe('List archived');
    expect((await put({ archived: false })).message).toBe('List restored from archive');
    expect((await put({ name: 'Work', colour: 'red' })).message).toBe('List updated');
    const { cursor } = await service.store.feedPosition(ALICE);
    const again = await put({ name: 'Work', colour: 'red' });
    expect(again).toEqual({ message: 'List unchanged', list: expect.objectContaining({ name: 'Work', colour: 'red' }) });
    expect((await service.store.feedPosition(ALICE)).cursor).toBe(cursor);
    expect(refusal(await call({ method: 'PUT', path: `/todo/lists/${work._id}`, body: { name: 'HOME' } }))).toEqual(
      expect.objectContaining({ status: 409, code: ErrorCode.listNameTaken, fields: ['name'] }),
    );
    // Archived lists still take tasks (docs/PRODUCT.md §10.19).
    await put({ archived: true });
    expect((await addTask('Filed', work._id)).listId).toBe(work._id);
  });

  test('DELETE takes the list and its tasks; restore-bulk with its token brings them back exactly', async () => {
    const work = await createList({ name: 'Work', colour: 'purple' });
    const tasks = [await addTask('one', work._id), await addTask('two', work._id)];
    await call({ method: 'PUT', path: `/todo/update-todo/${tasks[0]?._id ?? ''}`, body: { updateData: { completed: true, isPinned: true } } });
    const inbox = await addTask('stays');
    const before = await fetchAll();
    const removed = await call({ method: 'DELETE', path: `/todo/lists/${work._id}` });
    expect(removed.status).toBe(200);
    const answer = DeleteListResponse.strict().parse(removed.body);
    expect(answer).toEqual({ message: 'List deleted', count: 2, undoToken: expect.any(String) });
    const after = await fetchAll();
    expect(after.lists).toEqual([]);
    expect(after.todos).toEqual([inbox]);
    const undo = await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: answer.undoToken } });
    expect(undo.status).toBe(200);
    const restored = RestoreBulkResponse.strict().parse(undo.body);
    expect(restored.message).toBe('List restored');
    expect(restored.count).toBe(2);
    expect(restored.todos).toEqual(before.todos.filter((todo) => todo.listId === work._id));
    // The list comes back in the answer too, exactly as it was, so the page shows it without reading again.
    expect(restored.lists).toEqual(before.lists);
    expect(await fetchAll()).toEqual({ ...before, cursor: String(Number(before.cursor) + 2) });
    expect(refusal(await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: answer.undoToken } }))).toEqual(
      expect.objectContaining({ status: 404, code: ErrorCode.todoNotRestorable }),
    );
    // An empty list is deleted and restored too.
    const empty = await createList({ name: 'Empty' });
    const gone = DeleteListResponse.parse((await call({ method: 'DELETE', path: `/todo/lists/${empty._id}` })).body);
    expect(gone.count).toBe(0);
    expect(RestoreBulkResponse.parse((await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: gone.undoToken } })).body)).toEqual({
      message: 'List restored',
      count: 0,
      todos: [],
      lists: [empty],
    });
    expect((await fetchAll()).lists.map((list) => list.name)).toEqual(['Work', 'Empty']);
  });

  test('complete-all and clear-completed act on one list, or the Inbox, when told; on every task when not', async () => {
    const work = await createList({ name: 'Work' });
    const inWork = await addTask('work', work._id);
    const inInbox = await addTask('inbox');
    const done = await call({ method: 'PUT', path: '/todo/complete-all', body: { completed: true, listId: work._id } });
    expect(BulkTodosResponse.parse(done.body)).toEqual({ message: '1 task marked complete', count: 1, undoToken: expect.any(String) });
    expect((await fetchAll()).todos.map((todo) => [todo.title, todo.completed])).toEqual([
      ['inbox', false],
      ['work', true],
    ]);
    expect(BulkTodosResponse.parse((await call({ method: 'DELETE', path: '/todo/clear-completed?listId=inbox' })).body).count).toBe(0);
    expect(BulkTodosResponse.parse((await call({ method: 'PUT', path: '/todo/complete-all', body: { completed: true } })).body).count).toBe(1);
    const cleared = BulkTodosResponse.parse((await call({ method: 'DELETE', path: '/todo/clear-completed?listId=inbox' })).body);
    expect(cleared.count).toBe(1);
    expect((await fetchAll()).todos.map((todo) => todo._id)).toEqual([inWork._id]);
    expect(BulkTodosResponse.parse((await call({ method: 'DELETE', path: '/todo/clear-completed' })).body).count).toBe(1);
    expect((await fetchAll()).todos).toEqual([]);
    expect(inInbox.listId).toBeUndefined();
  });

  test('one Idempotency-Key on clear-completed of two lists is two requests: the second is refused (422), nothing cleared twice', async () => {
    const work = await createList({ name: 'Work' });
    await service.store.setAllCompleted(ALICE, true);
    const headers = { 'Idempotency-Key': 'clear-1' };
    const first = await call({ method: 'DELETE', path: `/todo/clear-completed?listId=${work._id}`, headers });
    expect(first.status).toBe(200);
    expect((await call({ method: 'DELETE', path: `/todo/clear-completed?listId=${work._id}`, headers })).body).toEqual(first.body);
    expect(refusal(await call({ method: 'DELETE', path: '/todo/clear-completed?listId=inbox', headers }))).toEqual(
      expect.objectContaining({ status: 422, code: ErrorCode.idempotencyKeyReused }),
    );
  });

  test('a task moves between lists and to the Inbox, in the contracts\' words', async () => {
    const work = await createList({ name: 'Work' });
    const task = await addTask('Report');
    const move = async (listId: string | null) => UpdateTodoResponse.parse((await call({ method: 'PUT', path: `/todo/update-todo/${task._id}`, body: { updateData: { listId } } })).body);
    expect(await move(work._id)).toEqual(expect.objectContaining({ message: 'Task moved', todo: expect.objectContaining({ listId: work._id }) }));
    expect((await move(work._id)).message).toBe('Task already in that list');
    const back = await move(null);
    expect(back.message).toBe('Task moved to Inbox');
    expect(back.todo).not.toHaveProperty('listId');
  });

  test('a task restored alone after its list was deleted comes back in the Inbox', async () => {
    const work = await createList({ name: 'Work' });
    const task = await addTask('Report', work._id);
    expect((await call({ method: 'DELETE', path: `/todo/delete-todo/${task._id}` })).status).toBe(200);
    expect((await call({ method: 'DELETE', path: `/todo/lists/${work._id}` })).status).toBe(200);
    const restored = TodoResponse.parse((await call({ method: 'POST', path: `/todo/restore-todo/${task._id}` })).body).todo;
    expect(restored).not.toHaveProperty('listId');
    expect((await fetchAll()).todos).toEqual([restored]);
  });

  test('the account purge removes the lists', async () => {
    await createList({ name: 'Work' });
    expect((await call({ method: 'DELETE', path: '/internal/todos' })).status).toBe(200);
    expect((await fetchAll()).lists).toEqual([]);
  });
});

describe('a client that knows nothing of lists (docs/PRODUCT.md §7)', () => {
  test('its calls answer as the spec says: no listId on its tasks, its bulk calls over every task', async () => {
    const add = await call({ method: 'POST', path: '/todo/add-todo', body: { title: 'Buy milk' } });
    expect(add.status).toBe(201);
    const todo = TodoResponse.strict().parse(add.body).todo;
    expect(Object.keys(todo).sort()).toEqual(['_id', 'completed', 'completedAt', 'createdAt', 'isPinned', 'title', 'updatedAt']);
    const update = await call({ method: 'PUT', path: `/todo/update-todo/${todo._id}`, body: { updateData: { completed: true } } });
    expect(UpdateTodoResponse.parse(update.body)).toEqual(expect.objectContaining({ message: 'Task completed' }));
    // Tasks another client put in a list are still in its list (fetch-todo answers every task).
    const work = await createList({ name: 'Work' });
    await addTask('In a list', work._id);
    const fetched = await fetchAll();
    expect(fetched.todos.map((one) => one.title)).toEqual(['In a list', 'Buy milk']);
    expect(BulkTodosResponse.parse((await call({ method: 'PUT', path: '/todo/complete-all', body: { completed: true } })).body).count).toBe(1);
    expect(BulkTodosResponse.parse((await call({ method: 'DELETE', path: '/todo/clear-completed' })).body).count).toBe(2);
    expect((await call({ method: 'DELETE', path: `/todo/delete-todo/${todo._id}` })).status).toBe(404);
  });
});

describe('list changes on the live stream and the change feed', () => {
  async function openReady(userId = ALICE): Promise<EventStreamClient> {
    const stream = await openEventStream(service.url, { userId });
    streams.push(stream);
    expect(stream.status).toBe(200);
    for (;;) {
      const frame = await stream.nextEvent();
      if (frame.event === 'ready') {
        StreamPosition.parse(JSON.parse(frame.data));
        return stream;
      }
    }
  }
  const nextChange = async (stream: EventStreamClient): Promise<TodoChangeEvent> => {
    const frame = await stream.nextEvent(3_000);
    expect(frame.event).toBe('change');
    return TodoChangeEvent.strict().parse(JSON.parse(frame.data));
  };

  test('every list write is one event with savedLists / removedLists, seen live and by GET /todo/changes; a no-op sends none', async () => {
    const stream = await openReady();
    const bobs = await openReady(BOB);
    const work = await createList({ name: 'Work' });
    expect(await nextChange(stream)).toEqual({ id: '1', origin: null, saved: [], removed: [], savedLists: [work] });
    const task = await addTask('Report', work._id);
    expect((await nextChange(stream)).saved).toEqual([task]);
    const renamed = ListResponse.parse((await call({ method: 'PUT', path: `/todo/lists/${work._id}`, body: { name: 'Job' }, headers: { 'X-Client-Id': 'tab-1' } })).body).list;
    expect(await nextChange(stream)).toEqual({ id: '3', origin: 'tab-1', saved: [], removed: [], savedLists: [renamed] });
    await call({ method: 'PUT', path: `/todo/lists/${work._id}`, body: { name: 'Job' } });
    await stream.expectSilence(150);
    const { undoToken } = DeleteListResponse.parse((await call({ method: 'DELETE', path: `/todo/lists/${work._id}` })).body);
    expect(await nextChange(stream)).toEqual({ id: '4', origin: null, saved: [], removed: [task._id], removedLists: [work._id] });
    await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken } });
    expect(await nextChange(stream)).toEqual({ id: '5', origin: null, saved: [task], removed: [], savedLists: [renamed] });
    await bobs.expectSilence(100);
    const changes = ChangesResponse.parse((await call({ path: '/todo/changes?after=0' })).body);
    expect(changes.changes.map((change) => [change.savedLists?.length ?? 0, change.removedLists ?? []])).toEqual([
      [1, []],
      [0, []],
      [1, []],
      [0, [work._id]],
      [1, []],
    ]);
    // A list change is not in a task's history.
    expect((await call({ path: `/todo/history/${task._id}` })).body).toEqual({ entries: [] });
  });
});

describe('POST /todo/sync with lists (docs/PRODUCT.md §10.4, §10.19)', () => {
  let next = 0;
  const id = () => `list-cmd-${++next}`;
  async function sync(commands: SyncCommand[]): Promise<SyncResponse['results']> {
    const answer = await call({ method: 'POST', path: '/todo/sync', body: { commands } });
    expect(answer.status).toBe(200);
    return SyncResponse.parse(answer.body).results;
  }

  test('a list made offline is named by its temporary id in paths, in listId of bodies and in the clear-completed query', async () => {
    const create = { id: id(), method: 'POST', path: '/todo/lists', body: { name: 'Trip' } } as const;
    const temp = `${TEMP_ID_PREFIX}${create.id}`;
    const addIn = { id: id(), method: 'POST', path: '/todo/add-todo', body: { title: 'Passport', listId: temp } } as const;
    const commands: SyncCommand[] = [
      create,
      addIn,
      { id: id(), method: 'PUT', path: `/todo/lists/${temp}`, body: { colour: 'green' } },
      { id: id(), method: 'POST', path: '/todo/add-todo', body: { title: 'Tickets' } },
      { id: id(), method: 'PUT', path: `/todo/update-todo/${TEMP_ID_PREFIX}${addIn.id}`, body: { updateData: { isPinned: true } } },
      { id: id(), method: 'PUT', path: `/todo/update-todo/${TEMP_ID_PREFIX}cmd-tickets`, body: { updateData: { listId: temp } } },
      { id: id(), method: 'PUT', path: '/todo/complete-all', body: { completed: true, listId: temp } },
      { id: id(), method: 'DELETE', path: `/todo/clear-completed?listId=${temp}` },
    ];
    const results = await sync(commands);
    expect(results.map((result) => result.status)).toEqual([201, 201, 200, 201, 200, 424, 200, 200]);
    const list = ListResponse.parse(results[0]?.body).list;
    expect(TodoResponse.parse(results[1]?.body).todo.listId).toBe(list._id);
    expect(ListResponse.parse(results[2]?.body)).toEqual({ message: 'List colour changed', list: expect.objectContaining({ _id: list._id, colour: 'green' }) });
    expect(BulkTodosResponse.parse(results[6]?.body).count).toBe(1);
    expect(BulkTodosResponse.parse(results[7]?.body).count).toBe(1);
    expect((await fetchAll()).todos.map((todo) => todo.title)).toEqual(['Tickets']);
    // Sent again (its answer was lost): the same answers, nothing written twice.
    const { cursor } = await service.store.feedPosition(ALICE);
    expect(await sync(commands)).toEqual(results);
    expect((await service.store.feedPosition(ALICE)).cursor).toBe(cursor);
    expect((await fetchAll()).lists).toHaveLength(1);
  });

  test('a temporary list id whose create was refused or never sent is a 424 for each command naming it; nothing is written', async () => {
    await createList({ name: 'Trip' });
    const create = { id: id(), method: 'POST', path: '/todo/lists', body: { name: 'TRIP' } } as const;
    const temp = `${TEMP_ID_PREFIX}${create.id}`;
    const before = await snapshot();
    const results = await sync([
      create,
      { id: id(), method: 'POST', path: '/todo/add-todo', body: { title: 'Passport', listId: temp } },
      { id: id(), method: 'DELETE', path: `/todo/lists/${temp}` },
      { id: id(), method: 'PUT', path: `/todo/lists/${TEMP_ID_PREFIX}never-sent`, body: { archived: true } },
      { id: id(), method: 'DELETE', path: `/todo/clear-completed?listId=${temp}` },
    ]);
    expect(results.map((result) => [result.status, (result.body as ErrorBody).code])).toEqual([
      [409, ErrorCode.listNameTaken],
      [424, ErrorCode.dependencyFailed],
      [424, ErrorCode.dependencyFailed],
      [424, ErrorCode.dependencyFailed],
      [424, ErrorCode.dependencyFailed],
    ]);
    expect((results[1]?.body as ErrorBody).message).toMatch(/list this change names was never made/);
    expect((await snapshot()).list).toEqual(before.list);
  });
});
