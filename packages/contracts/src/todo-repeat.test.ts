import { RRule } from 'rrule';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import {
  applyTaskPatch,
  completeRepeating,
  nextDue,
  REPEAT_DONE_KEPT,
  REPEAT_MESSAGES,
  REPEAT_RULE_MAX,
  repeatDates,
  repeatProblem,
  repeatRuleProblem,
  type Repeating,
} from './todo-repeat.js';
import type { Patchable, PatchOf } from './todo-changes.js';

// Repeating tasks (docs/PRODUCT.md §10.16): the rule of a repeat and of completing one, shared by the service
// and the device. Due dates are floating (§10.14: a day, or a day and time, on the person's own clock), so a
// rule is expanded on floating times: these tests hold our expansion to the rrule library's own, over a
// generated set of rules, and to rrule's time-zone expansion in zones with daylight-saving changes.

/** A seeded source in [0, 1) (pure-rand): the generated rules are the same on every run. */
function seeded(seed: number): () => number {
  const rng = xoroshiro128plus(seed);
  return () => uniformFloat64(rng);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const timed = (due: string) => due.length > 10;

/** A due date as rrule wants a time without a zone: its wall-clock parts in a Date read as UTC (rrule README, "Timezone Support"). */
function floatingOf(due: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(due);
  if (match === null) throw new RangeError(due);
  const [year, month, day, hour, minute] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number];
  return new Date(Date.UTC(year, month - 1, day, hour, minute));
}

/** A floating time of rrule's back as a due date, with a time of day when `withTime`. */
function dueOfFloating(time: Date, withTime: boolean): string {
  const iso = time.toISOString();
  return withTime ? `${iso.slice(0, 10)}T${iso.slice(11, 16)}` : iso.slice(0, 10);
}

const optionsOf = (rule: string) => RRule.parseString(rule.replace(/^RRULE:/, ''));

/** The library's own expansion of `rule` over `due`: the first `count` dates after the due date, as due dates. */
function libraryDates(due: string, rule: string, count: number): string[] {
  const dtstart = floatingOf(due);
  const all = new RRule({ ...optionsOf(rule), dtstart }).all((_, index) => index <= count);
  return all.filter((time) => time > dtstart).slice(0, count).map((time) => dueOfFloating(time, timed(due)));
}

/** The library's next date of `rule` over `due` that is after the due date and not on a day before `today` (§10.16, from the schedule). */
function libraryNextFromSchedule(due: string, rule: string, today: string): string | null {
  const dtstart = floatingOf(due);
  const notBefore = floatingOf(today).getTime() - 1;
  const next = new RRule({ ...optionsOf(rule), dtstart }).after(new Date(Math.max(dtstart.getTime(), notBefore)), false);
  return next === null ? null : dueOfFloating(next, timed(due));
}

/** The library's next date of `rule` counted from `today` at the due date's time of day (§10.16, from completion). */
function libraryNextFromCompletion(due: string, rule: string, today: string): string | null {
  const start = floatingOf(timed(due) ? `${today}${due.slice(10)}` : today);
  const next = new RRule({ ...optionsOf(rule), dtstart: start }).after(start, false);
  return next === null ? null : dueOfFloating(next, timed(due));
}

/** The chain of ticks of a task repeating from its schedule, each done on the day it was due: nextDue after nextDue. */
function chainOfTicks(due: string, rule: string, count: number): string[] {
  const chain: string[] = [];
  let current = due;
  while (chain.length < count) {
    const next = nextDue({ due: current, repeat: rule }, current.slice(0, 10));
    if (next === null) break;
    chain.push(next);
    current = next;
  }
  return chain;
}

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const LEAP_YEARS = [2000, 2004, 2008, 2012, 2016, 2020, 2024, 2028, 2032, 2036, 2040];
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** One generated case: a rule and the due date it repeats over. */
interface GeneratedRule {
  rule: string;
  due: string;
  /** A day on which the task is completed, on or after the due date's day (up to about a year later). */
  today: string;
}

/**
 * `count` rules the way people write them (§10.16): every frequency (some hourly, on a due date with a time),
 * intervals 1–4, weekday sets and the weekdays, month days with the 31st, the 29th and the last (-1), "the
 * last Friday" (BYSETPOS with BYDAY), months, an UNTIL now and then; due dates over 1999–2040 with 29 February
 * and month ends among them, with and without a time of day.
 */
function generateRules(count: number, seed: number): GeneratedRule[] {
  const random = seeded(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(values: readonly T[]): T => values[int(0, values.length - 1)] as T;
  const some = <T>(values: readonly T[]): T[] => {
    const chosen = values.filter(() => random() < 0.4);
    return chosen.length > 0 ? chosen : [pick(values)];
  };
  const cases: GeneratedRule[] = [];
  for (let index = 0; index < count; index += 1) {
    const freq = pick(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'HOURLY'] as const);
    // The due date: a leap day, a month's end, or any day.
    const kind = random();
    const year = kind < 0.15 ? pick(LEAP_YEARS) : int(1999, 2040);
    const month = kind < 0.15 ? 2 : int(1, 12);
    const day = kind < 0.15 ? 29 : kind < 0.4 ? daysIn(year, month) : int(1, daysIn(year, month));
    const withTime = freq === 'HOURLY' || random() < 0.5;
    const date = `${year}-${pad(month)}-${pad(day)}`;
    const due = withTime ? `${date}T${pad(int(0, 23))}:${pad(pick([0, 5, 15, 30, 45, int(0, 59)]))}` : date;
    const parts = [`FREQ=${freq}`];
    const interval = int(1, 4);
    if (interval > 1 || random() < 0.2) parts.push(`INTERVAL=${interval}`);
    if (freq === 'WEEKLY' && random() < 0.8) parts.push(`BYDAY=${(random() < 0.25 ? WEEKDAYS.slice(0, 5) : some(WEEKDAYS)).join(',')}`);
    if ((freq === 'DAILY' || freq === 'HOURLY') && random() < 0.3) parts.push(`BYDAY=${WEEKDAYS.slice(0, 5).join(',')}`);
    if (freq === 'MONTHLY') {
      const form = random();
      if (form < 0.45) parts.push(`BYMONTHDAY=${some([1, 15, 28, 29, 30, 31, -1]).join(',')}`);
      else if (form < 0.6) parts.push('BYDAY=FR', 'BYSETPOS=-1');
      else if (form < 0.7) parts.push(`BYDAY=${WEEKDAYS.slice(0, 5).join(',')}`, 'BYSETPOS=-1');
      else if (form < 0.8) parts.push(`BYDAY=${pick(['1MO', '2TU', '-1SU', '3TH'])}`);
    }
    if (freq === 'YEARLY') {
      const form = random();
      // A month with 31 days is among those named, so a month day always falls somewhere.
      const months = [pick([1, 3, 5, 7, 8, 10, 12]), ...(random() < 0.4 ? [int(1, 12)] : [])];
      if (form < 0.35) parts.push(`BYMONTH=${[...new Set(months)].sort((a, b) => a - b).join(',')}`, `BYMONTHDAY=${pick([1, 29, 30, 31, -1])}`);
      else if (form < 0.5) parts.push(`BYMONTH=${pick([2, 3, 10, 11])}`, 'BYDAY=FR', 'BYSETPOS=-1');
      else if (form < 0.6) parts.push('BYMONTH=2', 'BYMONTHDAY=29');
    }
    if (random() < 0.25) {
      const until = new Date(floatingOf(date).getTime() + int(1, 1500) * 86_400_000);
      const untilDay = `${until.getUTCFullYear()}${pad(until.getUTCMonth() + 1)}${pad(until.getUTCDate())}`;
      // Whole-day: a date (the due date's type, RFC 5545); with a time: a date-time, sometimes on the due time itself.
      parts.push(`UNTIL=${withTime ? `${untilDay}T${random() < 0.5 ? '235959' : `${due.slice(11, 13)}${due.slice(14, 16)}00`}Z` : untilDay}`);
    }
    const shuffled = parts.length > 2 && random() < 0.3 ? [...parts.slice(1), parts[0]] : parts;
    const rule = `${random() < 0.2 ? 'RRULE:' : ''}${shuffled.join(';')}`;
    // An hourly task is done within weeks (a year of hours is a long walk for the library and for us alike).
    const today = dueOfFloating(new Date(floatingOf(date).getTime() + int(0, freq === 'HOURLY' ? 20 : 400) * 86_400_000), false);
    cases.push({ rule, due, today });
  }
  return cases;
}

describe('expansion, held to the rrule library over generated rules', () => {
  const cases = generateRules(600, 20270328);

  it('generates a varied, deterministic set: every frequency, leap days, month ends, times, UNTIL', () => {
    expect(generateRules(600, 20270328)).toEqual(cases);
    const rules = cases.map((generated) => generated.rule);
    for (const freq of ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'HOURLY']) expect(rules.filter((rule) => rule.includes(`FREQ=${freq}`)).length).toBeGreaterThan(20);
    for (const part of ['BYDAY=MO,TU,WE,TH,FR', 'BYMONTHDAY=', '31', '-1', 'BYSETPOS=-1', 'BYMONTH=', 'UNTIL=', 'INTERVAL=4', 'RRULE:']) {
      expect([part, rules.some((rule) => rule.includes(part))]).toEqual([part, true]);
    }
    expect(cases.filter(({ due }) => due.slice(5, 10) === '02-29').length).toBeGreaterThan(20);
    expect(cases.filter(({ due }) => timed(due)).length).toBeGreaterThan(200);
    expect(cases.filter(({ due }) => !timed(due)).length).toBeGreaterThan(200);
    expect(new Set(cases.map(({ due }) => due.slice(0, 4))).size).toBeGreaterThan(35);
    // Every one is a rule we keep.
    expect(cases.filter(({ rule }) => repeatRuleProblem(rule) !== null)).toEqual([]);
  });

  it('repeatDates and a chain of ticks (from the schedule, each on its due day) give the library’s own dates', () => {
    const mismatches = cases.flatMap(({ rule, due }) => {
      const library = libraryDates(due, rule, 10);
      const dates = repeatDates(due, rule, 10);
      const chain = chainOfTicks(due, rule, 10);
      return dates.join() === library.join() && chain.join() === library.join() ? [] : [{ rule, due, library, dates, chain }];
    });
    expect(mismatches).toEqual([]);
    // Not vacuous: nearly every rule gives ten dates, and the dates keep the due date's kind.
    const expanded = cases.map(({ rule, due }) => repeatDates(due, rule, 10));
    expect(expanded.filter((dates) => dates.length === 10).length).toBeGreaterThan(400);
    expect(cases.filter(({ due }, index) => !expanded[index]?.every((date) => timed(date) === timed(due) && date > due))).toEqual([]);
  });

  it('nextDue on a later day: from the schedule, the library’s first date after the due date not before today; from completion, counted from today', () => {
    const mismatches = cases.flatMap(({ rule, due, today }) => {
      const schedule = nextDue({ due, repeat: rule, repeatFrom: 'due' }, today);
      const completion = nextDue({ due, repeat: rule, repeatFrom: 'completion' }, today);
      const expected = { schedule: libraryNextFromSchedule(due, rule, today), completion: libraryNextFromCompletion(due, rule, today) };
      return schedule === expected.schedule && completion === expected.completion ? [] : [{ rule, due, today, schedule, completion, expected }];
    });
    expect(mismatches).toEqual([]);
    // Not vacuous: most have a next date, those with UNTIL passed have none.
    expect(cases.filter(({ rule, due, today }) => nextDue({ due, repeat: rule }, today) !== null).length).toBeGreaterThan(450);
    expect(cases.filter(({ rule, due, today }) => nextDue({ due, repeat: rule }, today) === null).length).toBeGreaterThan(10);
  });
});

describe('time zones: a floating time keeps its wall-clock time across daylight-saving changes', () => {
  /** Zones with daylight saving in both hemispheres, one with half-hour offsets and none, and Chile's midnight changes. */
  const ZONES = ['Europe/Paris', 'America/New_York', 'Australia/Sydney', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Auckland', 'Europe/London'] as const;

  /** The wall-clock time of `instant` in `timeZone`, as a due date with a time. */
  function wallClock(instant: Date, timeZone: string): string {
    const format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
    return `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}T${parts.hour ?? ''}:${parts.minute ?? ''}`;
  }

  /**
   * rrule's expansion of `rule` with `tzid: timeZone`, as instants. rrule's README ("Timezone Support"): a
   * result with a TZID is the same moment shown as the system's local time, its UTC fields holding that local
   * wall clock; the moment is those fields read back on the local clock.
   */
  function zonedInstants(due: string, rule: string, timeZone: string, until: string): Date[] {
    const dtstart = floatingOf(due);
    const results = new RRule({ ...optionsOf(rule), dtstart, tzid: timeZone }).between(new Date(dtstart.getTime() - 2 * 86_400_000), floatingOf(until), true);
    return results.map((local) => new Date(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds()));
  }

  const DAILY_FROM = '2026-12-01T09:00';
  const UNTIL = '2028-01-01';

  it.each(ZONES)('%s: every occurrence of a rule with a time of day is the same wall-clock time as our floating one', (zone) => {
    for (const [due, rule] of [
      [DAILY_FROM, 'FREQ=DAILY'],
      ['2026-12-06T12:30', 'FREQ=WEEKLY;BYDAY=SU'],
      ['2026-12-27T09:45', 'FREQ=MONTHLY;BYDAY=-1SU'],
      ['2026-12-04T13:15', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR,SA,SU'],
    ] as const) {
      const ours = repeatDates(due, rule, 500).filter((date) => date < UNTIL);
      const zoned = zonedInstants(due, rule, zone, UNTIL).map((instant) => wallClock(instant, zone)).filter((date) => date > due && date < UNTIL);
      expect({ rule, zoned }).toEqual({ rule, zoned: ours });
      expect(new Set(ours.map((date) => date.slice(10)))).toEqual(new Set([due.slice(10)]));
    }
  });

  /** The days of 2027 on which the zone's clocks change: where two daily 09:00 occurrences are not 24 hours apart. */
  function changeDays(zone: string): string[] {
    const instants = zonedInstants(DAILY_FROM, 'FREQ=DAILY', zone, UNTIL);
    return instants.flatMap((instant, index) => {
      const previous = instants[index - 1];
      return previous !== undefined && instant.getTime() - previous.getTime() !== 86_400_000 && instant.getUTCFullYear() === 2027 ? [wallClock(instant, zone)] : [];
    });
  }

  it.each([
    ['Europe/Paris', ['2027-03-28T09:00', '2027-10-31T09:00']],
    ['Europe/London', ['2027-03-28T09:00', '2027-10-31T09:00']],
    ['America/New_York', ['2027-03-14T09:00', '2027-11-07T09:00']],
    ['Australia/Sydney', ['2027-04-04T09:00', '2027-10-03T09:00']],
    ['Pacific/Auckland', ['2027-04-04T09:00', '2027-09-26T09:00']],
    ['Asia/Kolkata', []],
  ] as const)('%s: the days the clocks change are in the daily series at 09:00, an hour apart from the day before', (zone, days) => {
    expect(changeDays(zone)).toEqual(days);
    const ours = repeatDates(DAILY_FROM, 'FREQ=DAILY', 500);
    for (const day of days) expect(ours).toContain(day);
  });

  it('America/Santiago changes at midnight: its two change days of 2027 are in the series at 09:00 too', () => {
    const days = changeDays('America/Santiago');
    expect(days).toHaveLength(2);
    const ours = repeatDates(DAILY_FROM, 'FREQ=DAILY', 500);
    expect(days.every((day) => day.endsWith('T09:00') && ours.includes(day))).toBe(true);
  });
});

describe('month ends (RFC 5545)', () => {
  it('monthly on the 31st skips the months without one', () => {
    expect(repeatDates('2027-01-31', 'FREQ=MONTHLY', 7)).toEqual(['2027-03-31', '2027-05-31', '2027-07-31', '2027-08-31', '2027-10-31', '2027-12-31', '2028-01-31']);
    expect(repeatDates('2027-01-15T18:00', 'FREQ=MONTHLY;BYMONTHDAY=31', 3)).toEqual(['2027-01-31T18:00', '2027-03-31T18:00', '2027-05-31T18:00']);
    expect(nextDue({ due: '2027-01-31', repeat: 'FREQ=MONTHLY' }, '2027-01-31')).toBe('2027-03-31');
  });

  it('BYMONTHDAY=-1 is each month’s last day, 28 or 29 February included', () => {
    expect(repeatDates('2027-01-31', 'FREQ=MONTHLY;BYMONTHDAY=-1', 14)).toEqual([
      '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31', '2027-08-31',
      '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29', '2028-03-31',
    ]);
  });

  it('yearly on 29 February falls in leap years only', () => {
    expect(repeatDates('2028-02-29', 'FREQ=YEARLY', 3)).toEqual(['2032-02-29', '2036-02-29', '2040-02-29']);
    expect(repeatDates('2096-02-29', 'FREQ=YEARLY', 1)).toEqual(['2104-02-29']);
  });
});

describe('nextDue (§10.16)', () => {
  const daily: Repeating = { due: '2027-01-01', repeat: 'FREQ=DAILY' };

  it.each([
    ['an overdue daily task done today moves to today, after its due date', daily, '2027-01-05', '2027-01-05'],
    ['a daily task done on its day moves to the next day', { due: '2027-01-05', repeat: 'FREQ=DAILY' }, '2027-01-05', '2027-01-06'],
    ['a task done before its day moves to the date after its due date', { due: '2027-01-10', repeat: 'FREQ=DAILY' }, '2027-01-05', '2027-01-11'],
    ['an overdue weekly task skips the dates already past', { due: '2027-01-01', repeat: 'FREQ=WEEKLY' }, '2027-01-20', '2027-01-22'],
    ['an overdue task with a time keeps its time', { due: '2027-01-01T09:00', repeat: 'FREQ=DAILY' }, '2027-01-05', '2027-01-05T09:00'],
    ['weekdays skip the weekend', { due: '2027-01-08T08:30', repeat: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' }, '2027-01-08', '2027-01-11T08:30'],
    ['the last Friday of the month', { due: '2027-01-29', repeat: 'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1' }, '2027-01-29', '2027-02-26'],
    ['repeatFrom "due" is the schedule too', { due: '2027-01-01', repeat: 'FREQ=DAILY;INTERVAL=3', repeatFrom: 'due' }, '2027-01-05', '2027-01-07'],
    ['from completion: counted from today (every 3 days)', { due: '2027-01-01', repeat: 'FREQ=DAILY;INTERVAL=3', repeatFrom: 'completion' }, '2027-01-05', '2027-01-08'],
    ['from completion: at the due date’s time of day', { due: '2027-01-01T07:15', repeat: 'FREQ=DAILY;INTERVAL=3', repeatFrom: 'completion' }, '2027-01-05', '2027-01-08T07:15'],
    ['from completion: done early counts from that day too', { due: '2027-01-20', repeat: 'FREQ=WEEKLY', repeatFrom: 'completion' }, '2027-01-05', '2027-01-12'],
    ['from completion: the next weekday named after today', { due: '2027-01-04', repeat: 'FREQ=WEEKLY;BYDAY=MO', repeatFrom: 'completion' }, '2027-01-06', '2027-01-11'],
    ['UNTIL passed: the series ends', { due: '2027-01-01', repeat: 'FREQ=DAILY;UNTIL=20270103' }, '2027-01-05', null],
    ['UNTIL on the next date: it is the last one', { due: '2027-01-01', repeat: 'FREQ=DAILY;UNTIL=20270102' }, '2027-01-01', '2027-01-02'],
    ['UNTIL passed, from completion: ends too', { due: '2027-01-01', repeat: 'FREQ=DAILY;UNTIL=20270103', repeatFrom: 'completion' }, '2027-01-05', null],
    ['no repeat: none', { due: '2027-01-01' }, '2027-01-05', null],
    ['no due date: none', { repeat: 'FREQ=DAILY' }, '2027-01-05', null],
  ] as [string, Repeating, string, string | null][])('%s', (_, task, today, expected) => {
    expect(nextDue(task, today)).toBe(expected);
  });

  it('a whole-day due date stays whole-day and one with a time keeps it, in both modes', () => {
    for (const repeatFrom of ['due', 'completion'] as const) {
      expect(nextDue({ due: '2027-03-27', repeat: 'FREQ=WEEKLY', repeatFrom }, '2027-03-27')).toBe('2027-04-03');
      expect(nextDue({ due: '2027-03-27T23:30', repeat: 'FREQ=DAILY', repeatFrom }, '2027-03-27')).toBe('2027-03-28T23:30');
    }
  });
});

describe('a tick always moves a repeating task: the next due date is after the due date (§10.16)', () => {
  // A rule that repeats more often than daily on a whole-day due date, or names seconds a due date cannot hold,
  // must either be refused or give a later date: a tick that leaves the task at its own date completes nothing.
  it.each([
    ['2027-01-04', 'FREQ=HOURLY'],
    ['2027-01-04', 'FREQ=MINUTELY;INTERVAL=30'],
    ['2027-01-04', 'FREQ=DAILY;BYHOUR=9,17'],
    ['2027-01-04T09:00', 'FREQ=MINUTELY;BYSECOND=30'],
  ])('due %s, %s', (due, rule) => {
    if (repeatProblem(rule, due) !== null) return;
    expect(nextDue({ due, repeat: rule }, due.slice(0, 10))).not.toBe(due);
    expect(repeatDates(due, rule, 3)).not.toContain(due);
    expect(new Set(repeatDates(due, rule, 3)).size).toBe(3);
  });
});

describe('repeatRuleProblem and repeatProblem', () => {
  const COMMON = [
    'FREQ=DAILY',
    'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
    'FREQ=WEEKLY;BYDAY=MO,TH',
    'FREQ=MONTHLY;BYMONTHDAY=15',
    'FREQ=MONTHLY;BYMONTHDAY=-1',
    'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1',
    'FREQ=YEARLY',
    'FREQ=DAILY;INTERVAL=3',
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=SA',
    'FREQ=MONTHLY;INTERVAL=6',
    'FREQ=DAILY;UNTIL=20271231',
    'FREQ=HOURLY;INTERVAL=4',
  ];

  it.each(COMMON.flatMap((rule) => [rule, `RRULE:${rule}`]))('accepts %s', (rule) => {
    expect(repeatRuleProblem(rule)).toBeNull();
    expect(repeatProblem(rule, '2027-01-01T09:00')).toBeNull();
  });

  it.each([
    ['garbage text', 'every monday', REPEAT_MESSAGES.invalid],
    ['empty', '', REPEAT_MESSAGES.invalid],
    ['the prefix alone', 'RRULE:', REPEAT_MESSAGES.invalid],
    ['an empty part', 'FREQ=DAILY;;INTERVAL=2', REPEAT_MESSAGES.invalid],
    ['a part without a value', 'FREQ=DAILY;INTERVAL=', REPEAT_MESSAGES.invalid],
    ['an unknown part', 'FREQ=DAILY;FOO=1', REPEAT_MESSAGES.invalid],
    ['an extension part', 'FREQ=DAILY;X-NAME=1', REPEAT_MESSAGES.invalid],
    ['a duplicate part', 'FREQ=DAILY;INTERVAL=2;INTERVAL=3', REPEAT_MESSAGES.invalid],
    ['two frequencies', 'FREQ=DAILY;FREQ=WEEKLY', REPEAT_MESSAGES.invalid],
    ['an unknown frequency', 'FREQ=FORTNIGHTLY', REPEAT_MESSAGES.invalid],
    ['an unknown weekday', 'FREQ=WEEKLY;BYDAY=XX', REPEAT_MESSAGES.invalid],
    ['a non-numeric interval', 'FREQ=DAILY;INTERVAL=two', REPEAT_MESSAGES.invalid],
    ['INTERVAL 0', 'FREQ=DAILY;INTERVAL=0', REPEAT_MESSAGES.invalid],
    ['an UNTIL that is no date', 'FREQ=DAILY;UNTIL=tomorrow', REPEAT_MESSAGES.invalid],
    ['DTSTART as a part', 'FREQ=DAILY;DTSTART=20270101T090000', REPEAT_MESSAGES.dtstart],
    ['DTSTART as a line', 'DTSTART:20270101T090000\nRRULE:FREQ=DAILY', REPEAT_MESSAGES.dtstart],
    ['COUNT', 'FREQ=DAILY;COUNT=5', REPEAT_MESSAGES.count],
    ['no FREQ', 'INTERVAL=2;BYDAY=MO', REPEAT_MESSAGES.noFreq],
    ['SECONDLY', 'FREQ=SECONDLY', REPEAT_MESSAGES.tooOften],
    ['several BYSECOND', 'FREQ=MINUTELY;BYSECOND=0,30', REPEAT_MESSAGES.tooOften],
    ['too long', `FREQ=YEARLY;BYYEARDAY=${Array.from({ length: 120 }, (_, day) => day + 1).join(',')}`, REPEAT_MESSAGES.tooLong],
  ])('refuses %s', (_, rule, message) => {
    expect(repeatRuleProblem(rule)).toBe(message);
    // The rule's own problem comes first, with or without a due date.
    expect(repeatProblem(rule, '2027-01-01')).toBe(message);
    expect(repeatProblem(rule, undefined)).toBe(message);
  });

  it('the longest rule accepted is REPEAT_RULE_MAX characters', () => {
    const days = [...Array.from({ length: 31 }, (_, day) => day + 1), ...Array.from({ length: 31 }, (_, day) => -day - 1)];
    const rule = `FREQ=YEARLY;BYMONTHDAY=${days.join(',')};BYMINUTE=${Array.from({ length: 60 }, (_, minute) => minute).join(',')}`.slice(0, REPEAT_RULE_MAX).replace(/,\d*$/, '');
    expect(rule.length).toBeLessThanOrEqual(REPEAT_RULE_MAX);
    expect(rule.length).toBeGreaterThan(REPEAT_RULE_MAX - 5);
    expect(repeatRuleProblem(rule)).toBeNull();
  });

  it.each([
    ['FREQ=DAILY;BYMONTHDAY=30', REPEAT_MESSAGES.daysOfMonth],
    ['FREQ=WEEKLY;BYMONTH=6', REPEAT_MESSAGES.daysOfMonth],
    ['FREQ=YEARLY;BYYEARDAY=100', REPEAT_MESSAGES.unsupported],
    ['FREQ=YEARLY;BYWEEKNO=20', REPEAT_MESSAGES.unsupported],
    ['FREQ=MINUTELY;BYSECOND=0', REPEAT_MESSAGES.seconds],
    ['FREQ=MONTHLY;BYMONTHDAY=1,2;BYSETPOS=1', REPEAT_MESSAGES.setpos],
    ['FREQ=MONTHLY;BYDAY=2TU;BYSETPOS=1', REPEAT_MESSAGES.setpos],
    ['FREQ=WEEKLY;BYDAY=1MO', REPEAT_MESSAGES.invalid],
    ['FREQ=MONTHLY;BYDAY=6MO', REPEAT_MESSAGES.range],
  ])('refuses %s: parts a due date cannot use, or whose falling is unknown without expanding for ever', (rule, message) => {
    expect(repeatRuleProblem(rule)).toBe(message);
  });

  // RFC 5545 §3.3.10 gives each BY part its range: a value outside it is no rule, whatever rrule makes of it.
  it.each(['FREQ=DAILY;BYHOUR=24', 'FREQ=HOURLY;BYMINUTE=60', 'FREQ=MONTHLY;BYMONTHDAY=32', 'FREQ=MONTHLY;BYMONTHDAY=0', 'FREQ=YEARLY;BYMONTH=13', 'FREQ=WEEKLY;WKST=XX'])(
    'refuses the out-of-range value in %s',
    (rule) => {
      expect(repeatRuleProblem(rule)).toBe(rule.includes('WKST') ? REPEAT_MESSAGES.invalid : REPEAT_MESSAGES.range);
    },
  );

  it.each([
    ['a rule that never occurs', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', '2027-01-01', REPEAT_MESSAGES.never],
    ['UNTIL before the due date', 'FREQ=DAILY;UNTIL=20261231', '2027-01-01', REPEAT_MESSAGES.never],
    ['UNTIL on the due date: no date after it', 'FREQ=WEEKLY;UNTIL=20270101', '2027-01-01', REPEAT_MESSAGES.never],
    ['no due date', 'FREQ=DAILY', undefined, REPEAT_MESSAGES.needsDue],
    // Known from the rule alone, without expanding it to the year 9999 (PRODUCT §10.16 "Bad input").
    ['a day no month it reaches has', 'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31', '2027-04-01', REPEAT_MESSAGES.never],
    ['a month a monthly step never reaches', 'FREQ=MONTHLY;INTERVAL=12;BYMONTH=2', '2027-03-01', REPEAT_MESSAGES.never],
    ['more weekdays than a month holds', 'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6', '2027-01-01', REPEAT_MESSAGES.never],
    ['a weekday a weekly step of days never lands on', 'FREQ=DAILY;INTERVAL=7;BYDAY=MO', '2027-01-05', REPEAT_MESSAGES.never],
    ['an hour a step of 24 hours never lands on', 'FREQ=HOURLY;INTERVAL=24;BYHOUR=10', '2027-01-05T09:00', REPEAT_MESSAGES.never],
  ])('repeatProblem refuses %s', (_, rule, due, message) => {
    expect(repeatRuleProblem(rule)).toBeNull();
    expect(repeatProblem(rule, due)).toBe(message);
  });
});

describe('applyTaskPatch (§10.4, §10.16, §10.17): the patch as the server applies it and the device shows it', () => {
  const T0 = '2027-01-01T08:00:00.000Z';
  const AT = '2027-01-05T18:30:00.000Z';
  type Task = Patchable & { repeatDone?: string[] };
  const task = (fields: Partial<Task> = {}): Task => ({ title: 'Water plants', completed: false, isPinned: false, updatedAt: T0, completedAt: null, ...fields });
  const repeating = task({ due: '2027-01-04T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH', repeatFrom: 'due', reminders: [0, 60] });

  it('a tick of a repeating task keeps it open at its next date, its completion kept in repeatDone', () => {
    expect(applyTaskPatch(repeating, { completed: true }, AT, '2027-01-05')).toEqual({ ...repeating, due: '2027-01-07T09:00', repeatDone: [AT], updatedAt: AT });
    // `today` is the person’s day, not the UTC day of `at`: done on their 8th, the 7th is past, next is the 11th.
    expect(applyTaskPatch(repeating, { completed: true }, AT, '2027-01-08').due).toBe('2027-01-11T09:00');
  });

  it('without today, the UTC day of the tick', () => {
    const overdue = task({ due: '2027-01-01', repeat: 'FREQ=DAILY' });
    expect(applyTaskPatch(overdue, { completed: true }, '2027-01-05T23:30:00.000Z').due).toBe('2027-01-05');
    expect(applyTaskPatch(overdue, { completed: true }, '2027-01-06T00:30:00.000Z').due).toBe('2027-01-06');
  });

  it('a tick of a task that does not repeat, or whose series has ended, completes it', () => {
    const plain = task({ due: '2027-01-04' });
    expect(applyTaskPatch(plain, { completed: true }, AT, '2027-01-05')).toEqual({ ...plain, completed: true, completedAt: AT, updatedAt: AT });
    const ended = task({ due: '2027-01-04', repeat: 'FREQ=DAILY;UNTIL=20270104' });
    expect(applyTaskPatch(ended, { completed: true }, AT, '2027-01-05')).toEqual({ ...ended, completed: true, completedAt: AT, updatedAt: AT });
    expect(completeRepeating({ ...ended, completed: false }, AT, '2027-01-05')).toBeNull();
  });

  it('only a tick of an open task moves it: a completed one stays as it is, a reopen reopens', () => {
    const done = { ...repeating, completed: true, completedAt: T0 };
    expect(applyTaskPatch(done, { completed: true }, AT, '2027-01-05')).toEqual({ ...done, updatedAt: AT });
    expect(applyTaskPatch(done, { completed: false }, AT, '2027-01-05')).toEqual({ ...done, completed: false, completedAt: null, updatedAt: AT });
    expect(applyTaskPatch(repeating, { title: 'Water the plants' }, AT, '2027-01-05')).toEqual({ ...repeating, title: 'Water the plants', updatedAt: AT });
  });

  it('a repeat set in the tick’s own patch counts: the task moves by it', () => {
    const dated = task({ due: '2027-01-04' });
    expect(applyTaskPatch(dated, { completed: true, repeat: 'FREQ=MONTHLY' }, AT, '2027-01-05')).toMatchObject({ completed: false, due: '2027-02-04', repeat: 'FREQ=MONTHLY', repeatDone: [AT] });
  });

  it.each<[string, PatchOf, Partial<Task>]>([
    ['due: null removes the repeat, its repeatFrom and the reminders', { due: null }, { due: undefined, repeat: undefined, repeatFrom: undefined, reminders: undefined }],
    ['repeat: null removes repeatFrom and keeps the reminders', { repeat: null }, { repeat: undefined, repeatFrom: undefined }],
    ['repeatFrom: null leaves the default', { repeatFrom: null }, { repeatFrom: undefined }],
    ['reminders: [] removes them', { reminders: [] }, { reminders: undefined }],
    ['reminders: null removes them', { reminders: null }, { reminders: undefined }],
    ['a new due date keeps the repeat and the reminders', { due: '2027-02-01' }, { due: '2027-02-01' }],
  ])('%s', (_, patch, changes) => {
    const applied = applyTaskPatch(repeating, patch, AT, '2027-01-05');
    const expected = Object.fromEntries(Object.entries({ ...repeating, ...changes, updatedAt: AT }).filter(([, value]) => value !== undefined));
    expect(applied).toEqual(expected);
    // Removed means absent: a client that knows nothing of repeats sees the task of §7.
    for (const [field, value] of Object.entries(changes)) if (value === undefined) expect(field in applied).toBe(false);
  });

  it('repeatFrom without a repeat, or a repeat without a due date, is not kept', () => {
    expect('repeatFrom' in applyTaskPatch(task({ due: '2027-01-04' }), { repeatFrom: 'completion' }, AT)).toBe(false);
    expect(applyTaskPatch(task(), { repeat: 'FREQ=DAILY', reminders: [5] }, AT)).toEqual({ ...task(), updatedAt: AT });
  });

  it(`repeatDone keeps the newest ${REPEAT_DONE_KEPT} completions, newest last`, () => {
    const earlier = Array.from({ length: REPEAT_DONE_KEPT }, (_, index) => new Date(Date.parse('2025-01-01T00:00:00.000Z') + index * 86_400_000).toISOString());
    const ticked = applyTaskPatch({ ...repeating, repeatDone: earlier }, { completed: true }, AT, '2027-01-05');
    expect(ticked.repeatDone).toHaveLength(REPEAT_DONE_KEPT);
    expect(ticked.repeatDone).toEqual([...earlier.slice(1), AT]);
  });
});
