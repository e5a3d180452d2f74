export * from './common.js';
export * from './errors.js';
export * from './limits.js';
export * from './todo-title.js';
export * from './todos.js';
export * from './users.js';
export { API, apiPath, type ApiName, type ApiResponse } from './api.js';
