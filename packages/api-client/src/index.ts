export {
  OFFLINE_MESSAGE,
  TIMEOUT_MESSAGE,
  browserIsOffline,
  describeError,
  errorMessage,
  isOffline,
  isSessionEnded,
  isTimeout,
  isValidationError,
  statusOf,
  validationIssues,
} from './errors.js';
export { createHttpClient, http } from './http.js';
export { addTodo, deleteTodo, fetchTodos, todosQuery, updateTodo } from './todos.api.js';
export { currentUserQuery, fetchCurrentUser, login, logout, signup } from './user.api.js';
export type { PublicUser, Todo, TodoPatch } from '@tm/contracts';
