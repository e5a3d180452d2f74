import type Router from '@koa/router';
import {
  AddTodoRequest,
  CLIENT_ID_HEADER,
  CLIENT_ID_PATTERN,
  CompleteAllRequest,
  EVENTS_AFTER_PARAM,
  ErrorBody,
  ErrorCode,
  EventCursor,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  RestoreBulkRequest,
  TodoIdParams,
  UpdateTodoRequest,
  type BulkTodosResponse,
  type DeleteTodoResponse,
  type PurgeTodosResponse,
  type RestoreBulkResponse,
  type TodoPatch,
  type TodoResponse,
  type UpdateTodoResponse,
} from '@tm/contracts';
import { isTick, requestFingerprint, type IdempotentRequest, type StoredAnswer } from './todos.domain.js';
import type { BulkChange, ResultOf, TodoUpdate, TodoWrite } from './todos.repository.js';
import { apiRouter, HttpError, parseOr400, requireUser, UnauthorizedError } from '@tm/service-kit';
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

/**
 * What an update says (docs/PRODUCT.md §7, §10.11.1): what it changed, in the words of that change. One field
 * changed: "Task completed", "Task marked active", "Task pinned", "Task unpinned", "Title changed"; several:
 * "Task updated". Nothing changed (a repeat, or another device got there first): what the task already is,
 * for a patch of one field ("Task already completed"…), else "Task unchanged".
 */
const UPDATE_MESSAGES = {
  completed: { true: 'Task completed', false: 'Task marked active' },
  isPinned: { true: 'Task pinned', false: 'Task unpinned' },
  title: 'Title changed',
  several: 'Task updated',
  already: {
    completed: { true: 'Task already completed', false: 'Task already active' },
    isPinned: { true: 'Task already pinned', false: 'Task already unpinned' },
    title: 'Title unchanged',
  },
  unchanged: 'Task unchanged',
} as const;

export function updateMessage(patch: TodoPatch, { todo, changed }: Pick<TodoUpdate, 'todo' | 'changed'>): string {
  const [field, ...more] = changed;
  if (field === undefined) {
    const sent = (['title', 'completed', 'isPinned'] as const).filter((key) => patch[key] !== undefined);
    const [only, ...others] = sent;
    if (only === undefined || others.length > 0) return UPDATE_MESSAGES.unchanged;
    return only === 'title' ? UPDATE_MESSAGES.already.title : UPDATE_MESSAGES.already[only][`${todo[only]}`];
  }
  if (more.length > 0) return UPDATE_MESSAGES.several;
  return field === 'title' ? UPDATE_MESSAGES.title : UPDATE_MESSAGES[field][`${todo[field]}`];
}

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
function userIdOf(ctx: Context): string {
  const { userId } = ctx.state;
  if (!userId) throw new UnauthorizedError();
  return userId;
}

/**
 * The writing page's id (`X-Client-Id`), carried back as the change event's `origin` so that page can skip
 * its own echo. Anything not matching the pattern (absent, too long, odd characters) counts as no origin.
 */
function originOf(ctx: Context): string | null {
  const value = ctx.get(CLIENT_ID_HEADER);
  return CLIENT_ID_PATTERN.test(value) ? value : null;
}

const IdempotencyKeyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z.string().regex(IDEMPOTENCY_KEY_PATTERN, `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters`),
});

/**
 * The write's `Idempotency-Key` (docs/PRODUCT.md §7) with the fingerprint of its request (method, path and
 * body); `null` without the header. A header that is present but not 1–255 printable ASCII characters is a 400.
 */
function idempotencyOf(ctx: Context): IdempotentRequest | null {
  if (ctx.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] === undefined) return null;
  const key = parseOr400(IdempotencyKeyHeader, { [IDEMPOTENCY_KEY_HEADER]: ctx.get(IDEMPOTENCY_KEY_HEADER) })[IDEMPOTENCY_KEY_HEADER];
  return { key, fingerprint: requestFingerprint(ctx.method, ctx.path, ctx.request.body) };
}

/**
 * Runs one write for the request's user and sends its answer (the kept one, for a retry under the same key).
 * A refusal is thrown as its error, so the error handler writes it and the request's span records its code.
 */
async function answerWrite<W extends TodoWrite>(ctx: Context, service: TodosService, write: W, answer: (result: ResultOf<W>) => StoredAnswer): Promise<void> {
  const request = idempotencyOf(ctx);
  const { status, body } = await service.write(userIdOf(ctx), originOf(ctx), write, answer, request);
  if (status >= 400) {
    const refusal = ErrorBody.parse(body);
    throw new HttpError(status, refusal.message, refusal.code ?? ErrorCode.internal);
  }
  ctx.status = status;
  ctx.body = body;
}

const LastEventIdHeader = z.object({ 'Last-Event-ID': EventCursor });
const EventsQuery = z.object({ [EVENTS_AFTER_PARAM]: EventCursor.optional() });

/** Where a stream resumes: `Last-Event-ID` (a reconnect) wins over `?after=` (the first connect); else now. */
function resumePointOf(ctx: Context): string | null {
  const lastEventId = ctx.get('Last-Event-ID');
  if (lastEventId !== '') return parseOr400(LastEventIdHeader, { 'Last-Event-ID': lastEventId })['Last-Event-ID'];
  return parseOr400(EventsQuery, ctx.query)[EVENTS_AFTER_PARAM] ?? null;
}

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

  router.post('/add-todo', async (ctx) => {
    const { title } = parseOr400(AddTodoRequest, ctx.request.body);
    await answerWrite(ctx, service, { call: 'create', title }, (todo) => ok({ message: TODO_MESSAGES.added, todo } satisfies TodoResponse, 201));
  });

  // Only a tick (isTick: a patch of `completed` alone, docs/PRODUCT.md §10.11.4) keeps an undo; an edit, a pin or several fields do not.
  router.put('/update-todo/:todoId', async (ctx) => {
    const { todoId } = parseOr400(TodoIdParams, ctx.params);
    const { updateData } = parseOr400(UpdateTodoRequest, ctx.request.body);
    await answerWrite(ctx, service, { call: 'update', id: todoId, patch: updateData, keepUndo: isTick(updateData) }, (update) => {
      if (update === null) return notFound();
      const message = updateMessage(updateData, update);
      const body: UpdateTodoResponse =
        update.undoToken === null ? { message, todo: update.todo } : { message, todo: update.todo, undoToken: update.undoToken };
      return ok(body);
    });
  });

  router.delete('/delete-todo/:todoId', async (ctx) => {
    const { todoId } = parseOr400(TodoIdParams, ctx.params);
    await answerWrite(ctx, service, { call: 'remove', id: todoId }, (removed) => (removed ? ok({ message: TODO_MESSAGES.deleted } satisfies DeleteTodoResponse) : notFound()));
  });

  router.post('/restore-todo/:todoId', async (ctx) => {
    const { todoId } = parseOr400(TodoIdParams, ctx.params);
    await answerWrite(ctx, service, { call: 'restore', id: todoId }, (todo) =>
      todo === null ? notRestorable(TODO_NOT_RESTORABLE_MESSAGE) : ok({ message: TODO_MESSAGES.restored, todo } satisfies TodoResponse),
    );
  });

  router.put('/complete-all', async (ctx) => {
    const { completed } = parseOr400(CompleteAllRequest, ctx.request.body);
    await answerWrite(ctx, service, { call: 'setAllCompleted', completed }, (change) => {
      const changed = change.todos.length;
      const message = completed
        ? changed === 0 ? TODO_MESSAGES.allAlreadyComplete : TODO_MESSAGES.markedComplete(changed)
        : changed === 0 ? TODO_MESSAGES.allAlreadyActive : TODO_MESSAGES.markedActive(changed);
      return ok(bulkAnswer(message, change));
    });
  });

  router.delete('/clear-completed', async (ctx) => {
    await answerWrite(ctx, service, { call: 'clearCompleted' }, (change) => {
      const cleared = change.todos.length;
      return ok(bulkAnswer(cleared === 0 ? TODO_MESSAGES.nothingToClear : TODO_MESSAGES.cleared(cleared), change));
    });
  });

  // Undo of complete-all or clear-completed, by the token their answer carried (docs/PRODUCT.md §10.11.3).
  router.post('/restore-bulk', async (ctx) => {
    const { undoToken } = parseOr400(RestoreBulkRequest, ctx.request.body);
    await answerWrite(ctx, service, { call: 'restoreBulk', undoToken }, (todos) =>
      todos === null || todos.length === 0
        ? notRestorable(TODOS_NOT_RESTORABLE_MESSAGE)
        : ok({ message: TODO_MESSAGES.bulkRestored(todos.length), count: todos.length, todos } satisfies RestoreBulkResponse),
    );
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
export function internalTodosRoutes(service: TodosService): Router {
  const router = apiRouter();
  router.delete('/internal/todos', requireUser(), async (ctx) => {
    const body: PurgeTodosResponse = { message: TODO_MESSAGES.purged, deletedCount: await service.purge(userIdOf(ctx)) };
    ctx.body = body;
  });

  return router;
}
