export interface PathParams {
  todoId?: string;
}

/** A call of routes.ts; `path` is below `API_BASE`, `:todoId` marks its parameter. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

export function apiPath(path: string, params: PathParams = {}): string {
  return path.replace(':todoId', encodeURIComponent(params.todoId ?? ''));
}
