import type { z } from 'zod';
import { MessageResponse } from './common.js';
import {
  AddTodoRequest,
  AgendaResponse,
  BulkTodosResponse,
  ChangesResponse,
  HistoryResponse,
  SyncRequest,
  SyncResponse,
  CompleteAllRequest,
  DeleteListResponse,
  DeleteTodoResponse,
  RestoreBulkRequest,
  RestoreBulkResponse,
  TodoChangeEvent,
  TodoResponse,
  TodosResponse,
  UpdateTodoRequest,
  UpdateTodoResponse,
} from './todos.js';
import {
  ChangePasswordRequest,
  DeleteAccountRequest,
  ForgotPasswordRequest,
  LoginRequest,
  LogoutResponse,
  PasswordResetDone,
  ResetPasswordRequest,
  SendPasswordResetRequest,
  SignupRequest,
  UpdateProfileRequest,
  UserResponse,
  VerifyPasswordRequest,
} from './users.js';
import { PurgeTodosResponse } from './todos.js';
import { SearchResponse } from './search.js';
import { CreateListRequest, ListPatch, ListResponse } from './lists.js';
import { ImportRequest, ImportResponse, TransferDocument } from './transfer.js';
import { SaveFilterRequest, SavedFilterResponse, SavedFiltersResponse } from './saved-filters.js';
import { CalendarDocument, CalendarFeedMade, CalendarFeedOwner, CalendarFeedOwnerRequest, CalendarFeedResponse, CalendarFeedTurnedOn } from './calendar-feed.js';
import { EndedSessionsRequest, InternalPushSubscriptionRequest, PushUnsubscribeRequest, ReminderAckRequest, RemindersResponse, ReminderTimeZoneRequest, RemovedCountResponse, PushSubscriptionRequest } from './reminders.js';
import type { Route } from './api-path.js';
import * as ROUTES from './routes.js';

export { API_BASE } from './limits.js';

interface Endpoint extends Route {
  request?: z.ZodType;
  response: z.ZodType;
  /** Status of a successful answer. */
  status: 200 | 201;
  /**
   * Set on the one streaming call: the answer is `text/event-stream` (Server-Sent Events) whose `change`
   * events carry `response`, not one JSON body. The gateway relays it as a stream instead of reading it whole.
   */
  stream?: true;
  /**
   * Set on a download (GET /todo/export, docs/PRODUCT.md §10.23): the answer is a file (`Content-Disposition:
   * attachment`), JSON matching `response` or CSV; the gateway checks and relays it with its file name.
   */
  download?: true;
}

/**
 * The public API table (README.md "API"), one entry per call the product makes (docs/PRODUCT.md §7, §10.10,
 * §10.11): each entry is its route (routes.ts: method and path) with the shapes of its request and answer.
 * Every route has exactly one entry.
 */
export const API = {
  me: { ...ROUTES.me, response: UserResponse, status: 200 },
  signup: { ...ROUTES.signup, request: SignupRequest, response: UserResponse, status: 201 },
  login: { ...ROUTES.login, request: LoginRequest, response: UserResponse, status: 200 },
  logout: { ...ROUTES.logout, response: LogoutResponse, status: 200 },
  changePassword: { ...ROUTES.changePassword, request: ChangePasswordRequest, response: MessageResponse, status: 200 },
  logoutAll: { ...ROUTES.logoutAll, response: MessageResponse, status: 200 },
  deleteAccount: { ...ROUTES.deleteAccount, request: DeleteAccountRequest, response: MessageResponse, status: 200 },
  /** A new name and/or email (PRODUCT §10.10); a new email needs the current password. */
  updateProfile: { ...ROUTES.updateProfile, request: UpdateProfileRequest, response: UserResponse, status: 200 },
  /** A reset link by email (PRODUCT §10.10); the same answer whether or not the email has an account. */
  forgotPassword: { ...ROUTES.forgotPassword, request: ForgotPasswordRequest, response: MessageResponse, status: 200 },
  /** A new password with the link's token: single use, 30 minutes; every session of the account ends. */
  resetPassword: { ...ROUTES.resetPassword, request: ResetPasswordRequest, response: MessageResponse, status: 200 },
  /** Whether the account's calendar feed is on (PRODUCT §10.18); its address is shown once, when it is made. */
  calendarFeed: { ...ROUTES.calendarFeed, response: CalendarFeedResponse, status: 200 },
  /** A calendar feed with a new secret address, answered in full this once; an earlier address stops working. */
  turnOnCalendarFeed: { ...ROUTES.turnOnCalendarFeed, response: CalendarFeedTurnedOn, status: 201 },
  /** The calendar feed off: its address stops working. */
  turnOffCalendarFeed: { ...ROUTES.turnOffCalendarFeed, response: CalendarFeedResponse, status: 200 },
  fetchTodos: { ...ROUTES.fetchTodos, response: TodosResponse, status: 200 },
  addTodo: { ...ROUTES.addTodo, request: AddTodoRequest, response: TodoResponse, status: 201 },
  updateTodo: { ...ROUTES.updateTodo, request: UpdateTodoRequest, response: UpdateTodoResponse, status: 200 },
  deleteTodo: { ...ROUTES.deleteTodo, response: DeleteTodoResponse, status: 200 },
  /** Undo of a delete (PRODUCT §10.11.4): the task comes back exactly as it was, same id, flags and timestamps. */
  restoreTodo: { ...ROUTES.restoreTodo, response: TodoResponse, status: 200 },
  completeAll: { ...ROUTES.completeAll, request: CompleteAllRequest, response: BulkTodosResponse, status: 200 },
  clearCompleted: { ...ROUTES.clearCompleted, response: BulkTodosResponse, status: 200 },
  /** Undo of a bulk call (PRODUCT §10.11.3): the `undoToken` its answer carried, single-use, within the restore window. */
  restoreBulk: { ...ROUTES.restoreBulk, request: RestoreBulkRequest, response: RestoreBulkResponse, status: 200 },
  /** Live changes of the session's user (PRODUCT §10.11.5): Server-Sent Events, resumable with `Last-Event-ID`. */
  todoEvents: { ...ROUTES.todoEvents, response: TodoChangeEvent, status: 200, stream: true },
  /** The changes since a feed position, as JSON (PRODUCT §10.4): a device catching up after being away. */
  todoChanges: { ...ROUTES.todoChanges, response: ChangesResponse, status: 200 },
  /** A task's changes of the last 30 days, each with the value it replaced (PRODUCT §10.4). */
  todoHistory: { ...ROUTES.todoHistory, response: HistoryResponse, status: 200 },
  /** Today and Upcoming (PRODUCT §10.15): the open tasks overdue and those of each day from the person's `today` on. */
  agenda: { ...ROUTES.agenda, response: AgendaResponse, status: 200 },
  /** Search (PRODUCT §10.22): the tasks whose title, note or subtasks hold the words of `q`, best match first, narrowed by the task screen's filters. */
  searchTodos: { ...ROUTES.searchTodos, response: SearchResponse, status: 200 },
  /** Queued task writes in one call, applied in order, each once (PRODUCT §10.4). */
  syncTodos: { ...ROUTES.syncTodos, request: SyncRequest, response: SyncResponse, status: 200 },
  /** Reminders (PRODUCT §10.17): the push key, the zone due times are read in, what comes in the next day and what was missed. */
  reminders: { ...ROUTES.reminders, response: RemindersResponse, status: 200 },
  reminderTimeZone: { ...ROUTES.reminderTimeZone, request: ReminderTimeZoneRequest, response: MessageResponse, status: 200 },
  /** Reminders the page showed, or whose missed notice was dismissed. */
  acknowledgeReminders: { ...ROUTES.acknowledgeReminders, request: ReminderAckRequest, response: MessageResponse, status: 200 },
  /** This browser's push subscription, kept for this session (the gateway's own route, gateway/src/reminder.routes.ts). */
  subscribePush: { ...ROUTES.subscribePush, request: PushSubscriptionRequest, response: MessageResponse, status: 200 },
  unsubscribePush: { ...ROUTES.unsubscribePush, request: PushUnsubscribeRequest, response: RemovedCountResponse, status: 200 },
  /** A new list (PRODUCT §10.19); fetch-todo answers the person's lists with the tasks. */
  createList: { ...ROUTES.createList, request: CreateListRequest, response: ListResponse, status: 201 },
  /** Rename, recolour, move or archive a list. */
  updateList: { ...ROUTES.updateList, request: ListPatch, response: ListResponse, status: 200 },
  /** A list and its tasks gone in one change, undone with the answer's token (POST /todo/restore-bulk). */
  deleteList: { ...ROUTES.deleteList, response: DeleteListResponse, status: 200 },
  /** Saved filters (PRODUCT §10.20): the person's, by name; save one by name (a known name gets the new address); delete one. */
  savedFilters: { ...ROUTES.savedFilters, response: SavedFiltersResponse, status: 200 },
  saveFilter: { ...ROUTES.saveFilter, request: SaveFilterRequest, response: SavedFilterResponse, status: 201 },
  deleteSavedFilter: { ...ROUTES.deleteSavedFilter, response: SavedFilterResponse, status: 200 },
  /** Everything of the account as a file (PRODUCT §10.23): `?format=json` (TransferDocument) or `csv`. */
  exportTodos: { ...ROUTES.exportTodos, response: TransferDocument, status: 200, download: true },
  /** Tasks from a file, our JSON or a Todoist CSV, all in one transaction or nothing (PRODUCT §10.23). */
  importTodos: { ...ROUTES.importTodos, request: ImportRequest, response: ImportResponse, status: 200 },
} as const satisfies { [N in keyof typeof ROUTES]: Endpoint };

export type ApiName = keyof typeof API;

/**
 * Calls between the gateway and the services that the public /api never reaches: the gateway forwards only
 * `/api/user/*` and `/api/todo/*`, so nothing from outside can name a path under `/internal`. Each carries the
 * gateway's signed identity like any other call.
 */
export const INTERNAL_API = {
  verifyPassword: {
    method: 'POST',
    path: '/internal/users/verify-password',
    request: VerifyPasswordRequest,
    response: MessageResponse,
    status: 200,
  },
  deleteUser: { method: 'DELETE', path: '/internal/users/me', response: MessageResponse, status: 200 },
  /** Anonymous (no user): the reset link is mailed after the answer, if the email has an account. */
  sendPasswordReset: { method: 'POST', path: '/internal/password-resets', request: SendPasswordResetRequest, response: MessageResponse, status: 200 },
  /** Anonymous: the link's token and the new password; answers whose password it was. */
  usePasswordReset: { method: 'POST', path: '/internal/password-resets/use', request: ResetPasswordRequest, response: PasswordResetDone, status: 200 },
  purgeTodos: { method: 'DELETE', path: '/internal/todos', response: PurgeTodosResponse, status: 200 },
  /** A browser's push subscription tied to its session (PRODUCT §10.17). */
  keepPushSubscription: { method: 'PUT', path: '/internal/reminders/subscription', request: InternalPushSubscriptionRequest, response: MessageResponse, status: 200 },
  /** Sessions that ended: their push subscriptions go. */
  endPushSessions: { method: 'POST', path: '/internal/reminders/sessions-ended', request: EndedSessionsRequest, response: RemovedCountResponse, status: 200 },
  /** The account's reminders, subscriptions and zone, at account deletion. */
  purgeReminders: { method: 'DELETE', path: '/internal/reminders', response: RemovedCountResponse, status: 200 },
  /** A calendar feed token for the user (PRODUCT §10.18): svc-users keeps its SHA-256, the gateway makes the address. */
  makeCalendarFeed: { method: 'POST', path: '/internal/calendar-feeds', response: CalendarFeedMade, status: 201 },
  /** Anonymous: whose feed a token opens; 404 `CALENDAR.FEED_NOT_FOUND` for an unknown, replaced or revoked one. */
  calendarFeedOwner: { method: 'POST', path: '/internal/calendar-feeds/owner', request: CalendarFeedOwnerRequest, response: CalendarFeedOwner, status: 200 },
  /** The user's dated tasks as iCalendar text (query `timeZone`, the account's, named in the feed). */
  calendarDocument: { method: 'GET', path: '/internal/todos/calendar', response: CalendarDocument, status: 200 },
} as const satisfies Record<string, Endpoint>;
export type ApiResponse<N extends ApiName> = z.infer<(typeof API)[N]['response']>;
/** The body a call sends (`never` for a call without one). */
export type ApiRequest<N extends ApiName> = (typeof API)[N] extends { request: z.ZodType } ? z.input<(typeof API)[N]['request']> : never;

export { MessageResponse };
