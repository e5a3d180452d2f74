// The repeat choices of the date dialog (docs/PRODUCT.md §10.16), as RFC 5545 rules and back. Dependency-free:
// the rule library itself (rrule, through @tm/contracts/repeat) comes with the dialog, for the preview.

/** What the person chose in the Repeat field. `custom`: a rule the choices do not name (set by quick add or another client), kept as it is. */
export type RepeatKind = 'none' | 'daily' | 'weekdays' | 'weekly' | 'monthly' | 'monthly-last' | 'yearly' | 'custom';

/** RFC 5545 weekdays, Monday first (the week of PRODUCT §10.15). */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface RepeatChoice {
  kind: RepeatKind;
  /** Every how many days, weeks, months or years (1 for every one). */
  interval: number;
  /** The days of a weekly repeat; none: the due date's own weekday. */
  weekdays: Weekday[];
  /** The rule of a `custom` choice. */
  rule?: string;
}

/** The largest "every N" the dialog offers. */
export const INTERVAL_MAX = 99;

const WORK_DAYS: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR'];

/** The weekday of a day `YYYY-MM-DD` (by the calendar, whatever the browser's zone). */
export function weekdayOf(day: string): Weekday {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // getUTCDay: Sunday 0 … Saturday 6; WEEKDAYS starts on Monday.
  return WEEKDAYS[(new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7] as Weekday;
}

const every = (interval: number): string => (interval > 1 ? `;INTERVAL=${interval}` : '');

/** The rule of `choice` for a task due on `day` (`YYYY-MM-DD`); null for no repeat. */
export function ruleOf(choice: RepeatChoice, day: string): string | null {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  switch (choice.kind) {
    case 'none':
      return null;
    case 'daily':
      return `FREQ=DAILY${every(choice.interval)}`;
    case 'weekdays':
      return `FREQ=WEEKLY;BYDAY=${WORK_DAYS.join(',')}`;
    case 'weekly': {
      const days = choice.weekdays.length > 0 ? WEEKDAYS.filter((weekday) => choice.weekdays.includes(weekday)) : [weekdayOf(day)];
      return `FREQ=WEEKLY${every(choice.interval)};BYDAY=${days.join(',')}`;
    }
    case 'monthly':
      return `FREQ=MONTHLY${every(choice.interval)};BYMONTHDAY=${date}`;
    case 'monthly-last':
      return `FREQ=MONTHLY${every(choice.interval)};BYMONTHDAY=-1`;
    case 'yearly':
      return `FREQ=YEARLY${every(choice.interval)};BYMONTH=${month};BYMONTHDAY=${date}`;
    case 'custom':
      return choice.rule ?? null;
  }
}

/** The choice a stored rule is (the dialog starts on it); a rule the choices do not name is `custom`. */
export function choiceOf(rule: string | undefined): RepeatChoice {
  const none: RepeatChoice = { kind: 'none', interval: 1, weekdays: [] };
  if (rule === undefined) return none;
  const parts = new Map(rule.replace(/^RRULE:/, '').split(';').map((part) => part.split('=') as [string, string]));
  const interval = Number(parts.get('INTERVAL') ?? '1');
  const days = (parts.get('BYDAY') ?? '').split(',').filter(Boolean);
  const custom: RepeatChoice = { kind: 'custom', interval: 1, weekdays: [], rule };
  const known = (names: string[]) => [...parts.keys()].every((name) => ['FREQ', 'INTERVAL', ...names].includes(name));
  if (!Number.isInteger(interval) || interval < 1 || interval > INTERVAL_MAX) return custom;
  switch (parts.get('FREQ')) {
    case 'DAILY':
      return known([]) ? { kind: 'daily', interval, weekdays: [] } : custom;
    case 'WEEKLY':
      if (!known(['BYDAY']) || !days.every((day): day is Weekday => (WEEKDAYS as readonly string[]).includes(day))) return custom;
      if (interval === 1 && days.join(',') === WORK_DAYS.join(',')) return { kind: 'weekdays', interval: 1, weekdays: [] };
      return { kind: 'weekly', interval, weekdays: days };
    case 'MONTHLY':
      if (!known(['BYMONTHDAY'])) return custom;
      return parts.get('BYMONTHDAY') === '-1' ? { kind: 'monthly-last', interval, weekdays: [] } : { kind: 'monthly', interval, weekdays: [] };
    case 'YEARLY':
      return known(['BYMONTH', 'BYMONTHDAY']) ? { kind: 'yearly', interval, weekdays: [] } : custom;
    default:
      return custom;
  }
}

/** What each unit is called after "Every N". */
export const INTERVAL_UNITS: Partial<Record<RepeatKind, readonly [string, string]>> = {
  daily: ['day', 'days'],
  weekly: ['week', 'weeks'],
  monthly: ['month', 'months'],
  'monthly-last': ['month', 'months'],
  yearly: ['year', 'years'],
};

/** The reminders the dialog offers, in minutes before the due time (PRODUCT §10.17). */
export const REMINDER_CHOICES: readonly { minutes: number; label: string }[] = [
  { minutes: 0, label: 'At the due time' },
  { minutes: 10, label: '10 minutes before' },
  { minutes: 60, label: '1 hour before' },
  { minutes: 24 * 60, label: '1 day before' },
];

/** A reminder in words: "At the due time", "10 minutes before", "2 hours before", "3 days before". */
export function reminderText(minutes: number): string {
  const known = REMINDER_CHOICES.find((choice) => choice.minutes === minutes);
  if (known) return known.label;
  const [amount, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'} before`;
}
