import { isClassicUpdate } from '@tm/service-kit/mongo';
import { MongoServerError } from 'mongodb';
import { calendarFeedRemoval, calendarFeedUpdate, isDuplicateEmail, passwordHashUpdate, profileUpdate, resetUsedUpdate } from './mongo-users.store.js';

// The Mongo contract suite needs a server (users.repository.test.ts, MONGO_URL); these checks do not.
describe('isDuplicateEmail', () => {
  const serverError = (fields: Record<string, unknown>) => new MongoServerError({ message: 'E11000 duplicate key error', ...fields });

  it('recognises a duplicate key on the email index', () => {
    expect(isDuplicateEmail(serverError({ code: 11000, keyPattern: { email: 1 } }))).toBe(true);
    expect(isDuplicateEmail(serverError({ code: 11000 }))).toBe(true);
  });

  it('leaves every other error alone', () => {
    expect(isDuplicateEmail(serverError({ code: 11000, keyPattern: { _id: 1 } }))).toBe(false);
    expect(isDuplicateEmail(serverError({ code: 121 }))).toBe(false);
    expect(isDuplicateEmail(Object.assign(new Error('E11000'), { code: 11000 }))).toBe(false);
    expect(isDuplicateEmail(undefined)).toBe(false);
  });
});

describe('password hash update', () => {
  it('is a classic $set, no aggregation pipeline (docs/ARCHITECTURE.md, "Storage")', () => {
    const update = passwordHashUpdate('$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA');
    expect(update).toEqual({ $set: { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' } });
    expect(isClassicUpdate(update)).toBe(true);
  });
});

describe('profile and reset link updates', () => {
  it('are classic $set updates of only the given fields (docs/ARCHITECTURE.md, "Storage")', () => {
    expect(profileUpdate({ fullName: 'Ada King' })).toEqual({ $set: { fullName: 'Ada King' } });
    expect(profileUpdate({ email: 'ada@example.com' })).toEqual({ $set: { email: 'ada@example.com' } });
    expect(profileUpdate({ fullName: 'Ada King', email: 'ada@example.com' })).toEqual({ $set: { fullName: 'Ada King', email: 'ada@example.com' } });
    expect(profileUpdate({ timeZone: 'Europe/Paris' })).toEqual({ $set: { timeZone: 'Europe/Paris' } });
    expect(profileUpdate({ fullName: 'Ada King', timeZone: 'Asia/Calcutta' })).toEqual({ $set: { fullName: 'Ada King', timeZone: 'Asia/Calcutta' } });
    const used = resetUsedUpdate(new Date(0));
    expect(used).toEqual({ $set: { usedAt: new Date(0) } });
    for (const update of [profileUpdate({ fullName: 'x', email: 'y@example.com', timeZone: 'UTC' }), used]) expect(isClassicUpdate(update)).toBe(true);
  });
});

describe('calendar feed updates (docs/PRODUCT.md §10.18)', () => {
  it('are a classic $set of the digest and its time, and a classic $unset', () => {
    const set = calendarFeedUpdate({ tokenHash: 'a'.repeat(64), createdAt: new Date(0) });
    expect(set).toEqual({ $set: { calendarFeed: { tokenHash: 'a'.repeat(64), createdAt: new Date(0) } } });
    expect(calendarFeedRemoval()).toEqual({ $unset: { calendarFeed: '' } });
    for (const update of [set, calendarFeedRemoval()]) expect(isClassicUpdate(update)).toBe(true);
  });
});
