import { dueProblem } from '@tm/contracts';
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

/**
 * The date `text` names and the title left without it, or null when it names none (or only a date with no
 * title left). `reference` is the person's "now" on their own clock: its local fields are their wall-clock
 * time; a day or a weekday without a year is the next one from there.
 */
export function understand(text: string, reference: Date): Understood | null {
  for (const result of parse(text, reference, { forwardDate: true })) {
    const before = text.slice(0, result.index);
    if (!namesADate(result, before)) continue;
    const due = dueOf(result);
    if (dueProblem(due)) continue;
    const after = text.slice(result.index + result.text.length);
    const title = `${before.trimEnd().replace(TIE_BEFORE, '')} ${after.trim().replace(TIE_AFTER, '')}`.replace(/\s+/g, ' ').trim();
    if (title === '') return null;
    return { title, due, words: result.text };
  }
  return null;
}
