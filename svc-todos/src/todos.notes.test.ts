import { ObjectId } from 'bson';
import {
  BulkTodosResponse,
  ChangesResponse,
  ErrorBody,
  HistoryResponse,
  LIMITS,
  NOTE_TOO_LONG_MESSAGE,
  RestoreBulkResponse,
  SUBTASK_ID_MESSAGE,
  SUBTASK_IDS_REPEATED_MESSAGE,
  SUBTASK_TITLE_EMPTY_MESSAGE,
  SUBTASKS_TOO_MANY_MESSAGE,
  SyncResponse,
  TEMP_ID_PREFIX,
  TODO_TITLE_TOO_LONG_MESSAGE,
  TodoResponse,
  UPDATE_MESSAGES,
  UpdateTodoResponse,
  type Subtask,
  type SyncCommand,
} from '@tm/contracts';
import { tempDir } from '@tm/test-support';
import { nextChange, refusal, taskCalls } from './todos.calls.test-helpers.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Notes and subtasks on tasks (docs/PRODUCT.md §10.21) over real HTTP against the real service and its SQLite
// file: set at add and by update (the note trimmed with its inner lines kept, the checklist in order), removed
// by "" / [] and null, each change in words, in the history, on the change feed and the live stream, back
// exactly after a delete's or a clear's undo, carried by the sync call; bad values refused with the field named
// and nothing changed; a client that never sends them sees the task of §7.

const ALICE = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;
const alice = taskCalls(() => service.url, ALICE);
const { call, list, addCall, add, updateCall, update, history } = alice;

beforeEach(async () => {
  dir = tempDir('svc-todos-notes-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  alice.closeStreams();
  await service.stop();
  dir.remove();
});

/** What the spec's task has (§7): a client that knows nothing of notes or subtasks sees exactly these keys. */
const SPEC_KEYS = ['_id', 'completed', 'completedAt', 'createdAt', 'isPinned', 'title', 'updatedAt'];
const milk: Subtask = { id: 'milk-1', title: 'Buy milk', done: false };
const bread: Subtask = { id: 'bread_2', title: 'Buy bread', done: false };
/** A checklist as the history keeps it (fieldValue: JSON text). */
const kept = (subtasks: Subtask[]) => JSON.stringify(subtasks);

describe('at add (§10.21)', () => {
  test('a note (trimmed, inner lines kept) and subtasks (titles trimmed, in order) are kept; the list answers them alike', async () => {
    const todo = await add({ title: 'Groceries', note: '  Oat milk, not soy.\n\n  See https://shop.example/list \n', subtasks: [{ ...bread, title: '  Buy bread ' }, milk] });
    expect(todo).toMatchObject({ title: 'Groceries', note: 'Oat milk, not soy.\n\n  See https://shop.example/list', subtasks: [bread, milk] });
    const plain = await add({ title: 'Plain' });
    expect((await list()).todos).toEqual([plain, todo]);
    // The list's JSON is written by hand from the rows (listJson): the extras spliced in read as JSON.stringify would write them.
    expect(await service.store.listJson(ALICE)).toBe(JSON.stringify(await service.store.list(ALICE)));
  });

  test('an empty note and no subtasks add a task without either; bidi controls leave the note', async () => {
    expect(Object.keys(await add({ title: 'Nothing', note: ' \n ', subtasks: [] })).sort()).toEqual(SPEC_KEYS);
    expect((await add({ title: 'Bidi', note: 'Pay \u202Etxet\u202C now' })).note).toBe('Pay txet now');
  });

  test(`the limits themselves are kept: a note of ${LIMITS.note.max} characters, ${LIMITS.subtasksPerTask} subtasks, ids of 40`, async () => {
    const note = `${'n'.repeat(LIMITS.note.max - 2)}\n.`;
    const many = Array.from({ length: LIMITS.subtasksPerTask }, (_, index) => ({ id: `${index}`.padStart(40, 'x'), title: `Step ${index}`, done: index % 2 === 0 }));
    const todo = await add({ title: 'Long', note: ` ${note} ` });
    expect(todo.note).toBe(note);
    expect((await update(todo._id, { subtasks: many })).todo.subtasks).toEqual(many);
    // The longest note in a script of 3 bytes a character (30 000 bytes) goes in one request (LIMITS.bodyBytes).
    const wide = '日'.repeat(LIMITS.note.max);
    expect(Buffer.byteLength(JSON.stringify({ updateData: { note: wide } }))).toBeGreaterThan(16 * 1024);
    expect((await update(todo._id, { note: wide })).todo.note).toBe(wide);
  });
});

describe('update sets, changes and removes them, in words (§10.21)', () => {
  test('a note: set, unchanged (also with other spaces at its ends), changed, removed by "" and by null', async () => {
    const task = await add({ title: 'Call the bank' });
    expect(await update(task._id, { note: 'Ask about fees' })).toMatchObject({ message: UPDATE_MESSAGES.note.set, todo: { note: 'Ask about fees' } });
    expect((await update(task._id, { note: ' Ask about fees\n' })).message).toBe(UPDATE_MESSAGES.already.note);
    expect(await update(task._id, { note: 'Ask about fees\nand the card' })).toMatchObject({ message: 'Note saved', todo: { note: 'Ask about fees\nand the card' } });
    const none = await update(task._id, { note: '' });
    expect(none.message).toBe(UPDATE_MESSAGES.note.removed);
    expect(Object.keys(none.todo).sort()).toEqual(SPEC_KEYS);
    expect((await update(task._id, { note: null })).message).toBe('Note unchanged');
    await update(task._id, { note: 'Branch on Main St' });
    expect((await update(task._id, { note: null })).message).toBe('Note removed');
    expect(await history(task._id)).toEqual([
      ['note', 'Branch on Main St', null],
      ['note', null, 'Branch on Main St'],
      ['note', 'Ask about fees\nand the card', null],
      ['note', 'Ask about fees', 'Ask about fees\nand the card'],
      ['note', null, 'Ask about fees'],
    ]);
  });

  test('subtasks: added, ticked, renamed, reordered, removed by [] and by null; each a whole checklist in the history', async () => {
    const task = await add({ title: 'Shop' });
    expect(await update(task._id, { subtasks: [milk] })).toMatchObject({ message: UPDATE_MESSAGES.subtasks.set, todo: { subtasks: [milk] } });
    expect((await update(task._id, { subtasks: [{ ...milk, title: ' Buy milk ' }] })).message).toBe(UPDATE_MESSAGES.already.subtasks);
    const ticked = { ...milk, done: true };
    expect((await update(task._id, { subtasks: [ticked, bread] })).todo.subtasks).toEqual([ticked, bread]);
    expect((await update(task._id, { subtasks: [bread, ticked] })).todo.subtasks).toEqual([bread, ticked]);
    const none = await update(task._id, { subtasks: [] });
    expect(none.message).toBe('Subtasks removed');
    expect(Object.keys(none.todo).sort()).toEqual(SPEC_KEYS);
    expect((await update(task._id, { subtasks: null })).message).toBe('Subtasks unchanged');
    expect(await history(task._id)).toEqual([
      ['subtasks', kept([bread, ticked]), null],
      ['subtasks', kept([ticked, bread]), kept([bread, ticked])],
      ['subtasks', kept([milk]), kept([ticked, bread])],
      ['subtasks', null, kept([milk])],
    ]);
  });

  test('both at once, or with another field: "Task updated", one history entry per field; the other fields stay', async () => {
    const task = await add({ title: 'Tax return', note: 'Forms', subtasks: [milk], priority: 2 });
    const both = await update(task._id, { note: 'Forms A and B', subtasks: [], title: 'Tax return 2027' });
    expect(both.message).toBe(UPDATE_MESSAGES.several);
    const { subtasks: _gone, ...rest } = task;
    expect(both.todo).toEqual({ ...rest, title: 'Tax return 2027', note: 'Forms A and B', updatedAt: both.todo.updatedAt });
    expect(await history(task._id)).toEqual([
      ['title', 'Tax return', 'Tax return 2027'],
      ['note', 'Forms', 'Forms A and B'],
      ['subtasks', kept([milk]), null],
    ]);
  });
});

describe('refusals name the field and change nothing (§10.21)', () => {
  const BAD: Array<[string, Record<string, unknown>, { path: string; message: string }]> = [
    [`a note of ${LIMITS.note.max + 1} characters`, { note: 'x'.repeat(LIMITS.note.max + 1) }, { path: 'note', message: NOTE_TOO_LONG_MESSAGE }],
    ['a note that is not text', { note: 42 }, { path: 'note', message: expect.any(String) as string }],
    ['a subtask without a title', { subtasks: [milk, { ...bread, title: ' ' }] }, { path: 'subtasks.1.title', message: SUBTASK_TITLE_EMPTY_MESSAGE }],
    ['a subtask title of 501 characters', { subtasks: [{ ...milk, title: 'x'.repeat(501) }] }, { path: 'subtasks.0.title', message: TODO_TITLE_TOO_LONG_MESSAGE }],
    ['a subtask id with a space', { subtasks: [{ ...milk, id: 'a b' }] }, { path: 'subtasks.0.id', message: SUBTASK_ID_MESSAGE }],
    ['a subtask id of 41 characters', { subtasks: [{ ...milk, id: 'x'.repeat(41) }] }, { path: 'subtasks.0.id', message: SUBTASK_ID_MESSAGE }],
    ['one id twice', { subtasks: [milk, { ...bread, id: milk.id }] }, { path: 'subtasks', message: SUBTASK_IDS_REPEATED_MESSAGE }],
    [
      `${LIMITS.subtasksPerTask + 1} subtasks`,
      { subtasks: Array.from({ length: LIMITS.subtasksPerTask + 1 }, (_, index) => ({ id: `s${index}`, title: 'x', done: false })) },
      { path: 'subtasks', message: SUBTASKS_TOO_MANY_MESSAGE },
    ],
  ];

  test.each(BAD)('%s: 400 naming it, at add and at update', async (_, fields, expected) => {
    const task = await add({ title: 'Kept', note: 'Keep me', subtasks: [milk] });
    const before = { list: await service.store.list(ALICE), feed: await service.store.feedPosition(ALICE) };
    expect(refusal(await addCall({ title: 'Refused', ...fields }))).toEqual([expected]);
    expect(refusal(await updateCall(task._id, fields))).toEqual([{ ...expected, path: `updateData.${expected.path}` }]);
    expect(refusal(await updateCall(task._id, { title: 'Renamed', ...fields }))).toEqual([{ ...expected, path: `updateData.${expected.path}` }]);
    expect({ list: await service.store.list(ALICE), feed: await service.store.feedPosition(ALICE) }).toEqual(before);
    expect(await history(task._id)).toEqual([]);
  });

  test('subtasks that are not a list of {id, title, done} are refused on the field', async () => {
    expect(refusal(await addCall({ title: 'x', subtasks: 'milk' })).map(({ path }) => path)).toEqual(['subtasks']);
    expect(refusal(await addCall({ title: 'x', subtasks: [{ id: 'a', title: 'A' }] })).map(({ path }) => path)).toEqual(['subtasks.0.done']);
    expect(refusal(await addCall({ title: 'x', subtasks: [{ ...milk, extra: true }] })).map(({ path }) => path)).toEqual(['subtasks.0']);
    expect((await list()).todos).toEqual([]);
  });
});

describe('where a task goes, they go (§10.4, §10.11)', () => {
  const { openReady } = alice;

  test('the live stream and the change feed carry them with every change', async () => {
    const stream = await openReady();
    const task = await add({ title: 'Pick up parcel', note: 'Counter 3', subtasks: [milk] });
    expect((await nextChange(stream)).saved).toEqual([task]);
    const { todo } = await update(task._id, { subtasks: [{ ...milk, done: true }], note: null });
    expect((await nextChange(stream)).saved).toEqual([todo]);
    expect(todo.subtasks).toEqual([{ ...milk, done: true }]);
    expect('note' in todo).toBe(false);
    const feed = ChangesResponse.parse((await call({ path: '/todo/changes?after=0' })).body);
    expect(feed.changes.map((change) => change.saved)).toEqual([[task], [todo]]);
  });

  test('a delete and its undo, a tick and its undo, a clear and its undo: back exactly, note and subtasks included', async () => {
    const task = await add({ title: 'Renew passport', note: 'Photos first\nhttps://gov.example', subtasks: [milk, { ...bread, done: true }] });
    expect((await call({ method: 'DELETE', path: `/todo/delete-todo/${task._id}` })).status).toBe(200);
    expect((await list()).todos).toEqual([]);
    const restored = await call({ method: 'POST', path: `/todo/restore-todo/${task._id}` });
    expect(TodoResponse.parse(restored.body).todo).toEqual(task);

    const tick = await update(task._id, { completed: true });
    expect(tick.todo).toMatchObject({ note: task.note, subtasks: task.subtasks, completed: true });
    const untick = await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: tick.undoToken } });
    expect(RestoreBulkResponse.parse(untick.body).todos).toEqual([task]);

    const done = (await update(task._id, { completed: true })).todo;
    const cleared = BulkTodosResponse.parse((await call({ method: 'DELETE', path: '/todo/clear-completed' })).body);
    expect(cleared.count).toBe(1);
    const back = await call({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken: cleared.undoToken } });
    expect(RestoreBulkResponse.parse(back.body).todos).toEqual([done]);
    expect((await list()).todos).toEqual([done]);
  });

  test('a history value put back (the history’s Restore) brings the checklist back exactly', async () => {
    const task = await add({ title: 'Pack', subtasks: [milk, bread] });
    await update(task._id, { subtasks: [bread] });
    const [entry] = HistoryResponse.parse((await call({ path: `/todo/history/${task._id}` })).body).entries;
    expect(entry?.before).toBe(kept([milk, bread]));
    const put = await update(task._id, { subtasks: JSON.parse(String(entry?.before)) as Subtask[] });
    expect(put.todo.subtasks).toEqual([milk, bread]);
  });

  test('the sync call carries them in its commands; a checklist changed elsewhere since its base is a conflict', async () => {
    const addCommand = { id: 'notes-add-1', method: 'POST', path: '/todo/add-todo', body: { title: 'Groceries', note: 'Saturday', subtasks: [milk] } } as const;
    const target = `/todo/update-todo/${TEMP_ID_PREFIX}${addCommand.id}`;
    const commands: SyncCommand[] = [
      addCommand,
      { id: 'notes-update-1', method: 'PUT', path: target, body: { updateData: { note: 'Saturday morning' }, base: { note: 'Saturday' } } },
      { id: 'notes-update-2', method: 'PUT', path: target, body: { updateData: { subtasks: [{ ...milk, done: true }] }, base: { subtasks: kept([{ ...milk, title: 'Other' }]) } } },
      { id: 'notes-update-3', method: 'PUT', path: target, body: { updateData: { subtasks: [{ ...milk, id: '' }] } } },
    ];
    const send = async () => {
      const answer = await call({ method: 'POST', path: '/todo/sync', body: { commands } });
      expect(answer.status).toBe(200);
      return SyncResponse.parse(answer.body).results;
    };
    const results = await send();
    expect(results.map((result) => result.status)).toEqual([201, 200, 200, 400]);
    expect(UpdateTodoResponse.parse(results[1]?.body)).toMatchObject({ message: 'Note saved', todo: { note: 'Saturday morning' } });
    expect(UpdateTodoResponse.parse(results[1]?.body).conflicts).toBeUndefined();
    const ticked = UpdateTodoResponse.parse(results[2]?.body);
    expect(ticked).toMatchObject({ todo: { subtasks: [{ ...milk, done: true }] }, conflicts: ['subtasks'] });
    expect(ErrorBody.parse(results[3]?.body).issues?.map((issue) => issue.path.join('.'))).toEqual(['updateData.subtasks.0.id']);
    expect((await list()).todos).toEqual([ticked.todo]);
    const { cursor } = await service.store.feedPosition(ALICE);
    expect(await send()).toEqual(results);
    expect((await service.store.feedPosition(ALICE)).cursor).toBe(cursor);
  });
});

describe('a client that never sends them (§7)', () => {
  test('sees no note or subtasks on add, tick, edit, pin, list and feed', async () => {
    const task = await add({ title: 'Buy milk' });
    expect(Object.keys(task).sort()).toEqual(SPEC_KEYS);
    for (const updateData of [{ completed: true }, { title: 'Buy oat milk' }, { isPinned: true }, { completed: false }]) {
      expect(Object.keys((await update(task._id, updateData)).todo).sort()).toEqual(SPEC_KEYS);
    }
    const raw = (await call({ path: '/todo/fetch-todo' })).body as { todos: object[] };
    expect(raw.todos.map((todo) => Object.keys(todo).sort())).toEqual([SPEC_KEYS]);
  });
});
