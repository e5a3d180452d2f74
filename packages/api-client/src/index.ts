export {
  OFFLINE_MESSAGE,
  answerError,
  TIMEOUT_MESSAGE,
  describeError,
  errorMessage,
  fieldIssues,
  isOffline,
  isSessionEnded,
  isTimeout,
  isValidationError,
  isWrongPassword,
  logFailure,
  retryAfterSeconds,
  sessionEndReason,
  statusOf,
  tooManyAttemptsMessage,
  validationIssues,
} from './errors.js';
export {
  changePassword,
  deleteAccount,
  forgotPassword,
  isEmailTaken,
  isPasswordChangedElsewhere,
  isResetLinkInvalid,
  logoutAll,
  resetPassword,
  updateProfile,
} from './account.api.js';
export { asSessionEndReason, explainSessionEnd, forgetSessionEnd, peekSessionEnd, rememberSessionEnd, SESSION_END_EXPLAINED_EVENT, type SessionEnd } from './session-end.js';
export { dropEarlyResponses, EARLY_GLOBAL, takeEarlyResponse, type EarlyRequests, type KeptScreen } from './early.js';
export { clientId, createHttpClient, http, newIdempotencyKey } from './http.js';
export { DEVICE_USER_KEY, deviceUser, KEPT_SCREEN_KEY, forgetDeviceUser, rememberDeviceUser, userFromDevice } from './device-user.js';
export { openTodoStream, cursorAfter } from './todo-stream.js';
export {
  addTodo,
  clearCompleted,
  completeAll,
  deleteTodo,
  fetchAgenda,
  fetchChanges,
  fetchTodoHistory,
  fetchTodoList,
  fetchTodos,
  LIST_DATA_MARK,
  PATIENT_SILENCE_MS,
  restoreBulk,
  restoreTodo,
  silenceAfter,
  syncTodos,
  todosQuery,
  updateTodo,
} from './todos.api.js';
export { currentUserQuery, fetchCurrentUser, login, logout, signup } from './user.api.js';
export { browserTimeZone, personTimeZone } from './time-zone.js';
export { fetchCalendarFeed, turnOffCalendarFeed, turnOnCalendarFeed } from './calendar-feed.api.js';
export type { AddTodoRequest, PublicUser, SessionEndReason, Todo, TodoChangeEvent, TodoPatch, TodosResponse } from '@tm/contracts';
export { acknowledgeReminders, fetchReminders, remindersQueryKey, setReminderTimeZone, subscribePush, unsubscribePush } from './reminders.api.js';
