import { describeError, isSessionEnded, logFailure, restoreBulk, type Todo } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cachedTodos, patchCachedTodo, TODO_MUTATION_KEY, todosKey, upsertCachedTodos } from './get-todos';

const RESTORE_FAILED_MESSAGE = 'Could not bring the tasks back. Please try again.';
const UNDO_TICK_FAILED_MESSAGE = 'Could not undo the change. Please try again.';

/**
 * Undo of "Clear completed" and "Mark all complete/active" (docs/PRODUCT.md §10.11.4): one request with the
 * action's undo token; the server puts back, in one transaction, exactly the tasks that action changed (the
 * ones changed since stay as they are) and answers them, which go into the list as they are. Too late or
 * already undone: its message ("These tasks can no longer be restored.") in a toast, nothing changes.
 */
export function useRestoreBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'restore-bulk'],
    mutationFn: (undoToken: string) => restoreBulk(undoToken),
    onMutate: () => queryClient.cancelQueries({ queryKey: todosKey }),
    onSuccess: ({ message, todos }) => {
      upsertCachedTodos(queryClient, todos);
      notifySuccess(message);
    },
    onError: (error) => {
      logFailure('Undoing the bulk action failed', error);
      if (isSessionEnded(error)) return;
      notifyError(describeError(error, RESTORE_FAILED_MESSAGE));
    },
  });
}

interface UndoTickVariables {
  undoToken: string;
  todoId: string;
  /** What the task was before the tick: shown again at once. */
  before: Pick<Todo, 'completed' | 'completedAt'>;
}

interface UndoTickCallbacks {
  /** The server put the task back (the list may put the focus on it). */
  onRestored?: (todo: Todo) => void;
}

/**
 * Undo of one tick or untick (docs/PRODUCT.md §10.11.4): the task shows its previous state at once (back in
 * the "Active" filter after a tick there, in its old place), and the server puts back its previous
 * `completed`, `completedAt` and `updatedAt` with the tick's token (POST /todo/restore-bulk, the same
 * mechanics as a bulk action's Undo). The server's answer then replaces it. Refused (changed on another
 * device since, or too late): the tick's state comes back and the toast says why.
 */
export function useUndoTick({ onRestored }: UndoTickCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'undo-tick'],
    mutationFn: ({ undoToken }: UndoTickVariables) => restoreBulk(undoToken),
    onMutate: async ({ todoId, before }) => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const ticked = cachedTodos(queryClient)?.find((todo) => todo._id === todoId);
      patchCachedTodo(queryClient, todoId, before);
      return { ticked: ticked && { completed: ticked.completed, completedAt: ticked.completedAt } };
    },
    onSuccess: ({ message, todos }, { todoId }) => {
      upsertCachedTodos(queryClient, todos);
      notifySuccess(message);
      const restored = todos.find((todo) => todo._id === todoId);
      if (restored) onRestored?.(restored);
    },
    onError: (error, { todoId }, context) => {
      logFailure('Undoing the tick failed', error);
      if (isSessionEnded(error)) return;
      if (context?.ticked) patchCachedTodo(queryClient, todoId, context.ticked);
      notifyError(describeError(error, UNDO_TICK_FAILED_MESSAGE));
    },
  });
}
