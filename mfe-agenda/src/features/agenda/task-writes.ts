import { answerError, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import { notifySuccess, sendTaskWrite } from '@tm/web-platform';
import { todosQuery } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Sets fields of a task from the Today screen (docs/PRODUCT.md §10.15) as the task list does (§10.4): through
 * the device's sync engine when there is one (kept on the device, shown at once, sent now or when the network
 * is back), else by the call alone, its answer put into the shared list. Resolves once the change shows; a
 * refusal rejects with the server's error.
 */
export async function setTaskFields(queryClient: QueryClient, todo: Todo, patch: TodoPatch): Promise<void> {
  const outcome = await sendTaskWrite(queryClient, (sync) => sync.updateTaskCommand(todo, patch));
  if (outcome === null) {
    const answer = await updateTodo(todo._id, patch);
    queryClient.setQueryData(todosQuery().queryKey, (list) => (list ? { ...list, todos: list.todos.map((each) => (each._id === todo._id ? answer.todo : each)) } : list));
    notifySuccess(answer.message);
    return;
  }
  if (outcome.kind === 'queued') return;
  const { status, body } = outcome.result;
  if (status >= 400) throw answerError(status, body);
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') notifySuccess(message);
}
