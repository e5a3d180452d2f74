import type { z } from 'zod';
import { MessageResponse } from './common.js';
import {
  AddTodoRequest,
  BulkTodosResponse,
  CompleteAllRequest,
  DeleteTodoResponse,
  TodoChangeEvent,
  TodoResponse,
  TodosResponse,
  UpdateTodoRequest,
} from './todos.js';
import {
  ChangePasswordRequest,
  DeleteAccountRequest,
  LoginRequest,
  LogoutResponse,
  SignupRequest,
  UserResponse,
  VerifyPasswordRequest,
} from './users.js';
import { PurgeTodosResponse } from './todos.js';

export { API_BASE } from './limits.js';

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below {@link API_BASE}; `:todoId` marks the path parameter. */
  path: string;
  request?: z.ZodType;
  response: z.ZodType;
  /** Status of a successful answer. */
  status: 200 | 201;
  /**
   * Set on the one streaming call: the answer is `text/event-stream` (Server-Sent Events) whose `change`
   * events carry `response`, not one JSON body. The gateway relays it as a stream instead of reading it whole.
   */
  stream?: true;
}

/** The public API table (docs/ARCHITECTURE.md, "Layers"), one entry per call the product makes (docs/PRODUCT.md §7). */
export const API = {
  me: { method: 'GET', path: '/user/me', response: UserResponse, status: 200 },
  signup: { method: 'POST', path: '/user/signup', request: SignupRequest, response: UserResponse, status: 201 },
  login: { method: 'POST', path: '/user/login', request: LoginRequest, response: UserResponse, status: 200 },
  logout: { method: 'POST', path: '/user/logout', response: LogoutResponse, status: 200 },
  changePassword: {
    method: 'PUT',
    path: '/user/password',
    request: ChangePasswordRequest,
    response: MessageResponse,
    status: 200,
  },
  logoutAll: { method: 'POST', path: '/user/logout-all', response: MessageResponse, status: 200 },
  deleteAccount: { method: 'DELETE', path: '/user/account', request: DeleteAccountRequest, response: MessageResponse, status: 200 },
  fetchTodos: { method: 'GET', path: '/todo/fetch-todo', response: TodosResponse, status: 200 },
  addTodo: { method: 'POST', path: '/todo/add-todo', request: AddTodoRequest, response: TodoResponse, status: 201 },
  updateTodo: {
    method: 'PUT',
    path: '/todo/update-todo/:todoId',
    request: UpdateTodoRequest,
    response: TodoResponse,
    status: 200,
  },
  deleteTodo: { method: 'DELETE', path: '/todo/delete-todo/:todoId', response: DeleteTodoResponse, status: 200 },
  /** Undo of a delete (docs/PRODUCT.md §10.11.4): the task comes back exactly as it was, same id, flags and timestamps. */
  restoreTodo: { method: 'POST', path: '/todo/restore-todo/:todoId', response: TodoResponse, status: 200 },
  completeAll: {
    method: 'PUT',
    path: '/todo/complete-all',
    request: CompleteAllRequest,
    response: BulkTodosResponse,
    status: 200,
  },
  clearCompleted: { method: 'DELETE', path: '/todo/clear-completed', response: BulkTodosResponse, status: 200 },
  /** Live changes of the session's user (docs/PRODUCT.md §10.11.5): Server-Sent Events, resumable with `Last-Event-ID`. */
  todoEvents: { method: 'GET', path: '/todo/events', response: TodoChangeEvent, status: 200, stream: true },
} as const satisfies Record<string, Endpoint>;

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
  purgeTodos: { method: 'DELETE', path: '/internal/todos', response: PurgeTodosResponse, status: 200 },
} as const satisfies Record<string, Endpoint>;
export type ApiResponse<N extends ApiName> = z.infer<(typeof API)[N]['response']>;

/** Fills the `:todoId` parameter of a path from the table. */
export function apiPath(path: string, params: { todoId?: string } = {}): string {
  return path.replace(':todoId', encodeURIComponent(params.todoId ?? ''));
}

export { MessageResponse };
