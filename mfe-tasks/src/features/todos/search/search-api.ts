import { http, type Todo } from '@tm/api-client';
import { LIMITS, ROUTES, type SearchResponse, type SearchStatus } from '@tm/contracts';
import type { Narrowing, TaskFilter } from '../hooks/use-task-filter';

/** What a search asks for (docs/PRODUCT.md §10.22): the words, and the filters of the list in view. */
export interface SearchRequest {
  query: string;
  filter: TaskFilter;
  narrowing: Narrowing;
  /** A list's id or INBOX_ID; undefined: every list. */
  listId: string | undefined;
  /** The person's wall clock, `YYYY-MM-DDTHH:mm`: what the Due filter counts from. */
  now: string;
}

/** The person's wall clock (personNow's local fields) as the search's `now` writes it. */
export function wallClock(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** The call's query parameters: `q` and each filter that is set. */
export function searchParams({ query, filter, narrowing, listId, now }: SearchRequest): Record<string, string> {
  const status: SearchStatus | undefined = filter === 'all' ? undefined : filter;
  const params: Record<string, string | undefined> = {
    // An address may carry more than the field takes: the service's limit is the field's.
    q: query.slice(0, LIMITS.searchQuery.max),
    listId,
    status,
    priority: narrowing.priority === undefined ? undefined : String(narrowing.priority),
    label: narrowing.label,
    due: narrowing.due,
    now: narrowing.due === undefined ? undefined : now,
  };
  return Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** GET /api/todo/search: the matches, best first, and how many more there are. */
export async function fetchSearch(request: SearchRequest, signal: AbortSignal): Promise<{ todos: Todo[]; more: number }> {
  const answer = await http.get<SearchResponse>(ROUTES.searchTodos.path, { params: searchParams(request), signal });
  return answer.data;
}
