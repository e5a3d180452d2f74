// A task's due date (docs/PRODUCT.md §10.14 "Dates"), in one dependency-free place like todo-title.ts: the
// browser checks a date with it before sending, and the service's schemas apply the very same function.
//
// A due date is the person's own calendar day, with a time of day when they gave one, as they would write it
// on paper: `2026-03-14` or `2026-03-14T09:00`. It carries no offset: it is a day and time in the person's
// time zone (kept with the account), so "Friday 09:00" stays Friday 09:00 when the clocks change.

/** A day, or a day and a time of day (24-hour, minutes). */
export const DUE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

/** The first and last years a due date may have: far enough for any plan, near enough to be a real one. */
export const DUE_YEARS = { min: 1970, max: 2999 } as const;

/** Shown for anything that is not a real day (or day and time) in the form above. */
export const DUE_INVALID_MESSAGE = 'Enter a real date as YYYY-MM-DD, or a date and time as YYYY-MM-DDTHH:mm.';

/** The parts of a due date, or null when `value` is not a real one (no 30 February, no 24:00). */
export function dueParts(value: string): { year: number; month: number; day: number; hour: number | null; minute: number | null } | null {
  const match = DUE_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const hour = match[4] === undefined ? null : Number(match[4]);
  const minute = match[5] === undefined ? null : Number(match[5]);
  if (year < DUE_YEARS.min || year > DUE_YEARS.max || month < 1 || month > 12 || day < 1) return null;
  // The month's last day from the calendar itself (Date.UTC's day 0 of the next month), leap years included.
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (hour !== null && (hour > 23 || minute === null || minute > 59)) return null;
  return { year, month, day, hour, minute };
}

/** Why `value` is not a due date, or null when it is one. */
export function dueProblem(value: string): string | null {
  return dueParts(value) === null ? DUE_INVALID_MESSAGE : null;
}
