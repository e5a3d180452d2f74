import { LIMITS } from './limits.js';
import {
  matchesSearch,
  passesFilters,
  SEARCH_NOW_MESSAGE,
  SEARCH_QUERY_EMPTY_MESSAGE,
  SEARCH_QUERY_TOO_LONG_MESSAGE,
  SEARCH_TERMS_MAX,
  searchExcerpt,
  searchFold,
  searchHits,
  SearchQuery,
  searchTerms,
  type FilterableTask,
} from './search.js';

// Search (docs/PRODUCT.md §10.22): the terms of a query, which tasks they match, what they highlight, and the
// filters that narrow the matches; the service and the task screen both apply these.

/** The highlighted stretches of `text`, as the text they cover. */
const marked = (text: string, query: string) => searchHits(text, searchTerms(query)).map(({ start, end }) => text.slice(start, end));

describe('the terms of a query', () => {
  it('are its words, folded (no accents, lower case), each once, punctuation and spaces separating them', () => {
    expect(searchTerms('  Café  au-LAIT!  ')).toEqual(['cafe', 'au', 'lait']);
    expect(searchTerms('"milk" OR bread*')).toEqual(['milk', 'or', 'bread']);
    expect(searchTerms('Résumé re\u0301sume\u0301')).toEqual(['resume']);
    // As the index folds them: the breve of "й" is a mark too.
    expect(searchTerms('日本 файл 2027')).toEqual(['日本', 'фаил', '2027']);
    expect(searchFold('İSTANBUL Ærø')).toBe('istanbul ærø');
  });

  it('are none for a query of only spaces or punctuation, and at most SEARCH_TERMS_MAX', () => {
    expect(searchTerms('   ')).toEqual([]);
    expect(searchTerms('"*()-:^')).toEqual([]);
    expect(searchTerms(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))).toHaveLength(SEARCH_TERMS_MAX);
  });
});

describe('a task matches', () => {
  const task = { title: 'Buy oat milk', note: 'From the café\nthe one on Main Street', subtasks: [{ title: 'Check the fridge' }] };

  it('when each term is a word of its title, note or subtasks, the last one the start of a word', () => {
    expect(matchesSearch(task, searchTerms('milk'))).toBe(true);
    expect(matchesSearch(task, searchTerms('mi'))).toBe(true);
    expect(matchesSearch(task, searchTerms('cafe fri'))).toBe(true);
    expect(matchesSearch(task, searchTerms('CAFÉ main str'))).toBe(true);
  });

  it('not when a term other than the last is only the start of a word, or a term is nowhere, or there is no term', () => {
    expect(matchesSearch(task, searchTerms('mil oat'))).toBe(false);
    expect(matchesSearch(task, searchTerms('milk bread'))).toBe(false);
    expect(matchesSearch(task, searchTerms('ilk'))).toBe(false);
    expect(matchesSearch(task, [])).toBe(false);
    expect(matchesSearch({ title: 'Only a title' }, searchTerms('title'))).toBe(true);
  });
});

describe('what a search highlights', () => {
  it('is each word that is a term, and the typed start of the word the last term begins', () => {
    expect(marked('Buy oat milk and more milkshakes', 'milk')).toEqual(['milk', 'milk']);
    expect(marked('Buy oat milk and more milkshakes', 'oat mi')).toEqual(['oat', 'mi', 'mi']);
    expect(marked('Call Mum', 'xyz')).toEqual([]);
    expect(searchHits('anything', [])).toEqual([]);
  });

  it('finds accented words from plain letters and keeps a combining accent with its letter', () => {
    expect(marked('Café crème', 'cafe cre')).toEqual(['Café', 'crè']);
    expect(marked('Cafe\u0301 au lait', 'caf')).toEqual(['Caf']);
    expect(marked('Cafe\u0301 au lait', 'cafe')).toEqual(['Cafe\u0301']);
  });

  it('shows the line of the note, else the subtask, that a term is in (none when only the title holds one)', () => {
    const task = { title: 'Trip', note: 'Book flights\n  Pack the red bag  ', subtasks: [{ title: 'Passport' }, { title: 'Red scarf' }] };
    expect(searchExcerpt(task, searchTerms('red'))).toEqual({ source: 'note', text: 'Pack the red bag', hits: [{ start: 9, end: 12 }] });
    expect(searchExcerpt(task, searchTerms('pass'))).toEqual({ source: 'subtask', text: 'Passport', hits: [{ start: 0, end: 4 }] });
    expect(searchExcerpt(task, searchTerms('trip'))).toBeNull();
  });
});

describe('the filters of a search', () => {
  const now = '2026-12-07T10:30';
  const task = (fields: Partial<FilterableTask> = {}): FilterableTask => ({ completed: false, ...fields });
  const none = new Set<string>();

  it('narrow by list (the Inbox is no list), status, priority and label (case aside), all together', () => {
    const list = 'a'.repeat(24);
    expect(passesFilters(task({ listId: list }), { listId: list }, now, none)).toBe(true);
    expect(passesFilters(task(), { listId: list }, now, none)).toBe(false);
    expect(passesFilters(task(), { listId: 'inbox' }, now, none)).toBe(true);
    expect(passesFilters(task({ listId: list }), { listId: 'inbox' }, now, none)).toBe(false);
    expect(passesFilters(task({ completed: true }), { status: 'completed' }, now, none)).toBe(true);
    expect(passesFilters(task({ completed: true }), { status: 'active' }, now, none)).toBe(false);
    expect(passesFilters(task(), { priority: 4 }, now, none)).toBe(true);
    expect(passesFilters(task({ priority: 1 }), { priority: 4 }, now, none)).toBe(false);
    expect(passesFilters(task({ labels: ['Errand'] }), { label: 'errand', priority: 4 }, now, none)).toBe(true);
    expect(passesFilters(task({ labels: ['errand'] }), { label: 'errand', status: 'completed' }, now, none)).toBe(false);
  });

  it('leave out the tasks of an archived list unless that list is the filter (PRODUCT §10.19 "Archive")', () => {
    const kept = 'a'.repeat(24);
    const archived = new Set(['b'.repeat(24)]);
    expect(passesFilters(task({ listId: 'b'.repeat(24) }), {}, now, archived)).toBe(false);
    expect(passesFilters(task({ listId: 'b'.repeat(24) }), { status: 'active' }, now, archived)).toBe(false);
    expect(passesFilters(task({ listId: 'b'.repeat(24) }), { listId: 'b'.repeat(24) }, now, archived)).toBe(true);
    expect(passesFilters(task({ listId: kept }), {}, now, archived)).toBe(true);
    expect(passesFilters(task(), {}, now, archived)).toBe(true);
    expect(passesFilters(task(), { listId: 'inbox' }, now, archived)).toBe(true);
  });

  it('narrow by due date on the person’s clock: overdue, today, the next 7 days, none', () => {
    expect(passesFilters(task({ due: '2026-12-06' }), { due: 'overdue' }, now, none)).toBe(true);
    expect(passesFilters(task({ due: '2026-12-07T10:00' }), { due: 'overdue' }, now, none)).toBe(true);
    expect(passesFilters(task({ due: '2026-12-07T11:00' }), { due: 'overdue' }, now, none)).toBe(false);
    expect(passesFilters(task({ due: '2026-12-07' }), { due: 'overdue' }, now, none)).toBe(false);
    expect(passesFilters(task({ due: '2026-12-06', completed: true }), { due: 'overdue' }, now, none)).toBe(false);
    expect(passesFilters(task({ due: '2026-12-07T23:00' }), { due: 'today' }, now, none)).toBe(true);
    expect(passesFilters(task({ due: '2026-12-13' }), { due: 'week' }, now, none)).toBe(true);
    expect(passesFilters(task({ due: '2026-12-14' }), { due: 'week' }, now, none)).toBe(false);
    expect(passesFilters(task(), { due: 'none' }, now, none)).toBe(true);
    expect(passesFilters(task({ due: '2026-12-07' }), { due: 'none' }, now, none)).toBe(false);
    expect(passesFilters(task(), { due: 'today' }, now, none)).toBe(false);
  });
});

describe('the search call’s query', () => {
  const issues = (query: Record<string, string>) => {
    const result = SearchQuery.safeParse(query);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('takes q with its filters, the priority as a number', () => {
    expect(SearchQuery.parse({ q: 'milk', listId: 'inbox', status: 'active', priority: '2', label: 'errand', due: 'week', now: '2026-12-07T09:05' })).toEqual({
      q: 'milk',
      listId: 'inbox',
      status: 'active',
      priority: 2,
      label: 'errand',
      due: 'week',
      now: '2026-12-07T09:05',
    });
  });

  it('refuses a q missing, without a word or too long, and a bad filter, naming the field', () => {
    expect(issues({})).toEqual([['q', SEARCH_QUERY_EMPTY_MESSAGE]]);
    expect(issues({ q: ' *" ' })).toEqual([['q', SEARCH_QUERY_EMPTY_MESSAGE]]);
    expect(issues({ q: 'x'.repeat(LIMITS.searchQuery.max + 1) })).toEqual([['q', SEARCH_QUERY_TOO_LONG_MESSAGE]]);
    expect(issues({ q: 'x'.repeat(LIMITS.searchQuery.max) })).toEqual([]);
    expect(issues({ q: 'milk', priority: '5' }).map(([path]) => path)).toEqual(['priority']);
    expect(issues({ q: 'milk', status: 'done' }).map(([path]) => path)).toEqual(['status']);
    expect(issues({ q: 'milk', due: 'later' }).map(([path]) => path)).toEqual(['due']);
    expect(issues({ q: 'milk', label: 'two words' }).map(([path]) => path)).toEqual(['label']);
    expect(issues({ q: 'milk', listId: 'work' }).map(([path]) => path)).toEqual(['listId']);
    expect(issues({ q: 'milk', now: '2026-12-07' })).toEqual([['now', SEARCH_NOW_MESSAGE]]);
  });
});
