import { deleteTodo, todosQuery } from '@tm/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refetchTodosAfterLastMutation, TODO_MUTATION_KEY } from './get-todos';

/**
 * Deletes a task optimistically, so its row starts its exit animation at once. SPEC §8: a failed delete is
 * only logged (no toast); the row is put back and the refetch confirms what the server holds.
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
    onError: (error, todoId, context) => {
      const removed = context?.removed;
      // The list is displayed sorted (orderTodos), so putting the task back at the end is enough.
      if (removed) {
        queryClient.setQueryData(queryKey, (todos = []) =>
          todos.some((todo) => todo._id === todoId) ? todos : [...todos, removed],
        );
      }
      console.error('Deleting the task failed', error);
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
