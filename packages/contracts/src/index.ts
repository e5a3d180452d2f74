export * from './common.js';
export * from './errors.js';
export * from './limits.js';
export * from './todo-title.js';
export * from './todos.js';
export * from './users.js';
export { API, INTERNAL_API, apiPath, type ApiName, type ApiResponse } from './api.js';
