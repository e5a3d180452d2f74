import { isClassicUpdate } from '@tm/service-kit/mongo';
import { claimableFilter, DUE_INDEX, reminderUpdates } from './mongo-reminders.store.js';

// The Mongo contract suite needs a server (reminders.repository.test.ts, MONGO_URL); these checks do not.
describe('MongoDB reminders store updates (docs/PRODUCT.md §10.17, docs/ARCHITECTURE.md "Storage")', () => {
  const now = new Date('2027-05-10T09:00:00.000Z');
  const planned = { key: 't.2027-05-10T09:00.0', userId: 'u1', todoId: 't', due: '2027-05-10T09:00', minutes: 0, title: 'Pay rent', fireAt: now };
  const subscription = { userId: 'u1', endpoint: 'https://push.test/a', p256dh: 'p', auth: 'a', session: 's', expiresAt: now };

  it('are all classic update operators, never an aggregation pipeline', () => {
    const updates = [
      reminderUpdates.plan('u1', 't', planned, now),
      reminderUpdates.hold(now),
      reminderUpdates.settle({ state: 'sent', attempts: 1 }, now),
      reminderUpdates.settle({ state: 'missed', attempts: 3, reason: 'gone' }, now),
      reminderUpdates.settle({ state: 'pending', attempts: 1, nextAttemptAt: now }, now),
      reminderUpdates.acknowledge(now),
      reminderUpdates.keepSubscription(subscription, now),
      reminderUpdates.setUserField('timeZone', 'Europe/Paris'),
      reminderUpdates.nameStore('f'.repeat(32)),
    ];
    for (const update of updates) expect([update, isClassicUpdate(update)]).toEqual([update, true]);
  });

  it('planning moves a pending reminder and adds a missing one as pending, never touching its state or attempts', () => {
    const { $set, $setOnInsert } = reminderUpdates.plan('u1', 't', planned, now);
    expect(Object.keys($set ?? {})).toEqual(['title', 'fireAt', 'nextAttemptAt', 'updatedAt']);
    expect($setOnInsert).toMatchObject({ state: 'pending', attempts: 0, reason: null, acknowledgedAt: null });
  });

  it('a settlement releases the hold; the claim names every term of the due index, so any engine may use it', () => {
    expect(reminderUpdates.settle({ state: 'sent', attempts: 1 }, now).$unset).toEqual({ leaseUntil: '' });
    const filter = claimableFilter(now);
    expect(filter).toEqual({ state: 'pending', nextAttemptAt: { $lte: now }, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }] });
    for (const [field, condition] of Object.entries(DUE_INDEX.partialFilterExpression)) expect(filter).toHaveProperty(field, condition);
    expect(Object.keys(DUE_INDEX.key)).toEqual(['nextAttemptAt']);
  });
});
