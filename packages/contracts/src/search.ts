// Search (docs/PRODUCT.md §10.22): what a search's words are, which tasks they match, which words of a text
// they highlight, and which filters narrow the matches, as pure rules with no dependencies but zod. The
// service answers GET /todo/search with them (its full-text indexes match by the same terms), and the task
// screen highlights and, offline, searches the tasks on the device with the very same functions.
import { z } from 'zod';
import { LIMITS } from './limits.js';
import { ListScope } from './lists.js';
import { inListScope } from './list-scope.js';
import { DUE_FILTERS, type DueFilter } from './saved-filter-rules.js';
import { hasLabel, labelNameProblem, PRIORITIES, priorityOf, type Priority } from './todo-labels.js';
import { Todo } from './todos.js';
import { addDays, AGENDA_DAYS } from './agenda.js';

/** How many terms of a query count (the rest are left out): more narrow nothing a person means. */
export const SEARCH_TERMS_MAX = 16;
/** How many matches one answer holds at most; `more` counts the others. */
export const SEARCH_RESULTS_MAX = 100;

/** A word's characters, as the full-text index's tokenizer (SQLite FTS5 unicode61) reads them: letters, digits, marks. */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MARKS = /\p{M}/gu;

/** `text` as terms compare: accents and other marks taken off (unicode61 `remove_diacritics 2`), lower case. */
export function searchFold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/**
 * The terms of a query: its words (letters and digits; anything else separates them, as the index's
 * tokenizer does), folded, each once, in the order typed, at most SEARCH_TERMS_MAX. A task matches when each
 * term is a word of its title, note or subtasks, and the last term the start of one (it is being typed).
 * No term (only spaces or punctuation): nothing to search for.
 */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const [word] of query.matchAll(WORD)) {
    const term = searchFold(word);
    if (term === '') continue;
    // A term typed twice: the later one is the one being typed (a prefix), so it is the one kept.
    const earlier = terms.indexOf(term);
    if (earlier !== -1) terms.splice(earlier, 1);
    terms.push(term);
  }
  return terms.slice(0, SEARCH_TERMS_MAX);
}

/** A word of a text: where it is (`start`, `end`, UTF-16 offsets) and its folded form. */
interface Word {
  start: number;
  end: number;
  folded: string;
}

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({ start: match.index, end: match.index + match[0].length, folded: searchFold(match[0]) }));
}

/** Whether `word` (folded) is `term`, or, for the last term, starts with it. */
function wordMatches(word: string, term: string, last: boolean): boolean {
  return last ? word.startsWith(term) : word === term;
}

/** A task's text that a search reads: its title, its note and its subtasks' titles (§10.21). */
export interface SearchableTask {
  title: string;
  note?: string | undefined;
  subtasks?: readonly { title: string }[] | undefined;
}

function textsOf(task: SearchableTask): string[] {
  return [task.title, task.note ?? '', ...(task.subtasks ?? []).map((subtask) => subtask.title)];
}

/** Whether `task` matches `terms`: each a word of its title, note or subtasks (the last one the start of one). No terms: no match. */
export function matchesSearch(task: SearchableTask, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const words = textsOf(task).flatMap((text) => wordsOf(text).map((word) => word.folded));
  return terms.every((term, index) => words.some((word) => wordMatches(word, term, index === terms.length - 1)));
}

/** A highlighted stretch of a text: `[start, end)` in UTF-16 offsets. */
export interface SearchHit {
  start: number;
  end: number;
}

/**
 * Where `terms` are in `text`, in order: each word that is a term, and the typed start of each word the last
 * term begins (only that start is highlighted: "mi" in "milk"). Nothing for no terms.
 */
export function searchHits(text: string, terms: readonly string[]): SearchHit[] {
  if (terms.length === 0) return [];
  const last = terms[terms.length - 1] ?? '';
  const hits: SearchHit[] = [];
  for (const word of wordsOf(text)) {
    if (terms.slice(0, -1).includes(word.folded) || word.folded === last) hits.push({ start: word.start, end: word.end });
    else if (word.folded.startsWith(last)) hits.push({ start: word.start, end: prefixEnd(text, word, last.length) });
  }
  return hits;
}

/** The offset in `text` where the first `length` folded characters of `word` end (folding may join or drop marks). */
function prefixEnd(text: string, word: Word, length: number): number {
  let folded = 0;
  let offset = word.start;
  for (const char of text.slice(word.start, word.end)) {
    if (folded >= length) break;
    folded += searchFold(char).length;
    offset += char.length;
  }
  // Marks that follow belong to the last character highlighted (an "é" written as "e" and a combining accent).
  while (offset < word.end && /\p{M}/u.test(text[offset] ?? '')) offset += 1;
  return offset;
}

/** The line of a task's note or the subtask that a search matched, with its hits: shown under the title (§10.22). */
export interface SearchExcerpt {
  /** Where it comes from. */
  source: 'note' | 'subtask';
  text: string;
  hits: SearchHit[];
}

/** The first line of the note, else the first subtask, that holds a term; null when only the title does. */
export function searchExcerpt(task: SearchableTask, terms: readonly string[]): SearchExcerpt | null {
  for (const line of (task.note ?? '').split('\n')) {
    const text = line.trim();
    const hits = searchHits(text, terms);
    if (hits.length > 0) return { source: 'note', text, hits };
  }
  for (const { title } of task.subtasks ?? []) {
    const hits = searchHits(title, terms);
    if (hits.length > 0) return { source: 'subtask', text: title, hits };
  }
  return null;
}

/*
 * The filters a search takes (the task screen's own, docs/PRODUCT.md §10.11.2, §10.19, §10.20): they narrow
 * the matches as they narrow the list.
 */

/** The status filter: the open tasks or the completed ones (none: both). */
export const SEARCH_STATUSES = ['active', 'completed'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

/** A search's filters, each absent for "any". */
export interface SearchFilters {
  /** A list's id, or INBOX_ID for the tasks in no list. */
  listId?: string | undefined;
  status?: SearchStatus | undefined;
  priority?: Priority | undefined;
  /** A label's name (compared case aside). */
  label?: string | undefined;
  due?: DueFilter | undefined;
}

/** The fields of a task the filters read. */
export type FilterableTask = Pick<Todo, 'completed' | 'due' | 'listId' | 'priority' | 'labels'>;

/**
 * Whether `task` passes `filters`. `now` is the person's wall clock, `YYYY-MM-DDTHH:mm` (their time zone, which
 * is the client's business, §10.14): overdue is an open task due before today, or today at a time already past.
 * `archived` holds the ids of the person's archived lists: without a list filter, their tasks are left out
 * (list-scope.ts inListScope, §10.19 "Archive").
 */
export function passesFilters(task: FilterableTask, filters: SearchFilters, now: string, archived: ReadonlySet<string>): boolean {
  const { listId, status, priority, label, due } = filters;
  if (!inListScope(task, listId, archived)) return false;
  if (status !== undefined && task.completed !== (status === 'completed')) return false;
  if (priority !== undefined && priorityOf(task) !== priority) return false;
  if (label !== undefined && !hasLabel(task, label)) return false;
  if (due === undefined) return true;
  if (due === 'none') return task.due === undefined;
  if (task.due === undefined) return false;
  const today = now.slice(0, 10);
  const day = task.due.slice(0, 10);
  switch (due) {
    case 'overdue':
      return !task.completed && (task.due.length > 10 ? task.due < now.slice(0, 16) : day < today);
    case 'today':
      return day === today;
    case 'week':
      return day >= today && day < addDays(today, AGENDA_DAYS.default);
  }
}

export const SEARCH_QUERY_EMPTY_MESSAGE = 'q must hold a word to search for (letters or digits).';
export const SEARCH_QUERY_TOO_LONG_MESSAGE = `q can be at most ${LIMITS.searchQuery.max} characters long.`;
export const SEARCH_NOW_MESSAGE = 'now must be the person\'s date and time, YYYY-MM-DDTHH:mm.';

/** The person's wall clock, `YYYY-MM-DDTHH:mm`. */
const WALL_CLOCK = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/;

/**
 * GET /todo/search?q=…&listId=&status=&priority=&label=&due=&now= (docs/PRODUCT.md §10.22): `q` holds at least one
 * word and at most LIMITS.searchQuery.max characters; the filters are the task screen's; `now` (the person's wall
 * clock) is needed by `due` only, and the current UTC minute stands in when it is absent.
 */
export const SearchQuery = z.object({
  q: z
    .string({ error: SEARCH_QUERY_EMPTY_MESSAGE })
    .max(LIMITS.searchQuery.max, SEARCH_QUERY_TOO_LONG_MESSAGE)
    .refine((q) => searchTerms(q).length > 0, SEARCH_QUERY_EMPTY_MESSAGE),
  listId: ListScope.optional(),
  status: z.enum(SEARCH_STATUSES, { error: 'status is "active" or "completed".' }).optional(),
  priority: z
    .enum(PRIORITIES.map(String) as [`${Priority}`, ...`${Priority}`[]], { error: 'priority is 1, 2, 3 or 4.' })
    .transform((value) => Number(value) as Priority)
    .optional(),
  label: z
    .string()
    .refine((name) => labelNameProblem(name) === null, 'label is 1 to 40 letters, digits or - _ . / with no spaces.')
    .optional(),
  due: z.enum(DUE_FILTERS, { error: `due is one of ${DUE_FILTERS.join(', ')}.` }).optional(),
  now: z.string().regex(WALL_CLOCK, SEARCH_NOW_MESSAGE).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** The answer: the matching tasks, best match first (then pinned, then newest), at most SEARCH_RESULTS_MAX; `more` counts the others. */
export const SearchResponse = z.object({ todos: z.array(Todo), more: z.number().int().nonnegative() });
export type SearchResponse = z.infer<typeof SearchResponse>;
