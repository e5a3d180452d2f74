import { applyPatch, fieldValue, ROUTES, TEMP_ID_PREFIX, TODO_PATCH_FIELDS, todoTitleValue, type AddTodoRequest, type ChangeBase, type PatchValues, type SyncCommand, type Todo, type TodoChangeEvent } from '@tm/contracts';

/**
 * The rules of offline-first tasks on the device (docs/PRODUCT.md §10.4), as pure functions over plain data:
 * the commands each action queues, the list a person sees (the confirmed list with the queued commands laid
 * over it), and what a server answer or a change event does to them. No IO: the outbox (outbox-db.ts) and
 * the engine (engine.ts) keep and move the data. Every field rule goes over TODO_PATCH_FIELDS, so a field
 * added there syncs with no change here.
 */

/** The fields a person edits on a task (TODO_PATCH_FIELDS), with their values (`due: null`: none). */
export type TaskFields = PatchValues;

/** A command the device queued, as the outbox keeps it: the command itself, when it was made, and its state. */
export interface QueuedCommand {
  /** Position in the outbox (IndexedDB key): commands are sent in this order. */
  seq: number;
  command: SyncCommand;
  /** When the person acted (ISO): the time the overlay shows, and the age of the oldest pending change. */
  createdAt: string;
  /**
   * `queued`: not yet answered. `acknowledged`: the server applied it (2xx); it stays in the overlay until a
   * pull that covers it has brought its effect into the confirmed list, then leaves the outbox.
   */
  state: 'queued' | 'acknowledged';
}

/** temp id (`tmp-<add command id>`) → the id the server gave the task, for every acknowledged add. */
export type IdMap = ReadonlyMap<string, string>;

/** What a command does, read from its method and path (the routes of packages/contracts/src/routes.ts). */
export type CommandAction =
  | { kind: 'add'; tempId: string; title: string; fields: Partial<TaskFields> }
  | { kind: 'update'; taskId: string; fields: Partial<TaskFields> }
  | { kind: 'delete'; taskId: string }
  | { kind: 'restore'; taskId: string }
  | { kind: 'completeAll'; completed: boolean }
  | { kind: 'clearCompleted' }
  | { kind: 'restoreBulk' }
  | { kind: 'unknown' };

/**
 * A fresh command id (its Idempotency-Key, docs/PRODUCT.md §7): `crypto.randomUUID()`, or, where a page is
 * no secure context, 32 hex digits from `crypto.getRandomValues` (both match COMMAND_ID_PATTERN).
 */
export function newCommandId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The temporary id of the task an add command makes (TEMP_ID_PREFIX + its id): later commands may name it. */
export function tempIdOf(commandId: string): string {
  return TEMP_ID_PREFIX + commandId;
}

/** Whether `id` is a temporary id, not yet one the server gave. */
export function isTempId(id: string): boolean {
  return id.startsWith(TEMP_ID_PREFIX);
}

const pathOf = (path: string, taskId: string) => path.replace(':todoId', encodeURIComponent(taskId));

/** Add a task (docs/PRODUCT.md §10.4): the command, and the temp id the list shows the task under until the server answers. */
export function addTaskCommand(task: string | AddTodoRequest, id: string = newCommandId()): { command: SyncCommand; tempId: string } {
  const body: AddTodoRequest = typeof task === 'string' ? { title: task } : task;
  return { command: { id, method: ROUTES.addTodo.method, path: ROUTES.addTodo.path, body }, tempId: tempIdOf(id) };
}

/** The fields other than its title that an add's body starts the task with (a due date, §10.14). */
function startingFields(body: Record<string, unknown>): Partial<TaskFields> {
  const fields: Partial<TaskFields> = {};
  for (const field of TODO_PATCH_FIELDS) if (field !== 'title' && body[field] !== undefined) Object.assign(fields, { [field]: body[field] });
  return fields;
}

/**
 * Change fields of `task` as the device shows it (its view). `base` holds the values the changed fields have
 * on screen now, so the server can tell a change made meanwhile elsewhere (docs/PRODUCT.md §10.4: the later
 * change wins and the replaced value goes to the task's history as a conflict).
 */
export function updateTaskCommand(task: Todo, patch: Partial<TaskFields>, id: string = newCommandId()): SyncCommand {
  const updateData: Partial<TaskFields> = {};
  const base: ChangeBase = {};
  for (const field of TODO_PATCH_FIELDS) {
    if (patch[field] === undefined) continue;
    Object.assign(updateData, { [field]: patch[field] });
    base[field] = fieldValue(task, field);
  }
  return { id, method: ROUTES.updateTodo.method, path: pathOf(ROUTES.updateTodo.path, task._id), body: { updateData, base } };
}

/** Delete a task (it stays restorable on the server for a while, docs/PRODUCT.md §10.11.4). */
export function deleteTaskCommand(taskId: string, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.deleteTodo.method, path: pathOf(ROUTES.deleteTodo.path, taskId) };
}

/** Restore a deleted task (Undo of a delete). */
export function restoreTaskCommand(taskId: string, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.restoreTodo.method, path: pathOf(ROUTES.restoreTodo.path, taskId) };
}

/** Mark every task complete (`true`) or active again (`false`). */
export function completeAllCommand(completed: boolean, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.completeAll.method, path: ROUTES.completeAll.path, body: { completed } };
}

/** Delete every completed task. */
export function clearCompletedCommand(id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.clearCompleted.method, path: ROUTES.clearCompleted.path };
}

/** Undo a bulk action or a tick with the token its answer gave. */
export function restoreBulkCommand(undoToken: string, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.restoreBulk.method, path: ROUTES.restoreBulk.path, body: { undoToken } };
}

/** The task id a route with `:todoId` names in `path`, or null when `path` is not that route. */
function taskIdIn(route: { method: string; path: string }, command: SyncCommand): string | null {
  if (command.method !== route.method) return null;
  const [head, tail] = route.path.split(':todoId') as [string, string | undefined];
  if (tail === undefined || !command.path.startsWith(head) || !command.path.endsWith(tail)) return null;
  const id = command.path.slice(head.length, command.path.length - tail.length);
  return id === '' || id.includes('/') ? null : decodeURIComponent(id);
}

const bodyOf = (command: SyncCommand): Record<string, unknown> => (typeof command.body === 'object' && command.body !== null ? (command.body as Record<string, unknown>) : {});
const same = (command: SyncCommand, route: { method: string; path: string }) => command.method === route.method && command.path === route.path;

/** What `command` does (by the routes of packages/contracts), for the overlay and the answers. */
export function actionOf(command: SyncCommand): CommandAction {
  const body = bodyOf(command);
  if (same(command, ROUTES.addTodo)) return { kind: 'add', tempId: tempIdOf(command.id), title: typeof body.title === 'string' ? body.title : '', fields: startingFields(body) };
  if (same(command, ROUTES.completeAll)) return { kind: 'completeAll', completed: body.completed === true };
  if (same(command, ROUTES.clearCompleted)) return { kind: 'clearCompleted' };
  if (same(command, ROUTES.restoreBulk)) return { kind: 'restoreBulk' };
  const updated = taskIdIn(ROUTES.updateTodo, command);
  if (updated !== null) {
    const data = typeof body.updateData === 'object' && body.updateData !== null ? (body.updateData as Record<string, unknown>) : {};
    const fields: Partial<TaskFields> = {};
    for (const field of TODO_PATCH_FIELDS) if (data[field] !== undefined) Object.assign(fields, { [field]: data[field] });
    return { kind: 'update', taskId: updated, fields };
  }
  const deleted = taskIdIn(ROUTES.deleteTodo, command);
  if (deleted !== null) return { kind: 'delete', taskId: deleted };
  const restored = taskIdIn(ROUTES.restoreTodo, command);
  if (restored !== null) return { kind: 'restore', taskId: restored };
  return { kind: 'unknown' };
}

/** The task a command is about (its path's id; an add's temp id), or null for a bulk command. */
export function taskIdOf(command: SyncCommand): string | null {
  const action = actionOf(command);
  if (action.kind === 'add') return action.tempId;
  return 'taskId' in action ? action.taskId : null;
}

/** List order (docs/PRODUCT.md §2, the task list): pinned first, then newest first (createdAt), then by id, highest first. */
export function compareTodos(a: Todo, b: Todo): number {
  if (a.isPinned !== b.isPinned) return a.isPinned ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a._id < b._id ? 1 : a._id > b._id ? -1 : 0;
}

/** `todos` in list order (a new array). */
export function sortTodos(todos: readonly Todo[]): Todo[] {
  return [...todos].sort(compareTodos);
}

/** `task` with `fields` set as the server sets them (applyPatch of @tm/contracts), `updatedAt` being `now`. */
function withFields(task: Todo, fields: Partial<TaskFields>, now: string): Todo {
  return applyPatch(task, fields, now);
}

/**
 * The optimistic effect of one command on a list (docs/PRODUCT.md §10.4: every action shows at once): an add
 * inserts a provisional task under its temp id (or under its real id in `ids`, once answered, unless the
 * list already holds that task: no duplicate row), an update sets its fields, a delete removes, Mark all /
 * Clear completed apply to the tasks the list holds. A restore or an Undo of a bulk action changes nothing
 * until the server answers with the tasks it brought back. `now` (ISO) is when the person acted.
 */
export function applyCommand(todos: readonly Todo[], command: SyncCommand, now: string, ids: IdMap = new Map()): Todo[] {
  const byId = new Map(todos.map((todo) => [todo._id, todo]));
  overlay(byId, command, now, ids);
  return sortTodos([...byId.values()]);
}

/**
 * {@link applyCommand} on a list held by id, in place: the view lays hundreds of commands over hundreds of
 * tasks, so each command costs one lookup (a bulk command one pass), and the list is sorted once at the end.
 */
function overlay(byId: Map<string, Todo>, command: SyncCommand, now: string, ids: IdMap): void {
  const action = actionOf(command);
  const resolve = (id: string) => ids.get(id) ?? id;
  switch (action.kind) {
    case 'add': {
      const id = resolve(action.tempId);
      if (!byId.has(id)) byId.set(id, withFields({ _id: id, title: todoTitleValue(action.title), completed: false, isPinned: false, createdAt: now, updatedAt: now, completedAt: null }, action.fields, now));
      return;
    }
    case 'update': {
      const id = resolve(action.taskId);
      const todo = byId.get(id);
      if (todo) byId.set(id, withFields(todo, { ...action.fields, ...titleOf(action.fields) }, now));
      return;
    }
    case 'delete':
      byId.delete(resolve(action.taskId));
      return;
    case 'completeAll':
      for (const [id, todo] of byId) if (todo.completed !== action.completed) byId.set(id, withFields(todo, { completed: action.completed }, now));
      return;
    case 'clearCompleted':
      for (const [id, todo] of byId) if (todo.completed) byId.delete(id);
      return;
    case 'restore':
    case 'restoreBulk':
    case 'unknown':
      return;
  }
}

/** A title as the server will store it (bidi controls removed, trimmed), when the fields set one. */
function titleOf(fields: Partial<TaskFields>): Partial<TaskFields> {
  return fields.title === undefined ? {} : { title: todoTitleValue(fields.title) };
}

/** One change event of the feed applied to the confirmed list: `saved` tasks upserted, `removed` ids deleted. */
export function applyChange(confirmed: readonly Todo[], event: Pick<TodoChangeEvent, 'saved' | 'removed'>): Todo[] {
  if (event.removed.length === 0 && event.saved.length === 1) {
    // One task changed (a tick, an edit): in place when it keeps its place in the order, as it mostly does.
    const [saved] = event.saved as [Todo];
    const index = confirmed.findIndex((todo) => todo._id === saved._id);
    if (index >= 0 && confirmed[index]?.isPinned === saved.isPinned && confirmed[index]?.createdAt === saved.createdAt) {
      const next = [...confirmed];
      next[index] = saved;
      return next;
    }
  }
  const gone = new Set([...event.removed, ...event.saved.map((todo) => todo._id)]);
  return sortTodos([...confirmed.filter((todo) => !gone.has(todo._id)), ...event.saved]);
}

/**
 * The list a person sees (docs/PRODUCT.md §10.4): the confirmed list (the server's, as last pulled) with every
 * command still in the outbox laid over it in order, each at the time it was made. Acknowledged adds are
 * mapped to their real ids through `ids`, so a task the confirmed list already holds shows once.
 */
export function viewOf(confirmed: readonly Todo[], pending: readonly Pick<QueuedCommand, 'command' | 'createdAt'>[], ids: IdMap = new Map()): Todo[] {
  const byId = new Map(confirmed.map((todo) => [todo._id, todo]));
  for (const { command, createdAt } of pending) overlay(byId, command, createdAt, ids);
  return sortTodos([...byId.values()]);
}

/**
 * `command` with the temp id `tempId` in its path replaced by `realId` (the add was answered): commands queued
 * after an add name its task by the temp id until then, and by the real one from then on. Null when the
 * path does not name `tempId`.
 */
export function rewriteCommand(command: SyncCommand, tempId: string, realId: string): SyncCommand | null {
  const segments = command.path.split('/');
  const encoded = encodeURIComponent(tempId);
  if (!segments.includes(encoded)) return null;
  return { ...command, path: segments.map((segment) => (segment === encoded ? encodeURIComponent(realId) : segment)).join('/') };
}

/** `command` with every acknowledged temp id in its path replaced by its real id (`ids`). */
export function resolveCommand(command: SyncCommand, ids: IdMap): SyncCommand {
  const id = taskIdOf(command);
  if (id === null || !isTempId(id)) return command;
  const real = ids.get(id);
  return real === undefined ? command : (rewriteCommand(command, id, real) ?? command);
}

/**
 * What the device does with one answer of a sync call (docs/PRODUCT.md §10.4): `acknowledged` (applied, or
 * a delete of a task already gone: 404 on a delete), `refused` (any other 4xx: the server will never apply
 * it; 424 when its add was refused), or `retry` (a 5xx, 408 or 429 for this one command: send it again later).
 */
export function outcomeOf(command: SyncCommand, status: number): 'acknowledged' | 'refused' | 'retry' {
  if (status >= 200 && status < 300) return 'acknowledged';
  if (status === 404 && actionOf(command).kind === 'delete') return 'acknowledged';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'refused';
}

/**
 * The wait before the `attempt`-th retry (1, 2, …) of a failed call (docs/PRODUCT.md §10.4): 1 s doubling up
 * to 60 s, plus up to a quarter more at random so devices that failed together do not come back together;
 * never less than the server's Retry-After.
 */
export function backoffMs(attempt: number, random: number, retryAfterMs = 0): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.max(Math.round(base * (1 + random / 4)), retryAfterMs);
}

/**
 * The commands to send, cut into calls of at most `maxCommands` commands whose JSON body stays within
 * `maxBytes` (LIMITS.sync), in order.
 */
export function chunkCommands(commands: readonly SyncCommand[], maxCommands: number, maxBytes: number): SyncCommand[][] {
  const encoder = new TextEncoder();
  const envelope = encoder.encode(JSON.stringify({ commands: [] })).length;
  const chunks: SyncCommand[][] = [];
  let current: SyncCommand[] = [];
  let bytes = envelope;
  for (const command of commands) {
    const size = encoder.encode(JSON.stringify(command)).length + 1;
    if (current.length > 0 && (current.length >= maxCommands || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = envelope;
    }
    current.push(command);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Compares two feed cursors (whole numbers as decimal strings, up to 16 digits). */
export function compareCursors(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The adds of this device an echo of its own change names (docs/PRODUCT.md §10.4): a change event from this
 * page (its origin) that saves tasks the confirmed list did not hold is the server applying this device's adds
 * whose answers have not come back (lost, or still on the way). The server applies a device's commands in
 * order, so those tasks are its oldest unanswered adds of the same titles, in order. Returns temp id → real id
 * for each one matched, so the view never shows one task twice.
 */
export function echoedAdds(event: Pick<TodoChangeEvent, 'saved'>, confirmed: readonly Todo[], pending: readonly Pick<QueuedCommand, 'command' | 'state'>[], ids: IdMap): Map<string, string> {
  const known = new Set(confirmed.map((todo) => todo._id));
  const mapped = new Set(ids.values());
  const unanswered = pending.flatMap(({ command, state }) => {
    const action = actionOf(command);
    return state === 'queued' && action.kind === 'add' && !ids.has(action.tempId) ? [action] : [];
  });
  const matches = new Map<string, string>();
  for (const task of event.saved) {
    if (known.has(task._id) || mapped.has(task._id)) continue;
    const index = unanswered.findIndex((add) => todoTitleValue(add.title) === task.title);
    const add = unanswered[index];
    if (!add) continue;
    matches.set(add.tempId, task._id);
    unanswered.splice(index, 1);
  }
  return matches;
}
