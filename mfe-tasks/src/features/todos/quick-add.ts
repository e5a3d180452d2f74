import { addDays, dueProblem } from '@tm/contracts';
import { repeatDates } from '@tm/contracts/repeat';
import { parse, type ParsedResult } from 'chrono-node/en';

/**
 * Quick add in plain words (docs/PRODUCT.md §10.14): "Pay rent tomorrow 9am" is the task "Pay rent" due
 * tomorrow at 09:00. The words are read by chrono-node's English parser; this module decides which of its
 * findings a person meant as the task's date and what is left as the title. It loads when the person starts
 * typing a task, not with the page (docs/PERFORMANCE.md "First-load budgets").
 */

/** What the typed words say: the title once the date words are taken out, and the due date they name. */
export interface Understood {
  title: string;
  /** As the API takes it (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`, the person's own calendar, §10.14). */
  due: string;
  /** The words that said it, as typed. */
  words: string;
  /** How it repeats, an RFC 5545 rule (PRODUCT §10.16), when the words said so ("every monday"). */
  repeat?: string;
  /** The words that said the repeat, as typed. */
  repeatWords?: string;
}

/** Words that only tie a date to the rest ("by Friday", "on 14 Mar") and go with it. */
const TIE_BEFORE = /\s+(?:on|at|by|due|before|until|till)$/i;
const TIE_AFTER = /^(?:on|at|by|due)\s+/i;
/** A weekday said in full: an abbreviation alone ("sun" in "Order sun screen") is not taken as a date. */
const FULL_WEEKDAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;
/** "every monday" is a repetition, not one date: it is left in the title. */
const REPEATING = /\bevery\s*$/i;

const pad = (value: number) => String(value).padStart(2, '0');

/** Whether chrono's finding names a day or a time, rather than a word that looks like one. */
function namesADate(result: ParsedResult, before: string): boolean {
  const { start, text } = result;
  if (/^now$/i.test(text.trim()) || REPEATING.test(before)) return false;
  if (start.isCertain('hour') || start.isCertain('day')) return true;
  return start.isCertain('weekday') && FULL_WEEKDAY.test(text);
}

/** The due date of a finding: its day, and its time of day when the words said one. */
function dueOf(result: ParsedResult): string {
  const { start } = result;
  const day = `${start.get('year') ?? 0}-${pad(start.get('month') ?? 0)}-${pad(start.get('day') ?? 0)}`;
  return start.isCertain('hour') ? `${day}T${pad(start.get('hour') ?? 0)}:${pad(start.get('minute') ?? 0)}` : day;
}

const WEEKDAY_CODES: Record<string, string> = { mon: 'MO', tue: 'TU', wed: 'WE', thu: 'TH', fri: 'FR', sat: 'SA', sun: 'SU' };
const WEEKDAY = '(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)';
const UNIT: Record<string, string> = { day: 'DAILY', week: 'WEEKLY', month: 'MONTHLY', year: 'YEARLY' };
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)';

/**
 * The repeat phrases quick add understands (PRODUCT §10.16), each with the rule it says: "every day",
 * "daily", "every weekday", "every week", "weekly", "every 2 weeks", "every monday", "every mon and thu",
 * "every month", "monthly", "every month on the 15th", "every 15th", "every last day of the month",
 * "every year", "yearly".
 */
const REPEAT_PHRASES: readonly { pattern: RegExp; rule: (match: RegExpExecArray) => string }[] = [
  { pattern: /\bevery\s+weekdays?\b/i, rule: () => 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' },
  {
    pattern: new RegExp(`\\bevery\\s+(${WEEKDAY}(?:(?:\\s*,\\s*|\\s+and\\s+|\\s*&\\s*)${WEEKDAY})*)\\b`, 'i'),
    rule: (match) => {
      const codes = (match[1] ?? '').toLowerCase().split(/\s*,\s*|\s+and\s+|\s*&\s*/).map((day) => WEEKDAY_CODES[day.slice(0, 3)] as string);
      return `FREQ=WEEKLY;BYDAY=${['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'].filter((code) => codes.includes(code)).join(',')}`;
    },
  },
  { pattern: /\bevery\s+(\d{1,2})\s+(day|week|month|year)s\b/i, rule: (match) => `FREQ=${UNIT[(match[2] ?? '').toLowerCase()]};INTERVAL=${Number(match[1])}` },
  { pattern: /\bevery\s+(?:other)\s+(day|week|month|year)\b/i, rule: (match) => `FREQ=${UNIT[(match[1] ?? '').toLowerCase()]};INTERVAL=2` },
  { pattern: /\bevery\s+(?:last\s+day\s+of\s+the\s+month|month\s+on\s+the\s+last\s+day)\b/i, rule: () => 'FREQ=MONTHLY;BYMONTHDAY=-1' },
  { pattern: new RegExp(`\\bevery\\s+month\\s+on\\s+the\\s+${ORDINAL}\\b`, 'i'), rule: (match) => `FREQ=MONTHLY;BYMONTHDAY=${Number(match[1])}` },
  { pattern: new RegExp(`\\bevery\\s+${ORDINAL}(?:\\s+of\\s+the\\s+month)?(?=\\s|$)`, 'i'), rule: (match) => `FREQ=MONTHLY;BYMONTHDAY=${Number(match[1])}` },
  { pattern: /\bevery\s+(day|week|month|year)\b/i, rule: (match) => `FREQ=${UNIT[(match[1] ?? '').toLowerCase()]}` },
  { pattern: /\b(daily|weekly|monthly|yearly|annually)\b/i, rule: (match) => `FREQ=${{ daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY', yearly: 'YEARLY', annually: 'YEARLY' }[(match[1] ?? '').toLowerCase()]}` },
];

/** The repeat `text` says, the words that say it and the text without them; null when it says none. */
function repeatIn(text: string): { rule: string; words: string; rest: string } | null {
  for (const { pattern, rule } of REPEAT_PHRASES) {
    const match = pattern.exec(text);
    if (match) return { rule: rule(match), words: match[0], rest: `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}` };
  }
  return null;
}

const dayOf = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/**
 * The first date of a repeat said without one ("Water plants every monday"): today when the rule names no day
 * of its own (every day, every week), else its first day from today on.
 */
function firstDate(rule: string, today: string): string | null {
  if (!/BY(?:DAY|MONTHDAY|MONTH)=/.test(rule)) return today;
  return repeatDates(addDays(today, -1), rule, 1)[0] ?? null;
}

/**
 * The date `text` names and the title left without it, or null when it names none (or only a date with no
 * title left). `reference` is the person's "now" on their own clock: its local fields are their wall-clock
 * time; a day or a weekday without a year is the next one from there. Repeat words ("every monday") set the
 * repeat, and the date when no other words name one: its first date from today.
 */
export function understand(text: string, reference: Date): Understood | null {
  const repeat = repeatIn(text);
  if (repeat === null) {
    const found = findDate(text, reference);
    return found && { title: found.title, due: found.due, words: found.words };
  }
  const found = findDate(repeat.rest, reference);
  const title = found?.title ?? repeat.rest.replace(/\s+/g, ' ').trim();
  if (title === '') return null;
  // A day the words name starts the repeat; a time alone ("every monday at 9am") goes with its first date.
  const first = found?.dayNamed ? found.due.slice(0, 10) : firstDate(repeat.rule, dayOf(reference));
  if (first === null) return null;
  const due = `${first}${found && found.due.length > 10 ? found.due.slice(10) : ''}`;
  return { title, due, words: found?.words ?? '', repeat: repeat.rule, repeatWords: repeat.words };
}

/** The first date words of `text` (chrono's finding a person meant as a date), the title left and whether they named a day. */
function findDate(text: string, reference: Date): (Understood & { dayNamed: boolean }) | null {
  for (const result of parse(text, reference, { forwardDate: true })) {
    const before = text.slice(0, result.index);
    if (!namesADate(result, before)) continue;
    const due = dueOf(result);
    if (dueProblem(due)) continue;
    const after = text.slice(result.index + result.text.length);
    const title = `${before.trimEnd().replace(TIE_BEFORE, '')} ${after.trim().replace(TIE_AFTER, '')}`.replace(/\s+/g, ' ').trim();
    if (title === '') return null;
    return { title, due, words: result.text, dayNamed: result.start.isCertain('day') || result.start.isCertain('weekday') };
  }
  return null;
}
