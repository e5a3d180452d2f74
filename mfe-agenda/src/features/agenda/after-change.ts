import { describeError, isSessionEnded, logFailure, restoreBulk, type Todo, type TodoPatch } from '@tm/api-client';
import { changeMessage, patchedFields, type RestoreBulkResponse } from '@tm/contracts';
import { cancelTaskWrite, isTypingTarget, notifyError, notifySuccess } from '@tm/web-platform';
import { offerUndoTick } from '@tm/web-platform/undo';
import type { QueryClient } from '@tanstack/react-query';
import { isQueued, putTasks, send, setTaskFields, todosKey, type TickUndo, type Written } from './task-writes';

// What Today says once a change is made (docs/PRODUCT.md §10.15): its message, with Undo for a tick as the task
// list offers it (§10.11.4). Off the screen's first load: fetched once the screen has painted (agenda-screen.tsx).

/** The fields a tick changes, as they were before it: a repeating task's date and completions too (§10.16). */
const tickFields = ({ completed, completedAt, due, repeatDone }: Todo): Partial<Todo> => ({ completed, completedAt, due, repeatDone });

/**
 * Undoes a tick as the task list does: the task shows as it was at once, and the server puts back its
 * `completed`, `completedAt` and `updatedAt` (and a repeating task's date and completions) with the tick's
 * token (POST /todo/restore-bulk, through the device's engine when there is one). A tick still waiting on the
 * device is taken back; one sent meanwhile is set back like any change. Refused (changed elsewhere since, or
 * too late): the tick's state comes back and the toast says why. Resolves the task as restored (as it was,
 * until the server's answer comes), or null.
 */
async function undoTick(queryClient: QueryClient, before: Todo, undo: TickUndo): Promise<Todo | null> {
  const ticked = queryClient.getQueryData(todosKey)?.todos.find((todo) => todo._id === before._id);
  putTasks(queryClient, ticked ? [{ ...ticked, ...tickFields(before) }] : []);
  try {
    let restored: RestoreBulkResponse = { message: 'Change undone', count: 1, todos: [] };
    if ('commandId' in undo) {
      // Still on the device: taken back. Sent meanwhile: set back like any change, from what the screen showed.
      if (!(await cancelTaskWrite(queryClient, undo.commandId))) await setTaskFields(queryClient, ticked ?? before, { completed: before.completed });
    } else {
      const answer = (await send<RestoreBulkResponse>(queryClient, (sync) => sync.restoreBulkCommand(undo.token))) ?? (await restoreBulk(undo.token));
      if (!isQueued(answer)) restored = answer;
    }
    putTasks(queryClient, restored.todos);
    notifySuccess(restored.message);
    return restored.todos.find((todo) => todo._id === before._id) ?? before;
  } catch (error) {
    logFailure('Undoing the tick failed', error);
    if (ticked) putTasks(queryClient, [ticked]);
    if (!isSessionEnded(error)) notifyError(describeError(error, 'Could not undo the change. Please try again.'));
    return null;
  }
}

/**
 * Says what a change did: the server's message, or for a change kept on the device the words the server would
 * answer (§10.4). A tick offers Undo in the task list's toast (the same words, 5 s and U key, §10.11.4), and
 * `onRestored` is told the task once it is back (for the focus), unless the person is typing in a field meanwhile.
 */
export function answerChange(queryClient: QueryClient, before: Todo, patch: TodoPatch, { message, undo }: Written, onRestored: (todo: Todo) => void): void {
  const words = message ?? changeMessage(patchedFields(patch), patch);
  if (!undo) {
    notifySuccess(words);
    return;
  }
  offerUndoTick(before.title, before._id, true, words, () => {
    void undoTick(queryClient, before, undo).then((restored) => {
      if (restored && !isTypingTarget(document.activeElement)) onRestored(restored);
    });
  });
}
