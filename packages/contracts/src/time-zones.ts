// The person's calendar day and clock time in their time zone (docs/PRODUCT.md §10.14 "Dates"), in one
// dependency-free place like todo-dates.ts: a due date is a floating `YYYY-MM-DD[THH:mm]` in the person's own
// time zone (kept with the account, else the browser's; docs/PRODUCT.md §10.10), so "today" and "now" are read
// in that zone, never in UTC nor in the zone of the machine running the code. Intl's own time zone data, no
// date library.

/** Gregorian calendar, Latin digits, 24-hour clock: the parts of a due date whatever the runtime's locale. */
const PARTS_LOCALE = 'en-US-u-ca-gregory-nu-latn';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone, kept: building one is the costly part. Throws RangeError for a zone Intl does not know. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(PARTS_LOCALE, {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock parts of `now` in `timeZone`, each zero-padded as a due date writes it. */
function wallClock(timeZone: string, now: Date): { year: string; month: string; day: string; hour: string; minute: string } {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatterFor(timeZone).formatToParts(now)) parts[type] = value;
  const part = (type: Intl.DateTimeFormatPartTypes, width: number) => (parts[type] ?? '').padStart(width, '0');
  // h23 never says 24; a runtime that still wrote midnight as "24" is read as the 00 of that same day.
  const hour = part('hour', 2) === '24' ? '00' : part('hour', 2);
  return { year: part('year', 4), month: part('month', 2), day: part('day', 2), hour, minute: part('minute', 2) };
}

/**
 * The person's calendar day at `now` in `timeZone` (an IANA name, e.g. `Europe/Paris`), as a due date writes
 * it: `YYYY-MM-DD`. Throws RangeError for a time zone Intl does not know.
 */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const { year, month, day } = wallClock(timeZone, now);
  return `${year}-${month}-${day}`;
}

/**
 * The person's day and time of day at `now` in `timeZone`, to the minute, as a due date with a time writes
 * it: `YYYY-MM-DDTHH:mm` (24-hour). Across a change of the clocks it follows the zone's own clock: the hour
 * skipped in spring never appears, the hour repeated in autumn appears twice. Throws RangeError for a time
 * zone Intl does not know.
 */
export function nowIn(timeZone: string, now: Date = new Date()): string {
  const { year, month, day, hour, minute } = wallClock(timeZone, now);
  return `${year}-${month}-${day}T${hour}:${minute}`;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in ms (whole minutes: due dates have no seconds). */
function offsetAt(timeZone: string, instant: number): number {
  const { year, month, day, hour, minute } = wallClock(timeZone, new Date(instant));
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute));
  return wall - Math.floor(instant / MINUTE_MS) * MINUTE_MS;
}

/**
 * The instant at which the clock of `timeZone` reads the floating `YYYY-MM-DDTHH:mm` (`YYYY-MM-DD` alone: its
 * 00:00), the inverse of {@link nowIn} (docs/PRODUCT.md §10.14, §10.17). Across a change of the clocks it
 * answers as the ECMAScript Temporal proposal's `compatible` disambiguation and RFC 5545 do: a time the zone
 * repeats (autumn) is its first, earlier occurrence; a time the zone skips (spring) is moved forward by the
 * length of the skip (02:30 on a day 02:00 becomes 03:00 is 03:30). Throws RangeError for a time zone Intl does
 * not know or a text that is not a date of that form.
 */
export function instantIn(timeZone: string, floating: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(floating);
  if (!match) throw new RangeError(`Not a floating date and time: ${floating}`);
  const [, year, month, day, hour = '00', minute = '00'] = match;
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute));
  // The offsets in force a day either side cover every zone's single change of the clocks around `wall`.
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  const readsWall = (instant: number) => instant + offsetAt(timeZone, instant) === wall;
  const candidates = [wall - before, wall - after].filter(readsWall).sort((a, b) => a - b);
  // No candidate: the time falls in a skipped hour; the offset before the skip moves it past the skip.
  return new Date(candidates[0] ?? wall - before);
}
