import { addTodo, type AddTodoRequest, describeError, errorMessage, isOffline, isSessionEnded, isTimeout, isValidationError, logFailure } from '@tm/api-client';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TODO_MUTATION_KEY, todosKey, updateCachedTodos } from './get-todos';
import { isQueued, writeTask } from './task-writes';

/** docs/PRODUCT.md §8: the message of a failed add whose cause the person can do nothing about. */
const ADD_FAILED_MESSAGE = 'Failed to add task. Please try again.';

/**
 * What an add sends: the title, the due date and repeat it starts with (PRODUCT §10.14, §10.16), its list
 * (§10.19), its priority and labels (§10.20).
 */
export type NewTask = Pick<AddTodoRequest, 'title' | 'due' | 'repeat' | 'listId' | 'priority' | 'labels'>;

interface AddTodoCallbacks {
  /**
   * The task shows: kept on the device (before the server answers), or taken by the server when there is no
   * device engine. The form clears what was submitted, takes the next task and plays its sound. Once per add.
   */
  onAdded?: (title: string) => void;
  /** The server refused the title: its message belongs next to the input (PRODUCT §10.7), with the title. */
  onRefused?: (message: string, title: string) => void;
}

/**
 * Adds a task. The new task goes into the cached list from the server's answer, with no refetch of the whole
 * list (PRODUCT §4, §10.5.4): a fetch of the list still on its way is cancelled first, since it may have
 * been read before the add and would take the task out again. A failure says why: a refused title next to the input, offline or timeout in their own
 * words, anything else with the fixed message of PRODUCT §8; a 401 is the platform's to handle.
 */
export function useAddTodo({ onAdded, onRefused }: AddTodoCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'add'],
    mutationFn: async ({ title, ...dated }: NewTask) => {
      let shown = false;
      const answer = await writeTask(
        queryClient,
        (sync) => sync.addTaskCommand({ title, ...dated }).command,
        () => addTodo(title, dated),
        () => {
          shown = true;
          onAdded?.(title);
        },
      );
      return { answer, shown };
    },
    onSuccess: async ({ answer, shown }, { title }) => {
      // Kept on the device (PRODUCT §10.4): the task shows already, under its temporary id, and syncs later.
      if (isQueued(answer)) return;
      const { message, todo } = answer;
      // Through the device's engine (the task shown already), the engine's list is the page's: it puts the
      // server's id in place of the temporary one itself. Adding the answer here as well would show the task
      // twice until the engine's next write.
      if (!shown) {
        await queryClient.cancelQueries({ queryKey: todosKey });
        updateCachedTodos(queryClient, (todos) => (todos.some((t) => t._id === todo._id) ? todos : [todo, ...todos]));
      }
      notifySuccess(message);
      if (!shown) onAdded?.(title);
    },
    onError: (error, { title }) => {
      logFailure('Adding the task failed', error);
      if (isSessionEnded(error)) return;
      if (isValidationError(error) && onRefused) onRefused(errorMessage(error, ADD_FAILED_MESSAGE), title);
      else notifyError(isOffline(error) || isTimeout(error) ? describeError(error, ADD_FAILED_MESSAGE) : ADD_FAILED_MESSAGE);
    },
  });
}
