import { isClassicUpdate } from '@tm/service-kit/mongo';
import { todoUpdates } from './mongo-todos.store.js';

// The Mongo contract suite needs a server (todos.repository.test.ts, MONGO_URL); these checks do not.
describe('MongoDB todos store updates (docs/ARCHITECTURE.md, "Storage")', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');
  const earlier = new Date('2026-11-24T09:00:00.000Z');
  const open = { title: 'Buy milk', completed: false, isPinned: false, updatedAt: earlier, completedAt: null };
  const done = { title: 'Buy milk', completed: true, isPinned: false, updatedAt: earlier, completedAt: earlier };

  it('are all classic update operators, never an aggregation pipeline', () => {
    const updates = [
      todoUpdates.change(open, { title: 'Buy oat milk', completed: true, isPinned: true }, now),
      todoUpdates.change(done, { completed: false }, now),
      todoUpdates.setCompleted(true, now),
      todoUpdates.setCompleted(false, now),
      todoUpdates.softDelete(now),
      todoUpdates.restore(),
      todoUpdates.undoCompleted({ completed: true, completedAt: earlier, updatedAt: earlier }),
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

  it('change: sets the values that differ, updatedAt, and completedAt = now when the task gets ticked', () => {
    expect(todoUpdates.change(open, { completed: true }, now)).toEqual({ $set: { completed: true, completedAt: now, updatedAt: now } });
    expect(todoUpdates.change(open, { title: 'Buy milk', isPinned: true }, now)).toEqual({
      $set: { isPinned: true, completedAt: null, updatedAt: now },
    });
  });

  it('change: clears completedAt when reopened, keeps it when completed stays as it is', () => {
    expect(todoUpdates.change(done, { completed: false }, now)).toEqual({ $set: { completed: false, completedAt: null, updatedAt: now } });
    expect(todoUpdates.change(done, { completed: true, title: 'Buy oat milk' }, now)).toEqual({
      $set: { title: 'Buy oat milk', completedAt: earlier, updatedAt: now },
    });
  });

  it('change: a document from before completion times gets its updatedAt written before updatedAt moves', () => {
    const legacy = { title: 'Buy milk', completed: true, isPinned: false, updatedAt: earlier };
    expect(todoUpdates.change(legacy, { isPinned: true }, now)).toEqual({ $set: { isPinned: true, completedAt: earlier, updatedAt: now } });
  });

  it('change: nothing to set when no value differs (the caller then appends no event)', () => {
    expect(todoUpdates.change(open, {}, now)).toBeNull();
    expect(todoUpdates.change(done, { title: 'Buy milk', completed: true, isPinned: false }, now)).toBeNull();
  });

  it('bulk completion sets completedAt with the flag; its undo puts back the previous values exactly', () => {
    expect(todoUpdates.setCompleted(true, now)).toEqual({ $set: { completed: true, completedAt: now, updatedAt: now } });
    expect(todoUpdates.setCompleted(false, now)).toEqual({ $set: { completed: false, completedAt: null, updatedAt: now } });
    expect(todoUpdates.undoCompleted({ completed: false, completedAt: null, updatedAt: earlier })).toEqual({
      $set: { completed: false, completedAt: null, updatedAt: earlier },
    });
  });

  it("event numbers come from the user's own feed document: 1 first, then one more per write (issue #21)", () => {
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
});
