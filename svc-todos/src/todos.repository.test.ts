import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
// The driver's ObjectId, so `toBeInstanceOf` compares against the class the driver deserialises into.
import { MongoClient, ObjectId } from 'mongodb';
import { Todo } from '@tm/contracts';
import { tempDir } from '@tm/test-support';
import { MongoTodosStore, TODOS_COLLECTION } from './mongo-todos.store.js';
import { openTodosStore } from './open-todos.store.js';
import { SQLITE_FILE, SqliteTodosStore } from './sqlite-todos.store.js';
import type { TodosRepository } from './todos.repository.js';

/** A controllable clock: tests decide every `createdAt`/`updatedAt`. */
function fakeClock(start = Date.parse('2025-01-01T00:00:00.000Z')) {
  let time = start;
  return {
    now: () => new Date(time),
    set: (ms: number) => { time = ms; },
    iso: (ms: number) => new Date(ms).toISOString(),
    start,
  };
}

type Clock = ReturnType<typeof fakeClock>;

interface StoreHarness {
  /** Opens a store for one test; closed by the suite after it. */
  open: (clock: Clock) => Promise<TodosRepository>;
}

const newUserId = () => new ObjectId().toHexString();
const unknownId = () => new ObjectId().toHexString();

/** The behaviour every adapter must share (ARCHITECTURE: Storage, one contract suite for both). */
function describeTodosRepositoryContract(harness: StoreHarness): void {
  let store: TodosRepository;
  let clock: Clock;
  let alice: string;
  let bob: string;

  beforeEach(async () => {
    clock = fakeClock();
    store = await harness.open(clock);
    alice = newUserId();
    bob = newUserId();
  });
  afterEach(() => store.close());

  test('create returns a new, open, unpinned task with a 24-hex id and equal ISO timestamps', async () => {
    const todo = await store.create(alice, 'Buy milk');
    expect(todo).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Buy milk',
      completed: false,
      isPinned: false,
      createdAt: clock.iso(clock.start),
      updatedAt: clock.iso(clock.start),
    });
    expect(Todo.parse(todo)).toEqual(todo);
  });

  test('ids are unique and the title round-trips unchanged', async () => {
    const title = `Café ☕ 'quoted' "double" %_ \\ ${'x'.repeat(480)}`;
    const todos = await Promise.all(Array.from({ length: 20 }, () => store.create(alice, title)));
    expect(new Set(todos.map((todo) => todo._id)).size).toBe(20);
    expect((await store.list(alice)).every((todo) => todo.title === title)).toBe(true);
  });

  test('a new user has an empty list', async () => {
    await store.create(alice, 'only mine');
    expect(await store.list(bob)).toEqual([]);
  });

  test('lists pinned first, then newest first, with the id as tiebreak', async () => {
    const t = clock.start;
    clock.set(t + 1_000);
    const oldest = await store.create(alice, 'oldest');
    clock.set(t + 3_000);
    const newest = await store.create(alice, 'newest');
    clock.set(t + 2_000); // created after `newest` but older: createdAt, not insertion order, decides
    const middle = await store.create(alice, 'middle');
    clock.set(t + 3_000);
    const sameMsLater = await store.create(alice, 'same ms, created later');
    expect((await store.list(alice)).map((todo) => todo.title)).toEqual([
      sameMsLater.title, newest.title, middle.title, oldest.title,
    ]);
    await store.update(alice, oldest._id, { isPinned: true });
    await store.update(alice, middle._id, { isPinned: true });
    expect((await store.list(alice)).map((todo) => todo._id)).toEqual([
      middle._id, oldest._id, sameMsLater._id, newest._id,
    ]);
  });

  test('update sets only the given flags and moves updatedAt', async () => {
    const todo = await store.create(alice, 'task');
    clock.set(clock.start + 5_000);
    const completed = await store.update(alice, todo._id, { completed: true });
    expect(completed).toEqual({ ...todo, completed: true, updatedAt: clock.iso(clock.start + 5_000) });
    clock.set(clock.start + 9_000);
    const pinned = await store.update(alice, todo._id, { isPinned: true });
    expect(pinned).toEqual({ ...todo, completed: true, isPinned: true, updatedAt: clock.iso(clock.start + 9_000) });
    const both = await store.update(alice, todo._id, { completed: false, isPinned: false });
    expect(both).toMatchObject({ completed: false, isPinned: false, createdAt: todo.createdAt });
    expect(await store.list(alice)).toEqual([both]);
  });

  test('update sets a new title, keeps the flags and the place in the list, and is idempotent', async () => {
    const older = await store.create(alice, 'older');
    clock.set(clock.start + 1_000);
    const todo = await store.create(alice, 'Buy milk');
    await store.update(alice, todo._id, { isPinned: true });
    clock.set(clock.start + 7_000);
    const renamed = await store.update(alice, todo._id, { title: 'Buy oat milk' });
    expect(renamed).toEqual({ ...todo, title: 'Buy oat milk', isPinned: true, updatedAt: clock.iso(clock.start + 7_000) });
    clock.set(clock.start + 9_000);
    expect(await store.update(alice, todo._id, { title: 'Buy oat milk' })).toEqual(renamed);
    expect(await store.update(bob, todo._id, { title: 'hijacked' })).toBeNull();
    expect(await store.list(alice)).toEqual([renamed, older]);
  });

  test('update is idempotent: repeating it returns the same task, updatedAt included', async () => {
    const todo = await store.create(alice, 'task');
    clock.set(clock.start + 1_000);
    const first = await store.update(alice, todo._id, { completed: true, isPinned: true });
    clock.set(clock.start + 2_000);
    const again = await store.update(alice, todo._id, { completed: true, isPinned: true });
    const partlyAgain = await store.update(alice, todo._id, { isPinned: true });
    expect(first?.updatedAt).toBe(clock.iso(clock.start + 1_000));
    expect(again).toEqual(first);
    expect(partlyAgain).toEqual(first);
  });

  test("another user's id is treated like an unknown one and nothing changes", async () => {
    const todo = await store.create(alice, 'private');
    expect(await store.update(bob, todo._id, { completed: true, isPinned: true })).toBeNull();
    expect(await store.remove(bob, todo._id)).toBe(false);
    expect(await store.list(alice)).toEqual([todo]);
    expect(await store.list(bob)).toEqual([]);
    expect(await store.update(alice, unknownId(), { completed: true })).toBeNull();
    expect(await store.remove(alice, unknownId())).toBe(false);
  });

  test('remove deletes only that task, once', async () => {
    const keep = await store.create(alice, 'keep');
    const drop = await store.create(alice, 'drop');
    expect(await store.remove(alice, drop._id)).toBe(true);
    expect(await store.remove(alice, drop._id)).toBe(false);
    expect(await store.list(alice)).toEqual([keep]);
    expect(await store.update(alice, drop._id, { completed: true })).toBeNull();
  });

  test('deleteAllForUser deletes every task of that user only, and answers how many', async () => {
    await Promise.all(['one', 'two', 'three'].map((title) => store.create(alice, title)));
    await store.update(alice, (await store.create(alice, 'pinned'))._id, { isPinned: true });
    const bobs = await store.create(bob, "bob's");
    expect(await store.deleteAllForUser(alice)).toBe(4);
    expect(await store.list(alice)).toEqual([]);
    expect(await store.list(bob)).toEqual([bobs]);
    expect(await store.deleteAllForUser(alice)).toBe(0);
    expect(await store.deleteAllForUser(newUserId())).toBe(0);
    expect(await store.list(bob)).toEqual([bobs]);
  });

  test('ping answers while open', async () => {
    await expect(store.ping()).resolves.toBe(true);
  });
}

describe('SqliteTodosStore', () => {
  const dirs: Array<{ remove: () => void }> = [];
  afterAll(() => dirs.forEach((dir) => dir.remove()));
  const freshDir = () => {
    const dir = tempDir('svc-todos-sqlite-');
    dirs.push(dir);
    return dir.dir;
  };

  describe('repository contract', () => {
    describeTodosRepositoryContract({ open: async (clock) => SqliteTodosStore.open({ dataDir: freshDir(), now: clock.now }) });
  });

  test('creates the data folder and one todos.sqlite file in WAL mode', async () => {
    const dataDir = path.join(freshDir(), 'nested', 'data');
    const store = SqliteTodosStore.open({ dataDir });
    await store.create(newUserId(), 'x');
    await store.close();
    const file = path.join(dataDir, SQLITE_FILE);
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todos'").all();
      expect(indexes).toContainEqual({ name: 'todos_user_pinned_created' });
    } finally {
      db.close();
    }
  });

  test('tasks survive closing and reopening the file', async () => {
    const dataDir = freshDir();
    const userId = newUserId();
    const first = SqliteTodosStore.open({ dataDir });
    const todo = await first.create(userId, 'persist me');
    const pinned = await first.update(userId, todo._id, { isPinned: true });
    await first.close();
    const second = SqliteTodosStore.open({ dataDir });
    try {
      expect(await second.list(userId)).toEqual([pinned]);
    } finally {
      await second.close();
    }
  });

  test('ping fails once closed, so readiness turns unavailable', async () => {
    const store = SqliteTodosStore.open({ dataDir: freshDir() });
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });

  test('openTodosStore picks SQLite when no MongoDB URL is given', async () => {
    const dataDir = freshDir();
    const store = await openTodosStore({ dataDir, mongoDb: 'unused' });
    try {
      expect(store).toBeInstanceOf(SqliteTodosStore);
      expect(existsSync(path.join(dataDir, SQLITE_FILE))).toBe(true);
    } finally {
      await store.close();
    }
  });

  test('openTodosStore picks MongoDB when a URL is given (and fails fast when none answers)', async () => {
    const dataDir = freshDir();
    const opening = openTodosStore({
      dataDir,
      mongoUrl: 'mongodb://127.0.0.1:1/?directConnection=true',
      mongoDb: 'unused',
      mongoServerSelectionTimeoutMS: 200,
    });
    await expect(opening).rejects.toThrow(/ECONNREFUSED|Server selection timed out/);
    expect(existsSync(path.join(dataDir, SQLITE_FILE))).toBe(false);
  });
});

const mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) {
  console.warn('MongoDB store suite skipped: MONGO_URL is not set');
}
// No MongoDB server can be installed on the build machines (ARCHITECTURE: Storage): the suite runs only
// where MONGO_URL points at one, and is registered as skipped (visible in the report) everywhere else.
const describeMongo = mongoUrl ? describe : describe.skip;

describeMongo('MongoTodosStore', () => {
  const dbName = `svc_todos_test_${new ObjectId().toHexString()}`;
  let admin: MongoClient;
  beforeAll(async () => {
    admin = await MongoClient.connect(mongoUrl ?? '');
  });
  afterAll(async () => {
    await admin.db(dbName).dropDatabase();
    await admin.close();
  });

  describe('repository contract', () => {
    describeTodosRepositoryContract({
      open: (clock) => MongoTodosStore.open({ url: mongoUrl ?? '', dbName, now: clock.now }),
    });
  });

  test('creates the listing index and stores ObjectIds and Dates', async () => {
    const store = await MongoTodosStore.open({ url: mongoUrl ?? '', dbName });
    try {
      const userId = newUserId();
      const todo = await store.create(userId, 'typed');
      const raw = await admin.db(dbName).collection(TODOS_COLLECTION).findOne({ title: 'typed' });
      expect(raw?._id.toHexString()).toBe(todo._id);
      expect(raw?.userId).toBeInstanceOf(ObjectId);
      expect(raw?.createdAt).toBeInstanceOf(Date);
      const indexes = await admin.db(dbName).collection(TODOS_COLLECTION).indexes();
      expect(indexes.map((index) => index.key)).toContainEqual({ userId: 1, isPinned: -1, createdAt: -1, _id: -1 });
    } finally {
      await store.close();
    }
  });
});
