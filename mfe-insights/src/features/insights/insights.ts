import type { Todo } from '@tm/api-client';

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
 * count on the day of their last change.
 */
export function insightsOf(todos: readonly Todo[], now: Date = new Date()): Insights {
  const perDay = new Map<string, number>();
  let open = 0;
  let completed = 0;
  let pinned = 0;
  let completedThisWeek = 0;
  // Monday of this week (getDay: Sunday 0 … Saturday 6).
  const weekStart = dayStart(now, (now.getDay() + 6) % 7).getTime();
  for (const todo of todos) {
    if (todo.isPinned) pinned += 1;
    if (!todo.completed) {
      open += 1;
      continue;
    }
    completed += 1;
    if (!todo.completedAt) continue;
    const at = new Date(todo.completedAt);
    const day = localDate(at);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    if (at.getTime() >= weekStart) completedThisWeek += 1;
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
