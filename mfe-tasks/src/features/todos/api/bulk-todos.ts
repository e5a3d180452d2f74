import { clearCompleted, completeAll, describeError, isSessionEnded, type Todo } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cachedTodos, refetchTodosAfterLastMutation, removeCachedTodos, TODO_MUTATION_KEY, todosKey, updateCachedTodos } from './get-todos';

const BULK_FAILED_MESSAGE = 'Could not update your tasks. Please try again.';

/**
 * "Mark all complete" / "Mark all active" (docs/PRODUCT.md §10.11.3): one request, every box changes at once
 * and goes back (only the tasks this call changed) when the server refuses; the toast shows the server's
 * message ("3 tasks marked complete"). No sound and no confetti for a bulk action.
 */
export function useCompleteAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'complete-all'],
    mutationFn: (completed: boolean) => completeAll(completed),
    onMutate: async (completed) => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const changed = new Set((cachedTodos(queryClient) ?? []).filter((todo) => todo.completed !== completed).map((todo) => todo._id));
      updateCachedTodos(queryClient, (todos) => todos.map((todo) => (changed.has(todo._id) ? { ...todo, completed } : todo)));
      return { changed };
    },
    onSuccess: ({ message }) => notifySuccess(message),
    onError: (error, completed, context) => {
      console.error('Marking all tasks failed', error);
      if (isSessionEnded(error)) return;
      const changed = context?.changed;
      if (changed) {
        updateCachedTodos(queryClient, (todos) =>
          todos.map((todo) => (changed.has(todo._id) && todo.completed === completed ? { ...todo, completed: !completed } : todo)),
        );
      }
      notifyError(describeError(error, BULK_FAILED_MESSAGE));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}

/**
 * "Clear completed" (docs/PRODUCT.md §10.11.3): one request; the completed rows leave at once and come back
 * when the server refuses, with its message in a toast.
 */
export function useClearCompleted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'clear-completed'],
    mutationFn: () => clearCompleted(),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const removed: Todo[] = (cachedTodos(queryClient) ?? []).filter((todo) => todo.completed);
      removeCachedTodos(queryClient, removed.map((todo) => todo._id));
      return { removed };
    },
    onSuccess: ({ message }) => notifySuccess(message),
    onError: (error, _variables, context) => {
      console.error('Clearing the completed tasks failed', error);
      if (isSessionEnded(error)) return;
      const removed = context?.removed ?? [];
      updateCachedTodos(queryClient, (todos) => [...todos, ...removed.filter((gone) => !todos.some((todo) => todo._id === gone._id))]);
      notifyError(describeError(error, BULK_FAILED_MESSAGE));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
