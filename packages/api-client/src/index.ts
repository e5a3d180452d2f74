export { createHttpClient, errorMessage, http } from './http.js';
export { addTodo, deleteTodo, fetchTodos, todosQuery, updateTodo } from './todos.api.js';
export { currentUserQuery, fetchCurrentUser, login, logout, signup } from './user.api.js';
export type { PublicUser, Todo, TodoPatch } from '@tm/contracts';
