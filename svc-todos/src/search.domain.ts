// Search (docs/PRODUCT.md §10.22): how a query's terms (the contracts' searchTerms) become each store's full-text
// query. Pure: the stores only run what these return. A person's words are never read as query syntax: each
// term is quoted (SQLite FTS5) or escaped (MongoDB's regular expression), so "OR", "*", quotes or a column name
// typed in the field are words like any other.
import { passesFilters, SEARCH_RESULTS_MAX, type FilterableTask, type SearchFilters } from '@tm/contracts';

/** The full-text columns a search reads (the index's `owner` column holds the user's id and is never searched by words). */
export const SEARCH_COLUMNS = ['title', 'note', 'subtasks'] as const;

/** A term as an FTS5 string: in double quotes, a quote inside doubled (the contracts' terms hold none, but the rule does not rely on it). */
const quoted = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/**
 * The FTS5 MATCH expression of a user's search: the user's own rows (their id in the `owner` column) and, in
 * the title, note or subtasks, every term, the last one as a prefix (it is being typed). `terms` is never empty
 * (the query's schema refuses a query without a word).
 */
export function ftsMatch(userId: string, terms: readonly string[]): string {
  const words = terms.map((term, index) => (index === terms.length - 1 ? `${quoted(term)}*` : quoted(term)));
  return `owner : ${quoted(userId)} AND {${SEARCH_COLUMNS.join(' ')}} : (${words.join(' AND ')})`;
}

/** Characters with a meaning in a regular expression, escaped to stand for themselves. */
const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * A MongoDB search of `terms` (the text index on title, note and subtasks.title). `$text` matches whole words
 * (stemmed, case and diacritics aside) and never a prefix, so the terms before the last go to `$text`, each a
 * quoted phrase so that all of them must be there (unquoted words would be OR'ed); the last term, still being
 * typed, matches the start of a word of the title, the note or a subtask by a regular expression, case aside
 * (diacritics count there: "cafe" typed last does not find "café" in MongoDB, while SQLite's index finds it).
 * `text` is null for a single term: that search reads the user's tasks through the regular expression alone.
 */
export function mongoSearch(terms: readonly string[]): { text: string | null; lastWord: RegExp } {
  const complete = terms.slice(0, -1);
  const last = terms[terms.length - 1] ?? '';
  return {
    text: complete.length === 0 ? null : complete.map((term) => `"${term.replaceAll('"', '')}"`).join(' '),
    lastWord: new RegExp(`(^|[^\\p{L}\\p{N}\\p{M}])${escapeRegExp(last)}`, 'iu'),
  };
}

/** A search's match as the filters read it: the task's id and the fields the filters narrow by. */
export type SearchMatch = FilterableTask & { _id: string };

/** A search's answer before its tasks are read in full: the ids kept, in rank order, and how many more passed the filters. */
export interface SearchPick {
  ids: string[];
  more: number;
}

/** How a store answers a search's filters (docs/PRODUCT.md §10.22). */
export interface SearchPlan {
  /** How many tasks an answer holds at most. */
  limit: number;
  /**
   * Whether a filter is set. Without one every match passes, so a store may read only the first `limit`
   * matches and count the others (what `pick` would answer, without reading every match's fields).
   */
  filtered: boolean;
  /**
   * Whether the filters read a task's priority or labels (§10.20): a store that keeps them apart from the
   * columns it reads cheaply (SQLite's `extras` JSON) may leave them out of the matches when they are not read.
   */
  readsMarks: boolean;
  /** Of the matches in rank order, the first `limit` that pass the filters, and a count of the others that pass. */
  pick: (matches: Iterable<SearchMatch>) => SearchPick;
}

/**
 * The plan of a search with `filters` (the contracts' passesFilters; `now` the person's wall clock,
 * `YYYY-MM-DDTHH:mm`; `archived` the ids of the person's archived lists, whose tasks a search across lists
 * leaves out): at most SEARCH_RESULTS_MAX tasks.
 */
export function searchPlan(filters: SearchFilters, now: string, archived: ReadonlySet<string>, limit: number = SEARCH_RESULTS_MAX): SearchPlan {
  return {
    limit,
    filtered: archived.size > 0 || Object.values(filters).some((value) => value !== undefined),
    readsMarks: filters.priority !== undefined || filters.label !== undefined,
    pick: (matches) => {
      const ids: string[] = [];
      let more = 0;
      for (const match of matches) {
        if (!passesFilters(match, filters, now, archived)) continue;
        if (ids.length < limit) ids.push(match._id);
        else more += 1;
      }
      return { ids, more };
    },
  };
}
