import type { API, BulkTodosResponse, DeleteTodoResponse, Todo, TodoPatch, TodoResponse, TodosResponse } from '@tm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './http.js';

// Type-only use of the contracts' API table (its schemas carry zod, which stays out of browser bundles):
// each path below must be the one the table names, or this file does not compile.
type PathOf<N extends keyof typeof API> = (typeof API)[N]['path'];
const FETCH_TODOS: PathOf<'fetchTodos'> = '/todo/fetch-todo';
const ADD_TODO: PathOf<'addTodo'> = '/todo/add-todo';
const UPDATE_TODO: PathOf<'updateTodo'> = '/todo/update-todo/:todoId';
const DELETE_TODO: PathOf<'deleteTodo'> = '/todo/delete-todo/:todoId';
const RESTORE_TODO: PathOf<'restoreTodo'> = '/todo/restore-todo/:todoId';
const COMPLETE_ALL: PathOf<'completeAll'> = '/todo/complete-all';
const CLEAR_COMPLETED: PathOf<'clearCompleted'> = '/todo/clear-completed';

const withId = (path: string, todoId: string) => path.replace(':todoId', encodeURIComponent(todoId));

/** Marked when the list's answer has arrived and been parsed: the start of the page's `tm:list-render` (issue #10). */
export const LIST_DATA_MARK = 'tm:list-data';

/** The task list with the change feed's position it was read at (`cursor`, PRODUCT §10.11.5). */
export async function fetchTodoList({ signal }: { signal?: AbortSignal } = {}): Promise<TodosResponse> {
  const list = (await http.get<TodosResponse>(FETCH_TODOS, { signal })).data;
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
    queryFn: fetchTodoList,
    retry: false,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  });

export async function addTodo(title: string): Promise<TodoResponse> {
  return (await http.post<TodoResponse>(ADD_TODO, { title })).data;
}

/** Sets the fields `updateData` carries: `completed`, `isPinned` and/or a new `title` (PRODUCT §10.11.1). */
export async function updateTodo(todoId: string, updateData: TodoPatch): Promise<TodoResponse> {
  return (await http.put<TodoResponse>(withId(UPDATE_TODO, todoId), { updateData })).data;
}

export async function deleteTodo(todoId: string): Promise<DeleteTodoResponse> {
  return (await http.delete<DeleteTodoResponse>(withId(DELETE_TODO, todoId))).data;
}

/** Undo of a delete (PRODUCT §10.11.4): the task as it was, same id and timestamps; 404 once the window closed. */
export async function restoreTodo(todoId: string): Promise<TodoResponse> {
  return (await http.post<TodoResponse>(withId(RESTORE_TODO, todoId))).data;
}

/** Marks every task complete (`true`) or active again (`false`), in one request (PRODUCT §10.11.3). */
export async function completeAll(completed: boolean): Promise<BulkTodosResponse> {
  return (await http.put<BulkTodosResponse>(COMPLETE_ALL, { completed })).data;
}

/** Deletes every completed task, in one request (PRODUCT §10.11.3). */
export async function clearCompleted(): Promise<BulkTodosResponse> {
  return (await http.delete<BulkTodosResponse>(CLEAR_COMPLETED)).data;
}
