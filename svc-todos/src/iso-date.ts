const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there on (and before 1970) the ISO text takes another shape. */
const YEAR_10000_MS = 253_402_300_800_000;
const MAX_CACHED_DAYS = 10_000;
const dayPrefixes = new Map<number, string>();

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, about four times faster for the dates a task list holds (the
 * server path: turning a 1 000-task list's 2 000 stored times into text took 0.9 ms of its 2.5 ms). The
 * calendar part comes from the engine once per day and is kept; the time of day is plain arithmetic.
 */
export function isoDate(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= MAX_CACHED_DAYS) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}Z`;
}
