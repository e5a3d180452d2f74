import type Router from '@koa/router';
import {
  AddTodoRequest,
  AgendaQuery,
  changeMessage,
  ClearCompletedQuery,
  CreateListRequest,
  ListIdParams,
  ListPatch,
  LISTS_FULL_MESSAGE,
  isTick,
  unchangedMessage,
  ChangesQuery,
  CLIENT_ID_HEADER,
  CLIENT_ID_PATTERN,
  CompleteAllRequest,
  EVENTS_AFTER_PARAM,
  ErrorBody,
  ErrorCode,
  EventCursor,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  LIMITS,
  RestoreBulkRequest,
  ROUTES,
  SyncRequest,
  TEMP_ID_PREFIX,
  TodoIdParams,
  UpdateTodoRequest,
  type HistoryResponse,
  type SyncCommand,
  type SyncResponse,
  type BulkTodosResponse,
  type DeleteListResponse,
  type ListResponse,
  type DeleteTodoResponse,
  type PurgeTodosResponse,
  type RestoreBulkResponse,
  type TodoPatch,
  type TodoResponse,
  type UpdateTodoResponse,
  type ValidationIssue,
  UPDATE_MESSAGES,
} from '@tm/contracts';
import { datedProblem, requestFingerprint, resolveTempId, type IdempotentRequest, type StoredAnswer } from './todos.domain.js';
import type { SavedFiltersRepository } from './saved-filters.repository.js';
import type { BulkChange, BulkRestore, ListField, ListOutcome, ListRemoval, ResultOf, TaskRefusal, TodoRecord, TodoUpdate, TodoWrite } from './todos.repository.js';
import { apiRouter, HttpError, parseOr400, requireUser, UnauthorizedError, ValidationError } from '@tm/service-kit';
import type { Context } from 'koa';
import { z } from 'zod';
import type { TodoEventStreams } from './todo-events.stream.js';
import type { TodosService } from './todos.service.js';

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const TODO_MESSAGES = {
  added: 'Task added successfully',
  deleted: 'Task deleted successfully',
  restored: 'Task restored',
  purged: 'All tasks deleted',
  markedComplete: (n: number) => `${count(n, 'task', 'tasks')} marked complete`,
  markedActive: (n: number) => `${count(n, 'task', 'tasks')} marked active`,
  allAlreadyComplete: 'All tasks are already complete',
  allAlreadyActive: 'All tasks are already active',
  cleared: (n: number) => `${count(n, 'completed task', 'completed tasks')} cleared`,
  nothingToClear: 'No completed tasks to clear',
  bulkRestored: (n: number) => `${count(n, 'task', 'tasks')} restored`,
} as const;

/** What a list write says (docs/PRODUCT.md §10.19). */
const LIST_MESSAGES = {
  created: 'List created',
  name: 'List renamed',
  colour: 'List colour changed',
  order: 'List moved',
  archived: 'List archived',
  unarchived: 'List restored from archive',
  several: 'List updated',
  unchanged: 'List unchanged',
  deleted: 'List deleted',
  restored: 'List restored',
} as const;

/** Message of the 404 for an unknown, deleted or another user's list alike (they must be indistinguishable, §10.19). */
const LIST_NOT_FOUND_MESSAGE = 'List not found';

/** What an update of a list says: the one field it changed in that field's words, "List updated" for several, or "List unchanged". */
export function listUpdateMessage(changed: readonly ListField[], archived: boolean): string {
  const [only, ...others] = changed;
  if (only === undefined) return LIST_MESSAGES.unchanged;
  if (others.length > 0) return LIST_MESSAGES.several;
  if (only === 'archived') return archived ? LIST_MESSAGES.archived : LIST_MESSAGES.unarchived;
  return LIST_MESSAGES[only];
}

/** A list write's answer: the list (201 for a create), or its refusal (404, 409 naming `name`, 409 full). */
function listAnswer(outcome: ListOutcome, message: (list: ListResponse['list'], changed: readonly ListField[]) => string, status: number): StoredAnswer {
  switch (outcome.kind) {
    case 'saved':
      return ok({ message: message(outcome.list, outcome.changed), list: outcome.list } satisfies ListResponse, status);
    case 'not-found':
      return { status: 404, body: { message: LIST_NOT_FOUND_MESSAGE, code: ErrorCode.listNotFound } };
    case 'name-taken':
      return { status: 409, body: { message: outcome.issue.message, code: ErrorCode.listNameTaken, issues: [outcome.issue] } };
    case 'full':
      return { status: 409, body: { message: LISTS_FULL_MESSAGE, code: ErrorCode.listsFull } };
  }
}

/** What an update says (docs/PRODUCT.md §7, §10.11.1; the words are the contracts', shared with the page). */
export function updateMessage(patch: TodoPatch, { todo, changed, repeated }: Pick<TodoUpdate, 'todo' | 'changed' | 'repeated'>): string {
  if (repeated === true) return UPDATE_MESSAGES.repeated;
  return changed.length === 0 ? unchangedMessage(patch, todo) : changeMessage(changed, todo);
}

/** A 400 the rules decided (a repeat or reminders the task cannot keep, §10.16, §10.17), as a refusal of the schema's is worded. */
const refused = (issue: ValidationIssue): StoredAnswer => ({ status: 400, body: { message: issue.message, code: ErrorCode.validation, issues: [issue] } });

/** Message of the 404 for an unknown id and for another user's task alike (they must be indistinguishable). */
const TODO_NOT_FOUND_MESSAGE = 'Task not found';
/** Undo too late, or of a task that was never deleted (or is someone else's): docs/PRODUCT.md §10.11.4. */
const TODO_NOT_RESTORABLE_MESSAGE = 'This task can no longer be restored.';
/**
 * Undo of a bulk call that cannot (or can no longer) be done: an unknown, spent, expired or another user's
 * token, or none of its tasks left as the call left them. One answer for all: they must be indistinguishable.
 */
const TODOS_NOT_RESTORABLE_MESSAGE = 'These tasks can no longer be restored.';

/**
 * A write's answers. Made from the write's result inside its transaction (an answer is kept with a write
 * sent with an Idempotency-Key), so a refusal the rules decide on (404) is an answer too, in the body of its error.
 */
const ok = (body: unknown, status = 200): StoredAnswer => ({ status, body });
const notFound = (): StoredAnswer => ({ status: 404, body: { message: TODO_NOT_FOUND_MESSAGE, code: ErrorCode.todoNotFound } });
const notRestorable = (message: string): StoredAnswer => ({ status: 404, body: { message, code: ErrorCode.todoNotRestorable } });

/** A bulk call's answer: the message, the count, and the undo token when something changed. */
function bulkAnswer(message: string, { todos, undoToken }: BulkChange): BulkTodosResponse {
  return undoToken === null ? { message, count: todos.length } : { message, count: todos.length, undoToken };
}

/** `requireUser()` has already answered 401 when there is none; this narrows the type for the handlers. */
export function userIdOf(ctx: Context): string {
  const { userId } = ctx.state;
  if (!userId) throw new UnauthorizedError();
  return userId;
}

/**
 * The writing page's id (`X-Client-Id`), carried back as the change event's `origin` so that page can skip
 * its own echo. Anything not matching the pattern (absent, too long, odd characters) counts as no origin.
 */
export function originOf(ctx: Context): string | null {
  const value = ctx.get(CLIENT_ID_HEADER);
  return CLIENT_ID_PATTERN.test(value) ? value : null;
}

const IdempotencyKeyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z.string().regex(IDEMPOTENCY_KEY_PATTERN, `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters`),
});

/**
 * The write's `Idempotency-Key` (docs/PRODUCT.md §7) with the fingerprint of its request (method, path with
 * its query, and body); `null` without the header. A header that is present but not 1–255 printable ASCII characters is a 400.
 */
export function idempotencyOf(ctx: Context): IdempotentRequest | null {
  if (ctx.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] === undefined) return null;
  const key = parseOr400(IdempotencyKeyHeader, { [IDEMPOTENCY_KEY_HEADER]: ctx.get(IDEMPOTENCY_KEY_HEADER) })[IDEMPOTENCY_KEY_HEADER];
  // The path with its query: clear-completed's `?listId=` (docs/PRODUCT.md §10.19) makes another request.
  return { key, fingerprint: requestFingerprint(ctx.method, ctx.url, ctx.request.body) };
}

/**
 * Runs one write for the request's user and resolves its answer (the kept one, for a retry under the same key).
 */
function runWrite<W extends TodoWrite>(ctx: Context, service: TodosService, { write, answer }: PlannedWrite<W>, request: IdempotentRequest | null): Promise<StoredAnswer> {
  return service.write(userIdOf(ctx), originOf(ctx), write, answer, request);
}

/** A refusal as an error (so the error handler writes it and the request's span records its code). */
function refusalOf({ status, body }: StoredAnswer): HttpError {
  const refusal = ErrorBody.parse(body);
  return new HttpError(status, refusal.message, refusal.code ?? ErrorCode.internal, refusal.issues);
}

/** One task write ready to run: the write and how its result is answered. */
interface PlannedWrite<W extends TodoWrite = TodoWrite> {
  write: W;
  answer: (result: ResultOf<W>) => StoredAnswer;
}

/** A planned write, run for the request's user under an `Idempotency-Key` (or none). */
type RunWrite = (ctx: Context, service: TodosService, request: IdempotentRequest | null) => Promise<StoredAnswer>;

/** A task write route: its method, its path (under /todo) and how a request's params and body become a write. */
interface WriteRoute {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Parses the request (throws a 400 on bad input, before anything is written) and plans its write. */
  plan: (params: Record<string, string>, body: unknown, query: unknown) => RunWrite;
}

type PlanOf<W extends TodoWrite> = (params: Record<string, string>, body: unknown, query: unknown) => PlannedWrite<W>;

const writeRoute = <W extends TodoWrite>(method: WriteRoute['method'], path: string, plan: PlanOf<W>): WriteRoute => ({
  method,
  path,
  plan: (params, body, query) => {
    const planned = plan(params, body, query);
    return (ctx, service, request) => runWrite(ctx, service, planned, request);
  },
});

const todoIdOf = (params: Record<string, string>): string => parseOr400(TodoIdParams, params).todoId;
const listIdOf = (params: Record<string, string>): string => parseOr400(ListIdParams, params).listId;

/** An add's answer: the task (201), or the rules' refusal of its `listId` (400 naming it, §10.19). */
const addAnswer = (added: TodoRecord | TaskRefusal): StoredAnswer =>
  'problem' in added ? refused(added.problem) : ok({ message: TODO_MESSAGES.added, todo: added } satisfies TodoResponse, 201);

/**
 * Every task write, once: the HTTP routes and the commands of a sync call (docs/PRODUCT.md §10.4) are both
 * made from this table, so a command answers exactly what its call would.
 */
const WRITE_ROUTES: readonly WriteRoute[] = [
  writeRoute('POST', ROUTES.addTodo.path, (_, body) => {
    const { title, ...dated } = parseOr400(AddTodoRequest, body);
    const problem = datedProblem(dated);
    if (problem !== null) throw new ValidationError([problem]);
    return { write: { call: 'create', title, dated }, answer: addAnswer };
  }),
  // Only a tick (isTick: a patch of `completed` alone, docs/PRODUCT.md §10.11.4) keeps an undo; an edit, a pin or several fields do not.
  writeRoute('PUT', ROUTES.updateTodo.path, (params, body) => {
    const id = todoIdOf(params);
    const { updateData, base, today } = parseOr400(UpdateTodoRequest, body);
    return {
      write: { call: 'update', id, patch: updateData, keepUndo: isTick(updateData), base, today },
      answer: (update: TodoUpdate | null) => {
        if (update === null) return notFound();
        if (update.problem !== undefined) return refused(update.problem);
        const answer: UpdateTodoResponse = { message: updateMessage(updateData, update), todo: update.todo };
        if (update.undoToken !== null) answer.undoToken = update.undoToken;
        if (update.conflicts.length > 0) answer.conflicts = update.conflicts;
        return ok(answer);
      },
    };
  }),
  writeRoute('DELETE', ROUTES.deleteTodo.path, (params) => ({
    write: { call: 'remove', id: todoIdOf(params) },
    answer: (removed: boolean) => (removed ? ok({ message: TODO_MESSAGES.deleted } satisfies DeleteTodoResponse) : notFound()),
  })),
  writeRoute('POST', ROUTES.restoreTodo.path, (params) => ({
    write: { call: 'restore', id: todoIdOf(params) },
    answer: (todo: TodoRecord | null) =>
      todo === null ? notRestorable(TODO_NOT_RESTORABLE_MESSAGE) : ok({ message: TODO_MESSAGES.restored, todo } satisfies TodoResponse),
  })),
  // With `listId`, the tasks of one list or of the Inbox only (docs/PRODUCT.md §10.19); a list id that names no
  // list of the user scopes to no task.
  writeRoute('PUT', ROUTES.completeAll.path, (_, body) => {
    const { completed, listId } = parseOr400(CompleteAllRequest, body);
    return {
      write: { call: 'setAllCompleted', completed, scope: listId },
      answer: (change: BulkChange) => {
        const changed = change.todos.length;
        const message = completed
          ? changed === 0 ? TODO_MESSAGES.allAlreadyComplete : TODO_MESSAGES.markedComplete(changed)
          : changed === 0 ? TODO_MESSAGES.allAlreadyActive : TODO_MESSAGES.markedActive(changed);
        return ok(bulkAnswer(message, change));
      },
    };
  }),
  writeRoute('DELETE', ROUTES.clearCompleted.path, (_, _body, query) => ({
    write: { call: 'clearCompleted', scope: parseOr400(ClearCompletedQuery, query).listId },
    answer: (change: BulkChange) => {
      const cleared = change.todos.length;
      return ok(bulkAnswer(cleared === 0 ? TODO_MESSAGES.nothingToClear : TODO_MESSAGES.cleared(cleared), change));
    },
  })),
  // Undo of complete-all, clear-completed, a tick or a list's delete, by the token their answer carried
  // (docs/PRODUCT.md §10.11.3, §10.19). A list's delete undone says so, even for a list that had no task.
  writeRoute('POST', ROUTES.restoreBulk.path, (_, body) => {
    const { undoToken } = parseOr400(RestoreBulkRequest, body);
    return {
      write: { call: 'restoreBulk', undoToken },
      answer: (restored: BulkRestore | null) => {
        if (restored === null || (restored.todos.length === 0 && restored.lists.length === 0)) return notRestorable(TODOS_NOT_RESTORABLE_MESSAGE);
        const { todos, lists } = restored;
        const message = lists.length > 0 ? LIST_MESSAGES.restored : TODO_MESSAGES.bulkRestored(todos.length);
        return ok({ message, count: todos.length, todos, ...(lists.length > 0 ? { lists } : {}) } satisfies RestoreBulkResponse);
      },
    };
  }),
  // Lists (docs/PRODUCT.md §10.19).
  writeRoute('POST', ROUTES.createList.path, (_, body) => {
    const input = parseOr400(CreateListRequest, body);
    return { write: { call: 'createList', input }, answer: (outcome: ListOutcome) => listAnswer(outcome, () => LIST_MESSAGES.created, 201) };
  }),
  writeRoute('PUT', ROUTES.updateList.path, (params, body) => {
    const id = listIdOf(params);
    const patch = parseOr400(ListPatch, body);
    return { write: { call: 'updateList', id, patch }, answer: (outcome: ListOutcome) => listAnswer(outcome, (list, changed) => listUpdateMessage(changed, list.archived), 200) };
  }),
  writeRoute('DELETE', ROUTES.deleteList.path, (params) => ({
    write: { call: 'removeList', id: listIdOf(params) },
    answer: (removal: ListRemoval) =>
      removal.kind === 'not-found'
        ? { status: 404, body: { message: LIST_NOT_FOUND_MESSAGE, code: ErrorCode.listNotFound } }
        : ok({ message: LIST_MESSAGES.deleted, count: removal.todos.length, undoToken: removal.undoToken } satisfies DeleteListResponse),
  })),
];

/** A route path with `:name` parameters as a matcher of concrete paths (a parameter is one path segment). */
function pathMatcher(path: string): (candidate: string) => Record<string, string> | null {
  const names: string[] = [];
  const pattern = new RegExp(`^${path.replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
  return (candidate) => {
    const match = pattern.exec(candidate);
    if (!match) return null;
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
  };
}

const COMMAND_ROUTES = WRITE_ROUTES.map((route) => ({ route, match: pathMatcher(route.path) }));

const SYNC_MESSAGES = {
  unknownCall:
    'This command names no task write (method and path of add, update, delete, restore, complete-all, clear-completed, restore-bulk, or of a list\'s create, update or delete).',
  dependencyFailed: 'The task this change names was never added: the change that added it was refused or not sent.',
  listDependencyFailed: 'The list this change names was never made: the change that made it was refused or not sent.',
} as const;

const commandRefusal = (status: number, message: string, code: string): StoredAnswer => ({ status, body: { message, code } });

/** What a temporary id stands for: a task (an add-todo made it) or a list (a createList made it, §10.19). */
type TempKind = 'todo' | 'list';

/** Thrown inside a command's resolution: a temporary id of `kind` whose command was never applied (424). */
class UnresolvedTempId extends Error {
  constructor(readonly kind: TempKind) {
    super('unresolved temporary id');
  }
}

/** A sync command's id for a temporary one, by the user's record of the command that made it (resolveTempId). */
async function resolveId(service: TodosService, userId: string, value: string, kind: TempKind): Promise<string> {
  const record = value.startsWith(TEMP_ID_PREFIX) ? await service.idempotencyRecord(userId, value.slice(TEMP_ID_PREFIX.length)) : null;
  const id = resolveTempId(value, () => record ?? undefined, kind);
  if (id === null) throw new UnresolvedTempId(kind);
  return id;
}

/** `holder` with its string `listId` resolved (a temporary list id, §10.19); anything else as it is. */
async function withListId(service: TodosService, userId: string, holder: unknown): Promise<unknown> {
  if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) return holder;
  const { listId } = holder as { listId?: unknown };
  return typeof listId === 'string' ? { ...holder, listId: await resolveId(service, userId, listId, 'list') } : holder;
}

/**
 * A command's body with the temporary list ids it names resolved (docs/PRODUCT.md §10.19): the `listId` of
 * an add-todo or complete-all body, and of an update-todo's `updateData`. Anything else is left for the
 * route's own parsing to judge.
 */
async function resolveBody(service: TodosService, userId: string, body: unknown): Promise<unknown> {
  const resolved = await withListId(service, userId, body);
  if (resolved === null || typeof resolved !== 'object' || !('updateData' in resolved)) return resolved;
  return { ...resolved, updateData: await withListId(service, userId, resolved.updateData) };
}

/**
 * One command of a sync call (docs/PRODUCT.md §10.4), answered as its call would answer on its own: its id
 * is its `Idempotency-Key`, and its fingerprint is the call's (method, path as sent, body), so a command
 * retried by itself or in another sync call is applied once. A temporary id stands for the task its add
 * made, or for the list its createList made (resolveTempId, §10.19): in the path (`:todoId`, `:listId`),
 * as the `listId` of a body, and as the `?listId=` of clear-completed; a command never applied makes it a
 * 424. A refusal (4xx) is the command's answer; any other failure (a store that is down) fails the whole
 * call, which the client sends again.
 */
async function runCommand(ctx: Context, service: TodosService, command: SyncCommand): Promise<StoredAnswer> {
  const [path = '', search = ''] = command.path.split('?', 2);
  const found = COMMAND_ROUTES.map(({ route, match }) => ({ route, params: route.method === command.method ? match(path) : null })).find(({ params }) => params !== null);
  if (found?.params == null) return commandRefusal(400, SYNC_MESSAGES.unknownCall, ErrorCode.validation);
  const { route, params } = found;
  const userId = userIdOf(ctx);
  let run: RunWrite;
  try {
    const resolved: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) resolved[name] = await resolveId(service, userId, value, name === 'listId' ? 'list' : 'todo');
    const query = Object.fromEntries(new URLSearchParams(search));
    const body = await resolveBody(service, userId, command.body ?? {});
    run = route.plan(resolved, body, await withListId(service, userId, query));
  } catch (error) {
    if (error instanceof UnresolvedTempId) {
      return commandRefusal(424, error.kind === 'list' ? SYNC_MESSAGES.listDependencyFailed : SYNC_MESSAGES.dependencyFailed, ErrorCode.dependencyFailed);
    }
    return refusalAnswer(error);
  }
  try {
    return await run(ctx, service, { key: command.id, fingerprint: requestFingerprint(command.method, command.path, command.body) });
  } catch (error) {
    return refusalAnswer(error);
  }
}

/** A 4xx thrown while planning or running a command, as that command's answer; anything else is rethrown. */
function refusalAnswer(error: unknown): StoredAnswer {
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
    return { status: error.status, body: error.issues ? { message: error.message, code: error.code, issues: error.issues } : { message: error.message, code: error.code } };
  }
  throw error;
}

const LastEventIdHeader = z.object({ 'Last-Event-ID': EventCursor });
const EventsQuery = z.object({ [EVENTS_AFTER_PARAM]: EventCursor.optional() });

/** Where a stream resumes: `Last-Event-ID` (a reconnect) wins over `?after=` (the first connect); else now. */
function resumePointOf(ctx: Context): string | null {
  const lastEventId = ctx.get('Last-Event-ID');
  if (lastEventId !== '') return parseOr400(LastEventIdHeader, { 'Last-Event-ID': lastEventId })['Last-Event-ID'];
  return parseOr400(EventsQuery, ctx.query)[EVENTS_AFTER_PARAM] ?? null;
}

/** How many history entries one answer holds at most: a month of a busy task. */
const HISTORY_PAGE = 200;

/**
 * The task routes as the gateway forwards them (its `/api` prefix stripped). Every input is parsed with
 * the contracts before the service is called, so a rejected request never writes anything.
 */
export function todosRoutes(service: TodosService, streams: TodoEventStreams): Router {
  const router = apiRouter('/todo');
  router.use(requireUser());

  router.get('/fetch-todo', async (ctx) => {
    // The store's own serialisation of a TodosResponse (the repository tests hold it to JSON.stringify of
    // the list), encoded once: Koa would otherwise stringify, measure and encode a large array itself.
    ctx.type = 'application/json';
    ctx.body = Buffer.from(await service.listJson(userIdOf(ctx)));
  });

  for (const route of WRITE_ROUTES) {
    const method = route.method === 'POST' ? 'post' : route.method === 'PUT' ? 'put' : 'delete';
    router[method](route.path.slice('/todo'.length), async (ctx) => {
      const run = route.plan(ctx.params, ctx.request.body, ctx.query);
      const { status, body } = await run(ctx, service, idempotencyOf(ctx));
      if (status >= 400) throw refusalOf({ status, body });
      ctx.status = status;
      ctx.body = body;
    });
  }

  // Queued changes of a device, in order, each once (docs/PRODUCT.md §10.4).
  router.post('/sync', async (ctx) => {
    const { commands } = parseOr400(SyncRequest, ctx.request.body);
    const results: SyncResponse['results'] = [];
    for (const command of commands) {
      const { status, body } = await runCommand(ctx, service, command);
      results.push({ id: command.id, status, body });
    }
    ctx.body = { results } satisfies SyncResponse;
  });

  // The changes after a feed position, as JSON (docs/PRODUCT.md §10.4), or a reset.
  router.get('/changes', async (ctx) => {
    const { after } = parseOr400(ChangesQuery, ctx.query);
    ctx.body = await service.changesSince(userIdOf(ctx), after, LIMITS.changesPage);
  });

  // Today and Upcoming for the person's own day (docs/PRODUCT.md §10.15); a bad `today` or `days` is a 400 naming it.
  router.get('/agenda', async (ctx) => {
    const { today, days } = parseOr400(AgendaQuery, ctx.query);
    ctx.body = await service.agenda(userIdOf(ctx), today, days);
  });

  router.get('/history/:todoId', async (ctx) => {
    const { todoId } = parseOr400(TodoIdParams, ctx.params);
    ctx.body = { entries: await service.history(userIdOf(ctx), todoId, HISTORY_PAGE) } satisfies HistoryResponse;
  });

  // Server-Sent Events: see TodoEventStreams for the wire format (docs/PRODUCT.md §10.11.5).
  router.get('/events', async (ctx) => {
    const userId = userIdOf(ctx);
    await streams.serve(ctx, userId, resumePointOf(ctx));
  });

  return router;
}

/**
 * `/internal/todos`: called only by the gateway (INTERNAL_API), never forwarded from the public `/api`. It
 * deletes every task of the vouched user when their account is deleted; repeating it answers a count of 0.
 */
export function internalTodosRoutes(service: TodosService, savedFilters?: SavedFiltersRepository): Router {
  const router = apiRouter();
  router.delete('/internal/todos', requireUser(), async (ctx) => {
    const userId = userIdOf(ctx);
    // The person's saved filters (docs/PRODUCT.md §10.20) go with the tasks.
    await savedFilters?.purge(userId);
    const body: PurgeTodosResponse = { message: TODO_MESSAGES.purged, deletedCount: await service.purge(userId) };
    ctx.body = body;
  });

  return router;
}
