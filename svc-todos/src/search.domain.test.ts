import { searchTerms } from '@tm/contracts';
import { ftsMatch, mongoSearch, searchPlan, type SearchMatch } from './search.domain.js';

// How a search's terms become each store's query (docs/PRODUCT.md §10.22): never query syntax, whatever is typed.

const USER = 'a'.repeat(24);

describe('the FTS5 query of a search', () => {
  it("is the user's rows and every term quoted in the title, note or subtasks, the last one a prefix", () => {
    expect(ftsMatch(USER, ['oat', 'mi'])).toBe(`owner : "${USER}" AND {title note subtasks} : ("oat" AND "mi"*)`);
    expect(ftsMatch(USER, ['m'])).toBe(`owner : "${USER}" AND {title note subtasks} : ("m"*)`);
  });

  it('holds what a person types only inside quotes: operators, columns, stars and quotes are words or nothing', () => {
    expect(ftsMatch(USER, searchTerms('title: NOT "milk" OR* NEAR(a b)'))).toBe(`owner : "${USER}" AND {title note subtasks} : ("title" AND "not" AND "milk" AND "or" AND "near" AND "a" AND "b"*)`);
    // A quote in a term (the contracts' terms hold none) is doubled, as FTS5 strings escape it.
    expect(ftsMatch(USER, ['a"b'])).toBe(`owner : "${USER}" AND {title note subtasks} : ("a""b"*)`);
  });
});

describe('the MongoDB query of a search', () => {
  it('sends the complete terms to $text as phrases (all must be there) and matches the last as the start of a word', () => {
    const { text, lastWord } = mongoSearch(['oat', 'milk', 'cr']);
    expect(text).toBe('"oat" "milk"');
    expect(lastWord.test('Crème fraîche')).toBe(true);
    expect(lastWord.test('ice cream')).toBe(true);
    expect(lastWord.test('acre')).toBe(false);
  });

  it('has no $text for one term, and escapes what a regular expression would read', () => {
    const { text, lastWord } = mongoSearch(['a.b']);
    expect(text).toBeNull();
    expect(lastWord.test('a.b')).toBe(true);
    expect(lastWord.test('axb')).toBe(false);
  });
});

describe('the plan of a search', () => {
  const match = (id: number, fields: Partial<SearchMatch> = {}): SearchMatch => ({ _id: String(id), completed: false, ...fields });

  it('without a filter keeps every match, so a store may read only the first few and count the rest', () => {
    const plan = searchPlan({}, '2026-12-07T10:00', new Set(), 2);
    expect(plan.filtered).toBe(false);
    expect(plan.pick([match(1), match(2), match(3)])).toEqual({ ids: ['1', '2'], more: 1 });
  });

  it('with filters keeps the first `limit` matches that pass, in order, and counts the others that pass', () => {
    const plan = searchPlan({ status: 'active', priority: 1 }, '2026-12-07T10:00', new Set(), 2);
    expect(plan.filtered).toBe(true);
    const matches = [match(1, { priority: 1 }), match(2, { priority: 1, completed: true }), match(3), match(4, { priority: 1 }), match(5, { priority: 1 })];
    expect(plan.pick(matches)).toEqual({ ids: ['1', '4'], more: 1 });
  });

  it('with an archived list reads every match, and keeps none of that list’s (PRODUCT §10.19 "Archive")', () => {
    const archived = 'b'.repeat(24);
    const plan = searchPlan({}, '2026-12-07T10:00', new Set([archived]), 2);
    expect(plan.filtered).toBe(true);
    expect(plan.pick([match(1, { listId: archived }), match(2), match(3, { listId: 'a'.repeat(24) }), match(4, { listId: archived }), match(5)])).toEqual({ ids: ['2', '3'], more: 1 });
  });
});
