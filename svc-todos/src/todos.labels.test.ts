import { ObjectId } from 'bson';
import {
  BulkTodosResponse,
  ChangesResponse,
  ErrorBody,
  LABEL_NAME_MESSAGE,
  LABELS_TOO_MANY_MESSAGE,
  LIMITS,
  PRIORITY_MESSAGE,
  RestoreBulkResponse,
  SyncResponse,
  TEMP_ID_PREFIX,
  TodoResponse,
  UPDATE_MESSAGES,
  UpdateTodoResponse,
  type SyncCommand,
} from '@tm/contracts';
import { tempDir } from '@tm/test-support';
import { nextChange, refusal, taskCalls } from './todos.calls.test-helpers.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Priorities and labels on tasks (docs/PRODUCT.md §10.20) over real HTTP against the real service and its
// SQLite file: set at add and by update (labels each once, case aside, in order), removed by priority 4, null
// and [], each change in words, in the history, on the change feed and the live stream, back exactly after a
// delete's or a clear's undo, carried by the sync call; bad values refused with the field named and nothing
// changed; a client that never sends them sees the task of §7.

const ALICE = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;

beforeEach(async () => {
  dir = tempDir('svc-todos-labels-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  closeStreams();
  await service.stop();
  dir.remove();
});

const { call, list, addCall, add, updateCall, update, history, openReady, closeStreams } = taskCalls(() => service.url, ALICE);

/** What the spec's task has (§7): a client that knows nothing of priorities or labels sees exactly these keys. */
const SPEC_KEYS = ['_id', 'completed', 'completedAt', 'createdAt', 'isPinned', 'title', 'updatedAt'];

describe('at add (§10.20)', () => {
  test('a priority and labels are kept, the labels each once (case aside, the first spelling) and in order; the list answers them alike', async () => {
    const todo = await add({ title: 'Post the letter', priority: 1, labels: ['town', 'Errand', 'errand', 'ERRAND', 'post/office'] });
    expect(todo).toMatchObject({ title: 'Post the letter', priority: 1, labels: ['Errand', 'post/office', 'town'] });
    const plain = await add({ title: 'Plain' });
    expect((await list()).todos).toEqual([plain, todo]);
    // The list's JSON is written by hand from the rows (listJson): the extras spliced in read as JSON.stringify would write them.
    expect(await service.store.listJson(ALICE)).toBe(JSON.stringify(await service.store.list(ALICE)));
  });

  test('priority 4 (none) and no labels add a task without either', async () => {
    const todo = await add({ title: 'Nothing special', priority: 4, labels: [] });
    expect(Object.keys(todo).sort()).toEqual(SPEC_KEYS);
  });

  test(`the limits themselves are kept: a label of ${LIMITS.labelName.max} characters, ${LIMITS.labelsPerTask} labels, letters of any script, digits and - _ . /`, async () => {
    const many = Array.from({ length: LIMITS.labelsPerTask }, (_, index) => `label-${String(index).padStart(2, '0')}`);
    expect((await add({ title: 'Many', labels: many })).labels).toEqual(many);
    // 21 names of which two are one label, case aside: 20 labels.
    expect((await add({ title: 'Many again', labels: [...many, 'LABEL-00'] })).labels).toEqual(many);
    const odd = ['x'.repeat(LIMITS.labelName.max), 'übung', 'файл', '日本', 'a_b.c-d/e', '2027'];
    expect((await add({ title: 'Odd', labels: odd })).labels).toEqual(['2027', 'a_b.c-d/e', 'x'.repeat(LIMITS.labelName.max), 'übung', 'файл', '日本']);
  });
});

describe('update sets, changes and removes them, in words (§10.20)', () => {
  test('a priority: set, unchanged, changed, removed by 4 and by null', async () => {
    const task = await add({ title: 'Call the bank' });
    expect(await update(task._id, { priority: 2 })).toMatchObject({ message: UPDATE_MESSAGES.priority.set, todo: { priority: 2 } });
    expect((await update(task._id, { priority: 2 })).message).toBe(UPDATE_MESSAGES.already.priority);
    expect(await update(task._id, { priority: 1 })).toMatchObject({ message: 'Priority set', todo: { priority: 1 } });
    const none = await update(task._id, { priority: 4 });
    expect(none.message).toBe(UPDATE_MESSAGES.priority.removed);
    expect(none.message).toBe('Priority removed');
    expect(Object.keys(none.todo).sort()).toEqual(SPEC_KEYS);
    expect((await update(task._id, { priority: 4 })).message).toBe('Priority unchanged');
    await update(task._id, { priority: 3 });
    expect(Object.keys((await update(task._id, { priority: null })).todo).sort()).toEqual(SPEC_KEYS);
    expect(await history(task._id)).toEqual([
      ['priority', 3, null],
      ['priority', null, 3],
      ['priority', 1, null],
      ['priority', 2, 1],
      ['priority', null, 2],
    ]);
  });

  test('labels: set, unchanged (the same set in another order or twice), changed, removed by [] and by null', async () => {
    const task = await add({ title: 'Buy stamps' });
    expect(await update(task._id, { labels: ['errand', 'Post'] })).toMatchObject({ message: UPDATE_MESSAGES.labels.set, todo: { labels: ['errand', 'Post'] } });
    expect((await update(task._id, { labels: ['Post', 'errand', 'errand'] })).message).toBe(UPDATE_MESSAGES.already.labels);
    expect(await update(task._id, { labels: ['errand'] })).toMatchObject({ message: 'Labels set', todo: { labels: ['errand'] } });
    const none = await update(task._id, { labels: [] });
    expect(none.message).toBe(UPDATE_MESSAGES.labels.removed);
    expect(Object.keys(none.todo).sort()).toEqual(SPEC_KEYS);
    expect((await update(task._id, { labels: null })).message).toBe('Labels unchanged');
    await update(task._id, { labels: ['home'] });
    expect((await update(task._id, { labels: null })).message).toBe('Labels removed');
    expect(await history(task._id)).toEqual([
      ['labels', 'home', null],
      ['labels', null, 'home'],
      ['labels', 'errand', null],
      ['labels', 'errand,Post', 'errand'],
      ['labels', null, 'errand,Post'],
    ]);
  });

  test('both at once, or with another field: "Task updated", one history entry per field', async () => {
    const task = await add({ title: 'Tax return', priority: 3, labels: ['paperwork'] });
    const both = await update(task._id, { priority: 1, labels: ['paperwork', 'urgent'], title: 'Tax return 2027' });
    expect(both.message).toBe(UPDATE_MESSAGES.several);
    expect(both.todo).toEqual({ ...task, title: 'Tax return 2027', priority: 1, labels: ['paperwork', 'urgent'], updatedAt: both.todo.updatedAt });
    expect(await history(task._id)).toEqual([
      ['title', 'Tax return', 'Tax return 2027'],
      ['priority', 3, 1],
      ['labels', 'paperwork', 'paperwork,urgent'],
    ]);
  });
});

describe('refusals name the field and change nothing (§10.20)', () => {
  const BAD: Array<[string, Record<string, unknown>, { path: string; message: string }]> = [
    ['priority 0', { priority: 0 }, { path: 'priority', message: PRIORITY_MESSAGE }],
    ['priority 5', { priority: 5 }, { path: 'priority', message: PRIORITY_MESSAGE }],
    ['priority "high"', { priority: 'high' }, { path: 'priority', message: PRIORITY_MESSAGE }],
    ['priority 1.5', { priority: 1.5 }, { path: 'priority', message: PRIORITY_MESSAGE }],
    ['a label with a space', { labels: ['ok', 'on the way'] }, { path: 'labels.1', message: LABEL_NAME_MESSAGE }],
    ['an empty label', { labels: [''] }, { path: 'labels.0', message: LABEL_NAME_MESSAGE }],
    [`a label of ${LIMITS.labelName.max + 1} characters`, { labels: ['x'.repeat(LIMITS.labelName.max + 1)] }, { path: 'labels.0', message: LABEL_NAME_MESSAGE }],
    ['a label with @', { labels: ['@errand'] }, { path: 'labels.0', message: LABEL_NAME_MESSAGE }],
    [
      `${LIMITS.labelsPerTask + 1} labels`,
      { labels: Array.from({ length: LIMITS.labelsPerTask + 1 }, (_, index) => `l${index}`) },
      { path: 'labels', message: LABELS_TOO_MANY_MESSAGE },
    ],
  ];

  test.each(BAD)('%s: 400 naming it, at add and at update', async (_, fields, expected) => {
    const task = await add({ title: 'Kept', priority: 2, labels: ['home'] });
    const before = { list: await service.store.list(ALICE), feed: await service.store.feedPosition(ALICE) };
    expect(refusal(await addCall({ title: 'Refused', ...fields }))).toEqual([expected]);
    expect(refusal(await updateCall(task._id, fields))).toEqual([{ ...expected, path: `updateData.${expected.path}` }]);
    expect(refusal(await updateCall(task._id, { title: 'Renamed', ...fields }))).toEqual([{ ...expected, path: `updateData.${expected.path}` }]);
    expect({ list: await service.store.list(ALICE), feed: await service.store.feedPosition(ALICE) }).toEqual(before);
    expect(await history(task._id)).toEqual([]);
  });

  test('labels that are not a list of text are refused too', async () => {
    expect(refusal(await addCall({ title: 'x', labels: 'errand' })).map(({ path }) => path)).toEqual(['labels']);
    expect(refusal(await addCall({ title: 'x', labels: [7] })).map(({ path }) => path)).toEqual(['labels.0']);
    expect((await list()).todos).toEqual([]);
  });
});

describe('where a task goes, they go (§10.4, §10.11)', () => {
  test('the live stream and the change feed carry them with every change', async () => {
    const stream = await openReady();
    const task = await add({ title: 'Pick up parcel', priority: 2, labels: ['errand'] });
    expect((await nextChange(stream)).saved).toEqual([task]);
    const { todo } = await update(task._id, { labels: ['errand', 'town'], priority: 4 });
    expect((await nextChange(stream)).saved).toEqual([todo]);
    expect(todo).toMatchObject({ labels: ['errand', 'town'] });
    expect('priority' in todo).toBe(false);
    const feed = ChangesResponse.parse((await call({ path: '/todo/changes?after=0' })).body);
    expect(feed.changes.map((change) => change.saved)).toEqual([[task], [todo]]);
  });

  test('a delete and its undo, a tick and its undo, a clear and its undo: back exactly, labels and priority included', async () => {
    const task = await add({ title: 'Renew passport', priority: 1, labels: ['paperwork', 'travel'] });
    expect((await call({ method: 'DELETE', path: `/todo/delete-todo/${task._id}` })).status).toBe(200);
    expect((await list()).todos).toEqual([]);
    const restored = await call({ method: 'POST', path: `/todo/restore-todo/${task._id}` });
    expect(TodoResponse.parse(restored.body).todo).toEqual(task);
    expect((await list()).todos).toEqual([task]);

    const tick = await update(task._id, { completed: true });
    expect(tick.todo).toMatchObject({ priority: 1, labels: ['paperwork', 'travel'], completed: true });
    const untick = await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: tick.undoToken } });
    expect(RestoreBulkResponse.parse(untick.body).todos).toEqual([task]);

    const done = (await update(task._id, { completed: true })).todo;
    const cleared = BulkTodosResponse.parse((await call({ method: 'DELETE', path: '/todo/clear-completed' })).body);
    expect(cleared.count).toBe(1);
    const back = await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: cleared.undoToken } });
    expect(RestoreBulkResponse.parse(back.body).todos).toEqual([done]);
    expect((await list()).todos).toEqual([done]);
  });

  test('the sync call carries them in its commands: an add and an update made offline, applied once', async () => {
    const addCommand = { id: 'labels-add-1', method: 'POST', path: '/todo/add-todo', body: { title: 'Groceries', priority: 3, labels: ['shop', 'Errand'] } } as const;
    const commands: SyncCommand[] = [
      addCommand,
      { id: 'labels-update-1', method: 'PUT', path: `/todo/update-todo/${TEMP_ID_PREFIX}${addCommand.id}`, body: { updateData: { priority: 1, labels: ['shop', 'errand', 'weekly'] }, base: { priority: 3, labels: 'Errand,shop' } } },
      { id: 'labels-update-2', method: 'PUT', path: `/todo/update-todo/${TEMP_ID_PREFIX}${addCommand.id}`, body: { updateData: { priority: 0 } } },
    ];
    const send = async () => {
      const answer = await call({ method: 'POST', path: '/todo/sync', body: { commands } });
      expect(answer.status).toBe(200);
      return SyncResponse.parse(answer.body).results;
    };
    const results = await send();
    expect(results.map((result) => result.status)).toEqual([201, 200, 400]);
    expect(TodoResponse.parse(results[0]?.body).todo).toMatchObject({ priority: 3, labels: ['Errand', 'shop'] });
    const updated = UpdateTodoResponse.parse(results[1]?.body);
    expect(updated).toMatchObject({ message: UPDATE_MESSAGES.several, todo: { priority: 1, labels: ['errand', 'shop', 'weekly'] } });
    expect(updated.conflicts).toBeUndefined();
    expect(ErrorBody.parse(results[2]?.body).issues?.map((issue) => issue.path.join('.'))).toEqual(['updateData.priority']);
    expect((await list()).todos).toEqual([updated.todo]);
    // Sent again, as after a lost answer: the same answers, nothing written twice.
    const { cursor } = await service.store.feedPosition(ALICE);
    expect(await send()).toEqual(results);
    expect((await service.store.feedPosition(ALICE)).cursor).toBe(cursor);
  });
});

describe('a client that never sends them (§7)', () => {
  test('sees no priority or labels on add, tick, edit, pin, list and feed', async () => {
    const task = await add({ title: 'Buy milk' });
    expect(Object.keys(task).sort()).toEqual(SPEC_KEYS);
    for (const updateData of [{ completed: true }, { title: 'Buy oat milk' }, { isPinned: true }, { completed: false }]) {
      expect(Object.keys((await update(task._id, updateData)).todo).sort()).toEqual(SPEC_KEYS);
    }
    const raw = (await call({ path: '/todo/fetch-todo' })).body as { todos: object[] };
    expect(raw.todos.map((todo) => Object.keys(todo).sort())).toEqual([SPEC_KEYS]);
    const feed = (await call({ path: '/todo/changes?after=0' })).body as { changes: { saved: object[] }[] };
    for (const change of feed.changes) for (const saved of change.saved) expect(Object.keys(saved).sort()).toEqual(SPEC_KEYS);
  });
});
