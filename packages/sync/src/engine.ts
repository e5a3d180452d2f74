import { LIMITS, type SyncCommand, type SyncResult, type TaskList, type Todo, type TodoChangeEvent } from '@tm/contracts';
import { Outbox, type IdEntry, type OutboxWrite, type RefusedCommand } from './outbox-db.js';
import {
  actionOf,
  applyChange,
  applyListChange,
  backoffMs,
  chunkCommands,
  compareCursors,
  echoedAdds,
  echoedLists,
  listsViewOf,
  outcomeOf,
  resolveCommand,
  rewriteCommand,
  taskIdOf,
  tempIdOf,
  viewOf,
  type QueuedCommand,
} from './sync.domain.js';
import { SyncTransportError, type SyncTransport } from './transport.js';

/**
 * The device side of offline-first tasks (docs/PRODUCT.md §10.4): every action is applied on screen at once,
 * kept in the outbox (IndexedDB) and sent in order when the network is there; the last known list shows at
 * once on a return visit and is then brought up to date from the server's change feed. One engine per signed-in
 * user and page; framework-free, the same in a browser and in Node.
 */

/** What the page shows about syncing (docs/PRODUCT.md §10.4). */
export interface SyncStatus {
  /** The outbox has been read: `view()` shows the device's copy. */
  loaded: boolean;
  /** A pull or a fetch succeeded since start: the list is the server's as of `lastSyncAt`, not just the last visit's. */
  fresh: boolean;
  /** Changes not yet answered by the server. */
  pending: number;
  /** When the oldest of them was made (ISO), or null. */
  oldestPendingAt: string | null;
  /** When the list was last brought up to date from the server (ISO), or null. */
  lastSyncAt: string | null;
  /** A send or a pull is under way. */
  syncing: boolean;
  /** Changes the server refused, with its words, until dismissed. */
  refused: readonly RefusedCommand[];
  /** The last call got no answer (or the browser says it is offline). */
  offline: boolean;
  /** The server answered 401: the engine stopped; the page signs the person out. */
  signedOut: boolean;
  /** The engine was stopped, or its data deleted (logout in another tab). */
  stopped: boolean;
  /** The last failure's words, or null after a success. */
  lastError: string | null;
  /** When the next try after a failure is due (epoch ms), or null. */
  nextRetryAt: number | null;
}

export interface SyncEngineOptions {
  userId: string;
  transport: SyncTransport;
  /** The IndexedDB to keep the outbox in (default the global one; Node passes fake-indexeddb's). */
  indexedDB?: IDBFactory;
  /** Listen to `online`, `offline` and `visibilitychange` where they exist (default true). */
  listenToBrowser?: boolean;
  /** Clock (epoch ms); tests pass their own. */
  now?: () => number;
  /** Source of the backoff's jitter, in [0, 1). */
  random?: () => number;
  /** Called once when the server answers 401. */
  onSignedOut?: () => void;
  /** This page's `X-Client-Id`: the origin of change events caused by this device's own commands. */
  clientId?: string;
  /**
   * Catch up as soon as the device's copy is read (default true). A page that reads the list itself (and hands
   * it over with `adopt`, or asks for `pull`) passes false: then only changes still queued are sent at start.
   */
  pullAtStart?: boolean;
}

/** How long an answered add's temp id stays mapped: the server's Idempotency-Key window (docs/PRODUCT.md §7). */
const ID_MAP_KEEP_MS = 24 * 60 * 60_000;

type Listener = () => void;

/** Told of each command the server answered (acknowledged or refused), with its answer. */
export type ResultListener = (command: SyncCommand, result: SyncResult) => void;

/**
 * Holds the confirmed list (the server's, as last pulled) and the outbox, and moves changes between the
 * device and the server (docs/PRODUCT.md §10.4). `view()` and `status()` return the same object until
 * something changes, so a page can read them from `subscribe` (React's useSyncExternalStore).
 */
export class SyncEngine {
  private outbox: Outbox | null = null;
  private confirmed: Todo[] = [];
  /** The confirmed lists (docs/PRODUCT.md §10.19), under the same cursor as the tasks. */
  private confirmedLists: TaskList[] = [];
  private cursor: string | null = null;
  private lastSyncAt: string | null = null;
  private commands: QueuedCommand[] = [];
  private refused: RefusedCommand[] = [];
  private ids = new Map<string, IdEntry>();
  private loaded = false;
  private fresh = false;
  private syncing = false;
  private offline = false;
  private signedOut = false;
  private stopped = false;
  private lastError: string | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private nextRetryAt: number | null = null;
  private soonTimer: ReturnType<typeof setTimeout> | null = null;
  private flushWanted = false;
  /** Outbox writes and the state they carry, one at a time, in the order asked. */
  private writes: Promise<unknown> = Promise.resolve();
  /** Sends and pulls, one at a time. */
  private network: Promise<unknown> = Promise.resolve();
  private listeners = new Set<Listener>();
  /** Live events waiting their turn: only the last of a burst writes the list to the outbox. */
  private remoteQueued = 0;
  private resultListeners = new Set<ResultListener>();
  private viewCache: Todo[] | null = null;
  private listsCache: TaskList[] | null = null;
  private statusCache: SyncStatus | null = null;
  private unlisten: (() => void) | null = null;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly options: SyncEngineOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /**
   * Reads the device's copy (the list shows at once, `status().fresh` false until the server answered), then
   * sends what is queued and pulls the changes since the cursor, in the background. In a browser it then
   * tries again when the network comes back and catches up when the page is shown again.
   */
  async start(): Promise<void> {
    await this.serial(async () => {
      this.outbox = await Outbox.open(this.options.userId, { indexedDB: this.options.indexedDB, onClosed: () => this.stop() });
      const state = await this.outbox.load();
      const now = this.now();
      const adds = new Set(state.commands.map(({ command }) => tempIdOf(command.id)));
      const stale = state.ids.filter((entry) => now - Date.parse(entry.at) > ID_MAP_KEEP_MS && !adds.has(entry.tempId));
      if (stale.length > 0) await this.outbox.write({ forgetIds: stale.map((entry) => entry.tempId) });
      const staleIds = new Set(stale.map((entry) => entry.tempId));
      this.ids = new Map(state.ids.filter((entry) => !staleIds.has(entry.tempId)).map((entry) => [entry.tempId, entry]));
      this.commands = state.commands;
      this.refused = state.refused;
      this.confirmed = state.snapshot?.todos ?? [];
      this.confirmedLists = state.snapshot?.lists ?? [];
      // A copy kept before lists existed has none: with no cursor, the next read is the whole list, lists included.
      this.cursor = state.snapshot?.lists ? state.snapshot.cursor : null;
      this.lastSyncAt = state.snapshot?.lastSyncAt ?? null;
      this.loaded = true;
    });
    this.changed();
    if (this.options.listenToBrowser !== false) this.listen();
    if (this.options.pullAtStart !== false || this.commands.some((entry) => entry.state === 'queued')) void this.flush();
  }

  /** Stops timers and listeners and closes the outbox (its data stays); the engine does nothing more. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearTimers();
    this.unlisten?.();
    this.unlisten = null;
    this.outbox?.close();
    this.changed();
  }

  /** The list as the person sees it: the confirmed list with every pending change laid over it. */
  view(): Todo[] {
    this.viewCache ??= viewOf(this.confirmed, this.commands, this.idMap());
    return this.viewCache;
  }

  /** The lists as the person sees them (docs/PRODUCT.md §10.19): the confirmed ones with pending list changes laid over them. */
  lists(): TaskList[] {
    this.listsCache ??= listsViewOf(this.confirmedLists, this.commands, this.idMap());
    return this.listsCache;
  }

  /** Where syncing stands (docs/PRODUCT.md §10.4): pending changes, their age, the last sync, refusals, errors. */
  status(): SyncStatus {
    if (this.statusCache) return this.statusCache;
    const queued = this.commands.filter((entry) => entry.state === 'queued');
    this.statusCache = {
      loaded: this.loaded,
      fresh: this.fresh,
      pending: queued.length,
      oldestPendingAt: queued.reduce<string | null>((oldest, entry) => (oldest === null || entry.createdAt < oldest ? entry.createdAt : oldest), null),
      lastSyncAt: this.lastSyncAt,
      syncing: this.syncing,
      refused: this.refused,
      offline: this.offline,
      signedOut: this.signedOut,
      stopped: this.stopped,
      lastError: this.lastError,
      nextRetryAt: this.nextRetryAt,
    };
    return this.statusCache;
  }

  /** Calls `listener` after every change of `view()` or `status()`; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The change feed position of the confirmed list (null before the first list). */
  position(): string | null {
    return this.cursor;
  }

  /** Calls `listener` with each command's answer as it arrives (a page resolving the action that made it). */
  onResult(listener: ResultListener): () => void {
    this.resultListeners.add(listener);
    return () => this.resultListeners.delete(listener);
  }

  /**
   * A whole list read from the server elsewhere (the page's own fetch): it becomes the confirmed list when it is
   * at or after the cursor, and the commands acknowledged before it leave the outbox (their effect is in it).
   */
  async adopt(list: { todos: Todo[]; lists: TaskList[]; cursor: string }): Promise<void> {
    let adopted = false;
    await this.serial(async () => {
      if (this.stopped || !this.loaded) return;
      if (this.cursor !== null && compareCursors(list.cursor, this.cursor) < 0) return;
      const covered = this.commands.filter((entry) => entry.state === 'acknowledged').map((entry) => entry.seq);
      const lastSyncAt = new Date(this.now()).toISOString();
      // Read while this device's adds were on their way: the server may hold them already, their answers not
      // back yet. Its new tasks are those adds (as in a live echo of its own), so no task shows twice.
      const echoed = this.syncing
        ? new Map([...echoedAdds({ saved: list.todos }, this.confirmed, this.commands, this.idMap()), ...echoedLists({ savedLists: list.lists }, this.confirmedLists, this.commands, this.idMap())])
        : new Map<string, string>();
      const ids = [...echoed].map(([tempId, realId]) => ({ tempId, realId, at: lastSyncAt }));
      await this.open().write({ snapshot: { todos: list.todos, lists: list.lists, cursor: list.cursor, lastSyncAt }, remove: covered, ids });
      for (const entry of ids) this.ids.set(entry.tempId, entry);
      this.confirmed = list.todos;
      this.confirmedLists = list.lists;
      this.cursor = list.cursor;
      this.lastSyncAt = lastSyncAt;
      this.commands = this.commands.filter((entry) => !covered.includes(entry.seq));
      this.fresh = true;
      adopted = true;
    });
    if (adopted) this.changed();
  }

  /**
   * Takes back a change not sent yet (docs/PRODUCT.md §10.4: an Undo while offline): it leaves the outbox and
   * the view at once. False when it was sent already (the caller undoes it on the server instead) or unknown.
   */
  async cancel(commandId: string): Promise<boolean> {
    let cancelled = false;
    await this.serial(async () => {
      const entry = this.commands.find((candidate) => candidate.command.id === commandId);
      if (!entry || entry.state !== 'queued' || this.syncing) return;
      await this.open().write({ remove: [entry.seq] });
      this.commands = this.commands.filter((candidate) => candidate.seq !== entry.seq);
      cancelled = true;
    });
    if (cancelled) this.changed();
    return cancelled;
  }

  /** The temp id a task added on this device had before the server answered (its real id otherwise). */
  tempIdOf(realId: string): string {
    for (const [tempId, entry] of this.ids) if (entry.realId === realId) return tempId;
    return realId;
  }

  /** The id the server gave a task added on this device (its temp id until then), or `id` itself. */
  resolveId(id: string): string {
    return this.ids.get(id)?.realId ?? id;
  }

  /**
   * Queues a person's action (docs/PRODUCT.md §10.4): written to the outbox first, so it survives a reload from
   * the moment this resolves; then the view shows it, and a send is scheduled (not sooner than a running
   * backoff allows). Temp ids of adds already answered are replaced by the real ids.
   */
  async enqueue(command: SyncCommand): Promise<void> {
    await this.serial(async () => {
      const outbox = this.open();
      const { id, method, path, body } = resolveCommand(command, this.idMap());
      const entry: Omit<QueuedCommand, 'seq'> = { command: body === undefined ? { id, method, path } : { id, method, path, body }, createdAt: new Date(this.now()).toISOString(), state: 'queued' };
      const [seq] = await outbox.write({ add: [entry] });
      if (seq === undefined) throw new Error('The outbox gave the change no place.');
      this.commands = [...this.commands, { ...entry, seq }];
    });
    this.changed();
    this.soon();
  }

  /** Forgets a refused change the person has read. */
  async dismiss(commandId: string): Promise<void> {
    await this.serial(async () => {
      await this.open().write({ dismiss: [commandId] });
      this.refused = this.refused.filter((entry) => entry.id !== commandId);
    });
    this.changed();
  }

  /**
   * Sends the queued commands in order, in calls within LIMITS.sync, then pulls the changes since the cursor
   * (docs/PRODUCT.md §10.4). One at a time: a call while one runs makes one more round after it. A failed call
   * stops here and schedules the next try by the backoff (1 s doubling to 60 s, Retry-After honoured); a 401
   * stops for good (`status().signedOut`). Never rejects: failures go to `status()`.
   */
  flush(): Promise<void> {
    this.flushWanted = true;
    return this.exclusive(async () => {
      if (!this.flushWanted || this.stopped || this.signedOut || !this.loaded) return;
      this.flushWanted = false;
      // This is the try a pending retry was waiting for.
      this.clearTimers();
      if (await this.send()) await this.pullChanges();
    });
  }

  /**
   * Brings the confirmed list up to date from the change feed (GET /todo/changes after the cursor, page by page
   * until `more` is false; on `reset`, or with no cursor yet, the whole list), never at the same time as a send.
   */
  pull(): Promise<void> {
    return this.exclusive(async () => {
      if (this.stopped || this.signedOut || !this.loaded) return;
      await this.pullChanges();
    });
  }

  /**
   * A change event from the live stream (docs/PRODUCT.md §10.11.5): applied when it is the next one after the
   * cursor, ignored when already applied; after a gap, a pull fetches what was missed.
   */
  async applyRemote(event: TodoChangeEvent): Promise<void> {
    let gap = false;
    this.remoteQueued += 1;
    await this.serial(async () => {
      this.remoteQueued -= 1;
      if (this.stopped || !this.loaded) return;
      if (this.cursor === null || BigInt(event.id) > BigInt(this.cursor) + 1n) {
        gap = true;
        return;
      }
      if (compareCursors(event.id, this.cursor) <= 0) return;
      // Its own adds, applied before their answers came back: their tasks replace the provisional ones at once.
      const own = event.origin !== null && event.origin === this.options.clientId;
      const echoed = own ? new Map([...echoedAdds(event, this.confirmed, this.commands, this.idMap()), ...echoedLists(event, this.confirmedLists, this.commands, this.idMap())]) : new Map<string, string>();
      const ids = [...echoed].map(([tempId, realId]) => ({ tempId, realId, at: new Date(this.now()).toISOString() }));
      const confirmed = applyChange(this.confirmed, event);
      const confirmedLists = applyListChange(this.confirmedLists, event);
      const lastSyncAt = new Date(this.now()).toISOString();
      // A burst of events (a sync call's echo) is stored once, with its last event: the list is written whole.
      const last = this.remoteQueued === 0;
      if (last || ids.length > 0) await this.open().write(last ? { snapshot: { todos: confirmed, lists: confirmedLists, cursor: event.id, lastSyncAt }, ids } : { ids });
      for (const entry of ids) this.ids.set(entry.tempId, entry);
      this.confirmed = confirmed;
      this.confirmedLists = confirmedLists;
      this.cursor = event.id;
      this.lastSyncAt = lastSyncAt;
    });
    this.changed();
    if (gap) void this.pull();
  }

  private open(): Outbox {
    if (this.stopped) throw new Error('The sync engine is stopped.');
    if (!this.outbox) throw new Error('Call start() first.');
    return this.outbox;
  }

  private idMap(): Map<string, string> {
    return new Map([...this.ids].map(([tempId, entry]) => [tempId, entry.realId]));
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.writes.then(step, step);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private exclusive(step: () => Promise<void>): Promise<void> {
    const run = this.network.then(async () => {
      this.syncing = true;
      this.changed();
      try {
        await step();
      } catch (error) {
        // An outbox write that failed (storage full, data deleted meanwhile): reported, tried again later.
        this.failed(error);
      } finally {
        this.syncing = false;
        this.changed();
      }
    });
    this.network = run;
    return run;
  }

  /** Sends every queued command, chunk by chunk; false when a call failed (the rest waits for the retry). */
  private async send(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const queued = this.commands.filter((entry) => entry.state === 'queued');
      if (queued.length === 0) return true;
      const [chunk = []] = chunkCommands(
        queued.map((entry) => entry.command),
        LIMITS.sync.commands,
        LIMITS.sync.bodyBytes,
      );
      let results: SyncResult[];
      try {
        results = (await this.options.transport.sync(chunk)).results;
      } catch (error) {
        this.failed(error);
        return false;
      }
      const complete = await this.serial(() => this.absorb(queued.slice(0, chunk.length), results));
      this.changed();
      if (!complete) {
        this.failed(new SyncTransportError('The server could not apply every change; trying again later.', 503));
        return false;
      }
    }
  }

  /**
   * Takes in the answers to one sync call (docs/PRODUCT.md §10.4), in one outbox transaction: 2xx (and 404 on a
   * delete) acknowledged, an add's real id mapped and written into the later commands; other 4xx moved to
   * `refused` with the server's words. False when an answer asks for a retry (5xx, 429) or is missing: that
   * command and the ones after it stay queued.
   */
  private async absorb(sent: QueuedCommand[], results: SyncResult[]): Promise<boolean> {
    const at = new Date(this.now()).toISOString();
    const commands = new Map(this.commands.map((entry) => [entry.seq, entry]));
    const changed = new Set<number>();
    const write: Required<Pick<OutboxWrite, 'remove' | 'refuse' | 'ids'>> = { remove: [], refuse: [], ids: [] };
    let complete = true;
    for (const [index, entry] of sent.entries()) {
      const result = results[index];
      if (!result || result.id !== entry.command.id) {
        complete = false;
        break;
      }
      // Only a pull removes commands, and never while a send runs: every sent command is still here.
      const current = commands.get(entry.seq) ?? entry;
      const outcome = outcomeOf(entry.command, result.status);
      if (outcome === 'retry') {
        complete = false;
        break;
      }
      if (outcome === 'refused') {
        commands.delete(entry.seq);
        changed.delete(entry.seq);
        write.remove.push(entry.seq);
        write.refuse.push(refusal(current, result, at));
        continue;
      }
      commands.set(entry.seq, { ...current, state: 'acknowledged' });
      changed.add(entry.seq);
      const action = actionOf(entry.command);
      const answered = result.body as { todo?: { _id?: unknown }; list?: { _id?: unknown } } | undefined;
      // An add's task, or a new list's (§10.19): later commands name it by its real id from now on.
      const realId = action.kind === 'add' ? answered?.todo?._id : action.kind === 'createList' ? answered?.list?._id : undefined;
      if ((action.kind === 'add' || action.kind === 'createList') && typeof realId === 'string') {
        write.ids.push({ tempId: action.tempId, realId, at });
        for (const [seq, other] of commands) {
          const rewritten = rewriteCommand(other.command, action.tempId, realId);
          if (rewritten === null) continue;
          commands.set(seq, { ...other, command: rewritten });
          changed.add(seq);
        }
      }
    }
    const put = [...changed].flatMap((seq) => commands.get(seq) ?? []);
    await this.open().write({ ...write, put });
    this.commands = [...commands.values()].sort((a, b) => a.seq - b.seq);
    this.refused = [...this.refused, ...write.refuse].sort((a, b) => a.seq - b.seq);
    for (const entry of write.ids) this.ids.set(entry.tempId, entry);
    for (const [index, entry] of sent.entries()) {
      const result = results[index];
      if (result?.id !== entry.command.id || outcomeOf(entry.command, result.status) === 'retry') break;
      for (const listener of [...this.resultListeners]) listener(entry.command, result);
    }
    // A call answered in part is no success: the backoff goes on growing while the server cannot finish.
    if (complete) this.succeeded();
    return complete;
  }

  /**
   * Pulls from the feed and stores the result with the cursor; the commands acknowledged before it started
   * leave the outbox in the same transaction (their effect is now in the confirmed list).
   */
  private async pullChanges(): Promise<boolean> {
    const covered = new Set(this.commands.filter((entry) => entry.state === 'acknowledged').map((entry) => entry.seq));
    const from = this.cursor;
    let pulled: { todos: Todo[]; lists: TaskList[]; cursor: string };
    try {
      pulled = from === null ? await this.options.transport.fetchList() : await this.catchUp(from);
    } catch (error) {
      this.failed(error);
      return false;
    }
    const lastSyncAt = new Date(this.now()).toISOString();
    await this.serial(async () => {
      // The live stream may have gone further meanwhile (applyRemote): both are the feed up to their cursor,
      // so the one further on is kept.
      const ahead = this.cursor !== from && this.cursor !== null && compareCursors(this.cursor, pulled.cursor) > 0;
      const snapshot = {
        ...(ahead && this.cursor !== null ? { todos: this.confirmed, lists: this.confirmedLists, cursor: this.cursor } : { todos: pulled.todos, lists: pulled.lists, cursor: pulled.cursor }),
        lastSyncAt,
      };
      await this.open().write({ snapshot, remove: [...covered] });
      this.confirmed = snapshot.todos;
      this.confirmedLists = snapshot.lists;
      this.cursor = snapshot.cursor;
      this.lastSyncAt = lastSyncAt;
      this.commands = this.commands.filter((entry) => !covered.has(entry.seq));
      this.fresh = true;
    });
    this.succeeded();
    this.changed();
    return true;
  }

  /** The confirmed list brought forward from `from`, page by page; on a reset, the whole list. */
  private async catchUp(from: string): Promise<{ todos: Todo[]; lists: TaskList[]; cursor: string }> {
    const transport = this.options.transport;
    let todos = this.confirmed;
    let lists = this.confirmedLists;
    let cursor = from;
    for (;;) {
      const page = await transport.changes(cursor);
      if (page.reset) return transport.fetchList();
      for (const event of page.changes) {
        todos = applyChange(todos, event);
        lists = applyListChange(lists, event);
      }
      cursor = page.cursor;
      if (!page.more) return { todos, lists, cursor };
    }
  }

  private succeeded(): void {
    this.attempt = 0;
    this.offline = false;
    this.lastError = null;
    this.nextRetryAt = null;
  }

  /** A failed call: 401 stops for good; anything else waits by the backoff, then flushes again. */
  private failed(error: unknown): void {
    const status = error instanceof SyncTransportError ? error.status : null;
    this.lastError = error instanceof Error ? error.message : String(error);
    this.clearTimers();
    if (status === 401) {
      this.signedOut = true;
      this.changed();
      this.options.onSignedOut?.();
      return;
    }
    this.offline = status === null && error instanceof SyncTransportError;
    this.attempt += 1;
    const delay = backoffMs(this.attempt, this.random(), error instanceof SyncTransportError ? error.retryAfterMs : undefined);
    this.nextRetryAt = this.now() + delay;
    if (!this.stopped) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        void this.flush();
      }, delay);
    }
    this.changed();
  }

  /** A send soon (after the current task), unless a backoff is running: the retry will take it along. */
  private soon(): void {
    if (this.retryTimer !== null || this.soonTimer !== null || this.stopped || this.signedOut) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      void this.flush();
    }, 0);
  }

  /** The network is back: try now, whatever the backoff had planned. */
  private retryNow(): void {
    if (this.stopped || this.signedOut) return;
    this.clearTimers();
    this.nextRetryAt = null;
    void this.flush();
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    if (this.soonTimer !== null) clearTimeout(this.soonTimer);
    this.retryTimer = null;
    this.soonTimer = null;
  }

  /** `online` (try now), `offline`, and `visibilitychange` to visible (catch up, within the backoff); never Background Sync. */
  private listen(): void {
    const target = globalThis as { addEventListener?: Window['addEventListener']; removeEventListener?: Window['removeEventListener']; document?: Document; navigator?: Navigator };
    const doc = target.document;
    if (typeof target.addEventListener !== 'function') return;
    const online = () => this.retryNow();
    const offline = () => {
      this.offline = true;
      this.changed();
    };
    const visible = () => {
      if (doc?.visibilityState === 'visible') this.soon();
    };
    target.addEventListener('online', online);
    target.addEventListener('offline', offline);
    doc?.addEventListener('visibilitychange', visible);
    if (target.navigator?.onLine === false) this.offline = true;
    this.unlisten = () => {
      target.removeEventListener?.('online', online);
      target.removeEventListener?.('offline', offline);
      doc?.removeEventListener('visibilitychange', visible);
    };
  }

  private changed(): void {
    this.viewCache = null;
    this.listsCache = null;
    this.statusCache = null;
    for (const listener of [...this.listeners]) listener();
  }
}

/** A refused command as kept for the person: the server's message and code, the task it was about. */
function refusal(entry: QueuedCommand, result: SyncResult, at: string): RefusedCommand {
  const body = (typeof result.body === 'object' && result.body !== null ? result.body : {}) as { message?: unknown; code?: unknown };
  return {
    id: entry.command.id,
    seq: entry.seq,
    command: entry.command,
    taskId: taskIdOf(entry.command),
    status: result.status,
    message: typeof body.message === 'string' ? body.message : `The server refused this change (${result.status}).`,
    code: typeof body.code === 'string' ? body.code : null,
    createdAt: entry.createdAt,
    at,
  };
}

/** A started engine for `options` (docs/PRODUCT.md §10.4): the device's copy is loaded when this resolves. */
export async function startSyncEngine(options: SyncEngineOptions): Promise<SyncEngine> {
  const engine = new SyncEngine(options);
  await engine.start();
  return engine;
}
