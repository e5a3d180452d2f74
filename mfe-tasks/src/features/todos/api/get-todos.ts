import { todosQuery, type Todo } from '@tm/api-client';
import { useQuery, type QueryClient } from '@tanstack/react-query';

/** Every mutation of the task list carries this key prefix, so settling ones can see each other. */
export const TODO_MUTATION_KEY = [...todosQuery().queryKey, 'mutation'] as const;

/**
 * The server's order (pinned first, then newest first, then id) re-applied on the client, so an optimistic
 * pin moves its row at once instead of after the refetch.
 */
export function orderTodos(todos: Todo[]): Todo[] {
  return [...todos].sort(
    (a, b) =>
      Number(b.isPinned) - Number(a.isPinned) ||
      b.createdAt.localeCompare(a.createdAt) ||
      b._id.localeCompare(a._id),
  );
}

/** The signed-in user's tasks, pinned first. docs/PRODUCT.md §7: never retried (the query options say so). */
export function useTodos() {
  return useQuery({ ...todosQuery(), select: orderTodos });
}

/** Whether the cached list still holds the task (a delete removes it at once). */
export function hasTodo(queryClient: QueryClient, todoId: string): boolean {
  return Boolean(queryClient.getQueryData(todosQuery().queryKey)?.some((todo) => todo._id === todoId));
}

/** Replaces fields of one cached task; never adds a task that is no longer there. */
export function patchCachedTodo(queryClient: QueryClient, todoId: string, patch: Partial<Todo>): void {
  queryClient.setQueryData(todosQuery().queryKey, (todos) => todos?.map((todo) => (todo._id === todoId ? { ...todo, ...patch } : todo)));
}

/**
 * Refetches the list after a mutation (PRODUCT §4), unless another task mutation is still running: that one
 * refetches when it settles, and an earlier refetch would overwrite its optimistic change with stale data.
 */
export function refetchTodosAfterLastMutation(queryClient: QueryClient): Promise<void> | undefined {
  if (queryClient.isMutating({ mutationKey: TODO_MUTATION_KEY }) > 1) return undefined;
  return queryClient.invalidateQueries({ queryKey: todosQuery().queryKey });
}
