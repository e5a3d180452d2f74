import { describeError, isSessionEnded, logFailure, restoreBulk } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TODO_MUTATION_KEY, todosKey, upsertCachedTodos } from './get-todos';

const RESTORE_FAILED_MESSAGE = 'Could not bring the tasks back. Please try again.';

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
