import { deleteTodo, describeError, isSessionEnded, logFailure, type Todo } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cachedTodos, removeCachedTodos, taskIsGone, TODO_MUTATION_KEY, todosKey, updateCachedTodos } from './get-todos';
import { isQueued, writeTask } from './task-writes';

const DELETE_FAILED_MESSAGE = 'Could not delete the task. Please try again.';

interface DeleteTodoCallbacks {
  /**
   * The server took the delete: `message` is its answer ("Task deleted successfully"); or it is kept on the
   * device (PRODUCT §10.4), under `queuedCommandId`, which an Undo takes back while it waits.
   */
  onDeleted?: (todo: Todo, message: string, queuedCommandId?: string) => void;
}

/** What a delete kept on the device says at once (PRODUCT §10.4). */
const QUEUED_DELETE_MESSAGE = 'Task deleted';

/**
 * Deletes a task optimistically, so its row starts its exit animation at once. Once the server took it, the
 * page offers Undo (or shows the server's message when it has no task to offer back); a failed delete brings
 * the row back and says why (docs/PRODUCT.md §10.6). The answer carries only a message and the optimistic
 * removal is exactly what the server did, so the list is not fetched again (PRODUCT §10.5.4).
 */
export function useDeleteTodo({ onDeleted }: DeleteTodoCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'delete'],
    mutationFn: (todoId: string) => writeTask(queryClient, (sync) => sync.deleteTaskCommand(todoId), () => deleteTodo(todoId)),
    onMutate: async (todoId) => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const removed = cachedTodos(queryClient)?.find((todo) => todo._id === todoId);
      removeCachedTodos(queryClient, [todoId]);
      return { removed };
    },
    onSuccess: (answer, _todoId, context) => {
      const message = isQueued(answer) ? QUEUED_DELETE_MESSAGE : answer.message;
      if (context?.removed && onDeleted) onDeleted(context.removed, message, isQueued(answer) ? answer.commandId : undefined);
      else notifySuccess(message);
    },
    onError: (error, todoId, context) => {
      logFailure('Deleting the task failed', error);
      if (isSessionEnded(error)) return;
      // "Task not found": it was deleted elsewhere meanwhile; the row stays gone, the message says why.
      const removed = taskIsGone(error) ? undefined : context?.removed;
      // The list is displayed sorted (orderTodos), so putting the task back at the end is enough.
      if (removed) updateCachedTodos(queryClient, (todos) => (todos.some((todo) => todo._id === todoId) ? todos : [...todos, removed]));
      notifyError(describeError(error, DELETE_FAILED_MESSAGE));
    },
  });
}
