import { deleteTodo, describeError, isSessionEnded, todosQuery } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refetchTodosAfterLastMutation, TODO_MUTATION_KEY } from './get-todos';

export const DELETE_FAILED_MESSAGE = 'Could not delete the task. Please try again.';

/**
 * Deletes a task optimistically, so its row starts its exit animation at once. The server's message is
 * shown; a failed delete brings the row back and says why (docs/PRODUCT.md §10.6), and the refetch confirms
 * what the server holds.
 */
export function useDeleteTodo() {
  const queryClient = useQueryClient();
  const { queryKey } = todosQuery();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'delete'],
    mutationFn: (todoId: string) => deleteTodo(todoId),
    onMutate: async (todoId) => {
      await queryClient.cancelQueries({ queryKey });
      const removed = queryClient.getQueryData(queryKey)?.find((todo) => todo._id === todoId);
      queryClient.setQueryData(queryKey, (todos) => todos?.filter((todo) => todo._id !== todoId));
      return { removed };
    },
    onSuccess: ({ message }) => notifySuccess(message),
    onError: (error, todoId, context) => {
      console.error('Deleting the task failed', error);
      if (isSessionEnded(error)) return;
      const removed = context?.removed;
      // The list is displayed sorted (orderTodos), so putting the task back at the end is enough.
      if (removed) {
        queryClient.setQueryData(queryKey, (todos = []) => (todos.some((todo) => todo._id === todoId) ? todos : [...todos, removed]));
      }
      notifyError(describeError(error, DELETE_FAILED_MESSAGE));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
