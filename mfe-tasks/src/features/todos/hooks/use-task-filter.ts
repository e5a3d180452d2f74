import type { Todo } from '@tm/api-client';
import { addDays, AGENDA_DAYS, DUE_FILTERS, hasLabel, labelNameProblem, PRIORITIES, priorityOf, type DueFilter, type Priority } from '@tm/contracts';
import { isOverdue, personNow } from '@tm/web-platform';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** docs/PRODUCT.md §10.11.2: the filters, in the order they show (and `f` cycles through). */
export const TASK_FILTERS = ['all', 'active', 'completed'] as const;
export type TaskFilter = (typeof TASK_FILTERS)[number];

const FILTER_PARAM = 'filter';

export const FILTER_LABELS: Record<TaskFilter, string> = { all: 'All', active: 'Active', completed: 'Completed' };

/** What an empty filter says; with no tasks at all the spec's "No tasks" shows instead. */
export const EMPTY_FILTER_MESSAGES: Record<Exclude<TaskFilter, 'all'>, string> = {
  active: 'No active tasks. Nice work!',
  completed: 'No completed tasks yet.',
};

/** What the list says when the priority, label and due filters leave nothing (PRODUCT §10.20). */
export const NOTHING_MATCHES_MESSAGE = 'No tasks match these filters.';

/** The filter an address names; an unknown (or no) value means "All". */
function parseFilter(value: string | null): TaskFilter {
  return value === 'active' || value === 'completed' ? value : 'all';
}

/**
 * `search` (a query string, "?…" or '') with each parameter of `changes` set, or taken out when undefined; the
 * other parameters stay as they are, so choosing one filter keeps the others (PRODUCT §10.20). No parameter
 * left: the plain address ('').
 */
export function withParams(search: string, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The query string of a filter, the other filters of `search` kept: "All" takes `filter=` out. */
export function filterSearch(filter: TaskFilter, search = ''): string {
  return withParams(search, { [FILTER_PARAM]: filter === 'all' ? undefined : filter });
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
 * returns to the previous filter); the priority, label and due filters in the address stay as they are.
 */
export function useTaskFilter(): [TaskFilter, (filter: TaskFilter) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const filter = parseFilter(new URLSearchParams(search).get(FILTER_PARAM));
  const choose = useCallback((next: TaskFilter) => void navigate({ search: filterSearch(next, search) }), [navigate, search]);
  return [filter, choose];
}

/*
 * The priority, label and due filters (docs/PRODUCT.md §10.20): they narrow what the status filter and the
 * list show, all together, and live in the address beside `filter=` (`?priority=1&label=errand&due=today`).
 */

/** The due filters (contracts saved-filter-rules.ts): Overdue, Today, Next 7 days (as Today's agenda), No date. */
export { DUE_FILTERS, type DueFilter } from '@tm/contracts';

export const DUE_FILTER_LABELS: Record<DueFilter, string> = { overdue: 'Overdue', today: 'Due today', week: 'Next 7 days', none: 'No due date' };

/** The address's names of the three filters. */
export const NARROWING_PARAMS = { priority: 'priority', label: 'label', due: 'due' } as const;
export type NarrowingParam = keyof typeof NARROWING_PARAMS;

/** The priority, label and due filters set; none set: every task of the status filter and the list. */
export interface Narrowing {
  priority?: Priority;
  /** A label's name as the address has it (compared case aside). */
  label?: string;
  due?: DueFilter;
}

/** The filters `search` names; a value that is none of the choices is as if absent ("Any"), as for `filter=`. */
export function narrowingIn(search: string): Narrowing {
  const params = new URLSearchParams(search);
  const narrowing: Narrowing = {};
  const priority = PRIORITIES.find((value) => String(value) === params.get(NARROWING_PARAMS.priority));
  if (priority !== undefined) narrowing.priority = priority;
  const label = params.get(NARROWING_PARAMS.label);
  if (label !== null && labelNameProblem(label) === null) narrowing.label = label;
  const due = DUE_FILTERS.find((value) => value === params.get(NARROWING_PARAMS.due));
  if (due !== undefined) narrowing.due = due;
  return narrowing;
}

export function isNarrowed(narrowing: Narrowing): boolean {
  return narrowing.priority !== undefined || narrowing.label !== undefined || narrowing.due !== undefined;
}

/** `search` with the three filters taken out ("Clear filters"); the status filter stays. */
export function clearedSearch(search: string): string {
  return withParams(search, { [NARROWING_PARAMS.priority]: undefined, [NARROWING_PARAMS.label]: undefined, [NARROWING_PARAMS.due]: undefined });
}

/** A due date's day, `YYYY-MM-DD`, whether or not it has a time. */
const dayOf = (due: string) => due.slice(0, 10);

/**
 * Whether `todo` passes the filters. `today` is the person's own day (personToday), and overdue is what its
 * row says: an open task due before today, or today at a time already past (isOverdue, on the person's clock).
 */
export function narrowsTo(todo: Todo, narrowing: Narrowing, today: string): boolean {
  if (narrowing.priority !== undefined && priorityOf(todo) !== narrowing.priority) return false;
  if (narrowing.label !== undefined && !hasLabel(todo, narrowing.label)) return false;
  switch (narrowing.due) {
    case undefined:
      return true;
    case 'none':
      return todo.due === undefined;
    case 'overdue':
      return !todo.completed && todo.due !== undefined && isOverdue(todo.due, personNow());
    case 'today':
      return todo.due !== undefined && dayOf(todo.due) === today;
    case 'week':
      return todo.due !== undefined && dayOf(todo.due) >= today && dayOf(todo.due) < addDays(today, AGENDA_DAYS.default);
  }
}

/**
 * The priority, label and due filters of the task list, in the address: each choice is a navigation of its
 * own (Back undoes it, a reload and a bookmark keep it) that keeps every other parameter; `clear` takes the
 * three away at once.
 */
export function useNarrowing(): { narrowing: Narrowing; choose: (param: NarrowingParam, value: string | undefined) => void; clear: () => void } {
  const { search } = useLocation();
  const navigate = useNavigate();
  const narrowing = useMemo(() => narrowingIn(search), [search]);
  const choose = useCallback((param: NarrowingParam, value: string | undefined) => void navigate({ search: withParams(search, { [NARROWING_PARAMS[param]]: value }) }), [navigate, search]);
  const clear = useCallback(() => void navigate({ search: clearedSearch(search) }), [navigate, search]);
  return { narrowing, choose, clear };
}
