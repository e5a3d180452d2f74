import { isClassicUpdate } from '@tm/service-kit/mongo';
import { todoUpdates } from './mongo-todos.store.js';

// The Mongo contract suite needs a server (todos.repository.test.ts, MONGO_URL); these checks do not.
describe('MongoDB todos store updates (docs/ARCHITECTURE.md, "Storage")', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');

  it('are all classic update operators, never an aggregation pipeline', () => {
    const change = todoUpdates.change({ title: 'Buy milk', completed: true, isPinned: false }, now);
    const updates = [
      change?.update,
      todoUpdates.setCompleted(true, now),
      todoUpdates.softDelete(now),
      todoUpdates.restore(),
      todoUpdates.nextEventSeq(),
      todoUpdates.raiseWatermark(42),
      todoUpdates.numberLegacyEvent(7),
      todoUpdates.migratedPosition(9, 3),
    ];
    for (const update of updates) expect([update, isClassicUpdate(update)]).toEqual([update, true]);
  });

  it('change: sets the given values and updatedAt, matching only while one of them differs', () => {
    expect(todoUpdates.change({ completed: true }, now)).toEqual({
      filter: { $or: [{ completed: { $ne: true } }] },
      update: { $set: { completed: true, updatedAt: now } },
    });
    expect(todoUpdates.change({ title: 'Buy milk', isPinned: true }, now)).toEqual({
      filter: { $or: [{ title: { $ne: 'Buy milk' } }, { isPinned: { $ne: true } }] },
      update: { $set: { title: 'Buy milk', isPinned: true, updatedAt: now } },
    });
  });

  it('change: nothing to match or set for an empty patch', () => {
    expect(todoUpdates.change({}, now)).toBeNull();
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
});
