// The calendar feed's rules (docs/PRODUCT.md §10.18): which tasks become events and how, as iCalendar text
// (RFC 5545) written by ical-generator. Plain functions over task records: no store, no HTTP, no clock.
//
// - Every open task with a due date is one event; tasks without a date and completed tasks are left out (a
//   calendar event has no "done" state Google Calendar or Apple Calendar show, and a done task would only
//   crowd the day). A repeating task stays open with its next date (§10.16), so it is always in.
// - A due day is an all-day event (DTSTART;VALUE=DATE), a due day and time a 30-minute event starting then.
//   Due dates are floating (§10.14: the person's own clock, no offset), and so are the events: "09:00" is
//   09:00 wherever the calendar is read. The feed names the account's zone (X-WR-TIMEZONE), which Google
//   Calendar reads floating times in.
// - A repeat is the event's RRULE; a repeat counted from completion keeps its RRULE (the schedule as if done
//   on the day) and says so in X-TM-REPEAT-FROM:COMPLETION.
// - Events are transparent (TRANSP:TRANSPARENT): a task does not make its owner busy.
// - UID `<task id>@task-manager`, stable for the task's life; DTSTAMP and LAST-MODIFIED are the task's
//   `updatedAt`, so the same tasks make the same text (the gateway's ETag).
import { ICalCalendar, ICalEventTransparency } from 'ical-generator';
import { dueParts } from '@tm/contracts';
import type { TodoRecord } from './todos.repository.js';

/** How long a timed task's event lasts. */
export const TIMED_EVENT_MINUTES = 30;

/** How often a calendar app is asked to fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL), in seconds. */
export const FEED_REFRESH_SECONDS = 15 * 60;

/** The feed's name in calendar apps (X-WR-CALNAME). */
export const FEED_NAME = 'Task Manager';

/** The property that marks a repeat counted from completion, and its value. */
export const REPEAT_FROM_PROPERTY = 'X-TM-REPEAT-FROM';
export const REPEAT_FROM_COMPLETION = 'COMPLETION';

/** A task's UID in every feed: stable, and unique across the app's tasks. */
export function eventUid(todoId: string): string {
  return `${todoId}@task-manager`;
}

/** Whether a task is in the feed: open, with a due date. */
export function inCalendarFeed(todo: TodoRecord): todo is TodoRecord & { due: string } {
  return todo.due !== undefined && !todo.completed;
}

/** A due date's wall-clock parts held in a Date as if they were UTC (floating time, written without `Z`). */
function floatingTime(due: string): { start: Date; allDay: boolean } {
  const parts = dueParts(due);
  if (parts === null) throw new RangeError(`Not a due date: ${due}`);
  const { year, month, day, hour, minute } = parts;
  return { start: new Date(Date.UTC(year, month - 1, day, hour ?? 0, minute ?? 0)), allDay: hour === null };
}

/**
 * A task's repeat as an RRULE value for its event: the rule as kept (without an `RRULE:` prefix), with an
 * UNTIL of the same kind as the event's start, as RFC 5545 asks: a day for an all-day event, a floating day
 * and time (its end of day when the rule gave a day) for a timed one.
 */
export function eventRule(repeat: string, allDay: boolean): string {
  const rule = repeat.startsWith('RRULE:') ? repeat.slice('RRULE:'.length) : repeat;
  return rule
    .split(';')
    .map((part) => {
      const until = /^UNTIL=(\d{8})(T\d{6}Z?)?$/.exec(part);
      if (!until) return part;
      const day = until[1] as string;
      if (allDay) return `UNTIL=${day}`;
      return `UNTIL=${day}${until[2]?.replace(/Z$/, '') ?? 'T235959'}`;
    })
    .join(';');
}

export interface CalendarFeedOptions {
  /** The account's IANA time zone, named in the feed (X-WR-TIMEZONE) when it has one. */
  timeZone?: string;
}

/** The feed of `todos` (a user's tasks; those not in the feed are left out) as iCalendar text. */
export function calendarFeedText(todos: readonly TodoRecord[], { timeZone }: CalendarFeedOptions = {}): string {
  const calendar = new ICalCalendar({
    prodId: { company: 'Task Manager', product: 'Task Manager', language: 'EN' },
    name: FEED_NAME,
    ttl: FEED_REFRESH_SECONDS,
    ...(timeZone === undefined ? {} : { x: [['X-WR-TIMEZONE', timeZone]] }),
  });
  for (const todo of todos.filter(inCalendarFeed)) {
    const { start, allDay } = floatingTime(todo.due);
    const event = calendar.createEvent({
      id: eventUid(todo._id),
      summary: todo.title,
      start,
      allDay,
      floating: true,
      ...(allDay ? {} : { end: new Date(start.getTime() + TIMED_EVENT_MINUTES * 60_000) }),
      stamp: new Date(todo.updatedAt),
      created: new Date(todo.createdAt),
      lastModified: new Date(todo.updatedAt),
      transparency: ICalEventTransparency.TRANSPARENT,
      ...(todo.repeat === undefined ? {} : { repeating: eventRule(todo.repeat, allDay) }),
    });
    if (todo.repeat !== undefined && todo.repeatFrom === 'completion') event.x(REPEAT_FROM_PROPERTY, REPEAT_FROM_COMPLETION);
  }
  return calendar.toString();
}
