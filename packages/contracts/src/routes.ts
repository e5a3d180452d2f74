// Method and path of each public call (docs/PRODUCT.md §7): api.ts adds the schemas, the browser client needs
// only these (no zod). One export each, read as `ROUTES.login`, so a bundle keeps the ones it calls.
import type { Route } from './api-path.js';

export const me = { method: 'GET', path: '/user/me' } as const satisfies Route;
export const signup = { method: 'POST', path: '/user/signup' } as const satisfies Route;
export const login = { method: 'POST', path: '/user/login' } as const satisfies Route;
export const logout = { method: 'POST', path: '/user/logout' } as const satisfies Route;
export const changePassword = { method: 'PUT', path: '/user/password' } as const satisfies Route;
export const logoutAll = { method: 'POST', path: '/user/logout-all' } as const satisfies Route;
export const deleteAccount = { method: 'DELETE', path: '/user/account' } as const satisfies Route;
export const updateProfile = { method: 'PUT', path: '/user/profile' } as const satisfies Route;
export const forgotPassword = { method: 'POST', path: '/user/forgot-password' } as const satisfies Route;
export const resetPassword = { method: 'POST', path: '/user/reset-password' } as const satisfies Route;
export const calendarFeed = { method: 'GET', path: '/user/calendar-feed' } as const satisfies Route;
export const turnOnCalendarFeed = { method: 'POST', path: '/user/calendar-feed' } as const satisfies Route;
export const turnOffCalendarFeed = { method: 'DELETE', path: '/user/calendar-feed' } as const satisfies Route;
export const fetchTodos = { method: 'GET', path: '/todo/fetch-todo' } as const satisfies Route;
export const addTodo = { method: 'POST', path: '/todo/add-todo' } as const satisfies Route;
export const updateTodo = { method: 'PUT', path: '/todo/update-todo/:todoId' } as const satisfies Route;
export const deleteTodo = { method: 'DELETE', path: '/todo/delete-todo/:todoId' } as const satisfies Route;
export const restoreTodo = { method: 'POST', path: '/todo/restore-todo/:todoId' } as const satisfies Route;
export const completeAll = { method: 'PUT', path: '/todo/complete-all' } as const satisfies Route;
export const clearCompleted = { method: 'DELETE', path: '/todo/clear-completed' } as const satisfies Route;
export const restoreBulk = { method: 'POST', path: '/todo/restore-bulk' } as const satisfies Route;
export const todoEvents = { method: 'GET', path: '/todo/events' } as const satisfies Route;
export const todoChanges = { method: 'GET', path: '/todo/changes' } as const satisfies Route;
export const todoHistory = { method: 'GET', path: '/todo/history/:todoId' } as const satisfies Route;
export const agenda = { method: 'GET', path: '/todo/agenda' } as const satisfies Route;
export const syncTodos = { method: 'POST', path: '/todo/sync' } as const satisfies Route;
export const reminders = { method: 'GET', path: '/todo/reminders' } as const satisfies Route;
export const reminderTimeZone = { method: 'PUT', path: '/todo/reminders/time-zone' } as const satisfies Route;
export const acknowledgeReminders = { method: 'POST', path: '/todo/reminders/ack' } as const satisfies Route;
export const subscribePush = { method: 'PUT', path: '/todo/reminders/subscription' } as const satisfies Route;
export const unsubscribePush = { method: 'POST', path: '/todo/reminders/unsubscribe' } as const satisfies Route;
export const createList = { method: 'POST', path: '/todo/lists' } as const satisfies Route;
export const updateList = { method: 'PUT', path: '/todo/lists/:listId' } as const satisfies Route;
export const deleteList = { method: 'DELETE', path: '/todo/lists/:listId' } as const satisfies Route;
