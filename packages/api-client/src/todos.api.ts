import type { DeleteTodoResponse, Todo, TodoPatch, TodoResponse, TodosResponse } from '@tm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './http.js';

export async function fetchTodos({ signal }: { signal?: AbortSignal } = {}): Promise<Todo[]> {
  return (await http.get<TodosResponse>('/todo/fetch-todo', { signal })).data.todos;
}

/**
 * `['todos']`: never retried (PRODUCT §7, §9); cached data is dropped after 5 minutes (the default). It is
 * refetched when the window gets the focus back and when the network returns, so a tab left open catches
 * up with what other tabs and devices did (PRODUCT §10.8).
 */
export const todosQuery = () =>
  queryOptions({
    queryKey: ['todos'] as const,
    queryFn: fetchTodos,
    retry: false,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  });

export async function addTodo(title: string): Promise<TodoResponse> {
  return (await http.post<TodoResponse>('/todo/add-todo', { title })).data;
}

export async function updateTodo(todoId: string, updateData: TodoPatch): Promise<TodoResponse> {
  return (await http.put<TodoResponse>(`/todo/update-todo/${encodeURIComponent(todoId)}`, { updateData })).data;
}

export async function deleteTodo(todoId: string): Promise<DeleteTodoResponse> {
  return (await http.delete<DeleteTodoResponse>(`/todo/delete-todo/${encodeURIComponent(todoId)}`)).data;
}
