import {
  clientId,
  currentUserQuery,
  describeError,
  deviceUser,
  rememberDeviceUser,
  retryAfterSeconds,
  sessionEndReason,
  userFromDevice,
  fetchChanges,
  fetchTodoList,
  logFailure,
  statusOf,
  syncTodos,
  todosQuery,
  type PublicUser,
  type TodosResponse,
} from '@tm/api-client';
import { ROUTES, type SyncCommand, type SyncResult } from '@tm/contracts';
import { personToday } from './due-text.js';
import type * as SyncModule from '@tm/sync';
import type { SyncEngine, SyncStatus, SyncTransport } from '@tm/sync';
import { hashKey, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { SYNC, type RunningSync } from './device-data.js';
import { sessionEnded } from './session.js';

export { forgetDeviceTasks } from './device-data.js';

/**
 * Offline-first tasks in the page (docs/PRODUCT.md §10.4): one sync engine (@tm/sync) per page and signed-in
 * user, kept on the QueryClient the shell and its remotes share (each bundle carries its own copy of this
 * package, so module state would not be shared). The engine's list (its tasks and lists, PRODUCT §10.19) is the task list's cache: every change of
 * it (a queued action, an answer, a live change, the list read from the device at start) is written to
 * `['todos']`, and a list the page fetches becomes the engine's. Its status is kept in `['task-sync']` for
 * whatever shows it (the task screen, the shell's sign-out).
 *
 * The engine's code is loaded after the first paint (docs/PERFORMANCE.md "First-load budgets"): the first
 * action or list waits for it. Where the browser has no IndexedDB (or refuses it), there is no engine and
 * every action is sent on its own as before, failing when offline.
 */

const todosKey = todosQuery().queryKey;
const todosHash = hashKey(todosKey);

/** The status of the page's engine (null without one), for any bundle of the page. */
export const TASK_SYNC_STATUS_KEY = ['task-sync', 'status'] as const;

interface PageSync extends RunningSync {
  userId: string;
  engine: Promise<SyncEngine | null>;
  /** The engine once started (for what must be read while rendering). */
  running: SyncEngine | null;
}

/**
 * Actions between their optimistic change on screen and their place in the engine's outbox: the engine's
 * list does not hold them yet, so it is not written to the cache meanwhile (it would undo them for a moment).
 */
const ENQUEUING = Symbol.for('@tm/web-platform/task-sync-enqueuing');
type Enqueuing = QueryClient & { [ENQUEUING]?: number };

type Holder = QueryClient & { [SYNC]?: PageSync };

/** Lists the engine made (its view): never handed back to it as the server's. */
const engineLists = new WeakSet<TodosResponse>();

const userOf = (queryClient: QueryClient): PublicUser | null | undefined => queryClient.getQueryData(currentUserQuery().queryKey);

/** The calls of the engine over the page's HTTP client, failures as SyncTransportError (null status: no answer). */
function pageTransport(queryClient: QueryClient, TransportError: typeof SyncModule.SyncTransportError): SyncTransport {
  const wrap = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      const status = statusOf(error) ?? null;
      // A 401 ends the session here as any other call's does, with why (PRODUCT §10.3).
      if (status === 401) sessionEnded(queryClient, sessionEndReason(error));
      const seconds = retryAfterSeconds(error);
      throw new TransportError(describeError(error, 'Could not reach the server.'), status, seconds === undefined ? undefined : seconds * 1000);
    }
  };
  return {
    sync: (commands) => wrap(() => syncTodos(commands)),
    changes: (after) => wrap(() => fetchChanges(after)),
    fetchList: () => wrap(() => fetchTodoList()),
  };
}

const hasIndexedDb = (): boolean => typeof indexedDB !== 'undefined';

/**
 * Starts the engine of the signed-in user and ties it to the cache: its list to `['todos']` (only once it
 * has one: a first visit waits for the page's fetch), the page's fetched lists to it, its status to
 * `['task-sync']`. Null when nobody is signed in or the device keeps nothing.
 */
async function startEngine(queryClient: QueryClient, userId: string, onStop: (stop: () => void) => void): Promise<SyncEngine | null> {
  if (!hasIndexedDb()) return null;
  const sync = await import('@tm/sync');
  const engine = new sync.SyncEngine({
    userId,
    transport: pageTransport(queryClient, sync.SyncTransportError),
    clientId: clientId(),
    // The task list's query reads the list (or what changed) and hands it over: no second read at start.
    pullAtStart: false,
  });
  const user = userOf(queryClient);
  if (user) rememberDeviceUser(user);
  try {
    // Other people's lists never stay on a device someone else signs in on (SECURITY.md "What is kept on the device").
    for (const other of await sync.usersWithDeviceData()) if (other !== userId) await sync.deleteDeviceData(other);
    await engine.start();
  } catch (error) {
    logFailure('This device cannot keep tasks; every action is sent on its own', error);
    engine.stop();
    return null;
  }
  queryClient.setQueryDefaults(TASK_SYNC_STATUS_KEY, { gcTime: Infinity, staleTime: Infinity });
  let shown: unknown = null;
  let shownLists: unknown = null;
  const mirror = () => {
    const status = engine.status();
    queryClient.setQueryData<SyncStatus | null>(TASK_SYNC_STATUS_KEY, status.stopped ? null : status);
    const cursor = engine.position();
    const view = engine.view();
    const lists = engine.lists();
    if (status.stopped || cursor === null || (view === shown && lists === shownLists)) return;
    shown = view;
    shownLists = lists;
    const list = { todos: view, lists, cursor };
    engineLists.add(list);
    queryClient.setQueryData<TodosResponse>(todosKey, list);
  };
  // At most one cache write per frame: a burst of live events (a sync call's echo) renders once.
  let pending: ReturnType<typeof setTimeout> | null = null;
  const schedule = (): void => {
    pending ??= setTimeout(() => {
      pending = null;
      if (((queryClient as Enqueuing)[ENQUEUING] ?? 0) > 0) schedule();
      else mirror();
    }, 16);
  };
  const unsubscribe = engine.subscribe(schedule);
  // A list the page fetched (not one this mirror wrote) is the server's: it becomes the engine's.
  const unwatch = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual || event.query.queryHash !== todosHash) return;
    const fetched = queryClient.getQueryData(todosKey);
    if (!fetched || engineLists.has(fetched)) return;
    // Its own list again, with the changes still waiting laid over it (or the engine's, when that is newer).
    void engine.adopt(fetched).then(() => {
      shown = null;
      mirror();
    });
  });
  const fetched = queryClient.getQueryData(todosKey);
  if (fetched && queryClient.getQueryState(todosKey)?.dataUpdatedAt) await engine.adopt(fetched);
  mirror();
  onStop(() => {
    if (pending) clearTimeout(pending);
    unsubscribe();
    unwatch();
    engine.stop();
    queryClient.setQueryData(TASK_SYNC_STATUS_KEY, null);
  });
  return engine;
}

/**
 * The sync engine of the page's signed-in user (started on first use, stopped when someone else signs in);
 * null when nobody is signed in or the device keeps nothing (no IndexedDB).
 */
export function taskSync(queryClient: QueryClient): Promise<SyncEngine | null> {
  const holder = queryClient as Holder;
  const userId = userOf(queryClient)?._id;
  const current = holder[SYNC];
  if (current && current.userId === userId) return current.engine;
  current?.stop();
  holder[SYNC] = undefined;
  if (!userId) return Promise.resolve(null);
  let stopEngine: () => void = () => undefined;
  let stopped = false;
  const engine = startEngine(queryClient, userId, (stop) => {
    stopEngine = stop;
    if (stopped) stop();
  });
  const entry: PageSync = {
    userId,
    engine,
    running: null,
    stop: () => {
      stopped = true;
      stopEngine();
    },
  };
  holder[SYNC] = entry;
  void engine.then((started) => {
    if (!stopped) entry.running = started;
  });
  return engine;
}

/** The page's engine if it is already running (no start): the live stream hands it its changes. */
export function runningTaskSync(queryClient: QueryClient): Promise<SyncEngine | null> | null {
  const current = (queryClient as Holder)[SYNC];
  return current && current.userId === userOf(queryClient)?._id ? current.engine : null;
}

/** How many changes of the page's engine wait for the server (0 without an engine). */
export function pendingTaskChanges(queryClient: QueryClient): number {
  return queryClient.getQueryData<SyncStatus | null>(TASK_SYNC_STATUS_KEY)?.pending ?? 0;
}

/** An action sent through the engine: the server's answer, or kept on the device for later (under `commandId`). */
export type TaskWriteOutcome = { kind: 'answered'; result: SyncResult } | { kind: 'queued'; commandId: string };

/** Makes an action's command with @tm/sync's builders (passed in: the package loads after the first paint). */
export type CommandBuilder = (sync: typeof SyncModule) => SyncCommand;

/**
 * An update with the person's day beside its fields (`today`, PRODUCT §10.16): a repeating task ticked offline
 * moves to the date counted from the day it was done, on the device and on the server alike.
 */
function withPersonDay(command: SyncCommand): SyncCommand {
  const body = command.body;
  if (command.method !== ROUTES.updateTodo.method || typeof body !== 'object' || body === null || !('updateData' in body) || 'today' in body) return command;
  return { ...command, body: { ...body, today: personToday() } };
}

/**
 * Sends one task action through the engine (PRODUCT §10.4): it is kept on the device first, shown at once, and
 * sent now unless the engine is waiting out a failure; resolves the server's answer, or `queued` when none
 * came (offline, no answer in time, the server down: it is sent again later, once). Null without an engine.
 * `onKept` runs once the action is kept on the device and shown, before the server answers.
 */
export async function sendTaskWrite(queryClient: QueryClient, build: CommandBuilder, onKept?: () => void): Promise<TaskWriteOutcome | null> {
  const counter = queryClient as Enqueuing;
  counter[ENQUEUING] = (counter[ENQUEUING] ?? 0) + 1;
  let enqueued = false;
  const done = () => {
    if (enqueued) return;
    enqueued = true;
    counter[ENQUEUING] = (counter[ENQUEUING] ?? 1) - 1;
  };
  const engine = await taskSync(queryClient).catch((error: unknown) => {
    done();
    throw error;
  });
  if (!engine) {
    done();
    return null;
  }
  let answer: SyncResult | undefined;
  let off: () => void = () => undefined;
  try {
    const command = withPersonDay(build(await import('@tm/sync')));
    off = engine.onResult((sent, result) => {
      if (sent.id === command.id) answer = result;
    });
    try {
      await engine.enqueue(command);
    } finally {
      done();
    }
    onKept?.();
    // A failure is being waited out (offline, a server that is down): the change waits with the others.
    if (engine.status().nextRetryAt === null) await engine.flush();
    // Refused at once: the caller says so where the person acted; nothing is left to show later.
    if (engine.status().refused.some((entry) => entry.id === command.id)) await engine.dismiss(command.id);
    return answer ? { kind: 'answered', result: answer } : { kind: 'queued', commandId: command.id };
  } finally {
    done();
    off();
  }
}

/** Takes back a change still waiting on the device (an Undo offline); false when it was sent already. */
export async function cancelTaskWrite(queryClient: QueryClient, commandId: string): Promise<boolean> {
  const engine = await runningTaskSync(queryClient);
  return engine ? engine.cancel(commandId) : false;
}

/**
 * Starts the page's engine once someone is signed in, and follows its status (null without one, undefined
 * while it loads): the task screen shows it (PRODUCT §10.4).
 */
export function useTaskSync(): SyncStatus | null | undefined {
  const queryClient = useQueryClient();
  const userId = useQuery({ ...currentUserQuery(), enabled: false }).data?._id;
  useEffect(() => {
    if (userId) void taskSync(queryClient);
  }, [queryClient, userId]);
  // Started offline as the person the device keeps: the server's word is asked as soon as the network is back.
  useEffect(() => {
    const recheck = () => {
      if (userFromDevice()) void queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    };
    window.addEventListener('online', recheck);
    return () => window.removeEventListener('online', recheck);
  }, [queryClient]);
  const status = useQuery<SyncStatus | null>({ queryKey: TASK_SYNC_STATUS_KEY, queryFn: () => null, enabled: false, staleTime: Infinity }).data;
  if (!hasIndexedDb()) return null;
  return status;
}

/**
 * The task list as the task screen reads it (PRODUCT §10.4): with the device's engine and a list kept on the
 * device, only what changed since its position is asked for (GET /todo/changes, a reset reads it whole), and
 * the list is the engine's, pending changes laid over it; offline it is the device's copy. Otherwise, the whole
 * list from the server. Never retried (PRODUCT §7), as the plain list.
 */
export function syncedTodosQuery(queryClient: QueryClient) {
  const plain = todosQuery();
  return queryOptions({
    ...plain,
    queryFn: async (context): Promise<TodosResponse> => {
      // A device that keeps nobody's list (a first visit) reads the whole list at once, as the page's HTML began to.
      const engine = hasIndexedDb() && deviceUser() ? await taskSync(queryClient) : null;
      if (engine && engine.position() !== null) {
        await engine.pull();
        const cursor = engine.position();
        if (cursor !== null) {
          const list = { todos: engine.view(), lists: engine.lists(), cursor };
          engineLists.add(list);
          return list;
        }
      }
      return fetchTodoList({ signal: context.signal });
    },
  });
}

/**
 * The key a task's row keeps for as long as the page shows it (PRODUCT §10.4): a task added on this device is
 * shown at once under a temporary id and keeps that key when the server's id replaces it, so the row stays
 * the same element (no exit and entrance, the focus and an open editor kept).
 */
export function taskRowKey(queryClient: QueryClient, id: string): string {
  return (queryClient as Holder)[SYNC]?.running?.tempIdOf(id) ?? id;
}

/**
 * The id the server gave something made on this device under a temporary id (a task, or a list made offline,
 * PRODUCT §10.19), once it has answered; `id` itself otherwise. An address naming a new list by its temporary
 * id is replaced by the real one with it.
 */
export function resolvedId(queryClient: QueryClient, id: string): string {
  return (queryClient as Holder)[SYNC]?.running?.resolveId(id) ?? id;
}
