// IndexedDB's classes as globals (idb checks values against them), and a factory per simulated device.
import 'fake-indexeddb/auto';
import { isDeepStrictEqual } from 'node:util';
import { IDBFactory } from 'fake-indexeddb';
import { ErrorCode, type ChangesResponse, type HistoryEntry, type HistoryResponse, type SyncCommand, type SyncResult, type Todo, type TodoChangeEvent, type TodosResponse } from '@tm/contracts';
import { ApiClient, signUp, startStack, startTcpRelay, type RunningStack, type TcpRelay } from '@tm/test-support';
import { audit, listDiff, seededRandom, type AnsweredCommand } from './convergence.test-helpers.js';
import { SyncEngine } from './engine.js';
import { actionOf, addTaskCommand, clearCompletedCommand, completeAllCommand, deleteTaskCommand, isTempId, outcomeOf, restoreTaskCommand, updateTaskCommand, type TaskFields } from './sync.domain.js';
import { createFetchTransport, type SyncTransport } from './transport.js';

/**
 * The convergence test of docs/PRODUCT.md §10.4: devices of one person, each running the app's own sync code
 * (SyncEngine, its IndexedDB outbox, the fetch transport) against the real gateway and services, each through
 * a relay that cuts, truncates and delays its connections at random and sometimes takes it offline; thousands
 * of random actions, many of them on the same few tasks and fields at once. At the end every device and the
 * server hold the same tasks, each add made one task, no acknowledged field edit is lost, and every overwritten
 * value is in the history (convergence.test-helpers.ts says what each check holds the server to).
 *
 * CONVERGENCE_SEED seeds every random choice: the actions, the relays' faults, the backoff's jitter (printed at the
 * start and in every failure; random when unset). The timing of the network still varies, so a run with the same
 * seed makes the same choices as far as the devices see the same lists. CONVERGENCE_OPS sets the number of
 * actions (10 000 by default), CONVERGENCE_DEVICES the number of devices (3 by default).
 */

const SEED = Number(process.env.CONVERGENCE_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
const OPERATIONS = Number(process.env.CONVERGENCE_OPS ?? 10_000);
const DEVICES = Number(process.env.CONVERGENCE_DEVICES ?? 3);

/** Field changes one task may be sent at most, so its history stays within one page (HISTORY_PAGE). */
const EDITS_PER_TASK = 120;
/** How many tasks the devices mostly work on at once: concurrent edits of the same task and field. */
const HOT_TASKS = 4;
/** Mark all complete/active and Clear completed, each at most this often in a run (each writes every task). */
const BULK_ACTIONS = 12;

let stack: RunningStack;
const relays: TcpRelay[] = [];

beforeAll(async () => {
  // Events kept longer than the run: the audit replays the whole feed.
  stack = await startStack({ env: { TODO_EVENTS_RETENTION_MS: String(60 * 60_000) } });
});
afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.close()));
  await stack?.stop();
});

/** What the devices made and what they were answered, as their transports saw it. */
class Journal {
  readonly made = new Map<string, { device: string; command: SyncCommand }>();
  readonly answers = new Map<string, AnsweredCommand>();
  /** How many times each command was sent. */
  readonly sends = new Map<string, number>();
  readonly problems: string[] = [];
  addsMade = 0;
  failedCalls = 0;
  replayedAnswers = 0;
  /** Field changes sent per task (by real id once known, by temp id before). */
  readonly edits = new Map<string, number>();

  record(device: string, command: SyncCommand): void {
    this.made.set(command.id, { device, command });
    if (actionOf(command).kind === 'add') this.addsMade += 1;
  }

  answered(device: string, result: SyncResult): void {
    const made = this.made.get(result.id);
    if (!made) {
      this.problems.push(`${device} was answered for a command it never made: ${result.id}`);
      return;
    }
    const first = this.answers.get(result.id);
    if (first && outcomeOf(first.command, first.status) !== 'retry') {
      // A command sent again (its answer was lost, or it came after one to retry) answers as it first did.
      this.replayedAnswers += 1;
      if (first.status !== result.status || !isDeepStrictEqual(first.body, result.body)) {
        this.problems.push(`${device}'s command ${result.id} was answered ${first.status} ${JSON.stringify(first.body)}, then ${result.status} ${JSON.stringify(result.body)}`);
      }
      return;
    }
    this.answers.set(result.id, { device, command: made.command, status: result.status, body: result.body });
    const action = actionOf(made.command);
    const realId = (result.body as { todo?: { _id?: string } } | undefined)?.todo?._id;
    if (action.kind === 'add' && realId !== undefined && result.status < 300) {
      this.edits.set(realId, (this.edits.get(realId) ?? 0) + (this.edits.get(action.tempId) ?? 0));
      this.edits.delete(action.tempId);
    }
  }
}

/** The fetch transport of one device, with what it sends and is answered noted in `journal` (the calls are real). */
function observed(transport: SyncTransport, device: string, journal: Journal): SyncTransport {
  const failing = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      journal.failedCalls += 1;
      throw error;
    }
  };
  return {
    sync: (commands) =>
      failing(async () => {
        for (const { id } of commands) journal.sends.set(id, (journal.sends.get(id) ?? 0) + 1);
        const response = await transport.sync(commands);
        for (const result of response.results) journal.answered(device, result);
        return response;
      }),
    changes: (after) => failing(() => transport.changes(after)),
    fetchList: () => failing(() => transport.fetchList()),
  };
}

interface Device {
  name: string;
  engine: SyncEngine;
  relay: TcpRelay;
  random: () => number;
  /** Rounds left offline (the relay refuses connections); 0: online. */
  offlineRounds: number;
  /** Tasks this device deleted, newest last (for an Undo). */
  deleted: string[];
}

/** Signs in to the person's account from a new device: its own session. */
async function signIn(email: string, password: string): Promise<ApiClient> {
  const client = new ApiClient(stack.url);
  await client.get('/api/user/me');
  const answer = await client.post('/api/user/login', { email, password });
  if (answer.status !== 200) throw new Error(`login answered ${answer.status}`);
  return client;
}

/** Every event of the person's change feed, from the first. */
async function wholeFeed(client: ApiClient): Promise<TodoChangeEvent[]> {
  const events: TodoChangeEvent[] = [];
  let after = '0';
  for (;;) {
    const { status, body } = await client.get<ChangesResponse>(`/api/todo/changes?after=${after}`);
    if (status !== 200 || body.reset) throw new Error(`the feed after ${after} answered ${status}${body.reset ? ' with a reset' : ''}`);
    events.push(...body.changes);
    after = body.cursor;
    if (!body.more) return events;
  }
}

/** The history of each of `ids`, a few calls at a time. */
async function histories(client: ApiClient, ids: string[]): Promise<Map<string, HistoryEntry[]>> {
  const found = new Map<string, HistoryEntry[]>();
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        const { status, body } = await client.get<HistoryResponse>(`/api/todo/history/${id}`);
        if (status !== 200) throw new Error(`the history of ${id} answered ${status}`);
        found.set(id, body.entries);
      }
    }),
  );
  return found;
}

describe('convergence (docs/PRODUCT.md §10.4)', () => {
  it(`${DEVICES} devices through faulty networks, ${OPERATIONS} random actions on shared tasks: all end with the server's tasks, nothing acknowledged lost`, async () => {
    console.log(`convergence: CONVERGENCE_SEED=${SEED} CONVERGENCE_OPS=${OPERATIONS} CONVERGENCE_DEVICES=${DEVICES}`);
    const started = Date.now();
    const journal = new Journal();
    const devices: Device[] = [];
    const problems: string[] = [];
    try {
      const owner = await signUp(stack.url);
      const gateway = new URL(stack.url);
      for (let index = 0; index < DEVICES; index += 1) {
        const name = `device-${index + 1}`;
        const client = await signIn(owner.email, owner.password);
        const relay = await startTcpRelay({ host: gateway.hostname, port: Number(gateway.port) });
        relays.push(relay);
        const faults = seededRandom(SEED + 7919 * (index + 1));
        relay.faults({
          random: faults,
          // Per chunk: a request lost, an answer lost after the request was applied (often cut off mid-way).
          cutRequest: 0.02,
          cutAnswer: 0.04,
          // Mostly at once, sometimes a few ms late, rarely stalled past the transport's timeout.
          hold: () => {
            const draw = faults();
            return draw < 0.9 ? 0 : draw < 0.9995 ? Math.floor(faults() * 30) : 1500;
          },
        });
        const transport = createFetchTransport({ origin: `http://${relay.host}:${relay.port}`, cookies: client.cookies, clientId: name, timeoutMs: 1000 });
        const engine = new SyncEngine({
          userId: owner.user._id,
          transport: observed(transport, name, journal),
          indexedDB: new IDBFactory(),
          listenToBrowser: false,
          random: seededRandom(SEED + 104_729 * (index + 1)),
        });
        await engine.start();
        devices.push({ name, engine, relay, random: seededRandom(SEED + index + 1), offlineRounds: 0, deleted: [] });
      }

      const plan = seededRandom(SEED);
      let made = 0;
      let completeAllsLeft = BULK_ACTIONS;
      let clearsLeft = BULK_ACTIONS;
      let hot = new Set<string>();
      const editsOf = (device: Device, id: string) => journal.edits.get(device.engine.resolveId(id)) ?? 0;

      /** A task of `view`, from the hot ones with chance `hotBias`; null when every task had its edits. */
      const pick = (device: Device, view: Todo[], hotBias: number): Todo | null => {
        const open = view.filter((todo) => editsOf(device, todo._id) < EDITS_PER_TASK);
        const hotOnes = open.filter((todo) => hot.has(device.engine.resolveId(todo._id)));
        const from = hotOnes.length > 0 && device.random() < hotBias ? hotOnes : open;
        return from.length === 0 ? null : from[Math.floor(device.random() * from.length)]!;
      };

      /** One person's action on `device`, as the page makes it: on the task list it shows. */
      const act = async (device: Device, n: number): Promise<void> => {
        const { engine, random } = device;
        const view = engine.view();
        const draw = random();
        const enqueue = async (command: SyncCommand) => {
          journal.record(device.name, command);
          await engine.enqueue(command);
        };
        const add = () => enqueue(addTaskCommand(`${device.name} task ${n}${random() < 0.2 ? ' – ünïcode ✓' : ''}`).command);
        if (view.length < 6 || draw < (view.length < 40 ? 0.14 : 0.05)) return add();
        if (draw < 0.22) {
          const task = pick(device, view, 0.25);
          if (!task) return add();
          device.deleted.push(task._id);
          return enqueue(deleteTaskCommand(task._id));
        }
        if (draw < 0.222 && completeAllsLeft > 0) {
          completeAllsLeft -= 1;
          return enqueue(completeAllCommand(random() < 0.5));
        }
        if (draw < 0.224 && clearsLeft > 0) {
          clearsLeft -= 1;
          return enqueue(clearCompletedCommand());
        }
        if (draw < 0.234 && device.deleted.length > 0) {
          // Undo of this device's last delete (refused when the task is back already, or gone for good).
          return enqueue(restoreTaskCommand(engine.resolveId(device.deleted.pop()!)));
        }
        const task = pick(device, view, 0.75);
        if (!task) return add();
        // Mostly one field, sometimes two; a value already there now and then (a no-op write).
        const patch: Partial<TaskFields> = {};
        const fields = random() < 0.12 ? 2 : 1;
        for (let count = 0; count < fields; count += 1) {
          const which = random();
          const keep = random() < 0.12;
          if (which < 0.4) patch.title = keep ? task.title : `${device.name} edit ${n}`;
          else if (which < 0.75) patch.completed = keep ? task.completed : !task.completed;
          else patch.isPinned = keep ? task.isPinned : !task.isPinned;
        }
        const id = engine.resolveId(task._id);
        journal.edits.set(id, (journal.edits.get(id) ?? 0) + Object.keys(patch).length);
        return enqueue(updateTaskCommand(task, patch));
      };

      /** One round of `device`: maybe offline, some actions, some syncs asked for (as a page's events would). */
      const round = async (device: Device): Promise<void> => {
        const { engine, relay, random } = device;
        if (device.offlineRounds > 0) {
          device.offlineRounds -= 1;
          if (device.offlineRounds === 0) {
            await relay.restore();
            // The browser's `online` event, most of the time; otherwise the backoff's own retry.
            if (random() < 0.7) void engine.flush();
          }
        } else if (random() < 0.06) {
          device.offlineRounds = 1 + Math.floor(random() * 4);
          await relay.cut();
        }
        const actions = 5 + Math.floor(random() * 30);
        for (let count = 0; count < actions && made < OPERATIONS; count += 1) {
          made += 1;
          await act(device, made);
          const sync = random();
          if (sync < 0.04) void engine.pull();
          else if (sync < 0.07) void engine.flush();
        }
        if (device.offlineRounds === 0 && random() < 0.5) await engine.flush();
      };

      while (made < OPERATIONS) {
        // The hot tasks: those still hot and on some device with edits left, topped up at random from the devices' lists.
        const known = new Set(devices.flatMap(({ engine }) => engine.view().map((todo) => todo._id)).filter((id) => !isTempId(id)));
        const open = (id: string) => known.has(id) && (journal.edits.get(id) ?? 0) < EDITS_PER_TASK;
        hot = new Set([...hot].filter(open));
        const candidates = [...known].filter((id) => open(id) && !hot.has(id));
        while (hot.size < HOT_TASKS && candidates.length > 0) hot.add(candidates.splice(Math.floor(plan() * candidates.length), 1)[0]!);
        await Promise.all(devices.map(round));
      }
      const played = Date.now();

      // The network heals: every device sends what it holds and catches up until all agree with the server.
      for (const { relay } of devices) {
        relay.faults(null);
        await relay.restore();
      }
      let list: Todo[] = [];
      for (let pass = 0; pass < 20; pass += 1) {
        for (const { engine } of devices) await engine.flush();
        list = (await owner.client.get<TodosResponse>('/api/todo/fetch-todo')).body.todos;
        if (devices.every(({ engine }) => engine.status().pending === 0 && listDiff('', engine.view(), list).length === 0)) break;
      }

      // 1. Convergence: every device shows the server's tasks, nothing left to send, no stray refusal.
      for (const { name, engine } of devices) {
        const status = engine.status();
        if (status.pending > 0) problems.push(`${name} still has ${status.pending} changes to send (${status.lastError ?? 'no error'})`);
        problems.push(...listDiff(name, engine.view(), list));
        for (const refusal of status.refused) {
          const kind = actionOf(refusal.command).kind;
          // A change of a task deleted meanwhile on another device, or an Undo of a delete that came too late.
          const expected = refusal.status === 404 && ((kind === 'update' && refusal.code === ErrorCode.todoNotFound) || (kind === 'restore' && refusal.code === ErrorCode.todoNotRestorable));
          if (!expected) problems.push(`${name}: ${kind} ${refusal.command.method} ${refusal.command.path} refused ${refusal.status} ${refusal.code}: ${refusal.message}`);
        }
      }
      for (const [id, { device, command }] of journal.made) {
        if (!journal.answers.has(id)) problems.push(`${device}'s ${command.method} ${command.path} (${id}) was never answered`);
      }
      problems.push(...journal.problems);

      // 2–4. What the server holds: the feed, each task's history, the answers given.
      const feed = await wholeFeed(owner.client);
      const ids = [...new Set(feed.flatMap((event) => [...event.saved.map((todo) => todo._id), ...event.removed]))];
      const history = await histories(owner.client, ids);
      problems.push(...audit({ list, feed, histories: history, answers: [...journal.answers.values()], addsMade: journal.addsMade }));

      // The run did what it claims: faults hit, commands were sent again, edits met edits made elsewhere.
      const resent = [...journal.sends.values()].filter((count) => count > 1).length;
      const conflicts = [...history.values()].flat().filter((entry) => entry.conflict).length;
      const refused = devices.reduce((sum, { engine }) => sum + engine.status().refused.length, 0);
      if (made < OPERATIONS) problems.push(`only ${made} of ${OPERATIONS} actions were made`);
      if (journal.failedCalls === 0) problems.push('no call failed: the relays injected no fault');
      if (resent === 0) problems.push('no command was sent twice: no answer was lost');
      if (conflicts === 0) problems.push('no history entry is a conflict: no concurrent edit of a field');
      console.log(
        `convergence: seed ${SEED}, ${made} actions by ${DEVICES} devices in ${played - started} ms, converged after ${Date.now() - played} ms; ` +
          `${ids.length} tasks (${list.length} at the end), ${feed.length} events, ${[...history.values()].flat().length} history entries (${conflicts} conflicts); ` +
          `${journal.failedCalls} failed calls, ${resent} commands sent again, ${journal.replayedAnswers} answers replayed, ${refused} refused`,
      );
    } catch (error) {
      problems.push(`the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      for (const { engine } of devices) engine.stop();
    }
    const report = problems.length === 0 ? [] : [`CONVERGENCE_SEED=${SEED} reruns with this run's random choices (${problems.length} problems)`, ...problems.slice(0, 30)];
    expect(report).toEqual([]);
  }, 180_000);
});

describe('the convergence audit', () => {
  const id = (n: number) => `${'0'.repeat(23)}${n}`;
  const at = (second: number) => `2030-01-01T10:00:${String(second).padStart(2, '0')}.000Z`;
  const task = (n: number, second: number, fields: Partial<Todo> = {}): Todo => ({ _id: id(n), title: `Task ${n}`, completed: false, isPinned: false, createdAt: at(1), updatedAt: at(second), completedAt: null, ...fields });
  const entry = (n: number, version: number, field: HistoryEntry['field'], before: HistoryEntry['before'], after: HistoryEntry['after']): HistoryEntry => ({ todoId: id(n), field, before, after, at: at(version), version: String(version), origin: 'device-1', conflict: false });
  const answer = (command: SyncCommand, status: number, body: unknown): AnsweredCommand => ({ device: 'device-1', command, status, body });

  // One task added, renamed, ticked; then renamed back by another device.
  const add = addTaskCommand('Task 1');
  const added = task(1, 1);
  const renamed = task(1, 2, { title: 'Renamed' });
  const ticked = task(1, 3, { title: 'Renamed', completed: true, completedAt: at(3) });
  const back = task(1, 4, { completed: true, completedAt: at(3) });
  const evidence = () => ({
    list: [back],
    feed: [1, 2, 3, 4].map((n): TodoChangeEvent => ({ id: String(n), origin: 'device-1', saved: [[added, renamed, ticked, back][n - 1]!], removed: [] })),
    histories: new Map([[id(1), [entry(1, 4, 'title', 'Renamed', 'Task 1'), entry(1, 3, 'completed', false, true), entry(1, 2, 'title', 'Task 1', 'Renamed')]]]),
    answers: [
      answer(add.command, 201, { message: 'Task added', todo: added }),
      answer(updateTaskCommand(added, { title: 'Renamed' }), 200, { message: 'Title changed', todo: renamed }),
      answer(updateTaskCommand(renamed, { completed: true }), 200, { message: 'Task completed', todo: ticked }),
    ],
    addsMade: 1,
  });

  it('passes a run where everything holds', () => {
    expect(audit(evidence())).toEqual([]);
  });

  it('finds an overwritten value missing from the history, and a gap in its chain', () => {
    const run = evidence();
    run.histories.set(id(1), run.histories.get(id(1))!.filter((item) => item.version !== '2'));
    expect(audit(run)).toEqual([
      expect.stringContaining('feed change 2 title "Task 1" → "Renamed" has no history entry'),
      expect.stringContaining('title history starts at "Renamed", the task was added with "Task 1"'),
    ]);
    const gap = evidence();
    gap.histories.set(id(1), [entry(1, 4, 'title', 'Something else', 'Task 1'), ...gap.histories.get(id(1))!.slice(1)]);
    expect(audit(gap)).toEqual([
      expect.stringContaining('acknowledged title = "Renamed"'),
      expect.stringContaining('history entry 4 title says "Something else"'),
      expect.stringContaining('title history has a gap'),
    ]);
  });

  it('finds an acknowledged edit that was lost: answered with a state the feed never had, or replaced with no history', () => {
    const lost = evidence();
    lost.answers.push(answer(updateTaskCommand(ticked, { isPinned: true }), 200, { message: 'Task pinned', todo: { ...ticked, isPinned: true, updatedAt: at(5) } }));
    expect(audit(lost)).toEqual([expect.stringContaining('a state the feed never had')]);
    const overwritten = evidence();
    overwritten.histories.set(id(1), overwritten.histories.get(id(1))!.filter((item) => item.version !== '4'));
    expect(audit(overwritten)).toEqual([
      expect.stringContaining('acknowledged title = "Renamed"'),
      expect.stringContaining('feed change 4 title "Renamed" → "Task 1" has no history entry'),
      expect.stringContaining('title history ends at "Renamed", the task holds "Task 1"'),
    ]);
  });

  it('finds an add applied twice, and a list the feed does not replay to', () => {
    const twice = evidence();
    twice.feed.push({ id: '5', origin: 'device-1', saved: [task(2, 5, { title: 'Task 1' })], removed: [] });
    twice.list = [...twice.list, task(2, 5, { title: 'Task 1' })];
    expect(audit(twice)).toEqual([expect.stringContaining('2 tasks were created for 1 acknowledged adds'), expect.stringContaining(`task ${id(2)} was created by no acknowledged add`)]);
    const drift = evidence();
    drift.list = [{ ...back, isPinned: true }];
    expect(audit(drift)).toEqual([expect.stringContaining(`task ${id(1)}: the list holds`)]);
  });
});
