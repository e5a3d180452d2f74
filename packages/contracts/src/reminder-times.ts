// When each reminder of a task comes (docs/PRODUCT.md §10.17), one rule for svc-todos' scheduler and the page,
// free of any schema library so a page's bundle takes it alone. A task's `reminders` are minutes before its due
// time (todos.ts `TodoReminders`); the due time is floating, on the person's own clock (§10.14), so the instant
// a reminder comes is read in the person's time zone with `instantIn`.
import { instantIn } from './time-zones.js';

/** The time of day a whole-day task's reminders count from (§10.17): "at the due time" of `2027-03-14` is 09:00 that day. */
export const WHOLE_DAY_REMINDER_TIME = '09:00';

/** The due time a task's reminders count from: its own time, or {@link WHOLE_DAY_REMINDER_TIME} for a whole day. */
export function reminderDueTime(due: string): string {
  return due.includes('T') ? due : `${due}T${WHOLE_DAY_REMINDER_TIME}`;
}

/**
 * When the reminder `minutes` before `due` comes, in `timeZone`: the instant the person's clock reads the due
 * time, less `minutes` of elapsed time (a reminder a day before a due time just after a change of the clocks
 * comes 24 hours before it). Throws RangeError for a time zone Intl does not know.
 */
export function reminderFireAt(due: string, minutes: number, timeZone: string): Date {
  return new Date(instantIn(timeZone, reminderDueTime(due)).getTime() - minutes * 60_000);
}

/** Which reminder of which occurrence of a task: the key that deduplicates it everywhere (store, queue, page, notification). */
export interface ReminderRef {
  todoId: string;
  /** The task's due date the reminder belongs to: a repeating task's next occurrence has other reminders. */
  due: string;
  minutes: number;
}

/** `<todoId>.<due>.<minutes>`: one reminder of one occurrence, the same on every process, replica and retry. */
export function reminderKey({ todoId, due, minutes }: ReminderRef): string {
  return `${todoId}.${due}.${minutes}`;
}

export interface PlannedReminder extends ReminderRef {
  fireAt: Date;
}

/** What of a task decides its reminders. */
export interface RemindedTask {
  _id: string;
  completed: boolean;
  due?: string;
  reminders?: number[];
}

/**
 * The reminders a task has (§10.17): one per entry of `reminders` for its current `due`, none for a task that
 * is completed or has no due date, soonest first. A deleted task has none (the caller has no task to pass).
 */
export function plannedReminders(task: RemindedTask, timeZone: string): PlannedReminder[] {
  const { due } = task;
  if (task.completed || due === undefined || !task.reminders?.length) return [];
  return task.reminders
    .map((minutes) => ({ todoId: task._id, due, minutes, fireAt: reminderFireAt(due, minutes, timeZone) }))
    .sort((a, b) => a.fireAt.getTime() - b.fireAt.getTime());
}

/** A reminder in words, for a notification's body and the page's notice: "Due Tomorrow 09:00", "In 15 minutes". */
export function reminderLead(minutes: number): string {
  if (minutes === 0) return 'Due now';
  if (minutes % (24 * 60) === 0) return `Due in ${minutes / (24 * 60)} day${minutes === 24 * 60 ? '' : 's'}`;
  if (minutes % 60 === 0) return `Due in ${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `Due in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
