// Today and Upcoming (docs/PRODUCT.md §10.15): which open tasks a person's days hold and in what order, as
// one pure rule with no dependencies. The service answers `GET /todo/agenda` with it, and the Today screen
// draws the same from the list the device already holds, so the two always agree.
import { dueParts } from './todo-dates.js';

/** The fields of a task the agenda reads. */
export interface AgendaTask {
  due?: string;
  completed: boolean;
  isPinned: boolean;
  createdAt: string;
}

/** One day of the agenda: its date (`YYYY-MM-DD`) and its open tasks. */
export interface AgendaDay<T> {
  date: string;
  todos: T[];
}

/** Open tasks due before today, oldest first; then each day from today on that holds any, in date order. */
export interface Agenda<T> {
  overdue: T[];
  days: AgendaDay<T>[];
}

/** How many days from today on an agenda covers, at most and by default (today and the six after it). */
export const AGENDA_DAYS = { max: 31, default: 7 } as const;

/** The day `count` days after `day` (`YYYY-MM-DD`, by the calendar: no clock change can move it). */
export function addDays(day: string, count: number): string {
  const parts = dueParts(day.slice(0, 10));
  if (parts === null) throw new RangeError(`not a day: ${day}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day + count)).toISOString().slice(0, 10);
}

/** "Next week" (PRODUCT §10.14, §10.15): the Monday after `day`, a week on when `day` is a Monday. */
export function nextMonday(day: string): string {
  const weekday = new Date(`${day.slice(0, 10)}T00:00:00Z`).getUTCDay();
  return addDays(day, (8 - weekday) % 7 || 7);
}

/**
 * The order within a day: tasks with a time by their time, then those for the whole day as the list orders
 * them (pinned first, then the newest: PRODUCT §2). Overdue tasks go by their due date, oldest first.
 */
function byTimeThenList(a: AgendaTask & { due: string }, b: AgendaTask & { due: string }): number {
  const timed = Number(b.due.length > 10) - Number(a.due.length > 10);
  if (timed !== 0) return timed;
  if (a.due.length > 10 && a.due !== b.due) return a.due < b.due ? -1 : 1;
  if (a.isPinned !== b.isPinned) return a.isPinned ? -1 : 1;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/**
 * The agenda of `todos` for the `days` days from `today` (the person's own day, in their time zone): open
 * tasks only; a task with a time today stays in today even once its time has passed (it shows as overdue on
 * its row, §10.14).
 */
export function agendaOf<T extends AgendaTask>(todos: readonly T[], today: string, days: number = AGENDA_DAYS.default): Agenda<T> {
  const end = addDays(today, days);
  const dated = todos.filter((todo): todo is T & { due: string } => !todo.completed && todo.due !== undefined && todo.due < end);
  const overdue = dated.filter((todo) => todo.due < today).sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : byTimeThenList(a, b)));
  const byDay = new Map<string, (T & { due: string })[]>();
  for (const todo of dated) {
    if (todo.due < today) continue;
    const date = todo.due.slice(0, 10);
    const day = byDay.get(date);
    if (day) day.push(todo);
    else byDay.set(date, [todo]);
  }
  const upcoming = [...byDay.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, list]) => ({ date, todos: list.sort(byTimeThenList) }));
  return { overdue, days: upcoming };
}
