import { statusOf, todosQuery, type Todo, type TodosResponse } from '@tm/api-client';
import { shownTaskOrder } from '@tm/contracts';
import { syncedTodosQuery } from '@tm/web-platform';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';

export const todosKey = todosQuery().queryKey;

/** Every mutation of the task list carries this key prefix, so settling ones can see each other. */
export const TODO_MUTATION_KEY = [...todosQuery().queryKey, 'mutation'] as const;

/**
 * The server's order (pinned first, then by order key: the person's own order, newest first for tasks never
 * moved, then id) re-applied on the client, so an optimistic pin or move, a restored task or one that arrived
 * on the live stream takes its place at once; once the person keeps an order of their own, completed tasks
 * after the open ones (shownTaskOrder of @tm/contracts, PRODUCT §10.24). The list is almost always in order
 * already (a tick changes no position), which the engine's sort handles in one pass: with 10 000 tasks this
 * stays around a millisecond (PRODUCT §10.5).
 */
export function orderTodos(todos: Todo[]): Todo[] {
  return shownTaskOrder(todos);
}

const selectOrdered = (list: TodosResponse): Todo[] => orderTodos(list.todos);

/**
 * The signed-in user's tasks, pinned first: the device's copy brought up to date when it keeps one
 * (docs/PRODUCT.md §10.4), else the server's list. Never retried (§7: the query options say so).
 */
export function useTodos() {
  const queryClient = useQueryClient();
  return useQuery({ ...syncedTodosQuery(queryClient), select: selectOrdered });
}

/** The cached tasks, or undefined before the list first arrived. */
export function cachedTodos(queryClient: QueryClient): Todo[] | undefined {
  return queryClient.getQueryData(todosQuery().queryKey)?.todos;
}

/** Changes the cached tasks (the list's cursor stays); nothing happens while no list is cached. */
export function updateCachedTodos(queryClient: QueryClient, change: (todos: Todo[]) => Todo[]): void {
  queryClient.setQueryData(todosQuery().queryKey, (list) => (list ? { ...list, todos: change(list.todos) } : list));
}

/**
 * Whether a failed call on one task says the task is gone from the server (deleted elsewhere): with no
 * refetch after a delete (PRODUCT §10.5.4), its "Task not found" answer itself keeps the row out of the list.
 */
export function taskIsGone(error: unknown): boolean {
  return statusOf(error) === 404;
}

/** Takes tasks out of the cached list. */
export function removeCachedTodos(queryClient: QueryClient, todoIds: Iterable<string>): void {
  const gone = new Set(todoIds);
  updateCachedTodos(queryClient, (todos) => todos.filter((todo) => !gone.has(todo._id)));
}

/** Whether the cached list still holds the task (a delete removes it at once). */
export function hasTodo(queryClient: QueryClient, todoId: string): boolean {
  return Boolean(cachedTodos(queryClient)?.some((todo) => todo._id === todoId));
}

/** Replaces fields of one cached task; never adds a task that is no longer there. */
export function patchCachedTodo(queryClient: QueryClient, todoId: string, patch: Partial<Todo>): void {
  changeCachedTodo(queryClient, todoId, (todo) => ({ ...todo, ...patch }));
}

/** Replaces one cached task by what `change` makes of it. */
export function changeCachedTodo(queryClient: QueryClient, todoId: string, change: (todo: Todo) => Todo): void {
  updateCachedTodos(queryClient, (todos) => todos.map((todo) => (todo._id === todoId ? change(todo) : todo)));
}

/** Puts tasks into the cached list, replacing those with the same id (a restore, a rollback, a live change). */
export function upsertCachedTodos(queryClient: QueryClient, saved: Todo[]): void {
  if (saved.length === 0) return;
  const byId = new Map(saved.map((todo) => [todo._id, todo]));
  updateCachedTodos(queryClient, (todos) => [...todos.filter((todo) => !byId.has(todo._id)), ...byId.values()]);
}

/**
 * Refetches the list after a bulk action, whose answer carries only a count (PRODUCT §4), unless another task
 * mutation is still running: that one settles later, and an earlier refetch would overwrite its optimistic
 * change with stale data. Every other action puts the server's answer into the cache instead (§10.5.4).
 */
export function refetchTodosAfterLastMutation(queryClient: QueryClient): Promise<void> | undefined {
  if (queryClient.isMutating({ mutationKey: TODO_MUTATION_KEY }) > 1) return undefined;
  return queryClient.invalidateQueries({ queryKey: todosQuery().queryKey });
}
