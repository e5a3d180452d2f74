export * from './common.js';
export * from './errors.js';
export * from './limits.js';
export * from './todo-title.js';
export * from './todos.js';
export * from './users.js';
export { API, INTERNAL_API, type ApiName, type ApiRequest, type ApiResponse } from './api.js';
export { apiPath, type PathParams, type Route } from './api-path.js';
export * as ROUTES from './routes.js';
