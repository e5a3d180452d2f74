import { describeError, isSessionEnded, logFailure, restoreBulk, updateTodo, type Todo } from '@tm/api-client';
import type { RestoreBulkResponse } from '@tm/contracts';
import { cancelTaskWrite, notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cachedTodos, patchCachedTodo, TODO_MUTATION_KEY, todosKey, upsertCachedTodos } from './get-todos';
import { isQueued, writeTask } from './task-writes';
import { QUEUED_UNDO_PREFIX } from './update-todo';

/** An Undo of a change that already left the device without its answer: the server has it, with no token yet. */
const ALREADY_SENT_MESSAGE = 'This change was already sent; it can no longer be undone here.';

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
    mutationFn: async (undoToken: string): Promise<RestoreBulkResponse> => {
      // A bulk action still waiting on the device is taken back (PRODUCT §10.4); one already sent cannot be.
      if (undoToken.startsWith(QUEUED_UNDO_PREFIX)) {
        if (await cancelTaskWrite(queryClient, undoToken.slice(QUEUED_UNDO_PREFIX.length))) return { message: 'Change undone', count: 0, todos: [] };
        throw new Error(ALREADY_SENT_MESSAGE);
      }
      const answer = await writeTask(queryClient, (sync) => sync.restoreBulkCommand(undoToken), () => restoreBulk(undoToken));
      return isQueued(answer) ? { message: 'Undo saved on this device', count: 0, todos: [] } : answer;
    },
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
    mutationFn: async ({ undoToken, todoId, before }: UndoTickVariables): Promise<RestoreBulkResponse> => {
      const task = cachedTodos(queryClient)?.find((todo) => todo._id === todoId);
      const local = (message: string): RestoreBulkResponse => ({ message, count: 1, todos: task ? [{ ...task, ...before }] : [] });
      if (undoToken.startsWith(QUEUED_UNDO_PREFIX)) {
        // The tick still waits on the device: taken back (PRODUCT §10.4). Sent meanwhile: set back like any change.
        if (await cancelTaskWrite(queryClient, undoToken.slice(QUEUED_UNDO_PREFIX.length))) return local('Change undone');
        const answer = await writeTask(queryClient, (sync) => sync.updateTaskCommand({ _id: todoId } as Todo, { completed: before.completed }), () =>
          updateTodo(todoId, { completed: before.completed }),
        );
        return isQueued(answer) ? local('Change undone') : { message: 'Change undone', count: 1, todos: [answer.todo] };
      }
      const answer = await writeTask(queryClient, (sync) => sync.restoreBulkCommand(undoToken), () => restoreBulk(undoToken));
      return isQueued(answer) ? local('Change undone') : answer;
    },
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
