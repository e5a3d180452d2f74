import type Router from '@koa/router';
import {
  AddTodoRequest,
  TodoIdParams,
  UpdateTodoRequest,
  type DeleteTodoResponse,
  type PurgeTodosResponse,
  type TodoResponse,
  type TodosResponse,
} from '@tm/contracts';
import { apiRouter, parseOr400, requireUser, UnauthorizedError } from '@tm/service-kit';
import type { Context } from 'koa';
import type { TodosService } from './todos.service.js';

export const TODO_MESSAGES = {
  added: 'Task added successfully',
  updated: 'Task updated successfully',
  deleted: 'Task deleted successfully',
  purged: 'All tasks deleted',
} as const;

/** `requireUser()` has already answered 401 when there is none; this narrows the type for the handlers. */
function userIdOf(ctx: Context): string {
  const { userId } = ctx.state;
  if (!userId) throw new UnauthorizedError();
  return userId;
}

/**
 * The task routes as the gateway forwards them (its `/api` prefix stripped). Every input is parsed with
 * the contracts before the service is called, so a rejected request never writes anything.
 */
export function todosRoutes(service: TodosService): Router {
  const router = apiRouter('/todo');
  router.use(requireUser());

  router.get('/fetch-todo', async (ctx) => {
    const body: TodosResponse = { todos: await service.list(userIdOf(ctx)) };
    ctx.body = body;
  });

  router.post('/add-todo', async (ctx) => {
    const { title } = parseOr400(AddTodoRequest, ctx.request.body);
    const body: TodoResponse = { message: TODO_MESSAGES.added, todo: await service.add(userIdOf(ctx), title) };
    ctx.status = 201;
    ctx.body = body;
  });

  router.put('/update-todo/:todoId', async (ctx) => {
    const { todoId } = parseOr400(TodoIdParams, ctx.params);
    const { updateData } = parseOr400(UpdateTodoRequest, ctx.request.body);
    const todo = await service.update(userIdOf(ctx), todoId, updateData);
    const body: TodoResponse = { message: TODO_MESSAGES.updated, todo };
    ctx.body = body;
  });

  router.delete('/delete-todo/:todoId', async (ctx) => {
    const { todoId } = parseOr400(TodoIdParams, ctx.params);
    await service.remove(userIdOf(ctx), todoId);
    const body: DeleteTodoResponse = { message: TODO_MESSAGES.deleted };
    ctx.body = body;
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
