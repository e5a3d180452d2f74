import { clearCompleted, completeAll, describeError, http, isSessionEnded, logFailure, newIdempotencyKey, type Todo } from '@tm/api-client';
import { IDEMPOTENCY_KEY_HEADER, inListScope, NO_LIST_LEFT_OUT, ROUTES, type BulkTodosResponse } from '@tm/contracts';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRestoreBulk } from './restore-bulk';
import { completionOf } from './update-todo';
import { cachedTodos, refetchTodosAfterLastMutation, removeCachedTodos, TODO_MUTATION_KEY, todosKey, updateCachedTodos } from './get-todos';
import { isQueued, writeTask, type Queued } from './task-writes';
import { QUEUED_UNDO_PREFIX } from './update-todo';
import { offerUndo } from '@tm/web-platform/undo';

const BULK_FAILED_MESSAGE = 'Could not update your tasks. Please try again.';

const tasks = (count: number) => `${count} ${count === 1 ? 'task' : 'tasks'}`;

/**
 * A bulk action the server took: its message, with Undo when it changed something (it then sends an undo
 * token, PRODUCT §10.11.4), else the message alone ("No completed tasks to clear").
 */
function useBulkOutcome(action: string, queuedMessage: string) {
  const { mutate: restore } = useRestoreBulk();
  return (answer: BulkTodosResponse | Queued) => {
    // Kept on the device (PRODUCT §10.4): its Undo takes it back while it waits.
    if (isQueued(answer)) {
      offerUndo({ key: `undo-bulk:${answer.commandId}`, message: queuedMessage, what: queuedMessage, showWhat: false, action, undo: () => restore(QUEUED_UNDO_PREFIX + answer.commandId) });
      return;
    }
    const { message, count, undoToken } = answer;
    if (!undoToken) notifySuccess(message);
    // The message says the count ("34 tasks marked complete"): the toast does not say it again.
    else offerUndo({ key: `undo-bulk:${undoToken}`, message, what: tasks(count), showWhat: false, action, undo: () => restore(undoToken) });
  };
}

/** Whether `todo` is in the list a bulk action is scoped to (undefined: every task, as the call's; INBOX_ID: those without a list). */
const inScope = (todo: Todo, listId: string | undefined) => inListScope(todo, listId, NO_LIST_LEFT_OUT);

/**
 * A bulk call scoped to a list (docs/PRODUCT.md §10.19) made alone, where the device keeps nothing: complete-all
 * with `listId` in its body, clear-completed with `?listId=`, with an Idempotency-Key as every task write.
 */
async function scopedBulk(route: { method: string; path: string }, listId: string, body?: unknown): Promise<BulkTodosResponse> {
  const url = body === undefined ? `${route.path}?listId=${encodeURIComponent(listId)}` : route.path;
  return (await http.request<BulkTodosResponse>({ method: route.method, url, data: body, headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } })).data;
}

/**
 * "Mark all complete" / "Mark all active" (docs/PRODUCT.md §10.11.3), of one list when `listId` is given (§10.19): one request, every box changes at once
 * and goes back (only the tasks this call changed) when the server refuses; the toast shows the server's
 * message ("3 tasks marked complete") with Undo. No sound and no confetti for a bulk action.
 */
export function useCompleteAll(listId?: string) {
  const queryClient = useQueryClient();
  const completedOutcome = useBulkOutcome('marking complete', 'All tasks marked complete');
  const activeOutcome = useBulkOutcome('marking active', 'All tasks marked active');
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'complete-all'],
    mutationFn: (completed: boolean) =>
      writeTask(
        queryClient,
        (sync) => sync.completeAllCommand(completed, undefined, listId),
        () => (listId === undefined ? completeAll(completed) : scopedBulk(ROUTES.completeAll, listId, { completed, listId })),
      ),
    onMutate: async (completed) => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const changed = new Set((cachedTodos(queryClient) ?? []).filter((todo) => todo.completed !== completed && inScope(todo, listId)).map((todo) => todo._id));
      updateCachedTodos(queryClient, (todos) => todos.map((todo) => (changed.has(todo._id) ? { ...todo, completed, ...completionOf(todo, completed) } : todo)));
      return { changed };
    },
    onSuccess: (answer, completed) => (completed ? completedOutcome : activeOutcome)(answer),
    onError: (error, completed, context) => {
      logFailure('Marking all tasks failed', error);
      if (isSessionEnded(error)) return;
      const changed = context?.changed;
      if (changed) {
        updateCachedTodos(queryClient, (todos) =>
          todos.map((todo) => (changed.has(todo._id) && todo.completed === completed ? { ...todo, completed: !completed, ...completionOf(todo, !completed) } : todo)),
        );
      }
      notifyError(describeError(error, BULK_FAILED_MESSAGE));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}

/**
 * "Clear completed" (docs/PRODUCT.md §10.11.3), of one list when `listId` is given (§10.19): one request; the completed rows leave at once and come back
 * when the server refuses, with its message in a toast; the toast of a clear that removed tasks offers Undo.
 */
export function useClearCompleted(listId?: string) {
  const queryClient = useQueryClient();
  const outcome = useBulkOutcome('clearing', 'Completed tasks cleared');
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'clear-completed'],
    mutationFn: () =>
      writeTask(
        queryClient,
        (sync) => sync.clearCompletedCommand(undefined, listId),
        () => (listId === undefined ? clearCompleted() : scopedBulk(ROUTES.clearCompleted, listId)),
      ),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: todosKey });
      const removed: Todo[] = (cachedTodos(queryClient) ?? []).filter((todo) => todo.completed && inScope(todo, listId));
      removeCachedTodos(queryClient, removed.map((todo) => todo._id));
      return { removed };
    },
    onSuccess: outcome,
    onError: (error, _variables, context) => {
      logFailure('Clearing the completed tasks failed', error);
      if (isSessionEnded(error)) return;
      const removed = context?.removed ?? [];
      updateCachedTodos(queryClient, (todos) => [...todos, ...removed.filter((gone) => !todos.some((todo) => todo._id === gone._id))]);
      notifyError(describeError(error, BULK_FAILED_MESSAGE));
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
