import { todosQuery, type Todo, type TodosResponse } from '@tm/api-client';
import { useQuery, type QueryClient } from '@tanstack/react-query';

export const todosKey = todosQuery().queryKey;

/** Every mutation of the task list carries this key prefix, so settling ones can see each other. */
export const TODO_MUTATION_KEY = [...todosQuery().queryKey, 'mutation'] as const;

/**
 * The server's order (pinned first, then newest first, then id) re-applied on the client, so an optimistic
 * pin, a restored task or one that arrived on the live stream takes its place at once.
 */
export function orderTodos(todos: Todo[]): Todo[] {
  return [...todos].sort(
    (a, b) =>
      Number(b.isPinned) - Number(a.isPinned) ||
      b.createdAt.localeCompare(a.createdAt) ||
      b._id.localeCompare(a._id),
  );
}

const selectOrdered = (list: TodosResponse): Todo[] => orderTodos(list.todos);

/** The signed-in user's tasks, pinned first. docs/PRODUCT.md §7: never retried (the query options say so). */
export function useTodos() {
  return useQuery({ ...todosQuery(), select: selectOrdered });
}

/** The cached tasks, or undefined before the list first arrived. */
export function cachedTodos(queryClient: QueryClient): Todo[] | undefined {
  return queryClient.getQueryData(todosQuery().queryKey)?.todos;
}

/** Changes the cached tasks (the list's cursor stays); nothing happens while no list is cached. */
export function updateCachedTodos(queryClient: QueryClient, change: (todos: Todo[]) => Todo[]): void {
  queryClient.setQueryData(todosQuery().queryKey, (list) => (list ? { ...list, todos: change(list.todos) } : list));
}

/** Whether the cached list still holds the task (a delete removes it at once). */
export function hasTodo(queryClient: QueryClient, todoId: string): boolean {
  return Boolean(cachedTodos(queryClient)?.some((todo) => todo._id === todoId));
}

/** Replaces fields of one cached task; never adds a task that is no longer there. */
export function patchCachedTodo(queryClient: QueryClient, todoId: string, patch: Partial<Todo>): void {
  updateCachedTodos(queryClient, (todos) => todos.map((todo) => (todo._id === todoId ? { ...todo, ...patch } : todo)));
}

/** Puts tasks into the cached list, replacing those with the same id (a restore, a rollback, a live change). */
export function upsertCachedTodos(queryClient: QueryClient, saved: Todo[]): void {
  if (saved.length === 0) return;
  const byId = new Map(saved.map((todo) => [todo._id, todo]));
  updateCachedTodos(queryClient, (todos) => [...todos.filter((todo) => !byId.has(todo._id)), ...byId.values()]);
}

/**
 * Refetches the list after a mutation (PRODUCT §4), unless another task mutation is still running: that one
 * refetches when it settles, and an earlier refetch would overwrite its optimistic change with stale data.
 */
export function refetchTodosAfterLastMutation(queryClient: QueryClient): Promise<void> | undefined {
  if (queryClient.isMutating({ mutationKey: TODO_MUTATION_KEY }) > 1) return undefined;
  return queryClient.invalidateQueries({ queryKey: todosQuery().queryKey });
}
