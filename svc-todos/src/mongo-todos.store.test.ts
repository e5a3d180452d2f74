import { isClassicUpdate } from '@tm/service-kit/mongo';
import { OPEN_DUE_INDEX, openDueFilter, SEARCH_TEXT_INDEX, searchFilter, todoUpdates } from './mongo-todos.store.js';

// The Mongo contract suite needs a server (todos.repository.test.ts, MONGO_URL); these checks do not. What a
// write changes is the rules' (todos.domain.test.ts); the store stores tasks whole, by replacement.
describe('MongoDB todos store updates (docs/ARCHITECTURE.md, "Storage")', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');
  const earlier = new Date('2026-11-24T09:00:00.000Z');

  it('are all classic update operators, never an aggregation pipeline', () => {
    const updates = [
      todoUpdates.nextEventSeq(),
      todoUpdates.raiseWatermark(42),
      todoUpdates.numberLegacyEvent(7),
      todoUpdates.migratedPosition(9, 3),
      todoUpdates.backfillCompletedAt(earlier),
      todoUpdates.backfillCompletedAt(null),
      todoUpdates.migrationFinished(now),
    ];
    for (const update of updates) expect([update, isClassicUpdate(update)]).toEqual([update, true]);
  });

  it("event numbers come from the user's own feed document: 1 first, then one more per write", () => {
    expect(todoUpdates.nextEventSeq()).toEqual({ $inc: { seq: 1 }, $setOnInsert: { trimmedThrough: 0 } });
    expect(todoUpdates.raiseWatermark(42)).toEqual({ $max: { trimmedThrough: 42 } });
  });

  it('migration: a kept legacy event keeps its id as its number; a position never moves back on a rerun', () => {
    expect(todoUpdates.numberLegacyEvent(7)).toEqual({ $set: { seq: 7 } });
    // The user's newest kept id is the cursor, the watermark sits just below the oldest kept one.
    expect(todoUpdates.migratedPosition(9, 3)).toEqual({ $max: { seq: 9, trimmedThrough: 2 } });
  });

  it('migration: completion times are backfilled with a plain $set; the marker keeps its first time', () => {
    expect(todoUpdates.backfillCompletedAt(earlier)).toEqual({ $set: { completedAt: earlier } });
    expect(todoUpdates.migrationFinished(now)).toEqual({ $setOnInsert: { finishedAt: now } });
  });

  it("the agenda's read names every term of its partial index's filter, so any engine's planner may use the index", () => {
    const filter = openDueFilter('user', '2026-12-13');
    expect(filter).toEqual({ userId: 'user', completed: false, due: { $exists: true, $lt: '2026-12-13' }, deletedAt: { $exists: false } });
    for (const [field, condition] of Object.entries(OPEN_DUE_INDEX.partialFilterExpression)) {
      expect([field, filter[field as keyof typeof filter]]).toEqual([field, typeof condition === 'object' ? expect.objectContaining(condition) : condition]);
    }
    expect(Object.keys(OPEN_DUE_INDEX.key)).toEqual(['userId', 'due']);
  });
});

describe('MongoDB search (docs/PRODUCT.md §10.22)', () => {
  it("reads one user's live tasks: the complete words through the text index, the last as the start of a word", () => {
    const filter = searchFilter('user', ['oat', 'mi']);
    expect(filter).toMatchObject({ userId: 'user', deletedAt: { $exists: false }, $text: { $search: '"oat"' } });
    expect(Object.keys(filter.$or?.[0] ?? {})).toEqual(['title']);
    expect((filter.$or ?? []).flatMap((clause) => Object.keys(clause))).toEqual(['title', 'note', 'subtasks.title']);
    expect('$text' in searchFilter('user', ['mi'])).toBe(false);
  });

  it('has one text index, after the user, over the title, the note and the subtasks, words as words (no stemming)', () => {
    expect(SEARCH_TEXT_INDEX.key).toEqual({ userId: 1, title: 'text', note: 'text', 'subtasks.title': 'text' });
    expect(SEARCH_TEXT_INDEX.default_language).toBe('none');
  });
});
