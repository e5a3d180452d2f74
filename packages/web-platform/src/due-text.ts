import { browserTimeZone } from '@tm/api-client';
import { dueParts, nowIn, todayIn } from '@tm/contracts';

// A task's due date in plain words (docs/PRODUCT.md §10.14): the day relative to today when near, else the
// weekday and date, with the time when the task has one, in the person's locale. A due date is a day (and
// time) in the person's own time zone, so it is read as local, never shifted.

/** The person's time zone (the account's, else this browser's: PRODUCT §10.14); undefined: this browser's. */
let personZone: string | undefined;

/** Reads "today" and "now" in `zone` from here on (the task screen sets it from the signed-in person). */
export function setPersonTimeZone(zone: string | undefined): void {
  personZone = zone;
}

/**
 * The person's "now" on their own clock: a Date whose local fields are the wall-clock time in their zone, so
 * it compares with {@link dueDate} and the day arithmetic below whatever zone this browser is in.
 */
export function personNow(at: Date = new Date()): Date {
  if (personZone === undefined) return at;
  // Rows read "now" as they render: the zone's wall clock is worked out once a minute, not once a row.
  const minute = Math.floor(at.getTime() / 60_000);
  if (wallClock?.zone !== personZone || wallClock.minute !== minute) wallClock = { zone: personZone, minute, parts: dueParts(nowIn(personZone, at)) };
  const wall = wallClock.parts;
  return wall === null ? at : new Date(wall.year, wall.month - 1, wall.day, wall.hour ?? 0, wall.minute ?? 0, at.getSeconds(), at.getMilliseconds());
}

/** The person's wall clock at one minute of one zone (see personNow). */
let wallClock: { zone: string; minute: number; parts: ReturnType<typeof dueParts> } | undefined;

/**
 * One formatter per locale and options, kept: building an Intl.DateTimeFormat (which every toLocale…String
 * call does) is the costly part of a row's date, and a long list renders rows as they scroll in
 * (docs/PERFORMANCE.md "Smooth on a phone").
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function formatted(date: Date, locale: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format.format(date);
}

/** The person's own day, `YYYY-MM-DD` (their time zone, PRODUCT §10.14): what a repeating task's next date counts from (§10.16). */
export function personToday(at: Date = new Date()): string {
  return personZone === undefined ? todayIn(browserTimeZone(), at) : todayIn(personZone, at);
}

/** The local Date a due date names: its day at its time, or at 00:00 for a day alone. */
export function dueDate(due: string): Date | null {
  const parts = dueParts(due);
  return parts === null ? null : new Date(parts.year, parts.month - 1, parts.day, parts.hour ?? 0, parts.minute ?? 0);
}

/** Whole days from today to `date`'s day (negative: before today), by the calendar, not by 24-hour steps. */
function daysFromToday(date: Date, now: Date): number {
  const day = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((day - today) / 86_400_000);
}

/** "Today", "Tomorrow 09:00", "Yesterday", "Fri 14 Mar", "Fri 14 Mar 2027 09:00". */
export function dueText(due: string, now: Date = personNow(), locale?: string): string {
  const date = dueDate(due);
  if (date === null) return due;
  const time = due.includes('T') ? ` ${formatted(date, locale, { hour: '2-digit', minute: '2-digit' })}` : '';
  const days = daysFromToday(date, now);
  if (days === 0) return `Today${time}`;
  if (days === 1) return `Tomorrow${time}`;
  if (days === -1) return `Yesterday${time}`;
  const sameYear = date.getFullYear() === now.getFullYear();
  return `${formatted(date, locale, { weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) })}${time}`;
}

/** Whether a task due at `due` is overdue at `now`: a day before today, or today at a time already past. */
export function isOverdue(due: string, now: Date = personNow()): boolean {
  const date = dueDate(due);
  if (date === null) return false;
  return due.includes('T') ? date.getTime() < now.getTime() : daysFromToday(date, now) < 0;
}

/** The full date (and time), for the tooltip: "Friday 11 December 2026 at 09:00". */
export function dueFull(due: string, locale?: string): string {
  const date = dueDate(due);
  return date === null ? due : formatted(date, locale, { dateStyle: 'full', ...(due.includes('T') ? { timeStyle: 'short' } : {}) });
}

/** "Repeats", "2 reminders", "Repeats · 1 reminder", or '' for neither (PRODUCT §10.16, §10.17): said beside a task's date. */
export function planText(todo: { repeat?: string; reminders?: readonly number[] }): string {
  const count = todo.reminders?.length ?? 0;
  return [todo.repeat === undefined ? '' : 'Repeats', count === 0 ? '' : `${count} reminder${count === 1 ? '' : 's'}`].filter(Boolean).join(' · ');
}
