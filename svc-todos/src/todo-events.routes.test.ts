// GET /todo/events (docs/PRODUCT.md §10.11.5) over real HTTP against listening svc-todos apps on real SQLite
// files: the wire format, replay, reset, live changes, heartbeats, origin, resume without gaps, caps, drain.
import { randomUUID } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { ObjectId } from 'bson';
import {
  BulkTodosResponse,
  CLIENT_ID_HEADER,
  ErrorBody,
  RestoreBulkResponse,
  ErrorCode,
  StreamPosition,
  TodoChangeEvent,
  TodoResponse,
  TodosResponse,
  type Todo,
} from '@tm/contracts';
import { signedCall, tempDir, TEST_SECRET, type SignedCall } from '@tm/test-support';
import { signIdentity } from '@tm/service-kit';
import { InProcessTodoEventBus, type TodoEventBus } from './todo-event-bus.js';
import type { EventStreamOptions } from './todo-events.stream.js';
import {
  openEventStream,
  startTestService,
  writeGlobalFeedFile,
  type EventStreamClient,
  type OpenStreamOptions,
  type SseFrame,
  type TestService as Instance,
} from './todos.test-helpers.js';

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let skewMs: number;
const instances: Instance[] = [];
const streams: EventStreamClient[] = [];

/** One svc-todos process as a test sees it: its own store connection on the shared data folder, its own bus. */
async function startInstance(events: Partial<EventStreamOptions> = {}, bus: TodoEventBus = new InProcessTodoEventBus()): Promise<Instance> {
  const instance = await startTestService({ dataDir: dir.dir, now: () => new Date(Date.now() + skewMs), bus, events });
  instances.push(instance);
  return instance;
}

beforeEach(() => {
  dir = tempDir('svc-todos-events-');
  skewMs = 0;
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  for (const instance of instances.splice(0)) await instance.stop();
  dir.remove();
});

async function open(instance: Instance, options: OpenStreamOptions): Promise<EventStreamClient> {
  const stream = await openEventStream(instance.url, options);
  streams.push(stream);
  return stream;
}

/** Opens a stream and reads up to its `ready`; resolves the stream and the events before it. */
async function openReady(instance: Instance, options: OpenStreamOptions): Promise<{ stream: EventStreamClient; before: SseFrame[]; cursor: string }> {
  const stream = await open(instance, options);
  expect(stream.status).toBe(200);
  const before: SseFrame[] = [];
  for (;;) {
    const frame = await stream.next();
    if (frame.kind === 'event' && frame.event === 'ready') {
      const { cursor } = StreamPosition.strict().parse(JSON.parse(frame.data));
      expect(frame.id).toBe(cursor);
      return { stream, before, cursor };
    }
    before.push(frame);
  }
}

/** The next `change` event, checked against the contract (and its SSE id against its data). */
async function nextChange(stream: EventStreamClient, timeoutMs = 3_000): Promise<TodoChangeEvent> {
  const frame = await stream.nextEvent(timeoutMs);
  expect(frame.event).toBe('change');
  const change = TodoChangeEvent.strict().parse(JSON.parse(frame.data));
  expect(frame.id).toBe(change.id);
  return change;
}

const changesOf = (frames: SseFrame[]) =>
  frames.filter((frame) => frame.kind === 'event').map((frame) => TodoChangeEvent.parse(JSON.parse(frame.kind === 'event' ? frame.data : '')));

function callOn(instance: Instance, userId: string, request: SignedCall) {
  return signedCall(instance.url, { userId, ...request });
}

async function add(instance: Instance, title: string, userId = ALICE, headers: Record<string, string> = {}): Promise<Todo> {
  const response = await callOn(instance, userId, { method: 'POST', path: '/todo/add-todo', body: { title }, headers });
  expect(response.status).toBe(201);
  return TodoResponse.parse(response.body).todo;
}

async function cursorOf(instance: Instance, userId = ALICE): Promise<string> {
  return TodosResponse.parse((await callOn(instance, userId, { path: '/todo/fetch-todo' })).body).cursor;
}

async function waitFor(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the wire format', () => {
  test('text/event-stream, no caching or proxy buffering; retry first, then ready at the current cursor', async () => {
    const a = await startInstance();
    await add(a, 'before the stream');
    const cursor = await cursorOf(a);
    const stream = await open(a, { userId: ALICE });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(await stream.next()).toEqual({ kind: 'retry', ms: 2000 });
    expect(await stream.next()).toEqual({ kind: 'event', event: 'ready', id: cursor, data: JSON.stringify({ cursor }) });
    expect(stream.raw).toBe(`retry: 2000\n\nevent: ready\nid: ${cursor}\ndata: {"cursor":"${cursor}"}\n\n`);

    const todo = await add(a, 'live', ALICE, { [CLIENT_ID_HEADER]: 'page-1' });
    const change = await nextChange(stream);
    expect(change).toEqual({ id: expect.any(String), origin: 'page-1', saved: [todo], removed: [] });
    expect(stream.raw.endsWith(`event: change\nid: ${change.id}\ndata: ${JSON.stringify(change)}\n\n`)).toBe(true);
  });

  test('heartbeat: a `: ping` comment every heartbeat interval', async () => {
    const a = await startInstance({ heartbeatMs: 100 });
    const { stream } = await openReady(a, { userId: ALICE });
    expect(await stream.next(1_000)).toEqual({ kind: 'comment', text: 'ping' });
    expect(await stream.next(1_000)).toEqual({ kind: 'comment', text: 'ping' });
    expect(stream.raw).toMatch(/\n\n: ping\n\n: ping\n\n$/);
  });
});

describe('live changes', () => {
  test('a bulk undo is one change event: saved = the restored tasks as they now are, in list order', async () => {
    const a = await startInstance();
    const [one, two] = [await add(a, 'one'), await add(a, 'two'), await add(a, 'open')];
    for (const todo of [one, two]) {
      await callOn(a, ALICE, { method: 'PUT', path: `/todo/update-todo/${todo?._id}`, body: { updateData: { completed: true } } });
    }
    const cleared = BulkTodosResponse.parse((await callOn(a, ALICE, { method: 'DELETE', path: '/todo/clear-completed' })).body);
    const { stream } = await openReady(a, { userId: ALICE });
    const undo = (undoToken: unknown) => ({ method: 'POST', path: '/todo/restore-bulk', body: { undoToken }, headers: { [CLIENT_ID_HEADER]: 'tab-1' } });
    const restored = RestoreBulkResponse.parse((await callOn(a, ALICE, undo(cleared.undoToken))).body);
    expect(restored.todos.map((todo) => [todo.title, todo.completed, typeof todo.completedAt])).toEqual([['two', true, 'string'], ['one', true, 'string']]);
    expect(await nextChange(stream)).toEqual({ id: expect.any(String), origin: 'tab-1', saved: restored.todos, removed: [] });
    await stream.expectSilence(200);

    const completed = BulkTodosResponse.parse((await callOn(a, ALICE, { method: 'PUT', path: '/todo/complete-all', body: { completed: false } })).body);
    expect((await nextChange(stream)).saved.map((todo) => [todo.title, todo.completedAt])).toEqual([['two', null], ['one', null]]);
    const reopened = RestoreBulkResponse.parse((await callOn(a, ALICE, undo(completed.undoToken))).body);
    expect(reopened.todos).toEqual(restored.todos);
    expect(await nextChange(stream)).toEqual({ id: expect.any(String), origin: 'tab-1', saved: reopened.todos, removed: [] });
    // A refused undo (spent token) sends nothing.
    expect((await callOn(a, ALICE, undo(completed.undoToken))).status).toBe(404);
    await stream.expectSilence(200);
  });

  test('every write is one change event: add, edit, delete, restore, and a bulk action as one event', async () => {
    const a = await startInstance();
    const { stream, cursor } = await openReady(a, { userId: ALICE });
    const one = await add(a, 'one');
    const two = await add(a, 'two');
    const put = await callOn(a, ALICE, { method: 'PUT', path: `/todo/update-todo/${one._id}`, body: { updateData: { title: 'one!' } } });
    const edited = TodoResponse.parse(put.body).todo;
    await callOn(a, ALICE, { method: 'DELETE', path: `/todo/delete-todo/${two._id}` });
    await callOn(a, ALICE, { method: 'POST', path: `/todo/restore-todo/${two._id}` });
    await callOn(a, ALICE, { method: 'PUT', path: '/todo/complete-all', body: { completed: true } });
    await callOn(a, ALICE, { method: 'DELETE', path: '/todo/clear-completed' });

    const changes = [];
    for (let i = 0; i < 7; i += 1) changes.push(await nextChange(stream));
    expect(changes.map(({ saved, removed }) => ({ saved: saved.map((todo) => todo.title), removed }))).toEqual([
      { saved: ['one'], removed: [] },
      { saved: ['two'], removed: [] },
      { saved: ['one!'], removed: [] },
      { saved: [], removed: [two._id] },
      { saved: ['two'], removed: [] },
      { saved: ['two', 'one!'], removed: [] },
      { saved: [], removed: [two._id, one._id] },
    ]);
    expect(changes[2]?.saved).toEqual([edited]);
    const ids = changes.map((change) => BigInt(change.id));
    expect(ids[0]).toBeGreaterThan(BigInt(cursor));
    ids.slice(1).forEach((id, index) => expect(id).toBeGreaterThan(ids[index] ?? 0n));
    expect(await cursorOf(a)).toBe(changes[6]?.id);
    // A write that changes nothing sends nothing.
    await callOn(a, ALICE, { method: 'PUT', path: '/todo/complete-all', body: { completed: true } });
    await stream.expectSilence(200);
  });

  test("users are isolated: a stream never carries another user's change, live or replayed", async () => {
    const a = await startInstance();
    const start = await cursorOf(a, BOB);
    const { stream: bobs } = await openReady(a, { userId: BOB });
    const { stream: alices } = await openReady(a, { userId: ALICE });
    await add(a, 'alice 1');
    await add(a, 'alice 2');
    const bobsTodo = await add(a, 'bob 1', BOB);
    expect((await nextChange(bobs)).saved).toEqual([bobsTodo]);
    expect((await nextChange(alices)).saved[0]?.title).toBe('alice 1');
    expect((await nextChange(alices)).saved[0]?.title).toBe('alice 2');
    await alices.expectSilence(150);
    const replay = await openReady(a, { userId: BOB, query: `?after=${start}` });
    expect(changesOf(replay.before).map((change) => change.saved)).toEqual([[bobsTodo]]);
  });

  test('the origin is the writing page’s X-Client-Id, or null when it is absent or malformed', async () => {
    const a = await startInstance();
    const { stream } = await openReady(a, { userId: ALICE });
    await add(a, 'mine', ALICE, { [CLIENT_ID_HEADER]: 'tab_A-1' });
    await add(a, 'no header');
    await add(a, 'bad header', ALICE, { [CLIENT_ID_HEADER]: 'not valid!' });
    expect([(await nextChange(stream)).origin, (await nextChange(stream)).origin, (await nextChange(stream)).origin]).toEqual(['tab_A-1', null, null]);
  });

  test('concurrent writes arrive once each, in id order, whatever order the notices come in', async () => {
    const bus = new InProcessTodoEventBus();
    const a = await startInstance({}, bus);
    const { stream, cursor } = await openReady(a, { userId: ALICE });
    // Stale, duplicate and premature notices only make the stream look again: they never send anything twice.
    bus.publish({ userId: ALICE, id: '999999' });
    bus.publish({ userId: ALICE, id: cursor });
    await stream.expectSilence(100);
    const added = await Promise.all(Array.from({ length: 20 }, (_, i) => add(a, `t${i}`)));
    bus.publish({ userId: ALICE, id: '1' });
    const changes = [];
    for (let i = 0; i < 20; i += 1) changes.push(await nextChange(stream));
    const ids = changes.map((change) => Number(change.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(20);
    expect(new Set(changes.map((change) => change.saved[0]?._id))).toEqual(new Set(added.map((todo) => todo._id)));
    await stream.expectSilence(150);
  });
});

describe('resuming', () => {
  test('?after=<the list cursor> replays exactly the changes since, in order, then ready', async () => {
    const a = await startInstance();
    await add(a, 'before');
    const cursor = await cursorOf(a);
    const first = await add(a, 'first');
    await callOn(a, ALICE, { method: 'DELETE', path: `/todo/delete-todo/${first._id}` });
    const third = await add(a, 'third');
    const { before, cursor: ready } = await openReady(a, { userId: ALICE, query: `?after=${cursor}` });
    expect(before[0]).toEqual({ kind: 'retry', ms: 2000 });
    const replayed = changesOf(before);
    expect(replayed.map(({ saved, removed }) => ({ saved, removed }))).toEqual([
      { saved: [first], removed: [] },
      { saved: [], removed: [first._id] },
      { saved: [third], removed: [] },
    ]);
    expect(ready).toBe(replayed[2]?.id);
    expect(ready).toBe(await cursorOf(a));
  });

  test('Last-Event-ID wins over ?after and resumes with no gap and no repeat', async () => {
    const a = await startInstance();
    const start = await cursorOf(a);
    const { stream: first } = await openReady(a, { userId: ALICE, query: `?after=${start}` });
    await add(a, 'seen 1');
    await add(a, 'seen 2');
    await nextChange(first);
    const lastSeen = await nextChange(first);
    first.close();
    await waitFor(() => a.app.streams.size === 0);
    const missed = [await add(a, 'missed 1'), await add(a, 'missed 2')];
    const resumed = await openReady(a, { userId: ALICE, lastEventId: lastSeen.id, query: `?after=${start}` });
    expect(changesOf(resumed.before).map((change) => change.saved)).toEqual(missed.map((todo) => [todo]));
    const live = await add(a, 'live');
    expect((await nextChange(resumed.stream)).saved).toEqual([live]);
  });

  test('at the current cursor there is nothing to replay: ready only', async () => {
    const a = await startInstance();
    await add(a, 'x');
    const cursor = await cursorOf(a);
    const { before, cursor: ready } = await openReady(a, { userId: ALICE, lastEventId: cursor });
    expect(before).toEqual([{ kind: 'retry', ms: 2000 }]);
    expect(ready).toBe(cursor);
  });

  test('a resume point older than the feed keeps (or from the future) gets reset at the current cursor, then ready', async () => {
    const a = await startInstance();
    await add(a, 'old 1');
    await add(a, 'old 2');
    skewMs = 11 * 60_000;
    const recent = await add(a, 'recent');
    const cursor = await cursorOf(a);
    expect((await a.store.sweep()).trimmedEvents).toBe(2);
    for (const resume of [{ query: '?after=0' }, { lastEventId: '1' }, { lastEventId: String(Number(cursor) + 100) }]) {
      const { before, cursor: ready, stream } = await openReady(a, { userId: ALICE, ...resume });
      expect(before).toEqual([
        { kind: 'retry', ms: 2000 },
        { kind: 'event', event: 'reset', id: cursor, data: JSON.stringify({ cursor }) },
      ]);
      expect(ready).toBe(cursor);
      stream.close();
    }
    // The watermark itself is still a complete resume point.
    const atWatermark = await openReady(a, { userId: ALICE, query: '?after=2' });
    expect(changesOf(atWatermark.before).map((change) => change.saved)).toEqual([[recent]]);
  });

  test.each([
    ['Last-Event-ID: abc', { lastEventId: 'abc' }, 'Last-Event-ID'],
    ['Last-Event-ID: -1', { lastEventId: '-1' }, 'Last-Event-ID'],
    ['a Last-Event-ID of 17 digits', { lastEventId: '1'.repeat(17) }, 'Last-Event-ID'],
    ['?after=1.5', { query: '?after=1.5' }, 'after'],
    ['?after given twice', { query: '?after=1&after=2' }, 'after'],
  ])('a malformed resume point (%s) is a 400 in the usual error shape', async (_name, options, field) => {
    const a = await startInstance();
    const stream = await open(a, { userId: ALICE, ...options });
    expect(stream.status).toBe(400);
    expect(stream.headers['content-type']).toMatch(/^application\/json/);
    const body = ErrorBody.parse(stream.body);
    expect(body).toMatchObject({ code: ErrorCode.validation, issues: [{ path: [field] }] });
    expect(a.app.streams.size).toBe(0);
  });
});

describe("each user's own cursor (no global sequence)", () => {
  test("another user's 50 changes move neither A's list cursor nor A's stream; A's next change is A's cursor + 1", async () => {
    // A short heartbeat: A's streams read the feed again and again while B writes, and still send nothing.
    const a = await startInstance({ heartbeatMs: 50 });
    await add(a, 'alice 1');
    await add(a, 'alice 2');
    const cursor = await cursorOf(a);
    expect(cursor).toBe('2');
    const alices = await openReady(a, { userId: ALICE, query: `?after=${cursor}` });
    expect(alices.cursor).toBe(cursor);
    const { stream: bobs } = await openReady(a, { userId: BOB });

    // B: 25 adds and 25 edits.
    for (let i = 0; i < 25; i += 1) {
      const todo = await add(a, `bob ${i}`, BOB);
      const put = await callOn(a, BOB, { method: 'PUT', path: `/todo/update-todo/${todo._id}`, body: { updateData: { completed: true } } });
      expect(put.status).toBe(200);
    }
    const bobsIds: string[] = [];
    for (let i = 0; i < 50; i += 1) bobsIds.push((await nextChange(bobs)).id);
    // B's numbers are B's own: 1 … 50, whatever A did before.
    expect(bobsIds).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
    expect(await cursorOf(a, BOB)).toBe('50');

    // A: the same list cursor, a silent stream, and any new stream stands exactly where A was.
    await alices.stream.expectSilence(300);
    expect(await cursorOf(a)).toBe(cursor);
    const resumed = await openReady(a, { userId: ALICE, query: `?after=${cursor}` });
    expect(resumed.before).toEqual([{ kind: 'retry', ms: 2000 }]);
    expect(resumed.cursor).toBe(cursor);
    const reconnected = await openReady(a, { userId: ALICE, lastEventId: cursor });
    expect(reconnected.before).toEqual([{ kind: 'retry', ms: 2000 }]);
    expect(reconnected.cursor).toBe(cursor);
    expect((await openReady(a, { userId: ALICE })).cursor).toBe(cursor);

    // A's next change is A's previous cursor + 1, on every stream of A's and in A's list.
    const todo = await add(a, 'alice 3');
    const next = String(Number(cursor) + 1);
    expect(await nextChange(alices.stream)).toEqual({ id: next, origin: null, saved: [todo], removed: [] });
    expect((await nextChange(resumed.stream)).id).toBe(next);
    expect((await nextChange(reconnected.stream)).id).toBe(next);
    expect(await cursorOf(a)).toBe(next);
    await bobs.expectSilence(100);
  });

  test('after the migration from one global sequence, a cursor a page held still resumes right (replay or reset)', async () => {
    // The file as svc-todos left it before ids 1–3 trimmed, 10–11 purged with an account.
    const CAROL = new ObjectId().toHexString();
    const todos = writeGlobalFeedFile(dir.dir, {
      events: [
        { id: 4, userId: ALICE, title: 'alice 4' },
        { id: 5, userId: BOB, title: 'bob 5' },
        { id: 7, userId: ALICE, title: 'alice 7' },
        { id: 8, userId: BOB, title: 'bob 8' },
      ],
      trimmedThrough: 3,
      sequence: 11,
    });
    const a = await startInstance();
    expect(await cursorOf(a)).toBe('7');
    // Alice's page read its list when the global sequence stood at 5: it missed exactly her change 7.
    const replay = await openReady(a, { userId: ALICE, query: '?after=5' });
    expect(changesOf(replay.before)).toEqual([{ id: '7', origin: null, saved: [todos.get(7)], removed: [] }]);
    expect(replay.cursor).toBe('7');
    // Before her watermark (events may be gone), or ahead of her feed (the global sequence at the upgrade):
    // reset at her own cursor, then ready.
    for (const lastEventId of ['2', '11']) {
      const { before, cursor } = await openReady(a, { userId: ALICE, lastEventId });
      expect(before).toEqual([{ kind: 'retry', ms: 2000 }, { kind: 'event', event: 'reset', id: '7', data: '{"cursor":"7"}' }]);
      expect(cursor).toBe('7');
    }
    // Carol's events were all trimmed: she starts over at 0.
    const carols = await openReady(a, { userId: CAROL, lastEventId: '9' });
    expect(carols.before).toEqual([{ kind: 'retry', ms: 2000 }, { kind: 'event', event: 'reset', id: '0', data: '{"cursor":"0"}' }]);
    // From here on, one more per own write.
    const todo = await add(a, 'alice next');
    expect(await nextChange(replay.stream)).toEqual({ id: '8', origin: null, saved: [todo], removed: [] });
    await carols.stream.expectSilence(100);
    const carolsTodo = await add(a, 'carol', CAROL);
    expect(await nextChange(carols.stream)).toEqual({ id: '1', origin: null, saved: [carolsTodo], removed: [] });
  });
});

/**
 * A user's backlog of at least `bytes` of change events, written through the store as the routes write
 * them: tasks with 500-character titles, then "Mark all complete" and "Mark all active" in turns, each one
 * event carrying every task. Resolves how many events it wrote.
 */
async function backlog(instance: Instance, bytes: number, userId = ALICE): Promise<number> {
  const tasks = 300;
  for (let i = 0; i < tasks; i += 1) await instance.store.create(userId, `${String(i).padStart(4, '0')} ${'x'.repeat(495)}`);
  let written = tasks * 600;
  let events = tasks;
  for (let round = 0; written < bytes; round += 1) {
    await instance.store.setAllCompleted(userId, round % 2 === 0);
    written += tasks * 600;
    events += 1;
  }
  return events;
}

/** The stream's answer with its body left unread (the client reads nothing until told): a slow or stuck client. */
function openUnread(instance: Instance, userId: string, query: string): Promise<IncomingMessage> {
  const path = `/todo/events${query}`;
  const requestId = randomUUID();
  return new Promise((resolve, reject) => {
    const req = request(`${instance.url}${path}`, {
      agent: false,
      headers: { accept: 'text/event-stream', 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { method: 'GET', url: path, userId, requestId }) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.pause();
      resolve(res);
    });
    req.end();
  });
}

/** Reads the rest of an answer (resumed) up to its `ready` event; resolves the events and the bytes read. */
function readUntilReady(res: IncomingMessage): Promise<{ frames: { event: string; id: string; data: string }[]; bytes: number }> {
  return new Promise((resolve, reject) => {
    let text = '';
    let bytes = 0;
    const frames: { event: string; id: string; data: string }[] = [];
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
      text += chunk;
      let end: number;
      while ((end = text.indexOf('\n\n')) !== -1) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
        if (!block.startsWith('event: ')) continue;
        frames.push({ event: field('event'), id: field('id'), data: field('data') });
        if (field('event') === 'ready') {
          res.destroy();
          resolve({ frames, bytes });
          return;
        }
      }
    });
    res.on('error', reject);
    res.on('close', () => reject(new Error(`the stream ended before ready, after ${frames.length} events`)));
    res.resume();
  });
}

describe('a resume behind by more than a connection takes at once (PRODUCT §10.11.5)', () => {
  test('3 MiB of missed changes stream in full, in order, then ready, to a client that reads nothing for a while', async () => {
    const a = await startInstance();
    const cursor = await cursorOf(a);
    const events = await backlog(a, 3 * 1024 * 1024);
    const res = await openUnread(a, ALICE, `?after=${cursor}`);
    expect(res.statusCode).toBe(200);
    // The client takes nothing for a while: the stream waits for it, it neither fails nor gives up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(a.app.streams.size).toBe(1);
    const { frames, bytes } = await readUntilReady(res);
    expect(bytes).toBeGreaterThan(3 * 1024 * 1024);
    const changes = frames.filter((frame) => frame.event === 'change');
    expect(frames.filter((frame) => frame.event === 'reset')).toEqual([]);
    expect(changes).toHaveLength(events);
    // Every change once, in order, each one above the one before: 1, 2, 3 … after the cursor.
    expect(changes.map((frame) => Number(frame.id))).toEqual(Array.from({ length: events }, (_, i) => Number(cursor) + i + 1));
    for (const frame of changes) expect(TodoChangeEvent.parse(JSON.parse(frame.data)).id).toBe(frame.id);
    expect(frames.at(-1)).toEqual({ event: 'ready', id: String(Number(cursor) + events), data: JSON.stringify({ cursor: String(Number(cursor) + events) }) });
    expect(await cursorOf(a)).toBe(String(Number(cursor) + events));
  });

  test('a client that takes nothing at all is cut off after stallMs; its resume from where it stopped gets the rest', async () => {
    const a = await startInstance({ stallMs: 300 });
    const cursor = await cursorOf(a);
    // Larger than every buffer between the two ends (the sockets' too), so the stream has to wait for it.
    const events = await backlog(a, 8 * 1024 * 1024);
    const res = await openUnread(a, ALICE, `?after=${cursor}`);
    expect(res.statusCode).toBe(200);
    await waitFor(() => a.app.streams.size === 0, 10_000);
    // What reached the client before it was cut off, read now: some changes, no ready, then the end.
    const received = await new Promise<string>((resolve) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('close', () => resolve(text));
      res.on('error', () => undefined);
      res.resume();
    });
    expect(received).not.toContain('event: ready');
    const ids = [...received.matchAll(/^event: change\nid: (\d+)\ndata: .*\n\n/gm)].map((match) => match[1]!);
    expect(ids.length).toBeLessThan(events);
    // The browser reconnects with the last event it got (here to another process, whose clients may be as
    // slow as a busy test machine makes them): the rest, then ready.
    const b = await startInstance();
    const { before, cursor: ready } = await openReady(b, { userId: ALICE, lastEventId: ids.at(-1) ?? cursor, query: `?after=${cursor}` });
    expect(changesOf(before).map((change) => Number(change.id))).toEqual(Array.from({ length: events - ids.length }, (_, i) => Number(cursor) + ids.length + i + 1));
    expect(ready).toBe(String(Number(cursor) + events));
  }, 60_000);
});

describe('several processes', () => {
  test('without a shared bus, a stream still catches up on its heartbeat (another process wrote)', async () => {
    const a = await startInstance();
    const b = await startInstance({ heartbeatMs: 150 });
    const { stream } = await openReady(b, { userId: ALICE });
    const todo = await add(a, 'written on A');
    expect((await nextChange(stream, 2_000)).saved).toEqual([todo]);
  });
});

describe('limits and shutdown', () => {
  test('more streams than the cap: 503 EVENTS.TOO_MANY_STREAMS; a closed stream frees its slot', async () => {
    const a = await startInstance({ maxStreams: 2 });
    const { stream: first } = await openReady(a, { userId: ALICE });
    await openReady(a, { userId: BOB });
    const refused = await open(a, { userId: ALICE });
    expect(refused.status).toBe(503);
    expect(ErrorBody.parse(refused.body)).toEqual({ message: expect.any(String), code: ErrorCode.tooManyStreams });
    first.close();
    await waitFor(() => a.app.streams.size === 1);
    await openReady(a, { userId: ALICE });
  });

  test('a client that goes away releases its stream and its bus listener', async () => {
    const bus = new InProcessTodoEventBus();
    const a = await startInstance({ heartbeatMs: 50 }, bus);
    const { stream } = await openReady(a, { userId: ALICE });
    expect([a.app.streams.size, bus.listenerCount(ALICE)]).toEqual([1, 1]);
    stream.close();
    await waitFor(() => a.app.streams.size === 0);
    expect(bus.listenerCount(ALICE)).toBe(0);
    // Writes after the close find no stream to wake, and nothing fails.
    await add(a, 'nobody listens');
  });

  test('drain ends every open stream at once and refuses new ones with 503', async () => {
    const a = await startInstance();
    const { stream: one } = await openReady(a, { userId: ALICE });
    const { stream: two } = await openReady(a, { userId: BOB });
    a.app.drain();
    await Promise.all([one.ended(), two.ended()]);
    expect(a.app.streams.size).toBe(0);
    const refused = await open(a, { userId: ALICE });
    expect(refused.status).toBe(503);
    expect(ErrorBody.parse(refused.body).code).toBe(ErrorCode.unavailable);
  });
});
