import { applyTaskPatch } from '@tm/contracts/repeat';
import {
  applyPatch,
  byListPlace,
  compareTaskOrder,
  DEFAULT_LIST_COLOUR,
  fieldValue,
  INBOX_ID,
  inTaskOrder,
  LIST_COLOURS,
  listNameValue,
  normalLabels,
  normalSubtasks,
  noteValue,
  orderKeyBetween,
  ROUTES,
  TEMP_ID_PREFIX,
  TODO_PATCH_FIELDS,
  todoTitleValue,
  type AddTodoRequest,
  type ChangeBase,
  type CreateListRequest,
  type ListColour,
  type ListPatch,
  type PatchValues,
  type SyncCommand,
  type TaskList,
  type Todo,
  type TodoChangeEvent,
} from '@tm/contracts';

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
  | { kind: 'update'; taskId: string; fields: Partial<TaskFields>; today?: string }
  | { kind: 'delete'; taskId: string }
  | { kind: 'restore'; taskId: string }
  | { kind: 'completeAll'; completed: boolean; listId?: string }
  | { kind: 'clearCompleted'; listId?: string }
  | { kind: 'restoreBulk' }
  | { kind: 'createList'; tempId: string; name: string; colour?: ListColour; order?: string }
  | { kind: 'updateList'; listId: string; patch: ListPatch }
  | { kind: 'deleteList'; listId: string }
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

/**
 * Mark every task complete (`true`) or active again (`false`); with `listId` (a list's id or INBOX_ID), only
 * the tasks of that list (docs/PRODUCT.md §10.19).
 */
export function completeAllCommand(completed: boolean, id: string = newCommandId(), listId?: string): SyncCommand {
  return { id, method: ROUTES.completeAll.method, path: ROUTES.completeAll.path, body: listId === undefined ? { completed } : { completed, listId } };
}

/** Delete every completed task; with `listId`, only those of that list (its `?listId=` query, §10.19). */
export function clearCompletedCommand(id: string = newCommandId(), listId?: string): SyncCommand {
  const query = listId === undefined ? '' : `?listId=${encodeURIComponent(listId)}`;
  return { id, method: ROUTES.clearCompleted.method, path: ROUTES.clearCompleted.path + query };
}

const listPathOf = (path: string, listId: string) => path.replace(':listId', encodeURIComponent(listId));

/**
 * Make a list (docs/PRODUCT.md §10.19): the command, and the temp id the lists show it under until the server
 * answers; later commands (a task added to it, a move into it) may name it by that id.
 */
export function createListCommand(list: CreateListRequest, id: string = newCommandId()): { command: SyncCommand; tempId: string } {
  return { command: { id, method: ROUTES.createList.method, path: ROUTES.createList.path, body: list }, tempId: tempIdOf(id) };
}

/** Rename, recolour, move (`order`) or archive / bring back a list: the values set, as PUT sets them. */
export function updateListCommand(listId: string, patch: ListPatch, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.updateList.method, path: listPathOf(ROUTES.updateList.path, listId), body: patch };
}

/** Delete a list and every task in it, in one change (Undo: restore-bulk with the answer's token). */
export function deleteListCommand(listId: string, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.deleteList.method, path: listPathOf(ROUTES.deleteList.path, listId) };
}

/** Undo a bulk action or a tick with the token its answer gave. */
export function restoreBulkCommand(undoToken: string, id: string = newCommandId()): SyncCommand {
  return { id, method: ROUTES.restoreBulk.method, path: ROUTES.restoreBulk.path, body: { undoToken } };
}

/** The id a route with `param` (`:todoId`, `:listId`) names in the command's path, or null when it is not that route. */
function idIn(route: { method: string; path: string }, command: SyncCommand, param = ':todoId'): string | null {
  if (command.method !== route.method) return null;
  const [head, tail] = route.path.split(param) as [string, string | undefined];
  if (tail === undefined || !command.path.startsWith(head) || !command.path.endsWith(tail)) return null;
  const id = command.path.slice(head.length, command.path.length - tail.length);
  return id === '' || id.includes('/') ? null : decodeURIComponent(id);
}

const bodyOf = (command: SyncCommand): Record<string, unknown> => (typeof command.body === 'object' && command.body !== null ? (command.body as Record<string, unknown>) : {});
const same = (command: SyncCommand, route: { method: string; path: string }) => command.method === route.method && pathPart(command.path) === route.path;
/** The path without its query. */
const pathPart = (path: string) => path.split('?')[0] ?? path;
/** The `listId` of the path's query (clear-completed's scope, §10.19), if any. */
const queryListId = (path: string): string | undefined => {
  const query = path.split('?')[1];
  return query === undefined ? undefined : (new URLSearchParams(query).get('listId') ?? undefined);
};
const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const colourOr = (value: unknown): ListColour | undefined => (LIST_COLOURS as readonly unknown[]).includes(value) ? (value as ListColour) : undefined;

/** The values a list update sets (the fields of ListPatch the body carries). */
function listPatchOf(body: Record<string, unknown>): ListPatch {
  const patch: ListPatch = {};
  if (typeof body.name === 'string') patch.name = body.name;
  const colour = colourOr(body.colour);
  if (colour) patch.colour = colour;
  if (typeof body.order === 'string') patch.order = body.order;
  if (typeof body.archived === 'boolean') patch.archived = body.archived;
  return patch;
}

/** What `command` does (by the routes of packages/contracts), for the overlay and the answers. */
export function actionOf(command: SyncCommand): CommandAction {
  const body = bodyOf(command);
  if (same(command, ROUTES.addTodo)) return { kind: 'add', tempId: tempIdOf(command.id), title: typeof body.title === 'string' ? body.title : '', fields: startingFields(body) };
  if (same(command, ROUTES.completeAll)) {
    const listId = stringOr(body.listId);
    return { kind: 'completeAll', completed: body.completed === true, ...(listId === undefined ? {} : { listId }) };
  }
  if (same(command, ROUTES.clearCompleted)) {
    const listId = queryListId(command.path);
    return { kind: 'clearCompleted', ...(listId === undefined ? {} : { listId }) };
  }
  if (same(command, ROUTES.restoreBulk)) return { kind: 'restoreBulk' };
  if (same(command, ROUTES.createList)) {
    const colour = colourOr(body.colour);
    const order = stringOr(body.order);
    return { kind: 'createList', tempId: tempIdOf(command.id), name: stringOr(body.name) ?? '', ...(colour ? { colour } : {}), ...(order === undefined ? {} : { order }) };
  }
  const listUpdated = idIn(ROUTES.updateList, command, ':listId');
  if (listUpdated !== null) return { kind: 'updateList', listId: listUpdated, patch: listPatchOf(body) };
  const listDeleted = idIn(ROUTES.deleteList, command, ':listId');
  if (listDeleted !== null) return { kind: 'deleteList', listId: listDeleted };
  const updated = idIn(ROUTES.updateTodo, command);
  if (updated !== null) {
    const data = typeof body.updateData === 'object' && body.updateData !== null ? (body.updateData as Record<string, unknown>) : {};
    const fields: Partial<TaskFields> = {};
    for (const field of TODO_PATCH_FIELDS) if (data[field] !== undefined) Object.assign(fields, { [field]: data[field] });
    return { kind: 'update', taskId: updated, fields, ...(typeof body.today === 'string' ? { today: body.today } : {}) };
  }
  const deleted = idIn(ROUTES.deleteTodo, command);
  if (deleted !== null) return { kind: 'delete', taskId: deleted };
  const restored = idIn(ROUTES.restoreTodo, command);
  if (restored !== null) return { kind: 'restore', taskId: restored };
  return { kind: 'unknown' };
}

/** The task a command is about (its path's id; an add's temp id), or null for a bulk or a list command. */
export function taskIdOf(command: SyncCommand): string | null {
  const action = actionOf(command);
  if (action.kind === 'add') return action.tempId;
  return 'taskId' in action ? action.taskId : null;
}

/** The list a list command is about (its path's id; a create's temp id), or null for any other command. */
export function listIdOf(command: SyncCommand): string | null {
  const action = actionOf(command);
  if (action.kind === 'createList') return action.tempId;
  return action.kind === 'updateList' || action.kind === 'deleteList' ? action.listId : null;
}

/**
 * Whether `task` is in the list `listId` (docs/PRODUCT.md §10.19): INBOX_ID holds the tasks without a
 * `listId`; `ids` maps the temp id of a list made on this device to the id the server gave it.
 */
export function inList(task: Pick<Todo, 'listId'>, listId: string, ids: IdMap = new Map()): boolean {
  if (listId === INBOX_ID) return task.listId === undefined;
  if (task.listId === undefined) return false;
  return (ids.get(task.listId) ?? task.listId) === (ids.get(listId) ?? listId);
}

/**
 * List order (docs/PRODUCT.md §2, §10.24): pinned first, then by order key (the person's own order, newest
 * first for tasks never moved), then by id, highest first; compareTaskOrder of @tm/contracts, the server's rule.
 */
export function compareTodos(a: Todo, b: Todo): number {
  return compareTaskOrder(a, b);
}

/** `todos` in list order (a new array). */
export function sortTodos(todos: readonly Todo[]): Todo[] {
  return inTaskOrder(todos);
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
      if (!byId.has(id)) byId.set(id, withFields({ _id: id, title: todoTitleValue(action.title), completed: false, isPinned: false, createdAt: now, updatedAt: now, completedAt: null }, { ...action.fields, ...labelsOf(action.fields), ...detailsOf(action.fields), ...listOf(action.fields, ids) }, now));
      return;
    }
    case 'update': {
      const id = resolve(action.taskId);
      const todo = byId.get(id);
      // A tick of a repeating task moves it to its next date, counted from the person's day (§10.16).
      if (todo) byId.set(id, applyTaskPatch(todo, { ...action.fields, ...titleOf(action.fields), ...labelsOf(action.fields), ...detailsOf(action.fields), ...listOf(action.fields, ids) }, now, action.today));
      return;
    }
    case 'delete':
      byId.delete(resolve(action.taskId));
      return;
    case 'completeAll': {
      const { listId } = action;
      for (const [id, todo] of byId) if (todo.completed !== action.completed && (listId === undefined || inList(todo, listId, ids))) byId.set(id, withFields(todo, { completed: action.completed }, now));
      return;
    }
    case 'clearCompleted': {
      const { listId } = action;
      for (const [id, todo] of byId) if (todo.completed && (listId === undefined || inList(todo, listId, ids))) byId.delete(id);
      return;
    }
    case 'deleteList':
      // The list goes with every task in it (§10.19).
      for (const [id, todo] of byId) if (todo.listId !== undefined && inList(todo, action.listId, ids)) byId.delete(id);
      return;
    case 'createList':
    case 'updateList':
    case 'restore':
    case 'restoreBulk':
    case 'unknown':
      return;
  }
}

/** The list a task goes to, under the server's id once the list made on this device has one (§10.19). */
function listOf(fields: Partial<TaskFields>, ids: IdMap): Partial<TaskFields> {
  return typeof fields.listId === 'string' ? { listId: ids.get(fields.listId) ?? fields.listId } : {};
}

/** Labels as the server will keep them (each once, case aside, in order: PRODUCT §10.20), when the fields set some. */
function labelsOf(fields: Partial<TaskFields>): Partial<TaskFields> {
  return Array.isArray(fields.labels) ? { labels: normalLabels(fields.labels) } : {};
}

/** A note and subtasks as the server will keep them (trimmed: PRODUCT §10.21), when the fields set them. */
function detailsOf(fields: Partial<TaskFields>): Partial<TaskFields> {
  return {
    ...(typeof fields.note === 'string' ? { note: noteValue(fields.note) } : {}),
    ...(Array.isArray(fields.subtasks) ? { subtasks: normalSubtasks(fields.subtasks) } : {}),
  };
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
 * `command` with the temp id `tempId` replaced by `realId` (the add or the new list was answered): commands
 * queued after it name the task or the list by the temp id until then, and by the real one from then on: in
 * the path, in the query (clear-completed's `listId`), and as the `listId` of a body (an add, a move, Mark
 * all; docs/PRODUCT.md §10.19). Null when the command does not name `tempId`.
 */
export function rewriteCommand(command: SyncCommand, tempId: string, realId: string): SyncCommand | null {
  const [path = '', query] = command.path.split('?');
  const segments = path.split('/');
  const encoded = encodeURIComponent(tempId);
  let changed = false;
  let nextPath = path;
  if (segments.includes(encoded)) {
    nextPath = segments.map((segment) => (segment === encoded ? encodeURIComponent(realId) : segment)).join('/');
    changed = true;
  }
  let nextQuery = query;
  if (query !== undefined) {
    const params = new URLSearchParams(query);
    if (params.get('listId') === tempId) {
      params.set('listId', realId);
      nextQuery = params.toString();
      changed = true;
    }
  }
  let body = command.body;
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    if (record.listId === tempId) {
      body = { ...record, listId: realId };
      changed = true;
    }
    const data = record.updateData;
    if (typeof data === 'object' && data !== null && (data as Record<string, unknown>).listId === tempId) {
      body = { ...(body as Record<string, unknown>), updateData: { ...data, listId: realId } };
      changed = true;
    }
  }
  if (!changed) return null;
  const rewritten: SyncCommand = { ...command, path: nextQuery === undefined ? nextPath : `${nextPath}?${nextQuery}` };
  if (body !== undefined) rewritten.body = body;
  return rewritten;
}

/** `command` with every acknowledged temp id it names (path, query, body) replaced by its real id (`ids`). */
export function resolveCommand(command: SyncCommand, ids: IdMap): SyncCommand {
  let resolved = command;
  for (const [tempId, realId] of ids) resolved = rewriteCommand(resolved, tempId, realId) ?? resolved;
  return resolved;
}

/**
 * What the device does with one answer of a sync call (docs/PRODUCT.md §10.4): `acknowledged` (applied, or
 * a delete of a task or a list already gone: 404 on a delete), `refused` (any other 4xx: the server will never apply
 * it; 424 when its add was refused), or `retry` (a 5xx, 408 or 429 for this one command: send it again later).
 */
export function outcomeOf(command: SyncCommand, status: number): 'acknowledged' | 'refused' | 'retry' {
  if (status >= 200 && status < 300) return 'acknowledged';
  const kind = actionOf(command).kind;
  if (status === 404 && (kind === 'delete' || kind === 'deleteList')) return 'acknowledged';
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

/**
 * The lists a person sees (docs/PRODUCT.md §10.19, offline as §10.4): the confirmed lists with every list
 * command still in the outbox laid over them, in order: a new list shows at once under its temp id (its real
 * one once answered, never twice), a rename, recolour, move or archive at once, a deleted list is gone.
 * In their order (byListPlace).
 */
export function listsViewOf(confirmed: readonly TaskList[], pending: readonly Pick<QueuedCommand, 'command' | 'createdAt'>[], ids: IdMap = new Map()): TaskList[] {
  const byId = new Map(confirmed.map((list) => [list._id, list]));
  for (const { command, createdAt } of pending) overlayList(byId, command, createdAt, ids);
  return [...byId.values()].sort(byListPlace);
}

/** {@link listsViewOf} for one command, in place. */
function overlayList(byId: Map<string, TaskList>, command: SyncCommand, now: string, ids: IdMap): void {
  const action = actionOf(command);
  const resolve = (id: string) => ids.get(id) ?? id;
  switch (action.kind) {
    case 'createList': {
      const id = resolve(action.tempId);
      if (byId.has(id)) return;
      // Placed as the server places it: after the last list unless an order was given.
      const last = [...byId.values()].sort(byListPlace).at(-1);
      const order = action.order ?? orderKeyBetween(last?.order ?? null, null);
      byId.set(id, { _id: id, name: listNameValue(action.name), colour: action.colour ?? DEFAULT_LIST_COLOUR, order, archived: false, createdAt: now, updatedAt: now });
      return;
    }
    case 'updateList': {
      const id = resolve(action.listId);
      const list = byId.get(id);
      if (!list) return;
      const { name, ...rest } = action.patch;
      byId.set(id, { ...list, ...rest, ...(name === undefined ? {} : { name: listNameValue(name) }), updatedAt: now });
      return;
    }
    case 'deleteList':
      byId.delete(resolve(action.listId));
      return;
    default:
      return;
  }
}

/** One change event applied to the confirmed lists: `savedLists` upserted, `removedLists` deleted. */
export function applyListChange(confirmed: readonly TaskList[], event: Pick<TodoChangeEvent, 'savedLists' | 'removedLists'>): TaskList[] {
  const saved = event.savedLists ?? [];
  const removed = event.removedLists ?? [];
  if (saved.length === 0 && removed.length === 0) return confirmed as TaskList[];
  const gone = new Set([...removed, ...saved.map((list) => list._id)]);
  return [...confirmed.filter((list) => !gone.has(list._id)), ...saved].sort(byListPlace);
}

/**
 * The new lists of this device an echo of its own change names (as {@link echoedAdds} for tasks): a list the
 * confirmed lists did not hold, saved by this page's change, is its oldest unanswered create of that name.
 */
export function echoedLists(event: Pick<TodoChangeEvent, 'savedLists'>, confirmed: readonly TaskList[], pending: readonly Pick<QueuedCommand, 'command' | 'state'>[], ids: IdMap): Map<string, string> {
  const known = new Set(confirmed.map((list) => list._id));
  const mapped = new Set(ids.values());
  const unanswered = pending.flatMap(({ command, state }) => {
    const action = actionOf(command);
    return state === 'queued' && action.kind === 'createList' && !ids.has(action.tempId) ? [action] : [];
  });
  const matches = new Map<string, string>();
  for (const list of event.savedLists ?? []) {
    if (known.has(list._id) || mapped.has(list._id)) continue;
    const index = unanswered.findIndex((create) => listNameValue(create.name) === list.name);
    const create = unanswered[index];
    if (!create) continue;
    matches.set(create.tempId, list._id);
    unanswered.splice(index, 1);
  }
  return matches;
}
