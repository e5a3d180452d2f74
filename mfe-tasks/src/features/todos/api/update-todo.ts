import { errorMessage, todosQuery, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { refetchTodosAfterLastMutation, TODO_MUTATION_KEY } from './get-todos';

export interface UpdateTodoVariables {
  todoId: string;
  /** `{completed}` or `{isPinned}` with the new value: the server sets it, so a repeat changes nothing. */
  patch: TodoPatch;
}

type Flags = Pick<Todo, 'completed' | 'isPinned'>;

function patchTodo(todos: Todo[] | undefined, todoId: string, patch: Partial<Flags>): Todo[] | undefined {
  return todos?.map((todo) => (todo._id === todoId ? { ...todo, ...patch } : todo));
}

/**
 * Ticks or pins a task optimistically (SPEC §4: the screen changes at once) with TanStack's protocol:
 * cancel → snapshot → set → roll back on error → refetch when settled. The rollback restores only the
 * flags this call changed, so a concurrent change to another task survives it.
 */
export function useUpdateTodo() {
  const queryClient = useQueryClient();
  const { queryKey } = todosQuery();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'update'],
    mutationFn: ({ todoId, patch }: UpdateTodoVariables) => updateTodo(todoId, patch),
    onMutate: async ({ todoId, patch }) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey)?.find((todo) => todo._id === todoId);
      const previous: Partial<Flags> = {};
      if (before && patch.completed !== undefined) previous.completed = before.completed;
      if (before && patch.isPinned !== undefined) previous.isPinned = before.isPinned;
      queryClient.setQueryData(queryKey, (todos) => patchTodo(todos, todoId, patch));
      return { previous };
    },
    onError: (error, { todoId }, context) => {
      if (context) queryClient.setQueryData(queryKey, (todos) => patchTodo(todos, todoId, context.previous));
      console.error('Updating the task failed', error);
      toast.error(errorMessage(error, 'Could not update the task'));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
