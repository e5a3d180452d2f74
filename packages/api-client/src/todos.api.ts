import {
  ROUTES,
  type AddTodoRequest,
  type AgendaResponse,
  type BulkTodosResponse,
  type ChangesResponse,
  type HistoryResponse,
  type SyncCommand,
  type SyncResponse,
  type DeleteTodoResponse,
  type RestoreBulkResponse,
  type Todo,
  type TodoPatch,
  type TodoResponse,
  type TodosResponse,
  type UpdateTodoResponse,
} from '@tm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { isTimeout } from './errors.js';
import { call, http } from './http.js';

/** Marked when the list's answer has arrived and been parsed: the start of the page's `tm:list-render`. */
export const LIST_DATA_MARK = 'tm:list-data';

/** How long a read may stay silent after the last one was cut for silence: three times the usual 10 s. */
export const PATIENT_SILENCE_MS = 30_000;

/**
 * The silence a new attempt allows after `previous` failed: "Try again" after a timeout waits
 * longer rather than failing the same way; any other attempt keeps the usual 10 s (undefined).
 */
export function silenceAfter(previous: unknown): number | undefined {
  return isTimeout(previous) ? PATIENT_SILENCE_MS : undefined;
}

/** The task list with the change feed's position it was read at (`cursor`, PRODUCT §10.11.5). */
export async function fetchTodoList({ signal, silenceMs }: { signal?: AbortSignal; silenceMs?: number } = {}): Promise<TodosResponse> {
  const list = await call(ROUTES.fetchTodos, { signal, silenceMs });
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(LIST_DATA_MARK);
  return list;
}

/** The tasks alone (the `{ todos }` of docs/PRODUCT.md §7). */
export async function fetchTodos({ signal }: { signal?: AbortSignal } = {}): Promise<Todo[]> {
  return (await fetchTodoList({ signal })).todos;
}

/**
 * `['todos']` holds `{ todos, cursor }`: the list and the position of the change feed it was read at, so the
 * live stream starts right after it and older events are recognised as already in it (PRODUCT §10.11.5).
 * Never retried (PRODUCT §7, §9); cached data is dropped after 5 minutes (the default). It is refetched when
 * the window gets the focus back and when the network returns, so a tab left open catches up with what other
 * tabs and devices did (PRODUCT §10.8).
 */
export const todosQuery = () =>
  queryOptions({
    queryKey: ['todos'] as const,
    queryFn: ({ signal, client, queryKey }) => fetchTodoList({ signal, silenceMs: silenceAfter(client.getQueryState(queryKey)?.error) }),
    retry: false,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  });

/** Adds a task, with a due date when `due` is given (PRODUCT §10.14), or a due date and more (a repeat, reminders: §10.16, §10.17). */
export async function addTodo(title: string, due?: string | Omit<AddTodoRequest, 'title'>): Promise<TodoResponse> {
  return call(ROUTES.addTodo, { body: due === undefined ? { title } : typeof due === 'string' ? { title, due } : { title, ...due } });
}

/**
 * Sets the fields `updateData` carries: `completed`, `isPinned` and/or a new `title` (PRODUCT §10.11.1); a tick
 * alone answers an `undoToken` for {@link restoreBulk} (PRODUCT §10.11.4).
 */
/** Sets fields of a task; `today` is the person's own day, from which a repeating task's next date counts (PRODUCT §10.16). */
export async function updateTodo(todoId: string, updateData: TodoPatch, today?: string): Promise<UpdateTodoResponse> {
  return call(ROUTES.updateTodo, { todoId, body: today === undefined ? { updateData } : { updateData, today } });
}

export async function deleteTodo(todoId: string): Promise<DeleteTodoResponse> {
  return call(ROUTES.deleteTodo, { todoId });
}

/** Undo of a delete (PRODUCT §10.11.4): the task as it was, same id and timestamps; 404 once the window closed. */
export async function restoreTodo(todoId: string): Promise<TodoResponse> {
  return call(ROUTES.restoreTodo, { todoId });
}

/** Marks every task complete (`true`) or active again (`false`), in one request (PRODUCT §10.11.3). */
export async function completeAll(completed: boolean): Promise<BulkTodosResponse> {
  return call(ROUTES.completeAll, { body: { completed } });
}

/** Deletes every completed task, in one request (PRODUCT §10.11.3). */
export async function clearCompleted(): Promise<BulkTodosResponse> {
  return call(ROUTES.clearCompleted);
}

/**
 * Undo of "Clear completed", "Mark all …" or a tick (PRODUCT §10.11.4): the tasks that action changed, back as
 * they were, in one transaction on the server; 404 `TODO.NOT_RESTORABLE` once the token is used or too old.
 */
export async function restoreBulk(undoToken: string): Promise<RestoreBulkResponse> {
  return call(ROUTES.restoreBulk, { body: { undoToken } });
}

/**
 * Sends queued task writes in one call (PRODUCT §10.4): applied in order, each once by its command id; one
 * result per command, a refusal included. The call failing as a whole (offline, timeout, 5xx) means: send
 * them again later.
 */
export async function syncTodos(commands: SyncCommand[], { signal }: { signal?: AbortSignal } = {}): Promise<SyncResponse> {
  return call(ROUTES.syncTodos, { body: { commands }, signal });
}

/** The changes after feed position `after`, or a reset (PRODUCT §10.4). */
export async function fetchChanges(after: string, { signal }: { signal?: AbortSignal } = {}): Promise<ChangesResponse> {
  return (await http.get<ChangesResponse>(ROUTES.todoChanges.path, { params: { after }, signal })).data;
}

/** A task's changes of the last 30 days, newest first, each with the value it replaced (PRODUCT §10.4). */
export async function fetchTodoHistory(todoId: string, { signal }: { signal?: AbortSignal } = {}): Promise<HistoryResponse> {
  return call(ROUTES.todoHistory, { todoId, signal });
}

/**
 * Today and Upcoming (PRODUCT §10.15) for the person's own day `today` (`YYYY-MM-DD`, read on the person's
 * clock: their time zone, §10.14): the open tasks overdue, then those of each of the `days` days from today on
 * that holds any (the server's default, 7, when not given).
 */
export async function fetchAgenda(today: string, days?: number, { signal }: { signal?: AbortSignal } = {}): Promise<AgendaResponse> {
  return (await http.get<AgendaResponse>(ROUTES.agenda.path, { params: days === undefined ? { today } : { today, days }, signal })).data;
}
