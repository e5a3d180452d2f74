import { describeError, isSessionEnded, todosQuery, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { hasTodo, patchCachedTodo, refetchTodosAfterLastMutation, TODO_MUTATION_KEY } from './get-todos';

export const UPDATE_FAILED_MESSAGE = 'Could not update the task. Please try again.';

export interface UpdateTodoVariables {
  todoId: string;
  /** `{completed}` or `{isPinned}` with the new value: the server sets it, so a repeat changes nothing. */
  patch: TodoPatch;
}

type Flags = Pick<Todo, 'completed' | 'isPinned'>;

const UPDATE_KEY = [...TODO_MUTATION_KEY, 'update'] as const;

/** Updates of this task still waiting for the server, this one included. */
function pendingUpdates(queryClient: QueryClient, todoId: string): number {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: UPDATE_KEY, status: 'pending' })
    .filter((mutation) => (mutation.state.variables as UpdateTodoVariables | undefined)?.todoId === todoId).length;
}

interface UpdateTodoCallbacks {
  /** The server confirmed that a task became completed: time to celebrate (PRODUCT §10.6). */
  onCompleted?: () => void;
}

/**
 * Ticks or pins a task optimistically (docs/PRODUCT.md §4: the box changes at once) with TanStack's protocol:
 * cancel → snapshot → set → roll back on error → refetch when settled. The rollback restores only the flags
 * this call changed, so a concurrent change to another task survives it. The celebration and the success
 * message wait for the server (PRODUCT §10.6). A delete wins: once the task is gone from the list, the
 * answer of a tick still in flight (a 404 included) changes and says nothing.
 */
export function useUpdateTodo({ onCompleted }: UpdateTodoCallbacks = {}) {
  const queryClient = useQueryClient();
  const { queryKey } = todosQuery();
  return useMutation({
    mutationKey: UPDATE_KEY,
    mutationFn: ({ todoId, patch }: UpdateTodoVariables) => updateTodo(todoId, patch),
    onMutate: async ({ todoId, patch }) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey)?.find((todo) => todo._id === todoId);
      const previous: Partial<Flags> = {};
      if (before && patch.completed !== undefined) previous.completed = before.completed;
      if (before && patch.isPinned !== undefined) previous.isPinned = before.isPinned;
      patchCachedTodo(queryClient, todoId, patch);
      return { previous };
    },
    onSuccess: ({ message, todo }, { todoId, patch }) => {
      if (!hasTodo(queryClient, todoId)) return;
      // A later click on the same task is still on its way: its optimistic value stands until it answers.
      if (pendingUpdates(queryClient, todoId) <= 1) patchCachedTodo(queryClient, todoId, todo);
      notifySuccess(message);
      if (patch.completed === true && todo.completed) onCompleted?.();
    },
    onError: (error, { todoId }, context) => {
      console.error('Updating the task failed', error);
      if (!hasTodo(queryClient, todoId)) return;
      if (context) patchCachedTodo(queryClient, todoId, context.previous);
      if (!isSessionEnded(error)) notifyError(describeError(error, UPDATE_FAILED_MESSAGE));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
