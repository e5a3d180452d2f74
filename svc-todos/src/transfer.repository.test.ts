import { ObjectId } from 'bson';
import { MongoClient } from 'mongodb';
import { LIMITS } from '@tm/contracts';
import { tempDir } from '@tm/test-support';
import { MongoTodosStore } from './mongo-todos.store.js';
import { SqliteTodosStore } from './sqlite-todos.store.js';
import type { TodosRepository } from './todos.repository.js';
import { readImportFile, type ImportDraft } from './transfer.domain.js';

// The import's store contract (docs/PRODUCT.md §10.23), for both stores: everything a file holds written in one
// transaction with one event, or nothing (a dry run, a refusal); the export's history read per user. SQLite always;
// MongoDB where MONGO_URL points at a replica set (as todos.repository.test.ts: none can be installed on the build
// machines, so the suite is registered as skipped there).

const newUserId = () => new ObjectId().toHexString();

function draftOf(content: string, fileName = 'Project.csv'): ImportDraft {
  const draft = readImportFile(fileName, content);
  if ('problems' in draft) throw new Error(JSON.stringify(draft.problems));
  return draft;
}

function describeImportContract(open: () => Promise<TodosRepository>): void {
  let store: TodosRepository;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  test('writes the lists and tasks of a file in one change event; the listing has them all', async () => {
    const userId = newUserId();
    const notices: string[] = [];
    store.onCommit(({ userId: who, id }) => who === userId && notices.push(id));
    const outcome = await store.importTasks(userId, draftOf('TYPE,CONTENT,PRIORITY\ntask,One @a,1\nsection,Later\ntask,Two,2\n'), 'page-1', false);
    expect(outcome).toMatchObject({ kind: 'imported', tasks: 2, lists: 2, newLists: ['Project', 'Project / Later'] });
    const { todos, lists, cursor } = await store.list(userId);
    expect(todos.map(({ title, priority, labels }) => ({ title, priority, labels }))).toEqual([
      { title: 'One', priority: 1, labels: ['a'] },
      { title: 'Two', priority: 2, labels: undefined },
    ]);
    expect(lists.map((list) => list.name)).toEqual(['Project', 'Project / Later']);
    expect([cursor, notices]).toEqual(['1', ['1']]);
    const [event] = await store.eventsAfter(userId, '0', 10);
    expect(event).toMatchObject({ origin: 'page-1', removed: [] });
    expect(event?.saved.map((todo) => todo.title).sort()).toEqual(['One', 'Two']);
    expect(event?.savedLists?.map((list) => list.name)).toEqual(['Project', 'Project / Later']);
  });

  test('a dry run and a refusal (the lists full) write nothing and append no event', async () => {
    const userId = newUserId();
    expect(await store.importTasks(userId, draftOf('TYPE,CONTENT\ntask,Dry\n'), null, true)).toMatchObject({ kind: 'imported', tasks: 1, message: '1 task in 1 list' });
    for (let n = 0; n < LIMITS.lists; n += 1) expect((await store.createList(userId, { name: `L${n}` })).kind).toBe('saved');
    const before = await store.feedPosition(userId);
    expect(await store.importTasks(userId, draftOf('TYPE,CONTENT\ntask,Too many lists\n', 'Another.csv'), null, false)).toMatchObject({ kind: 'refused' });
    expect((await store.list(userId)).todos).toEqual([]);
    expect(await store.feedPosition(userId)).toEqual(before);
  });

  test("the export's history: every entry of the user's tasks, newest first, nobody else's", async () => {
    const alice = newUserId();
    const bob = newUserId();
    const task = await store.create(alice, 'Alice task');
    await store.update(alice, task._id, { isPinned: true });
    await store.update(alice, task._id, { title: 'Alice task, renamed' });
    const other = await store.create(bob, 'Bob task');
    await store.update(bob, other._id, { isPinned: true });
    const history = await store.historyOfUser(alice);
    expect(history.map(({ field, todoId }) => [field, todoId])).toEqual([
      ['title', task._id],
      ['isPinned', task._id],
    ]);
  });
}

describe('SqliteTodosStore: import and export', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('svc-todos-transfer-store-');
  });
  afterEach(() => dir.remove());
  describeImportContract(async () => SqliteTodosStore.open({ dataDir: dir.dir }));
});

const mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) console.warn('MongoDB import suite skipped: MONGO_URL is not set');
const describeMongo = mongoUrl ? describe : describe.skip;

describeMongo('MongoTodosStore: import and export', () => {
  const dbName = `svc_todos_transfer_${new ObjectId().toHexString()}`;
  afterAll(async () => {
    const admin = await MongoClient.connect(mongoUrl ?? '');
    await admin.db(dbName).dropDatabase();
    await admin.close();
  });
  describeImportContract(() => MongoTodosStore.open({ url: mongoUrl ?? '', dbName }));
});
