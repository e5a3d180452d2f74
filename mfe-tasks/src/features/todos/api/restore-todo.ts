import { describeError, isSessionEnded, logFailure, restoreTodo, type Todo } from '@tm/api-client';
import type { TodoResponse } from '@tm/contracts';
import { cancelTaskWrite, notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { hasTodo, removeCachedTodos, taskIsGone, TODO_MUTATION_KEY, todosKey, upsertCachedTodos } from './get-todos';
import { isQueued, writeTask } from './task-writes';

const RESTORE_FAILED_MESSAGE = 'Could not restore the task. Please try again.';

interface RestoreVariables {
  /** The task as the page last had it. */
  todo: Todo;
  /** The delete, when it is still waiting on the device: taken back instead of undone on the server. */
  queuedCommandId?: string;
}

interface RestoreTodoCallbacks {
  /** The server brought the task back (the page may put the focus on it). */
  onRestored?: (todo: Todo) => void;
}

/**
 * Undo of a delete (docs/PRODUCT.md §10.11.4): the task the page still holds goes back into the list at once,
 * in its old place (same id and timestamps, so the same position in the spec's order); the server's copy
 * replaces it when it answers (another device may have changed it just before the delete), with no refetch of
 * the list (§10.5.4). A refused restore (too late: "This task can no longer be restored.") takes it out
 * again, says why, and fetches the list.
 */
export function useRestoreTodo({ onRestored }: RestoreTodoCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'restore'],
    mutationFn: async ({ todo, queuedCommandId }: RestoreVariables): Promise<TodoResponse> => {
      // A delete still waiting on the device is simply taken back (PRODUCT §10.4).
      if (queuedCommandId !== undefined && (await cancelTaskWrite(queryClient, queuedCommandId))) return { message: 'Task restored', todo };
      const answer = await writeTask(queryClient, (sync) => sync.restoreTaskCommand(todo._id), () => restoreTodo(todo._id));
      return isQueued(answer) ? { message: 'Task restored', todo } : answer;
    },
    onMutate: async ({ todo }) => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const wasThere = hasTodo(queryClient, todo._id);
      if (!wasThere) upsertCachedTodos(queryClient, [todo]);
      return { wasThere };
    },
    onSuccess: ({ message, todo }) => {
      upsertCachedTodos(queryClient, [todo]);
      notifySuccess(message);
      onRestored?.(todo);
    },
    onError: (error, { todo }, context) => {
      logFailure('Restoring the task failed', error);
      if (isSessionEnded(error)) return;
      if (context && !context.wasThere) removeCachedTodos(queryClient, [todo._id]);
      // Refused: this page's view of the task is out of date (restored, or gone for good, elsewhere): the list
      // is fetched again to show what the server holds.
      if (taskIsGone(error)) void queryClient.invalidateQueries({ queryKey: todosKey });
      notifyError(describeError(error, RESTORE_FAILED_MESSAGE));
    },
  });
}
