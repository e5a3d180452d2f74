// The account rules (docs/PRODUCT.md §10.10; SECURITY.md "Passwords", "Password reset") on plain data: no store,
// no HTTP, no clock but the one each test hands in.
import { createHash } from 'node:crypto';
import {
  accountId,
  knownTimeZone,
  lostPasswordWrite,
  newCalendarFeed,
  newPasswordRefusal,
  newPasswordReset,
  passwordWrite,
  planProfileChange,
  publicUser,
  RESET_LINK_TTL_MS,
  resetLink,
  resetLinkWorks,
  secretTokenHash,
  sameAccount,
} from './account.domain.js';
import { CALENDAR_FEED_TOKEN_PATTERN } from '@tm/contracts';
import type { UserRecord } from './users.repository.js';

const ADA: UserRecord = {
  _id: '0123456789abcdef01234567',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
};
const { passwordHash: _hash, ...ADA_PUBLIC } = ADA;
const STRONG = 'seven purple elephants dancing';

describe('accounts', () => {
  it('names an account only by a 24-hex id, lower-cased', () => {
    expect(accountId('0123456789ABCDEF01234567')).toBe('0123456789abcdef01234567');
    for (const malformed of ['', 'not-an-id', '0123456789abcdef0123456', '0123456789abcdef012345678', 'g123456789abcdef01234567']) {
      expect(accountId(malformed)).toBeNull();
    }
  });

  it('takes a record read by email for the account read by id only when the ids agree', () => {
    expect(sameAccount(ADA_PUBLIC, ADA)).toBe(true);
    // A deletion and a new sign-up with the same email between the two reads.
    expect(sameAccount(ADA_PUBLIC, { ...ADA, _id: '76543210fedcba9876543210' })).toBe(false);
  });

  it('lets no password hash out', () => {
    expect(publicUser(ADA)).toEqual(ADA_PUBLIC);
    expect(publicUser(ADA)).not.toHaveProperty('passwordHash');
  });
});

describe('new passwords', () => {
  it('refuses a common or guessable password, with the name and email as context', () => {
    expect(newPasswordRefusal('password123', ADA)).toBe('weak');
    expect(newPasswordRefusal('ada@example.com', ADA)).toBe('weak');
    expect(newPasswordRefusal(STRONG, ADA)).toBeNull();
  });

  it('refuses the current password typed again, compared as NFKC, only when one is given (a change)', () => {
    // Full-width letters are the same password under NFKC.
    const fullWidth = 'ｓｅｖｅｎ purple elephants dancing';
    expect(fullWidth.normalize('NFKC')).toBe(STRONG);
    expect(newPasswordRefusal(STRONG, ADA, fullWidth)).toBe('same-as-current');
    expect(newPasswordRefusal(STRONG, ADA, STRONG)).toBe('same-as-current');
    expect(newPasswordRefusal(STRONG, ADA, 'analytical-engine')).toBeNull();
    expect(newPasswordRefusal(STRONG, ADA)).toBeNull();
  });

  it('says "weak" before "same as current": the weak message is the one a form shows first', () => {
    expect(newPasswordRefusal('password123', ADA, 'password123')).toBe('weak');
  });
});

describe('password writes', () => {
  it('are a compare and set on the hash proven or read', () => {
    for (const reason of ['change', 'reset', 'rehash'] as const) {
      expect(passwordWrite(reason, ADA, 'next-hash')).toMatchObject({ userId: ADA._id, current: ADA.passwordHash, next: 'next-hash' });
    }
  });

  it('end every reset link of the account after a change or a reset, and none after a rehash at sign-in', () => {
    expect(passwordWrite('change', ADA, 'next-hash').endResetLinks).toBe(true);
    expect(passwordWrite('reset', ADA, 'next-hash').endResetLinks).toBe(true);
    expect(passwordWrite('rehash', ADA, 'next-hash').endResetLinks).toBe(false);
  });

  it('that wrote nothing lost to another write, unless the account is gone', () => {
    expect(lostPasswordWrite(true)).toBe('changed-elsewhere');
    expect(lostPasswordWrite(false)).toBe('account-gone');
  });
});

describe('time zones (PRODUCT §10.14)', () => {
  it('knows the canonical zones, UTC and the aliases Intl accepts, written as IANA writes them', () => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'America/Port-au-Prince', 'Etc/GMT+5', 'UTC', 'Etc/UTC', 'Asia/Calcutta', 'US/Eastern']) {
      expect([zone, knownTimeZone(zone)]).toEqual([zone, true]);
    }
    // Every zone the runtime lists, so a browser offering its list is never refused for one of them.
    expect(Intl.supportedValuesOf('timeZone').filter((zone) => !knownTimeZone(zone))).toEqual([]);
  });

  it('refuses unknown names, another case, offsets, padding and empty text', () => {
    for (const name of ['Mars/Olympus_Mons', 'Europe/Atlantis', 'europe/paris', 'Europe/PARIS', 'utc', '+01:00', 'UTC+1', ' Europe/Paris', 'Europe/Paris ', '', 'Europe//Paris', '../etc/passwd']) {
      expect([name, knownTimeZone(name)]).toEqual([name, false]);
    }
  });

  it('change the time zone without a password, keep it as given, and refuse an unknown one whatever else changes', () => {
    expect(planProfileChange(ADA_PUBLIC, { timeZone: 'Asia/Calcutta' })).toEqual({ kind: 'change', changes: { timeZone: 'Asia/Calcutta' }, prove: null, tellOldAddress: false });
    expect(planProfileChange({ ...ADA_PUBLIC, timeZone: 'Europe/Paris' }, { timeZone: 'Europe/Paris' })).toEqual({ kind: 'unchanged' });
    expect(planProfileChange({ ...ADA_PUBLIC, timeZone: 'Europe/Paris' }, { fullName: 'Ada King', timeZone: 'UTC' })).toMatchObject({ changes: { fullName: 'Ada King', timeZone: 'UTC' } });
    expect(planProfileChange(ADA_PUBLIC, { fullName: 'Ada King', timeZone: 'Mars/Olympus_Mons' })).toEqual({ kind: 'refused', reason: 'unknown-time-zone' });
    // Refused even when it is the zone the account has, were it ever stored: bad input changes nothing.
    expect(planProfileChange({ ...ADA_PUBLIC, timeZone: 'europe/paris' }, { timeZone: 'europe/paris' })).toEqual({ kind: 'refused', reason: 'unknown-time-zone' });
  });
});

describe('profile changes', () => {
  it('change nothing and need nothing when every value equals the current one', () => {
    expect(planProfileChange(ADA_PUBLIC, { fullName: ADA.fullName })).toEqual({ kind: 'unchanged' });
    expect(planProfileChange(ADA_PUBLIC, { email: ADA.email })).toEqual({ kind: 'unchanged' });
    expect(planProfileChange(ADA_PUBLIC, { fullName: ADA.fullName, email: ADA.email, currentPassword: 'wrong' })).toEqual({ kind: 'unchanged' });
  });

  it('change the name without a password, and tell no address', () => {
    expect(planProfileChange(ADA_PUBLIC, { fullName: 'Ada King', email: ADA.email })).toEqual({
      kind: 'change',
      changes: { fullName: 'Ada King' },
      prove: null,
      tellOldAddress: false,
    });
  });

  it('refuse a new email without the current password, whatever else changes', () => {
    expect(planProfileChange(ADA_PUBLIC, { email: 'ada.king@example.com' })).toEqual({ kind: 'refused', reason: 'email-needs-password' });
    expect(planProfileChange(ADA_PUBLIC, { fullName: 'Ada King', email: 'ada.king@example.com' })).toEqual({ kind: 'refused', reason: 'email-needs-password' });
  });

  it('change the email once the current password is proven, and tell the old address', () => {
    expect(planProfileChange(ADA_PUBLIC, { fullName: 'Ada King', email: 'ada.king@example.com', currentPassword: 'analytical-engine' })).toEqual({
      kind: 'change',
      changes: { fullName: 'Ada King', email: 'ada.king@example.com' },
      prove: 'analytical-engine',
      tellOldAddress: true,
    });
    expect(planProfileChange(ADA_PUBLIC, { fullName: ADA.fullName, email: 'ada.king@example.com', currentPassword: 'analytical-engine' })).toMatchObject({
      changes: { email: 'ada.king@example.com' },
    });
  });
});

describe('password reset links', () => {
  const now = new Date('2030-05-01T09:00:00.000Z');

  it('carry 256 random bits in the mail, and only the SHA-256 digest of them to the store', () => {
    const { token, reset } = newPasswordReset(ADA._id, now);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(reset).toEqual({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId: ADA._id,
      createdAt: now,
      expiresAt: new Date('2030-05-01T09:30:00.000Z'),
    });
    expect(Object.values(reset)).not.toContain(token);
    expect(secretTokenHash(token)).toBe(reset.tokenHash);
    expect(newPasswordReset(ADA._id, now).token).not.toBe(token);
  });

  it('work once, for 30 minutes', () => {
    expect(RESET_LINK_TTL_MS).toBe(30 * 60 * 1000);
    const { reset } = newPasswordReset(ADA._id, now);
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(resetLinkWorks({ ...reset, usedAt: null }, now)).toBe(true);
    expect(resetLinkWorks({ ...reset, usedAt: null }, at(RESET_LINK_TTL_MS - 1))).toBe(true);
    expect(resetLinkWorks({ ...reset, usedAt: null }, at(RESET_LINK_TTL_MS))).toBe(false);
    expect(resetLinkWorks({ ...reset, usedAt: at(1) }, at(2))).toBe(false);
    expect(resetLinkWorks(null, now)).toBe(false);
  });

  it('point at the reset page with the token as its one `token` parameter', () => {
    expect(resetLink('https://tasks.example.test/reset-password', 'abc_DEF-123')).toBe('https://tasks.example.test/reset-password?token=abc_DEF-123');
    expect(resetLink('https://tasks.example.test/reset-password?token=old', 'new')).toBe('https://tasks.example.test/reset-password?token=new');
  });
});

describe('calendar feeds (docs/PRODUCT.md §10.18)', () => {
  it('are made of an unguessable URL-safe token, of which the store gets only the SHA-256, stamped with the time given', () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    const { token, feed } = newCalendarFeed(now);
    expect(token).toMatch(CALENDAR_FEED_TOKEN_PATTERN);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(feed).toEqual({ tokenHash: createHash('sha256').update(token).digest('hex'), createdAt: now });
    expect(feed.tokenHash).toBe(secretTokenHash(token));
    expect(JSON.stringify(feed)).not.toContain(token);
    expect(newCalendarFeed(now).token).not.toBe(token);
  });
});
