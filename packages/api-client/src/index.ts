export {
  OFFLINE_MESSAGE,
  TIMEOUT_MESSAGE,
  browserIsOffline,
  describeError,
  errorMessage,
  fieldIssues,
  isOffline,
  isSessionEnded,
  isTimeout,
  isValidationError,
  isWrongPassword,
  retryAfterSeconds,
  statusOf,
  tooManyAttemptsMessage,
  validationIssues,
} from './errors.js';
export { changePassword, deleteAccount, logoutAll } from './account.api.js';
export { createHttpClient, http } from './http.js';
export { addTodo, deleteTodo, fetchTodos, todosQuery, updateTodo } from './todos.api.js';
export { currentUserQuery, fetchCurrentUser, login, logout, signup } from './user.api.js';
export type { PublicUser, Todo, TodoPatch } from '@tm/contracts';
