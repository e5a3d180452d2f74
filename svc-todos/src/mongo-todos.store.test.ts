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
      todoUpdates.createCounter(),
      todoUpdates.nextEventId(),
      todoUpdates.raiseWatermark(42),
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
});
