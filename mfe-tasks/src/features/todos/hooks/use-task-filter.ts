import type { Todo } from '@tm/api-client';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';

/** docs/PRODUCT.md §10.11.2: the filters, in the order they show (and `/` cycles through). */
export const TASK_FILTERS = ['all', 'active', 'completed'] as const;
export type TaskFilter = (typeof TASK_FILTERS)[number];

const FILTER_PARAM = 'filter';

export const FILTER_LABELS: Record<TaskFilter, string> = { all: 'All', active: 'Active', completed: 'Completed' };

/** What an empty filter says; with no tasks at all the spec's "No tasks" shows instead. */
export const EMPTY_FILTER_MESSAGES: Record<Exclude<TaskFilter, 'all'>, string> = {
  active: 'No active tasks. Nice work!',
  completed: 'No completed tasks yet.',
};

/** The filter an address names; an unknown (or no) value means "All". */
function parseFilter(value: string | null): TaskFilter {
  return value === 'active' || value === 'completed' ? value : 'all';
}

/** The query string of a filter: "All" is the plain address. */
export function filterSearch(filter: TaskFilter): string {
  return filter === 'all' ? '' : `?${FILTER_PARAM}=${filter}`;
}

export function nextFilter(filter: TaskFilter): TaskFilter {
  return TASK_FILTERS[(TASK_FILTERS.indexOf(filter) + 1) % TASK_FILTERS.length] ?? 'all';
}

export function inFilter(todo: Todo, filter: TaskFilter): boolean {
  return filter === 'all' || todo.completed === (filter === 'completed');
}

/**
 * The filter of the task list, kept in the address (`/?filter=active`), so a reload, Back and a shared link
 * keep it. The shell owns the router (react-router is a federated singleton): the remote reads and writes
 * the query string of whatever route it is shown at. Choosing a filter is a navigation of its own (Back
 * returns to the previous filter).
 */
export function useTaskFilter(): [TaskFilter, (filter: TaskFilter) => void] {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = parseFilter(params.get(FILTER_PARAM));
  const choose = useCallback((next: TaskFilter) => void navigate({ search: filterSearch(next) }), [navigate]);
  return [filter, choose];
}
