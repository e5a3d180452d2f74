// Repeating tasks (docs/PRODUCT.md §10.16): the rule of a repeat and of completing one, in one place that the
// service's domain and the device's sync engine both call, so a repeating task moves to the same next date
// on the screen (at once, offline too) and on the server.
//
// A repeat is an RFC 5545 recurrence rule (the RRULE value, e.g. `FREQ=WEEKLY;BYDAY=MO,TH`), expanded by the
// rrule library over the task's due date. Due dates are floating (todo-dates.ts: a day and time on the
// person's own clock, no offset), so the rule is expanded on floating times too: each is held in a Date as
// if it were UTC, the way rrule's documentation asks for times without a zone. "Every day at 09:00" is then
// 09:00 on the person's clock every day, before and after a daylight-saving change, and a month's last day
// is the calendar's own.
//
// Imported as `@tm/contracts/repeat` (it carries rrule): the index the first load imports stays without it.

import { RRule, type Options } from 'rrule';
import { applyPatch, type Patchable, type PatchOf } from './todo-changes.js';
import { dueParts, DUE_YEARS } from './todo-dates.js';

/** From when a repeat counts (§10.16): the schedule of its due dates, or the day it was last completed. */
export const REPEAT_FROM = ['due', 'completion'] as const;
export type RepeatFrom = (typeof REPEAT_FROM)[number];

/** The longest rule text accepted (the longest sensible rules, every BY part spelled out, stay far below it). */
export const REPEAT_RULE_MAX = 300;

/** How many past completions a repeating task keeps (§10.16): over a year of a daily task, for Insights. */
export const REPEAT_DONE_KEPT = 400;

/** The number of coming dates a preview shows before the person saves a repeat (§10.16). */
export const REPEAT_PREVIEW = 5;

export const REPEAT_MESSAGES = {
  invalid: 'Enter a repeat rule as RFC 5545 writes one, e.g. FREQ=WEEKLY;BYDAY=MO.',
  tooLong: `A repeat rule has at most ${REPEAT_RULE_MAX} characters.`,
  noFreq: 'A repeat rule needs FREQ (DAILY, WEEKLY, MONTHLY, YEARLY…).',
  tooOften: 'A task can repeat at most once a minute.',
  seconds: 'A repeat is to the minute: leave BYSECOND out.',
  unsupported: 'BYYEARDAY and BYWEEKNO are not taken: say the days with BYMONTH, BYMONTHDAY and BYDAY.',
  daysOfMonth: 'BYMONTH, BYMONTHDAY and BYSETPOS go with FREQ=MONTHLY or FREQ=YEARLY.',
  setpos: 'BYSETPOS picks among weekdays (BYDAY without numbers), not among days of the month.',
  range: 'A value of the repeat rule is out of its range (RFC 5545 §3.3.10).',
  dtstart: 'A repeat starts from the task’s due date: leave DTSTART out of the rule.',
  count: 'A repeat may end on a date (UNTIL), not after a number of times (COUNT).',
  never: 'This repeat never falls after the task’s due date.',
  needsDue: 'A repeating task needs a due date.',
} as const;

const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const FREQS = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY'] as const;
const ints = (value: string) => value.split(',').map(Number);
/** Each value in [min, max], and not 0 when `nonZero` (RFC 5545 §3.3.10's ranges; a minus counts from the end). */
const within = (min: number, max: number, nonZero = false) => (value: string) =>
  /^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/.test(value) && ints(value).every((n) => n >= min && n <= max && (!nonZero || n !== 0));
const BYDAY_ITEM = /^([+-]?)(\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;

/**
 * The parts we take and what each may hold (RFC 5545 §3.3.10). Parts that select days of a year by number
 * (BYYEARDAY, BYWEEKNO) and seconds are refused: a due date is to the minute, and without them whether a
 * rule can ever fall is known from the rule alone ({@link fallsSometime}), never by expanding it for ever.
 */
const VALUES: Record<string, (value: string) => boolean> = {
  FREQ: (value) => (FREQS as readonly string[]).includes(value),
  INTERVAL: (value) => /^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= 1000,
  UNTIL: (value) => /^\d{8}(T\d{6}Z?)?$/.test(value),
  BYMINUTE: within(0, 59),
  BYHOUR: within(0, 23),
  BYDAY: (value) => value.split(',').every((item) => BYDAY_ITEM.test(item) && Number(BYDAY_ITEM.exec(item)?.[2] ?? 1) >= 1 && Number(BYDAY_ITEM.exec(item)?.[2] ?? 1) <= 53),
  BYMONTHDAY: within(-31, 31, true),
  BYMONTH: within(1, 12),
  BYSETPOS: within(-366, 366, true),
  WKST: (value) => (WEEKDAY_CODES as readonly string[]).includes(value),
};

/** Days in `month` (1–12) at most: 29 for February, which some years have. */
const longest = (month: number) => [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Whether a rule of these parts falls on some date, from the rule alone (rrule, expanding a rule that never
 * falls, runs to the year 9999 before it gives up). `start` is the due date it counts from. Months: those
 * BYMONTH names, among those a monthly INTERVAL reaches from the start; a day of the month must exist in one
 * of them; BYSETPOS must not ask for more weekdays than a period can hold; weekdays a daily or shorter rule
 * names must be reached by its steps (checked over one week of them). Everything else a rule can say falls
 * somewhere in every 400 years of the calendar.
 */
function fallsSometime(parts: Map<string, string>, start: Date): boolean {
  const freq = parts.get('FREQ') as (typeof FREQS)[number];
  const interval = Number(parts.get('INTERVAL') ?? '1');
  const byMonth = parts.has('BYMONTH') ? ints(parts.get('BYMONTH') as string) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const reached = freq === 'MONTHLY' ? byMonth.filter((month) => (month - 1 - start.getUTCMonth() + 1200) % gcd(interval, 12) === 0) : byMonth;
  if (reached.length === 0) return false;
  if (parts.has('BYMONTHDAY') && !ints(parts.get('BYMONTHDAY') as string).some((day) => reached.some((month) => Math.abs(day) <= longest(month)))) return false;
  const days = (parts.get('BYDAY') ?? '').split(',').filter(Boolean);
  if (parts.has('BYSETPOS')) {
    const times = (parts.has('BYHOUR') ? ints(parts.get('BYHOUR') as string).length : 1) * (parts.has('BYMINUTE') ? ints(parts.get('BYMINUTE') as string).length : 1);
    const perPeriod = freq === 'YEARLY' && !parts.has('BYMONTH') ? 53 : 5 * (freq === 'YEARLY' ? reached.length : 1);
    if (ints(parts.get('BYSETPOS') as string).every((position) => Math.abs(position) > perPeriod * days.length * times)) return false;
  }
  if (freq === 'DAILY' || freq === 'HOURLY' || freq === 'MINUTELY') {
    // One week of steps, in minutes from the start's Monday 00:00: does a step land on a named weekday (and,
    // for the shorter steps, a named hour and minute, which they filter rather than add)?
    const step = interval * { DAILY: 1440, HOURLY: 60, MINUTELY: 1 }[freq];
    const week = 7 * 1440;
    const weekdays = days.map((day) => WEEKDAY_CODES.indexOf(day as (typeof WEEKDAY_CODES)[number]));
    const hours = freq === 'DAILY' || !parts.has('BYHOUR') ? null : ints(parts.get('BYHOUR') as string);
    const minutes = freq !== 'MINUTELY' || !parts.has('BYMINUTE') ? null : ints(parts.get('BYMINUTE') as string);
    const first = ((start.getUTCDay() + 6) % 7) * 1440 + start.getUTCHours() * 60 + start.getUTCMinutes();
    for (let n = 0; n < week / gcd(step, week); n += 1) {
      const at = (first + n * step) % week;
      const [weekday, hour, minute] = [Math.floor(at / 1440), Math.floor((at % 1440) / 60), at % 60];
      if ((weekdays.length === 0 || weekdays.includes(weekday)) && (hours === null || hours.includes(hour)) && (minutes === null || minutes.includes(minute))) return true;
    }
    return false;
  }
  return true;
}

/** The parts of `rule` by name, or the reason they are not parts we take. */
function partsOf(rule: string): Map<string, string> | string {
  if (rule.length > REPEAT_RULE_MAX) return REPEAT_MESSAGES.tooLong;
  const body = rule.startsWith('RRULE:') ? rule.slice('RRULE:'.length) : rule;
  if (/DTSTART/i.test(body)) return REPEAT_MESSAGES.dtstart;
  const pairs = body.split(';').map((part) => part.split('='));
  if (body === '' || pairs.some((pair) => pair.length !== 2 || !/^[A-Z]+$/.test(pair[0] as string))) return REPEAT_MESSAGES.invalid;
  const parts = new Map(pairs as [string, string][]);
  if (parts.size !== pairs.length) return REPEAT_MESSAGES.invalid;
  if (parts.has('COUNT')) return REPEAT_MESSAGES.count;
  if (parts.get('FREQ') === 'SECONDLY') return REPEAT_MESSAGES.tooOften;
  if (parts.has('BYSECOND')) return (parts.get('BYSECOND') ?? '').includes(',') ? REPEAT_MESSAGES.tooOften : REPEAT_MESSAGES.seconds;
  if (parts.has('BYYEARDAY') || parts.has('BYWEEKNO')) return REPEAT_MESSAGES.unsupported;
  for (const [name, value] of parts) {
    const check = VALUES[name];
    if (check === undefined) return REPEAT_MESSAGES.invalid;
    // Numbers outside their range are said as such; anything else is no rule.
    if (!check(value)) return name.startsWith('BY') && /^[+-]?\d+(,[+-]?\d+)*$/.test(value) ? REPEAT_MESSAGES.range : REPEAT_MESSAGES.invalid;
  }
  if (!parts.has('FREQ')) return REPEAT_MESSAGES.noFreq;
  const freq = parts.get('FREQ');
  const monthly = freq === 'MONTHLY' || freq === 'YEARLY';
  if (!monthly && (parts.has('BYMONTH') || parts.has('BYMONTHDAY') || parts.has('BYSETPOS'))) return REPEAT_MESSAGES.daysOfMonth;
  const ordinals = (parts.get('BYDAY') ?? '').split(',').flatMap((item) => (/\d/.test(item) ? [Math.abs(parseInt(item, 10))] : []));
  // A numbered weekday ("the 2nd Tuesday") is a month's (up to its 5th) or a year's (up to its 53rd), and only
  // in a monthly or yearly rule (RFC 5545 §3.3.10).
  if (ordinals.length > 0 && !monthly) return REPEAT_MESSAGES.invalid;
  if ((freq === 'MONTHLY' || parts.has('BYMONTH')) && ordinals.some((n) => n > 5)) return REPEAT_MESSAGES.range;
  const numbered = ordinals.length > 0;
  if (parts.has('BYSETPOS') && (numbered || !parts.has('BYDAY') || parts.has('BYMONTHDAY'))) return REPEAT_MESSAGES.setpos;
  return parts;
}

/** The parsed options of `rule`, with its parts, or the reason it is not one we keep. */
function parse(rule: string): { options: Partial<Options>; parts: Map<string, string> } | { problem: string } {
  const parts = partsOf(rule);
  if (typeof parts === 'string') return { problem: parts };
  try {
    const options = RRule.parseString([...parts].map(([name, value]) => `${name}=${value}`).join(';'));
    new RRule({ ...options, dtstart: new Date(Date.UTC(2000, 0, 1)) });
    return { options, parts };
  } catch {
    return { problem: REPEAT_MESSAGES.invalid };
  }
}

/** Why `rule` is not a repeat rule we keep, or null when it is one (§10.16). */
export function repeatRuleProblem(rule: string): string | null {
  const parsed = parse(rule);
  return 'problem' in parsed ? parsed.problem : null;
}

/** A due date as a floating time: its wall-clock parts in a Date read as UTC. */
function floating(due: string): Date {
  const parts = dueParts(due);
  if (parts === null) throw new RangeError(`Not a due date: ${due}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour ?? 0, parts.minute ?? 0));
}

/** A floating time back as a due date, with a time of day when `timed`. */
function dueOf(time: Date, timed: boolean): string {
  const day = time.toISOString().slice(0, 10);
  return timed ? `${day}T${time.toISOString().slice(11, 16)}` : day;
}

const timedDue = (due: string): boolean => due.length > 10;

/**
 * The most dates one expansion walks (a due date's schedule up to today): a task far behind a short rule is
 * counted from today beyond it, so no request costs more than this many steps of the rule.
 */
const WALK_MAX = 10_000;

/** The day `days` after `day` (`YYYY-MM-DD`), by the calendar. */
const addDay = (day: string, days: number): string => new Date(floating(day).getTime() + days * 86_400_000).toISOString().slice(0, 10);

/** The last time a due date may have (DUE_YEARS): nothing is expanded beyond it. */
const LAST = new Date(Date.UTC(DUE_YEARS.max, 11, 31, 23, 59));

/**
 * The rule of `rule` anchored at `start` (a due date): its occurrences keep `start`'s time of day unless the
 * rule names hours or minutes of its own.
 */
function ruleFrom(rule: string, start: string): RRule | null {
  const parsed = parse(rule);
  if ('problem' in parsed || !fallsSometime(parsed.parts, floating(start))) return null;
  return new RRule({ ...parsed.options, dtstart: floating(start) });
}

/**
 * The due dates `rule` gives after `due` (not `due` itself), at most `count` of them, as due dates of the
 * same kind (a day, or a day and time). Fewer when the rule ends (UNTIL) or would pass the last year a due
 * date may have.
 */
export function repeatDates(due: string, rule: string, count: number = REPEAT_PREVIEW): string[] {
  const recurrence = ruleFrom(rule, due);
  if (recurrence === null) return [];
  const dates: string[] = [];
  // Compared as due dates, not times: a rule more often than the due date says (hourly, for a whole day) gives
  // its next day, never the same date again.
  recurrence.all((time, index) => {
    if (time > LAST || index > WALK_MAX) return false;
    const date = dueOf(time, timedDue(due));
    if (date > due && date !== dates.at(-1)) dates.push(date);
    return dates.length < count;
  });
  return dates;
}

/** Why `rule` cannot repeat a task due at `due`, or null when it can: it must be a rule, and fall after `due`. */
export function repeatProblem(rule: string, due: string | undefined): string | null {
  const problem = repeatRuleProblem(rule);
  if (problem !== null) return problem;
  if (due === undefined) return REPEAT_MESSAGES.needsDue;
  return repeatDates(due, rule, 1).length === 0 ? REPEAT_MESSAGES.never : null;
}

/** What a repeat needs of a task. */
export interface Repeating {
  due?: string;
  repeat?: string;
  repeatFrom?: RepeatFrom;
}

/**
 * The next due date of a repeating task completed on `today` (the person's own day, `YYYY-MM-DD`), or null
 * when the repeat has ended (its UNTIL passed) or the task does not repeat (§10.16):
 * - from its due date (the schedule): the rule's first date after the due date that is not before `today`,
 *   so completing a task long overdue brings it to its next date, not to a date already past;
 * - from completion: the rule's first date after `today`, counted from `today` (every 3 days from the day it
 *   was done), at the due date's time of day.
 */
export function nextDue(task: Repeating, today: string): string | null {
  const { due, repeat } = task;
  if (due === undefined || repeat === undefined) return null;
  if (task.repeatFrom === 'completion') {
    const start = timedDue(due) ? `${today}${due.slice(10)}` : today;
    return repeatDates(start, repeat, 1)[0] ?? null;
  }
  const recurrence = ruleFrom(repeat, due);
  if (recurrence === null) return null;
  let next: string | null = null;
  let walked = false;
  recurrence.all((time, index) => {
    if (time > LAST) return false;
    if (index > WALK_MAX) {
      walked = true;
      return false;
    }
    const date = dueOf(time, timedDue(due));
    if (date > due && date.slice(0, 10) >= today) {
      next = date;
      return false;
    }
    return true;
  });
  // Further behind than WALK_MAX dates (a task due every minute, left for weeks): counted from today instead.
  if (walked) return repeatDates(`${addDay(today, -1)}${due.slice(10)}`, repeat, 1)[0] ?? null;
  return next;
}

/**
 * `task` completed at `at` (ISO) on the person's day `today`: a repeating task with a next date stays open,
 * moved to that date, its completion kept in `repeatDone` (newest last, at most REPEAT_DONE_KEPT) for
 * Insights; any other task (no repeat, or a repeat that has ended) is completed as any task is. `updatedAt`
 * is `at`.
 */
export function completeRepeating<T extends Repeating & { completed: boolean; completedAt: string | null; updatedAt: string; repeatDone?: string[] }>(
  task: T,
  at: string,
  today: string,
): T | null {
  const next = nextDue(task, today);
  if (next === null) return null;
  const repeatDone = [...(task.repeatDone ?? []), at].slice(-REPEAT_DONE_KEPT);
  return { ...task, due: next, completed: false, completedAt: null, updatedAt: at, repeatDone };
}

/**
 * `task` with `patch` applied at `at` as the server applies it and as the device shows it first (§10.4,
 * §10.16): applyPatch of todo-changes.ts, and a tick of a repeating task (`completed` set true on an open
 * task that repeats once the patch is applied) completes the occurrence ({@link completeRepeating}) instead.
 * `today` is the person's day when they acted; without it, the UTC day of `at`.
 */
export function applyTaskPatch<T extends Patchable & { repeatDone?: string[] }>(task: T, patch: PatchOf, at: string, today: string = at.slice(0, 10)): T {
  const applied = applyPatch(task, patch, at);
  if (patch.completed !== true || task.completed) return applied;
  return completeRepeating({ ...applied, completed: false, completedAt: null }, at, today) ?? applied;
}
