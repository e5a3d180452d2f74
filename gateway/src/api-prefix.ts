/** The path prefix the gateway owns (`/api/user/…`, `/api/todo/…`); the services serve the same paths without it. */
export const API_PREFIX = '/api';
