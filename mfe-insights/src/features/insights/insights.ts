import type { Todo } from '@tm/api-client';
import { byListPlace, INBOX_ID, INBOX_NAME, type TaskList } from '@tm/contracts';

/** How many days the chart shows, today included (the last 4 weeks). */
export const CHART_DAYS = 28;

/** One day of the chart: its local date (YYYY-MM-DD) and the tasks completed on it. */
export interface DayCount {
  date: string;
  completed: number;
}

export interface Insights {
  /** The last {@link CHART_DAYS} days, oldest first, today last. */
  days: DayCount[];
  /** Days in a row, up to today, with at least one task completed (a day not over yet does not break it). */
  streak: number;
  open: number;
  completed: number;
  pinned: number;
  /** Completed since Monday 00:00 of this week (local time). */
  completedThisWeek: number;
}

/** The local calendar date of `date` as YYYY-MM-DD (the person's own time zone: a day is their day). */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Midnight (local) `days` days before the day of `now`. */
function dayStart(now: Date, daysBack: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack);
}

/**
 * What the Insights screen shows, from the task list alone (the shell's cached `['todos']`, kept live by the
 * stream). A task counts on the day of its `completedAt` (docs/PRODUCT.md §10.11.3): tasks reopened since
 * have none, deleted tasks are not in the list, and tasks completed before completion times were kept
 * count on the day of their last change. A repeating task's completed occurrences (`repeatDone`, §10.16)
 * count each on its own day, in the completed total too, while the task itself stays open.
 */
export function insightsOf(todos: readonly Todo[], now: Date = new Date()): Insights {
  const perDay = new Map<string, number>();
  let open = 0;
  let completed = 0;
  let pinned = 0;
  let completedThisWeek = 0;
  // Monday of this week (getDay: Sunday 0 … Saturday 6).
  const weekStart = dayStart(now, (now.getDay() + 6) % 7).getTime();
  const count = (time: string) => {
    completed += 1;
    const at = new Date(time);
    const day = localDate(at);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    if (at.getTime() >= weekStart) completedThisWeek += 1;
  };
  for (const todo of todos) {
    if (todo.isPinned) pinned += 1;
    // Each completed occurrence of a repeating task counts on its day, the task itself staying open (§10.16).
    for (const time of todo.repeatDone ?? []) count(time);
    if (!todo.completed) {
      open += 1;
      continue;
    }
    if (todo.completedAt) count(todo.completedAt);
    else completed += 1;
  }
  const days: DayCount[] = [];
  for (let back = CHART_DAYS - 1; back >= 0; back -= 1) {
    const date = localDate(dayStart(now, back));
    days.push({ date, completed: perDay.get(date) ?? 0 });
  }
  // The streak runs back from today; today without a completion yet does not end it (the day is not over).
  let streak = 0;
  for (let back = perDay.has(localDate(now)) ? 0 : 1; perDay.has(localDate(dayStart(now, back))); back += 1) streak += 1;
  return { days, streak, open, completed, pinned, completedThisWeek };
}

/** One row of the figures by list: the list (the Inbox has the id `inbox`), its open tasks and its completions. */
export interface ListFigures {
  id: string;
  name: string;
  /** Absent for the Inbox, which has no colour of its own. */
  colour?: TaskList['colour'];
  open: number;
  completed: number;
  completedThisWeek: number;
}

/**
 * The figures of each list (docs/PRODUCT.md §10.12, §10.19): the Inbox first, then the lists that are not
 * archived in the person's order, then archived lists that still hold tasks; each with its open tasks, its
 * completions (a repeating task's occurrences each count, as in {@link insightsOf}) and those since Monday.
 * A task whose list is not among `lists` (a list the device has not heard of yet) counts in the Inbox.
 */
export function insightsByList(todos: readonly Todo[], lists: readonly TaskList[], now: Date = new Date()): ListFigures[] {
  const weekStart = dayStart(now, (now.getDay() + 6) % 7).getTime();
  const placed = [...lists].sort(byListPlace);
  const inbox: ListFigures = { id: INBOX_ID, name: INBOX_NAME, open: 0, completed: 0, completedThisWeek: 0 };
  const rows = new Map<string, ListFigures>([[INBOX_ID, inbox]]);
  for (const list of placed) rows.set(list._id, { id: list._id, name: list.name, colour: list.colour, open: 0, completed: 0, completedThisWeek: 0 });
  for (const todo of todos) {
    const row = rows.get(todo.listId ?? INBOX_ID) ?? inbox;
    const count = (time: string | null) => {
      row.completed += 1;
      if (time !== null && Date.parse(time) >= weekStart) row.completedThisWeek += 1;
    };
    for (const time of todo.repeatDone ?? []) count(time);
    if (todo.completed) count(todo.completedAt);
    else row.open += 1;
  }
  const archived = new Set(placed.filter((list) => list.archived).map((list) => list._id));
  return [...rows.values()].filter((row) => !archived.has(row.id) || row.open + row.completed > 0);
}
