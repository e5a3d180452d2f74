import { answerError, todosQuery, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import type { UpdateTodoResponse } from '@tm/contracts';
import { personToday, sendTaskWrite, type CommandBuilder } from '@tm/web-platform';
import type { QueryClient } from '@tanstack/react-query';

/** What undoes a tick (docs/PRODUCT.md §10.11.4): the server's token, or the command still waiting on the device. */
export type TickUndo = { token: string } | { commandId: string };

/**
 * A change as the server took it, or the device kept it (§10.4): the server's words (null for a change kept on
 * the device: after-change.ts words it, off the first load), and for a tick what undoes it.
 */
export interface Written {
  message: string | null;
  undo?: TickUndo;
}

export const todosKey = todosQuery().queryKey;

/** The tasks of the shared list replaced by these (same ids): what the screen shows changes at once. */
export function putTasks(queryClient: QueryClient, todos: readonly Todo[]): void {
  if (todos.length === 0) return;
  const byId = new Map(todos.map((todo) => [todo._id, todo]));
  queryClient.setQueryData(todosKey, (list) => (list ? { ...list, todos: list.todos.map((each) => byId.get(each._id) ?? each) } : list));
}

/** One action through the device's sync engine: its answer's body, `queued` when it waits on the device, null without an engine. */
export async function send<T>(queryClient: QueryClient, build: CommandBuilder): Promise<T | { queued: string } | null> {
  const outcome = await sendTaskWrite(queryClient, build);
  if (outcome === null) return null;
  if (outcome.kind === 'queued') return { queued: outcome.commandId };
  const { status, body } = outcome.result;
  if (status >= 400) throw answerError(status, body);
  return body as T;
}

export const isQueued = (answer: unknown): answer is { queued: string } => typeof answer === 'object' && answer !== null && 'queued' in answer;

/**
 * Sets fields of a task from the Today screen (docs/PRODUCT.md §10.15) as the task list does (§10.4): through
 * the device's sync engine when there is one (kept on the device, shown at once, sent now or when the network
 * is back), else by the call alone, its answer put into the shared list. Resolves once the change shows, with
 * its message and, for a tick, what undoes it (§10.11.4); a refusal rejects with the server's error.
 */
export async function setTaskFields(queryClient: QueryClient, todo: Todo, patch: TodoPatch): Promise<Written> {
  const answer = await send<UpdateTodoResponse>(queryClient, (sync) => sync.updateTaskCommand(todo, patch));
  if (isQueued(answer)) return { message: null, ...(patch.completed === undefined ? {} : { undo: { commandId: answer.queued } }) };
  let taken = answer;
  if (taken === null) {
    taken = await updateTodo(todo._id, patch, personToday());
    putTasks(queryClient, [taken.todo]);
  }
  return { message: taken.message, ...(taken.undoToken ? { undo: { token: taken.undoToken } } : {}) };
}
