// IndexedDB's classes as globals (idb checks values against them), and a factory per simulated device.
import 'fake-indexeddb/auto';
import { createServer } from 'node:net';
import { IDBFactory } from 'fake-indexeddb';
import { ErrorCode, LIMITS, type ChangesResponse, type HistoryResponse, type SyncCommand, type TodoResponse, type TodosResponse } from '@tm/contracts';
import { signUp, startStack, startTcpRelay, type ApiClient, type RunningStack, type TcpRelay } from '@tm/test-support';
import { SyncEngine, type SyncEngineOptions, type SyncStatus } from './engine.js';
import { Outbox } from './outbox-db.js';
import { addTaskCommand, clearCompletedCommand, completeAllCommand, deleteTaskCommand, updateTaskCommand } from './sync.domain.js';
import { createFetchTransport, retryAfterMs, SyncTransportError, type SyncTransport } from './transport.js';

/**
 * The sync engine (docs/PRODUCT.md §10.4) against the real gateway and services over real HTTP: changes made
 * offline are kept, shown at once and sent in order when the network is back, each applied once; refusals are
 * kept with the server's words; failures back off; a device catches up from the change feed.
 */

let stack: RunningStack;
let relay: TcpRelay;
/** The gateway as a device reaches it: through a relay that can cut the network. */
let origin: string;

beforeAll(async () => {
  stack = await startStack();
  const gateway = new URL(stack.url);
  relay = await startTcpRelay({ host: gateway.hostname, port: Number(gateway.port) });
  origin = `http://${relay.host}:${relay.port}`;
});
afterEach(async () => {
  await relay.restore();
});
afterAll(async () => {
  await relay?.close();
  await stack?.stop();
});

const engines: SyncEngine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop();
});

/** Every sync call a device made: the commands sent, and the answers when they came. */
interface CallLog {
  sync: SyncCommand[][];
  other: string[];
}

/** The fetch transport of `client`'s session, with each call logged (the calls themselves are real). */
function loggedTransport(client: ApiClient, log: CallLog, at: string = origin): SyncTransport {
  const transport = createFetchTransport({ origin: at, cookies: client.cookies, timeoutMs: 5000 });
  return {
    sync: (commands) => {
      log.sync.push(commands);
      return transport.sync(commands);
    },
    changes: (after) => {
      log.other.push(`changes ${after}`);
      return transport.changes(after);
    },
    fetchList: () => {
      log.other.push('fetch');
      return transport.fetchList();
    },
  };
}

/** A device of `client`'s user: its own IndexedDB, no browser events, no jitter. */
async function device(client: ApiClient, userId: string, options: Partial<SyncEngineOptions> & { log?: CallLog } = {}): Promise<SyncEngine> {
  const log = options.log ?? { sync: [], other: [] };
  const engine = new SyncEngine({ userId, transport: loggedTransport(client, log), indexedDB: new IDBFactory(), listenToBrowser: false, random: () => 0, ...options });
  engines.push(engine);
  await engine.start();
  return engine;
}

/** Resolves once `engine`'s status satisfies `test`. */
function until(engine: SyncEngine, test: (status: SyncStatus) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (test(engine.status())) return resolve();
    const stop = engine.subscribe(() => {
      if (!test(engine.status())) return;
      stop();
      resolve();
    });
  });
}

const serverList = async (client: ApiClient) => (await client.get<TodosResponse>('/api/todo/fetch-todo')).body;
const feed = async (client: ApiClient, after = '0') => (await client.get<ChangesResponse>(`/api/todo/changes?after=${after}`)).body;
const strip = (todos: { _id: string; title: string; completed: boolean; isPinned: boolean }[]) => todos.map(({ title, completed, isPinned }) => ({ title, completed, isPinned }));

describe('SyncEngine against the real stack', () => {
  it('adopts a list read while its own add was on its way, the server holding it already: the task shows once', async () => {
    const { client, user } = await signUp(stack.url);
    const real = createFetchTransport({ origin, cookies: client.cookies, timeoutMs: 5000 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let applied: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => {
      applied = resolve;
    });
    // The server applies the add at once; its answer is held on the way back.
    const transport: SyncTransport = {
      ...real,
      sync: async (commands) => {
        const answer = await real.sync(commands);
        applied();
        await held;
        return answer;
      },
    };
    const engine = await device(client, user._id, { transport });
    await engine.flush();
    await client.post('/api/todo/add-todo', { title: 'From another device' });
    const add = addTaskCommand('Buy milk');
    await engine.enqueue(add.command);
    const flushed = engine.flush();
    await atServer;
    // The page reads the whole list meanwhile (a focus, a reconnect): the server's Buy milk is that add.
    await engine.adopt(await serverList(client));
    const titles = () => engine.view().map((todo) => todo.title).sort();
    expect(titles()).toEqual(['Buy milk', 'From another device']);
    expect(engine.view().some((todo) => todo._id === add.tempId)).toBe(false);
    release();
    await flushed;
    expect(titles()).toEqual(['Buy milk', 'From another device']);
    expect(strip((await serverList(client)).todos).map((todo) => todo.title).sort()).toEqual(['Buy milk', 'From another device']);
  });

  it('keeps changes made offline, shows them at once, and sends them in order when the network is back: each applied once', async () => {
    const { client, user } = await signUp(stack.url);
    const log: CallLog = { sync: [], other: [] };
    const engine = await device(client, user._id, { log });
    await engine.flush();
    expect(engine.status()).toMatchObject({ fresh: true, pending: 0 });

    await relay.cut();
    const milk = addTaskCommand('Buy milk');
    const bread = addTaskCommand('Buy bread');
    await engine.enqueue(milk.command);
    await engine.enqueue(bread.command);
    await engine.flush();
    expect(engine.status()).toMatchObject({ offline: true, pending: 2 });
    expect(engine.status().nextRetryAt).not.toBeNull();
    const shownMilk = engine.view().find((todo) => todo._id === milk.tempId)!;
    await engine.enqueue(updateTaskCommand(shownMilk, { title: 'Buy oat milk', isPinned: true }));
    await engine.enqueue(updateTaskCommand(engine.view().find((todo) => todo._id === bread.tempId)!, { completed: true }));
    expect(strip(engine.view())).toEqual([
      { title: 'Buy oat milk', completed: false, isPinned: true },
      { title: 'Buy bread', completed: true, isPinned: false },
    ]);
    expect(engine.status().pending).toBe(4);
    expect(engine.status().oldestPendingAt).not.toBeNull();
    expect(strip((await serverList(client)).todos)).toEqual([]);

    await relay.restore();
    await engine.flush();
    expect(engine.status()).toMatchObject({ offline: false, pending: 0, lastError: null, refused: [] });
    const { todos } = await serverList(client);
    expect(strip(todos)).toEqual(strip(engine.view()));
    expect(engine.view()).toEqual(todos);
    // Each change once: two adds and two edits are four events in the feed.
    expect((await feed(client)).changes).toHaveLength(4);
    // The last call carried the four commands in the order made, the edits naming the tasks by temp id.
    expect(log.sync.at(-1)!.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /todo/add-todo',
      'POST /todo/add-todo',
      `PUT /todo/update-todo/${milk.tempId}`,
      `PUT /todo/update-todo/${bread.tempId}`,
    ]);
    expect(engine.resolveId(milk.tempId)).toBe(todos.find((todo) => todo.title === 'Buy oat milk')!._id);
  });

  it('a priority and labels changed offline are queued, shown at once, and merged like any field: the later change wins, the value it replaced in the history (PRODUCT §10.20)', async () => {
    const { client, user } = await signUp(stack.url);
    const engine = await device(client, user._id);
    const added = (await client.post<TodoResponse>('/api/todo/add-todo', { title: 'Post the letter', priority: 3, labels: ['errand'] })).body.todo;
    await engine.flush();
    const shown = engine.view().find((todo) => todo._id === added._id)!;
    expect(shown).toEqual(added);

    await relay.cut();
    await engine.enqueue(updateTaskCommand(shown, { priority: 1, labels: ['town', 'Errand'] }));
    await engine.flush();
    expect(engine.status()).toMatchObject({ offline: true, pending: 1 });
    // On the device at once, as the server will keep it.
    expect(engine.view()).toEqual([expect.objectContaining({ _id: added._id, priority: 1, labels: ['Errand', 'town'] })]);
    // Meanwhile another device sets another priority.
    expect((await client.put(`/api/todo/update-todo/${added._id}`, { updateData: { priority: 2 } })).status).toBe(200);

    await relay.restore();
    await engine.flush();
    expect(engine.status()).toMatchObject({ offline: false, pending: 0, lastError: null, refused: [] });
    const { todos } = await serverList(client);
    expect(todos).toEqual([expect.objectContaining({ _id: added._id, priority: 1, labels: ['Errand', 'town'] })]);
    expect(engine.view()).toEqual(todos);
    const { entries } = (await client.get<HistoryResponse>(`/api/todo/history/${added._id}`)).body;
    expect(entries.map(({ field, before, after, conflict }) => [field, before, after, conflict])).toEqual([
      ['priority', 2, 1, true],
      ['labels', 'errand', 'Errand,town', false],
      ['priority', 3, 2, false],
    ]);
  });

  it('a note and a subtask tick made offline are queued, shown at once, and merged field by field with another device\'s change (PRODUCT §10.21)', async () => {
    const { client, user } = await signUp(stack.url);
    const engine = await device(client, user._id);
    const milk = { id: 'milk', title: 'Buy milk', done: false };
    const added = (await client.post<TodoResponse>('/api/todo/add-todo', { title: 'Shop', note: 'Saturday', subtasks: [milk] })).body.todo;
    await engine.flush();
    const shown = engine.view().find((todo) => todo._id === added._id)!;
    expect(shown).toEqual(added);

    await relay.cut();
    await engine.enqueue(updateTaskCommand(shown, { note: ' Saturday, before noon \n' }));
    await engine.enqueue(updateTaskCommand(engine.view()[0]!, { subtasks: [{ ...milk, done: true }] }));
    await engine.flush();
    expect(engine.status()).toMatchObject({ offline: true, pending: 2 });
    // On the device at once, as the server will keep it.
    expect(engine.view()).toEqual([expect.objectContaining({ _id: added._id, note: 'Saturday, before noon', subtasks: [{ ...milk, done: true }] })]);
    // Meanwhile another device renames the task: another field, so both changes stay.
    expect((await client.put(`/api/todo/update-todo/${added._id}`, { updateData: { title: 'Shop for the weekend' } })).status).toBe(200);

    await relay.restore();
    await engine.flush();
    expect(engine.status()).toMatchObject({ offline: false, pending: 0, lastError: null, refused: [] });
    const { todos } = await serverList(client);
    expect(todos).toEqual([expect.objectContaining({ _id: added._id, title: 'Shop for the weekend', note: 'Saturday, before noon', subtasks: [{ ...milk, done: true }] })]);
    expect(engine.view()).toEqual(todos);
    const { entries } = (await client.get<HistoryResponse>(`/api/todo/history/${added._id}`)).body;
    expect(entries.map(({ field, conflict }) => [field, conflict])).toEqual([
      ['subtasks', false],
      ['note', false],
      ['title', false],
    ]);
  });

  it('sends an add, an edit and a delete of the same new task in one call: the task comes and goes, no refusal', async () => {
    const { client, user } = await signUp(stack.url);
    const indexedDB = new IDBFactory();
    // Made offline before a reload: already in the outbox when the engine starts.
    const outbox = await Outbox.open(user._id, { indexedDB });
    const add = addTaskCommand('Short-lived');
    const shown = { _id: add.tempId, title: 'Short-lived', completed: false, isPinned: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), completedAt: null };
    const at = new Date().toISOString();
    await outbox.write({
      add: [add.command, updateTaskCommand(shown, { title: 'Renamed' }), deleteTaskCommand(add.tempId)].map((command) => ({ command, createdAt: at, state: 'queued' as const })),
    });
    outbox.close();
    await client.post('/api/todo/add-todo', { title: 'Stays' });

    const log: CallLog = { sync: [], other: [] };
    const engine = await device(client, user._id, { indexedDB, log });
    expect(engine.status().pending).toBe(3);
    await engine.flush();
    expect(log.sync).toHaveLength(1);
    expect(log.sync[0]!.map(({ id }) => id)).toHaveLength(3);
    expect(engine.status()).toMatchObject({ pending: 0, refused: [] });
    expect(strip(engine.view())).toEqual([{ title: 'Stays', completed: false, isPinned: false }]);
    expect(strip((await serverList(client)).todos)).toEqual([{ title: 'Stays', completed: false, isPinned: false }]);
    const events = (await feed(client)).changes;
    expect(events).toHaveLength(4);
    expect(events[1]!.saved.map(({ title }) => title)).toEqual(['Short-lived']);
    expect(events[2]!.saved.map(({ title }) => title)).toEqual(['Renamed']);
    expect(events[3]!.removed).toEqual([events[1]!.saved[0]!._id]);
  });

  it('a call whose answer was lost is sent again and applied once: the same answers, no duplicate', async () => {
    const { client, user } = await signUp(stack.url);
    const log: CallLog = { sync: [], other: [] };
    const real = loggedTransport(client, log);
    const answers: unknown[] = [];
    let lose = true;
    // The server applies the first call, but its answer never reaches the device (a connection cut on the way back).
    const transport: SyncTransport = {
      ...real,
      sync: async (commands) => {
        const answer = await real.sync(commands);
        answers.push(answer);
        if (lose) {
          lose = false;
          throw new SyncTransportError('The connection was cut', null);
        }
        return answer;
      },
    };
    const indexedDB = new IDBFactory();
    const outbox = await Outbox.open(user._id, { indexedDB });
    const at = new Date().toISOString();
    await outbox.write({ add: [addTaskCommand('Once only').command, completeAllCommand(true)].map((command) => ({ command, createdAt: at, state: 'queued' as const })) });
    outbox.close();
    const engine = await device(client, user._id, { indexedDB, transport });
    await until(engine, (status) => status.offline);
    expect(engine.status()).toMatchObject({ pending: 2, offline: true });
    await engine.flush();
    expect(engine.status()).toMatchObject({ pending: 0, offline: false });
    expect(log.sync).toHaveLength(2);
    expect(log.sync[1]).toEqual(log.sync[0]);
    expect(answers[1]).toEqual(answers[0]);
    const { todos } = await serverList(client);
    expect(strip(todos)).toEqual([{ title: 'Once only', completed: true, isPinned: false }]);
    expect((await feed(client)).changes).toHaveLength(2);
    expect(engine.view()).toEqual(todos);
  });

  it('keeps refused changes with the server’s words until dismissed; the view drops them; the rest goes through', async () => {
    const { client, user } = await signUp(stack.url);
    const indexedDB = new IDBFactory();
    const engine = await device(client, user._id, { indexedDB });
    await engine.flush();
    const missing = '0123456789abcdef01234567';
    const blank = addTaskCommand('   ');
    const ghost = { _id: missing, title: 'Ghost', completed: false, isPinned: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), completedAt: null };
    await engine.enqueue(updateTaskCommand(ghost, { title: 'Gone elsewhere' }));
    await engine.enqueue(blank.command);
    await engine.enqueue(deleteTaskCommand(blank.tempId));
    await engine.enqueue(deleteTaskCommand(missing));
    await engine.enqueue(addTaskCommand('Fine').command);
    await engine.flush();

    const { refused, pending } = engine.status();
    expect(pending).toBe(0);
    expect(refused.map(({ status, code, taskId }) => ({ status, code, taskId }))).toEqual([
      { status: 404, code: ErrorCode.todoNotFound, taskId: missing },
      { status: 400, code: ErrorCode.validation, taskId: blank.tempId },
      { status: 424, code: ErrorCode.dependencyFailed, taskId: blank.tempId },
    ]);
    for (const entry of refused) expect(entry.message.length).toBeGreaterThan(5);
    expect(refused[0]!.message).toMatch(/not found/i);
    expect(strip(engine.view())).toEqual([{ title: 'Fine', completed: false, isPinned: false }]);
    expect(strip((await serverList(client)).todos)).toEqual([{ title: 'Fine', completed: false, isPinned: false }]);

    await engine.dismiss(refused[1]!.id);
    expect(engine.status().refused.map(({ status }) => status)).toEqual([404, 424]);
    // Kept on the device: a reload shows the same refusals.
    engine.stop();
    const reloaded = await device(client, user._id, { indexedDB });
    expect(reloaded.status().refused.map(({ status }) => status)).toEqual([404, 424]);
  });

  it('shows the last list at once after a reload, marked not yet refreshed, then brings it up to date', async () => {
    const { client, user } = await signUp(stack.url);
    const indexedDB = new IDBFactory();
    const first = await device(client, user._id, { indexedDB });
    await first.enqueue(addTaskCommand('Seen before').command);
    await first.flush();
    const lastSeen = first.view();
    const syncedAt = first.status().lastSyncAt;
    first.stop();
    await client.post('/api/todo/add-todo', { title: 'Added elsewhere' });

    await relay.cut();
    const second = await device(client, user._id, { indexedDB });
    expect(second.view()).toEqual(lastSeen);
    expect(second.status()).toMatchObject({ loaded: true, fresh: false, lastSyncAt: syncedAt });
    await second.flush();
    expect(second.status()).toMatchObject({ fresh: false, offline: true });

    await relay.restore();
    await second.flush();
    expect(second.status().fresh).toBe(true);
    expect(second.view()).toEqual((await serverList(client)).todos);
    expect(strip(second.view()).map(({ title }) => title)).toEqual(['Added elsewhere', 'Seen before']);
  });

  it('catches up page by page from the change feed, and from the whole list on a reset', async () => {
    const { client, user } = await signUp(stack.url);
    const laptopLog: CallLog = { sync: [], other: [] };
    const phoneLog: CallLog = { sync: [], other: [] };
    const phone = await device(client, user._id, { log: phoneLog });
    await phone.flush();
    // The laptop made 521 changes offline (already in its outbox when it starts).
    const laptopDb = new IDBFactory();
    const outbox = await Outbox.open(user._id, { indexedDB: laptopDb });
    const at = new Date().toISOString();
    const made = [...Array.from({ length: 520 }, (_, n) => addTaskCommand(`Task ${n + 1}`).command), clearCompletedCommand()];
    await outbox.write({ add: made.map((command) => ({ command, createdAt: at, state: 'queued' as const })) });
    outbox.close();
    const laptop = await device(client, user._id, { indexedDB: laptopDb, log: laptopLog });
    await laptop.flush();
    // 521 commands in calls of at most LIMITS.sync.commands.
    const max = LIMITS.sync.commands;
    expect(laptopLog.sync.map((call) => call.length)).toEqual(Array.from({ length: Math.ceil(521 / max) }, (_, n) => Math.min(max, 521 - n * max)));
    expect(laptopLog.sync.flat()).toEqual(made);
    expect(laptop.view()).toHaveLength(520);

    phoneLog.other.length = 0;
    await phone.pull();
    // 520 adds (the clear had nothing to clear): a page of 500, then the rest.
    expect(phoneLog.other).toEqual(['changes 0', 'changes 500']);
    expect(phone.view()).toEqual(laptop.view());
    expect(phone.view()).toEqual((await serverList(client)).todos);

    // A device whose cursor is ahead of the feed (data from before an account purge): a reset, then the whole list.
    const indexedDB = new IDBFactory();
    const stale = await Outbox.open(user._id, { indexedDB });
    const old = { _id: 'ffffffffffffffffffffffff', title: 'From long ago', completed: false, isPinned: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), completedAt: null };
    await stale.write({ snapshot: { todos: [old], lists: [], cursor: '999999', lastSyncAt: new Date().toISOString() } });
    stale.close();
    const tabletLog: CallLog = { sync: [], other: [] };
    const tablet = await device(client, user._id, { indexedDB, log: tabletLog });
    expect(tablet.view()).toEqual([old]);
    await tablet.pull();
    // The start's pull: the reset, then the whole list; the pull asked for goes on from the list's cursor.
    expect(tabletLog.other).toEqual(['changes 999999', 'fetch', `changes ${(await serverList(client)).cursor}`]);
    expect(tablet.view()).toEqual(laptop.view());
    expect(tablet.status().fresh).toBe(true);
  });

  it('applies live change events in order, skips those it has, and pulls after a gap', async () => {
    const { client, user } = await signUp(stack.url);
    const phone = await device(client, user._id);
    await phone.flush();
    for (const title of ['One', 'Two', 'Three']) await client.post('/api/todo/add-todo', { title });
    const events = (await feed(client)).changes;
    await phone.applyRemote(events[0]!);
    await phone.applyRemote(events[0]!);
    expect(strip(phone.view()).map(({ title }) => title)).toEqual(['One']);
    await phone.applyRemote(events[2]!);
    // Event 3 after 1: a gap; the pull it starts brings 2 and 3.
    await phone.pull();
    expect(strip(phone.view()).map(({ title }) => title)).toEqual(['Three', 'Two', 'One']);
  });

  it('stops on a 401 without retrying, and says the person is signed out', async () => {
    const { client, user } = await signUp(stack.url);
    const log: CallLog = { sync: [], other: [] };
    const signedOut = jest.fn();
    const engine = await device(client, user._id, { log, onSignedOut: signedOut });
    await engine.flush();
    await client.post('/api/user/logout');
    await engine.enqueue(addTaskCommand('After logout').command);
    await engine.flush();
    expect(engine.status()).toMatchObject({ signedOut: true, pending: 1, nextRetryAt: null });
    expect(signedOut).toHaveBeenCalledTimes(1);
    const calls = log.sync.length + log.other.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await engine.flush();
    expect(log.sync.length + log.other.length).toBe(calls);
  });
});

describe('createFetchTransport', () => {
  it('sends the session, the XSRF header and X-Client-Id (the feed names the device as origin); a failure says its status', async () => {
    const { client } = await signUp(stack.url);
    const transport = createFetchTransport({ origin: stack.url, cookies: client.cookies, clientId: 'laptop-1' });
    const add = addTaskCommand('Via fetch');
    const { results } = await transport.sync([add.command]);
    expect(results).toEqual([{ id: add.command.id, status: 201, body: expect.objectContaining({ todo: expect.objectContaining({ title: 'Via fetch' }) }) }]);
    const { changes, cursor } = await transport.changes('0');
    expect(changes.map(({ origin }) => origin)).toEqual(['laptop-1']);
    expect((await transport.fetchList()).cursor).toBe(cursor);

    const withoutXsrf = new Map([...client.cookies].filter(([name]) => name !== 'XSRF-TOKEN'));
    const refused = createFetchTransport({ origin: stack.url, cookies: withoutXsrf }).sync([addTaskCommand('No').command]);
    await expect(refused).rejects.toMatchObject({ name: 'SyncTransportError', status: 403 });
    const signedOut = createFetchTransport({ origin: stack.url, cookies: new Map() }).changes('0');
    await expect(signedOut).rejects.toMatchObject({ status: 401 });
  });

  it('reads Retry-After in seconds or as a date', () => {
    const now = Date.parse('2030-01-01T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 01 Jan 2030 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('SyncEngine backoff', () => {
  /** A loopback port nobody listens on: every call is refused at once. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('does not loop: calls to an unreachable server come at 1 s, 2 s, 4 s… apart, and new changes wait for the next try', async () => {
    const port = await closedPort();
    const times: number[] = [];
    const transport = createFetchTransport({ origin: `http://127.0.0.1:${port}`, cookies: new Map() });
    const counted: SyncTransport = {
      sync: (commands) => (times.push(Date.now()), transport.sync(commands)),
      changes: (after) => (times.push(Date.now()), transport.changes(after)),
      fetchList: () => (times.push(Date.now()), transport.fetchList()),
    };
    const engine = new SyncEngine({ userId: 'nobody', transport: counted, indexedDB: new IDBFactory(), listenToBrowser: false, random: () => 0 });
    engines.push(engine);
    await engine.start();
    await engine.enqueue(addTaskCommand('Waits').command);
    let made = 1;
    const started = Date.now();
    while (Date.now() - started < 3600) {
      // Changes made meanwhile are queued, not sent at once.
      await engine.enqueue(addTaskCommand('More').command);
      made += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(made).toBeGreaterThan(20);
    expect(engine.status()).toMatchObject({ offline: true, pending: made });
    // At 0 s (start), 1 s and 3 s: three calls, each gap at least the backoff.
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1990);
    expect(engine.status().nextRetryAt).toBeGreaterThan(Date.now());
  }, 15_000);
});
