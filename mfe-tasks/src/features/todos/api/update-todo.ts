import { describeError, isSessionEnded, logFailure, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import { applyPatch, changeMessage, isTick, patchedFields, type UpdateTodoResponse } from '@tm/contracts';
import { notifyError, notifySuccess, personToday } from '@tm/web-platform';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { cachedTodos, changeCachedTodo, hasTodo, removeCachedTodos, taskIsGone, TODO_MUTATION_KEY, todosKey } from './get-todos';
import { isQueued, writeTask, type Queued } from './task-writes';

const UPDATE_FAILED_MESSAGE = 'Could not update the task. Please try again.';

interface UpdateTodoVariables {
  todoId: string;
  /**
   * `{completed}`, `{isPinned}` or `{title}` (an edit, PRODUCT §10.11.1) with the new value: the server sets
   * it, so a repeat changes nothing.
   */
  patch: TodoPatch;
}

/** What a change replaced in a task: each field it set as it was (`undefined`: absent, as a task without a date), and the completion time with `completed`. */
type Fields = Partial<Pick<Todo, 'completed' | 'completedAt' | 'isPinned' | 'title' | 'due' | 'repeat' | 'repeatFrom' | 'reminders' | 'repeatDone'>>;

/** `todo` with `previous` put back: only those fields, so another change meanwhile (to another field) stands. */
function putBack(todo: Todo, previous: Fields): Todo {
  const absent = new Set(Object.entries(previous).flatMap(([field, value]) => (value === undefined ? [field] : [])));
  return Object.fromEntries(Object.entries({ ...todo, ...previous }).filter(([field]) => !absent.has(field))) as Todo;
}

const UPDATE_KEY = [...TODO_MUTATION_KEY, 'update'] as const;

/** The task as the person saw it when they changed it (before the optimistic change): the change's base (PRODUCT §10.4). */
const seenBefore = new WeakMap<UpdateTodoVariables, Todo>();

/** The server's words for a change, said at once for a change kept on the device (PRODUCT §10.4). */
export function queuedMessage(patch: TodoPatch): string {
  return changeMessage(patchedFields(patch), patch);
}

/** The local undo handle of a change still on the device: its Undo takes the command back (PRODUCT §10.4). */
export const QUEUED_UNDO_PREFIX = 'queued:';

/** Updates of this task still waiting for the server, this one included. */
function pendingUpdates(queryClient: QueryClient, todoId: string): number {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: UPDATE_KEY, status: 'pending' })
    .filter((mutation) => (mutation.state.variables as UpdateTodoVariables | undefined)?.todoId === todoId).length;
}

/**
 * The completion time a tick shows at once (PRODUCT §10.11.3): now when the task becomes completed, none when it is
 * reopened, unchanged otherwise; the server's answer then brings its own time.
 */
export function completionOf(before: Todo | undefined, completed: boolean | undefined): Partial<Pick<Todo, 'completedAt'>> {
  if (completed === undefined || before?.completed === completed) return {};
  return { completedAt: completed ? new Date().toISOString() : null };
}

/** A tick the server took, with what its Undo needs (PRODUCT §10.11.4). */
export interface Tick {
  /** The task as the server now has it. */
  todo: Todo;
  /** The server's message ("Task completed", "Task marked active"). */
  message: string;
  /** The token that undoes it (POST /todo/restore-bulk). */
  undoToken: string;
  /** What the task was before the tick, put back at once by its Undo. */
  before: Pick<Todo, 'completed' | 'completedAt'>;
}

interface UpdateTodoCallbacks {
  /** The server confirmed that a task became completed: time to celebrate (PRODUCT §10.6). */
  onCompleted?: () => void;
  /** The server took a tick or untick that can be undone: the list offers Undo (instead of a plain message). */
  onTicked?: (tick: Tick) => void;
  /**
   * The task is gone from the server (deleted on another device): the row leaves the list. For an edit the
   * list keeps what was typed (PRODUCT §10.11.1), so it is told the task as it was and the patch sent; it
   * answers true when it says so itself (then no toast).
   */
  onGone?: (todo: Todo, patch: TodoPatch) => boolean;
}

/**
 * Ticks, pins or renames a task optimistically (docs/PRODUCT.md §4: the box changes at once) with TanStack's
 * protocol: cancel → snapshot → set → roll back on error. The server's answer (the task as it now is) replaces
 * the optimistic value; the list is not fetched again (PRODUCT §10.5.4: a refetch per tick would
 * re-render the whole list). The rollback restores only the fields this call changed, so a concurrent change to another
 * task (or field) survives it. The celebration and the success message wait for the server (PRODUCT §10.6); a
 * tick's message comes with Undo (`onTicked`). A delete wins: once the task is gone from the list, the answer
 * of a tick still in flight (a 404 included) changes and says nothing. A 404 for a task still in the list
 * means it was deleted elsewhere: it leaves the list (`onGone`), and the toast says so.
 */
export function useUpdateTodo({ onCompleted, onTicked, onGone }: UpdateTodoCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: UPDATE_KEY,
    mutationFn: (variables: UpdateTodoVariables): Promise<UpdateTodoResponse | Queued> => {
      const { todoId, patch } = variables;
      const before = seenBefore.get(variables);
      return writeTask(
        queryClient,
        (sync) => {
          if (before) return sync.updateTaskCommand(before, patch);
          // Not on screen (gone meanwhile): the change alone, with no base to compare.
          const command = sync.updateTaskCommand({ _id: todoId } as Todo, patch);
          return { ...command, body: { updateData: (command.body as { updateData: TodoPatch }).updateData } };
        },
        () => updateTodo(todoId, patch, personToday()),
      );
    },
    onMutate: async (variables) => {
      const { todoId, patch } = variables;
      await queryClient.cancelQueries({ queryKey: todosKey });
      const before = cachedTodos(queryClient)?.find((todo) => todo._id === todoId);
      if (before) seenBefore.set(variables, before);
      const previous: Fields = {};
      if (before) for (const field of patchedFields(patch)) Object.assign(previous, { [field]: before[field] });
      if (before && patch.completed !== undefined) Object.assign(previous, { completedAt: before.completedAt, due: before.due, repeatDone: before.repeatDone });
      // A repeating task ticked moves to its next date (PRODUCT §10.16), which the device's engine works out with
      // the rule library it carries: shown ticked meanwhile, it would flicker. Without an engine, the answer moves it.
      const repeating = before?.repeat !== undefined && patch.completed === true && !before.completed;
      if (!repeating) changeCachedTodo(queryClient, todoId, (todo) => applyPatch(todo, patch, new Date().toISOString()));
      return { previous, before };
    },
    onSuccess: (answer, { todoId, patch }, context) => {
      if (!hasTodo(queryClient, todoId)) return;
      if (isQueued(answer)) {
        // Kept on the device (PRODUCT §10.4): shown already; a tick's Undo takes the change back while it waits.
        const todo = cachedTodos(queryClient)?.find((task) => task._id === todoId);
        const before = context?.before;
        const message = queuedMessage(patch);
        if (isTick(patch) && onTicked && todo && before) {
          onTicked({ todo, message, undoToken: QUEUED_UNDO_PREFIX + answer.commandId, before: { completed: before.completed, completedAt: before.completedAt } });
        } else notifySuccess(message);
        // The celebration waits for the server (PRODUCT §10.6): it comes when a later answer confirms it.
        return;
      }
      const { message, todo, undoToken } = answer;
      // A later click on the same task is still on its way: its optimistic value stands until it answers.
      if (pendingUpdates(queryClient, todoId) <= 1) changeCachedTodo(queryClient, todoId, () => todo);
      const before = context?.before;
      if (undoToken && onTicked && before) onTicked({ todo, message, undoToken, before: { completed: before.completed, completedAt: before.completedAt } });
      else notifySuccess(message);
      // A repeating task's occurrence done (it stays open at its next date, PRODUCT §10.16) is celebrated too.
      if (patch.completed === true && (todo.completed || (answer.todo.repeat !== undefined && context?.before?.completed === false))) onCompleted?.();
    },
    onError: (error, { todoId, patch }, context) => {
      logFailure('Updating the task failed', error);
      if (!hasTodo(queryClient, todoId)) return;
      if (taskIsGone(error) && context?.before) {
        const told = onGone?.(context.before, patch) === true;
        removeCachedTodos(queryClient, [todoId]);
        if (told) return;
      } else if (context) changeCachedTodo(queryClient, todoId, (todo) => putBack(todo, context.previous));
      if (!isSessionEnded(error)) notifyError(describeError(error, UPDATE_FAILED_MESSAGE));
    },
  });
}
