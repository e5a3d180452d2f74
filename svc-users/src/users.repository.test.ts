import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { newUser as newSignup, tempDir } from '@tm/test-support';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { MongoUsersStore } from './mongo-users.store.js';
import { SqliteUsersStore, SQLITE_FILE } from './sqlite-users.store.js';
import { DuplicateEmailError, type NewUser, type UsersRepository } from './users.repository.js';

/** One place to keep data for a test: `open()` may be called several times and sees the same data. */
interface StoreHarness {
  open(): Promise<UsersRepository>;
  cleanup(): Promise<void>;
}

const HEX_ID = /^[0-9a-f]{24}$/;

/** What signup would store for a new user. */
function newUser(overrides: Partial<NewUser> = {}): NewUser {
  const { fullName, email } = newSignup('Ada Lovelace');
  return { fullName, email, passwordHash: 'scrypt$17$8$1$c2FsdA==$aGFzaA==', ...overrides };
}

/** The contract every UsersRepository adapter must meet (docs/ARCHITECTURE.md, "Testing": one suite, every adapter). */
function describeUsersRepositoryContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`UsersRepository contract: ${name}`, () => {
    let harness: StoreHarness;
    const opened: UsersRepository[] = [];
    const open = async (): Promise<UsersRepository> => {
      const repository = await harness.open();
      opened.push(repository);
      return repository;
    };

    beforeEach(() => {
      harness = makeHarness();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((repository) => repository.close()));
      await harness.cleanup();
    });

    it('creates a user with a 24-hex id and finds it by email and by id', async () => {
      const repository = await open();
      const input = newUser();
      const created = await repository.create(input);
      expect(created).toEqual({ _id: expect.stringMatching(HEX_ID), fullName: input.fullName, email: input.email });
      expect(await repository.findByEmail(input.email)).toEqual({ ...created, passwordHash: input.passwordHash });
      expect(await repository.findById(created._id)).toEqual(created);
    });

    it('never returns the password hash from findById', async () => {
      const repository = await open();
      const created = await repository.create(newUser());
      expect(await repository.findById(created._id)).not.toHaveProperty('passwordHash');
    });

    it('gives every user its own id', async () => {
      const repository = await open();
      const ids = await Promise.all([1, 2, 3].map(() => repository.create(newUser()).then((user) => user._id)));
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(id).toMatch(HEX_ID);
    });

    it('returns null for an unknown email or id', async () => {
      const repository = await open();
      expect(await repository.findByEmail('nobody@example.com')).toBeNull();
      expect(await repository.findById('0123456789abcdef01234567')).toBeNull();
    });

    it('rejects a second user with the same email and keeps the first', async () => {
      const repository = await open();
      const first = newUser();
      await repository.create(first);
      await expect(repository.create(newUser({ email: first.email, fullName: 'Impostor' }))).rejects.toBeInstanceOf(DuplicateEmailError);
      expect(await repository.findByEmail(first.email)).toMatchObject({ fullName: first.fullName, passwordHash: first.passwordHash });
    });

    it('lets exactly one of two concurrent creates with one email win, across two connections', async () => {
      const [a, b] = [await open(), await open()];
      const email = newUser().email;
      const results = await Promise.allSettled([a.create(newUser({ email })), b.create(newUser({ email }))]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((result) => result.status === 'rejected');
      expect(rejected?.reason).toBeInstanceOf(DuplicateEmailError);
    });

    it('keeps users across close and reopen', async () => {
      const first = await open();
      const created = await first.create(newUser());
      await first.close();
      const second = await open();
      expect(await second.findById(created._id)).toEqual(created);
    });

    it("replaces only that user's password hash", async () => {
      const repository = await open();
      const [ada, grace] = [newUser(), newUser({ fullName: 'Grace Hopper' })];
      const created = await repository.create(ada);
      await repository.create(grace);
      const newHash = 'scrypt$17$8$1$bmV3LXNhbHQ=$bmV3LWhhc2g=';
      expect(await repository.updatePasswordHash(created._id, newHash)).toBe(true);
      expect(await repository.findByEmail(ada.email)).toEqual({ ...created, passwordHash: newHash });
      expect(await repository.findByEmail(grace.email)).toMatchObject({ passwordHash: grace.passwordHash });
    });

    it('replaces the hash only while it is still the expected one (the upgrade at sign-in)', async () => {
      const repository = await open();
      const [ada, grace] = [newUser(), newUser({ fullName: 'Grace Hopper' })];
      const created = await repository.create(ada);
      await repository.create(grace);
      const upgraded = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';
      expect(await repository.replacePasswordHash(created._id, ada.passwordHash, upgraded)).toBe(true);
      expect(await repository.findByEmail(ada.email)).toEqual({ ...created, passwordHash: upgraded });
      expect(await repository.findByEmail(grace.email)).toMatchObject({ passwordHash: grace.passwordHash });
    });

    it('keeps a hash that changed since it was read (a password change won), and answers false', async () => {
      const repository = await open();
      const ada = newUser();
      const created = await repository.create(ada);
      const changed = 'scrypt$17$8$1$Y2hhbmdlZA==$Y2hhbmdlZA==';
      await repository.updatePasswordHash(created._id, changed);
      expect(await repository.replacePasswordHash(created._id, ada.passwordHash, 'upgraded-from-a-stale-read')).toBe(false);
      expect(await repository.findByEmail(ada.email)).toMatchObject({ passwordHash: changed });
    });

    it('answers false when replacing the hash of an unknown or malformed id', async () => {
      const repository = await open();
      const ada = newUser();
      await repository.create(ada);
      expect(await repository.replacePasswordHash('0123456789abcdef01234567', ada.passwordHash, 'upgraded')).toBe(false);
      expect(await repository.replacePasswordHash('not-an-id', ada.passwordHash, 'upgraded')).toBe(false);
      expect(await repository.findByEmail(ada.email)).toMatchObject({ passwordHash: ada.passwordHash });
    });

    it('answers false when updating the hash of an unknown id, and stores nothing', async () => {
      const repository = await open();
      const unknownId = '0123456789abcdef01234567';
      expect(await repository.updatePasswordHash(unknownId, 'scrypt$17$8$1$c2FsdA==$aGFzaA==')).toBe(false);
      expect(await repository.findById(unknownId)).toBeNull();
    });

    it('deletes a user once, frees the email and leaves other users alone', async () => {
      const repository = await open();
      const [ada, grace] = [newUser(), newUser({ fullName: 'Grace Hopper' })];
      const created = await repository.create(ada);
      const other = await repository.create(grace);
      expect(await repository.delete(created._id)).toBe(true);
      expect(await repository.findById(created._id)).toBeNull();
      expect(await repository.findByEmail(ada.email)).toBeNull();
      expect(await repository.delete(created._id)).toBe(false);
      expect(await repository.updatePasswordHash(created._id, 'scrypt$17$8$1$c2FsdA==$aGFzaA==')).toBe(false);
      expect(await repository.findById(other._id)).toEqual(other);
      const again = await repository.create(newUser({ email: ada.email }));
      expect(again._id).not.toBe(created._id);
    });

    it('answers false when deleting an unknown or malformed id', async () => {
      const repository = await open();
      expect(await repository.delete('0123456789abcdef01234567')).toBe(false);
      expect(await repository.delete('not-an-id')).toBe(false);
    });

    it("changes a user's name and/or email, and nobody else's", async () => {
      const repository = await open();
      const [ada, grace] = [newUser(), newUser({ fullName: 'Grace Hopper' })];
      const created = await repository.create(ada);
      const other = await repository.create(grace);
      const renamed = await repository.updateProfile(created._id, { fullName: 'Ada King' });
      expect(renamed).toEqual({ ...created, fullName: 'Ada King' });
      const newEmail = newUser().email;
      expect(await repository.updateProfile(created._id, { email: newEmail })).toEqual({ ...created, fullName: 'Ada King', email: newEmail });
      expect(await repository.findByEmail(ada.email)).toBeNull();
      expect(await repository.findByEmail(newEmail)).toEqual({ ...created, fullName: 'Ada King', email: newEmail, passwordHash: ada.passwordHash });
      expect(await repository.findById(other._id)).toEqual(other);
      // The old email is free again.
      expect((await repository.create(newUser({ email: ada.email }))).email).toBe(ada.email);
    });

    it("refuses an email another user has, and changes nothing; answers null for an unknown or malformed id", async () => {
      const repository = await open();
      const [ada, grace] = [newUser(), newUser({ fullName: 'Grace Hopper' })];
      const created = await repository.create(ada);
      await repository.create(grace);
      await expect(repository.updateProfile(created._id, { fullName: 'Taken', email: grace.email })).rejects.toBeInstanceOf(DuplicateEmailError);
      expect(await repository.findById(created._id)).toEqual(created);
      expect(await repository.updateProfile('0123456789abcdef01234567', { fullName: 'Nobody' })).toBeNull();
      expect(await repository.updateProfile('not-an-id', { fullName: 'Nobody' })).toBeNull();
      // Nothing to change: the user as it is.
      expect(await repository.updateProfile(created._id, {})).toEqual(created);
    });

    it('keeps the time zone given at creation as given, and none when none was given (docs/PRODUCT.md §10.14)', async () => {
      const repository = await open();
      const withZone = await repository.create(newUser({ timeZone: 'Asia/Calcutta' }));
      const without = await repository.create(newUser());
      expect(withZone.timeZone).toBe('Asia/Calcutta');
      expect(without).not.toHaveProperty('timeZone');
      expect(await repository.findById(withZone._id)).toEqual(withZone);
      expect(await repository.findByEmail(withZone.email)).toMatchObject({ timeZone: 'Asia/Calcutta' });
      const read = await repository.findById(without._id);
      expect(read).toEqual(without);
      expect(read).not.toHaveProperty('timeZone');
    });

    it("sets a user's time zone alone or with the name, keeps it across other changes, and nobody else's", async () => {
      const repository = await open();
      const [ada, grace] = [await repository.create(newUser()), await repository.create(newUser({ fullName: 'Grace Hopper', timeZone: 'UTC' }))];
      expect(await repository.updateProfile(ada._id, { timeZone: 'Europe/Paris' })).toEqual({ ...ada, timeZone: 'Europe/Paris' });
      expect(await repository.updateProfile(ada._id, { fullName: 'Ada King' })).toEqual({ ...ada, fullName: 'Ada King', timeZone: 'Europe/Paris' });
      expect(await repository.updateProfile(ada._id, { fullName: 'Ada Lovelace', timeZone: 'America/New_York' })).toEqual({ ...ada, timeZone: 'America/New_York' });
      expect(await repository.findById(grace._id)).toEqual(grace);
      // Reopened: the zone is in the store, not in memory.
      expect(await (await open()).findById(ada._id)).toEqual({ ...ada, timeZone: 'America/New_York' });
    });

    it('lets one of two users moving to the same email at once win, across two connections', async () => {
      const [a, b] = [await open(), await open()];
      const [first, second] = [await a.create(newUser()), await a.create(newUser())];
      const email = newUser().email;
      const results = await Promise.allSettled([a.updateProfile(first._id, { email }), b.updateProfile(second._id, { email })]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((result) => result.status === 'rejected')?.reason).toBeInstanceOf(DuplicateEmailError);
    });

    describe('password reset links', () => {
      const at = (iso: string) => new Date(iso);
      const reset = (userId: string, tokenHash: string, expiresAt = at('2030-01-01T00:30:00.000Z')) => ({
        tokenHash,
        userId,
        createdAt: at('2030-01-01T00:00:00.000Z'),
        expiresAt,
      });

      it('stores a link by its digest and finds it, unused, with its times', async () => {
        const repository = await open();
        const user = await repository.create(newUser());
        await repository.createPasswordReset(reset(user._id, 'a'.repeat(64)));
        expect(await repository.findPasswordReset('a'.repeat(64))).toEqual({ ...reset(user._id, 'a'.repeat(64)), usedAt: null });
        expect(await repository.findPasswordReset('b'.repeat(64))).toBeNull();
      });

      it('marks a link used once: a second use, even across two connections at once, gets false', async () => {
        const [a, b] = [await open(), await open()];
        const user = await a.create(newUser());
        await a.createPasswordReset(reset(user._id, 'c'.repeat(64)));
        const used = at('2030-01-01T00:10:00.000Z');
        const results = await Promise.all([a.consumePasswordReset('c'.repeat(64), used), b.consumePasswordReset('c'.repeat(64), used)]);
        expect(results.sort()).toEqual([false, true]);
        expect(await a.consumePasswordReset('c'.repeat(64), at('2030-01-01T00:11:00.000Z'))).toBe(false);
        expect(await b.findPasswordReset('c'.repeat(64))).toMatchObject({ usedAt: used });
        expect(await a.consumePasswordReset('d'.repeat(64), used)).toBe(false);
      });

      it("removes every link of one user, and nobody else's", async () => {
        const repository = await open();
        const [ada, grace] = [await repository.create(newUser()), await repository.create(newUser())];
        await repository.createPasswordReset(reset(ada._id, '1'.repeat(64)));
        await repository.createPasswordReset(reset(ada._id, '2'.repeat(64)));
        await repository.createPasswordReset(reset(grace._id, '3'.repeat(64)));
        expect(await repository.deletePasswordResets(ada._id)).toBe(2);
        expect(await repository.findPasswordReset('1'.repeat(64))).toBeNull();
        expect(await repository.findPasswordReset('2'.repeat(64))).toBeNull();
        expect(await repository.findPasswordReset('3'.repeat(64))).not.toBeNull();
        expect(await repository.deletePasswordResets(ada._id)).toBe(0);
        expect(await repository.deletePasswordResets('not-an-id')).toBe(0);
      });

      it('removes the links that expired before a time, used or not, and keeps the others', async () => {
        const repository = await open();
        const user = await repository.create(newUser());
        await repository.createPasswordReset(reset(user._id, '4'.repeat(64), at('2030-01-01T00:30:00.000Z')));
        await repository.createPasswordReset(reset(user._id, '5'.repeat(64), at('2030-01-01T01:30:00.000Z')));
        await repository.consumePasswordReset('4'.repeat(64), at('2030-01-01T00:05:00.000Z'));
        expect(await repository.deleteExpiredPasswordResets(at('2030-01-01T01:00:00.000Z'))).toBe(1);
        expect(await repository.findPasswordReset('4'.repeat(64))).toBeNull();
        expect(await repository.findPasswordReset('5'.repeat(64))).not.toBeNull();
      });

      it("goes with its user when the user is deleted", async () => {
        const repository = await open();
        const user = await repository.create(newUser());
        await repository.createPasswordReset(reset(user._id, '6'.repeat(64)));
        expect(await repository.delete(user._id)).toBe(true);
        expect(await repository.findPasswordReset('6'.repeat(64))).toBeNull();
      });

      it('keeps links across close and reopen', async () => {
        const first = await open();
        const user = await first.create(newUser());
        await first.createPasswordReset(reset(user._id, '7'.repeat(64)));
        await first.close();
        const second = await open();
        expect(await second.findPasswordReset('7'.repeat(64))).toMatchObject({ userId: user._id, usedAt: null });
      });
    });

    describe('calendar feeds (docs/PRODUCT.md §10.18)', () => {
      const feed = (tokenHash: string, createdAt = new Date('2030-01-01T00:00:00.000Z')) => ({ tokenHash, createdAt });

      it("gives a user a feed found by its digest, replaces it (the old digest then finds nobody), and touches nobody else's", async () => {
        const repository = await open();
        const [ada, grace] = [await repository.create(newUser({ timeZone: 'Europe/Paris' })), await repository.create(newUser())];
        expect(await repository.findCalendarFeed(ada._id)).toBeNull();
        expect(await repository.setCalendarFeed(ada._id, feed('a'.repeat(64)))).toBe(true);
        expect(await repository.setCalendarFeed(grace._id, feed('b'.repeat(64)))).toBe(true);
        expect(await repository.findCalendarFeed(ada._id)).toEqual(feed('a'.repeat(64)));
        expect(await repository.findByCalendarFeed('a'.repeat(64))).toEqual(ada);
        // The account as it leaves the store never carries its feed.
        expect(await repository.findById(ada._id)).toEqual(ada);

        const later = feed('c'.repeat(64), new Date('2030-02-01T00:00:00.000Z'));
        expect(await repository.setCalendarFeed(ada._id, later)).toBe(true);
        expect(await repository.findByCalendarFeed('a'.repeat(64))).toBeNull();
        expect(await repository.findByCalendarFeed('c'.repeat(64))).toEqual(ada);
        expect(await repository.findCalendarFeed(ada._id)).toEqual(later);
        expect(await repository.findByCalendarFeed('b'.repeat(64))).toEqual(grace);
      });

      it('removes a feed: its digest finds nobody; removing none is fine; an unknown or malformed id answers false', async () => {
        const repository = await open();
        const ada = await repository.create(newUser());
        await repository.setCalendarFeed(ada._id, feed('d'.repeat(64)));
        expect(await repository.clearCalendarFeed(ada._id)).toBe(true);
        expect(await repository.findByCalendarFeed('d'.repeat(64))).toBeNull();
        expect(await repository.findCalendarFeed(ada._id)).toBeNull();
        expect(await repository.clearCalendarFeed(ada._id)).toBe(true);
        for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
          expect(await repository.setCalendarFeed(id, feed('e'.repeat(64)))).toBe(false);
          expect(await repository.clearCalendarFeed(id)).toBe(false);
          expect(await repository.findCalendarFeed(id)).toBeNull();
        }
        expect(await repository.findByCalendarFeed('e'.repeat(64))).toBeNull();
      });

      it('goes with its user when the user is deleted, and stays across close and reopen', async () => {
        const first = await open();
        const [ada, grace] = [await first.create(newUser()), await first.create(newUser())];
        await first.setCalendarFeed(ada._id, feed('f'.repeat(64)));
        await first.setCalendarFeed(grace._id, feed('0'.repeat(64)));
        await first.close();
        const second = await open();
        expect(await second.findByCalendarFeed('f'.repeat(64))).toEqual(ada);
        expect(await second.delete(ada._id)).toBe(true);
        expect(await second.findByCalendarFeed('f'.repeat(64))).toBeNull();
        expect(await second.findByCalendarFeed('0'.repeat(64))).toEqual(grace);
      });
    });

    it('answers ping while open', async () => {
      const repository = await open();
      await expect(repository.ping()).resolves.toBe(true);
    });
  });
}

describeUsersRepositoryContract('SQLite', () => {
  const { dir, remove } = tempDir('tm-users-');
  return { open: async () => SqliteUsersStore.open({ dataDir: dir }), cleanup: async () => remove() };
});

describe('SQLite users store specifics', () => {
  it('keeps its data in users.sqlite under a data dir it creates', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const dataDir = path.join(dir, 'nested', 'data');
    const repository = SqliteUsersStore.open({ dataDir });
    try {
      expect(existsSync(path.join(dataDir, SQLITE_FILE))).toBe(true);
    } finally {
      await repository.close();
      remove();
    }
  });

  it('stores times as milliseconds since the epoch, from the injected clock', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const repository = SqliteUsersStore.open({ dataDir: dir, now: () => new Date('2026-01-02T03:04:05.678Z') });
    const created = await repository.create(newUser());
    await repository.close();
    const db = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
    try {
      expect(db.prepare('SELECT created_at FROM users WHERE id = ?').get(created._id)).toEqual({ created_at: Date.parse('2026-01-02T03:04:05.678Z') });
    } finally {
      db.close();
      remove();
    }
  });

  it('reads a file written with ISO text times and turns its times into milliseconds', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const old = new Database(path.join(dir, SQLITE_FILE));
    // The table exactly as the old code created it.
    old.exec(`CREATE TABLE users (
      id TEXT PRIMARY KEY, full_name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at TEXT NOT NULL
    ) STRICT;`);
    const user = newUser();
    old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?)').run('0123456789abcdef01234567', user.fullName, user.email, user.passwordHash, '2025-06-30T23:59:59.999Z');
    old.close();
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      const found = { _id: '0123456789abcdef01234567', fullName: user.fullName, email: user.email };
      expect(await repository.findByEmail(user.email)).toEqual({ ...found, passwordHash: user.passwordHash });
      expect(await repository.findById(found._id)).toEqual(found);
      // Still one user per email after the rebuild.
      await expect(repository.create(newUser({ email: user.email }))).rejects.toBeInstanceOf(DuplicateEmailError);
      await repository.close();
      // Opening the migrated file again changes nothing.
      const again = SqliteUsersStore.open({ dataDir: dir });
      expect(await again.findById(found._id)).toEqual(found);
      await again.close();
      const db = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
      expect(db.prepare('SELECT created_at FROM users').all()).toEqual([{ created_at: Date.parse('2025-06-30T23:59:59.999Z') }]);
      db.close();
    } finally {
      await repository.close();
      remove();
    }
  });

  it('adds the table of reset links to a file from before it, keeping the users', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const old = new Database(path.join(dir, SQLITE_FILE));
    old.exec(`CREATE TABLE users (
      id TEXT PRIMARY KEY, full_name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL
    ) STRICT;`);
    const user = newUser();
    old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?)').run('0123456789abcdef01234567', user.fullName, user.email, user.passwordHash, 1);
    old.close();
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      const reset = { tokenHash: 'f'.repeat(64), userId: '0123456789abcdef01234567', createdAt: new Date(1), expiresAt: new Date(2) };
      await repository.createPasswordReset(reset);
      expect(await repository.findPasswordReset(reset.tokenHash)).toEqual({ ...reset, usedAt: null });
      expect(await repository.findByEmail(user.email)).toMatchObject({ _id: '0123456789abcdef01234567' });
    } finally {
      await repository.close();
      remove();
    }
  });

  it('adds the time zone column in place to a file from before it: every account keeps its data and has none set', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const old = new Database(path.join(dir, SQLITE_FILE));
    // The table exactly as the code before time zones created it, with its reset links.
    old.exec(`CREATE TABLE users (
      id TEXT PRIMARY KEY, full_name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE password_resets (
      token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER
    ) STRICT;`);
    const user = newUser();
    old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?)').run('0123456789abcdef01234567', user.fullName, user.email, user.passwordHash, 1);
    old.prepare('INSERT INTO password_resets VALUES (?, ?, ?, ?, NULL)').run('d'.repeat(64), '0123456789abcdef01234567', 1, 2);
    old.close();
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      const found = { _id: '0123456789abcdef01234567', fullName: user.fullName, email: user.email };
      const read = await repository.findById(found._id);
      expect(read).toEqual(found);
      expect(read).not.toHaveProperty('timeZone');
      expect(await repository.findByEmail(user.email)).toEqual({ ...found, passwordHash: user.passwordHash });
      // The link survived the change of the table it refers to.
      expect(await repository.findPasswordReset('d'.repeat(64))).toMatchObject({ userId: found._id, usedAt: null });
      expect(await repository.updateProfile(found._id, { timeZone: 'Europe/Paris' })).toEqual({ ...found, timeZone: 'Europe/Paris' });
      await repository.close();
      // Opening the file again adds nothing and keeps the zone.
      const again = SqliteUsersStore.open({ dataDir: dir });
      expect(await again.findById(found._id)).toEqual({ ...found, timeZone: 'Europe/Paris' });
      await again.close();
      const db = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
      expect(db.prepare("SELECT name, type, \"notnull\" FROM pragma_table_info('users') WHERE name = 'time_zone'").all()).toEqual([{ name: 'time_zone', type: 'TEXT', notnull: 0 }]);
      expect(db.prepare('SELECT created_at, time_zone FROM users').all()).toEqual([{ created_at: 1, time_zone: 'Europe/Paris' }]);
      db.close();
    } finally {
      await repository.close();
      remove();
    }
  });

  it('adds the calendar feed columns in place to a file from before them: every account keeps its data and has no feed', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const old = new Database(path.join(dir, SQLITE_FILE));
    // The table exactly as the code before calendar feeds created it.
    old.exec(`CREATE TABLE users (
      id TEXT PRIMARY KEY, full_name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL, time_zone TEXT
    ) STRICT;`);
    const [ada, grace] = [newUser(), newUser()];
    old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?)').run('0123456789abcdef01234567', ada.fullName, ada.email, ada.passwordHash, 1, 'UTC');
    old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, NULL)').run('0123456789abcdef01234568', grace.fullName, grace.email, grace.passwordHash, 2);
    old.close();
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      const found = { _id: '0123456789abcdef01234567', fullName: ada.fullName, email: ada.email, timeZone: 'UTC' };
      expect(await repository.findById(found._id)).toEqual(found);
      expect(await repository.findCalendarFeed(found._id)).toBeNull();
      expect(await repository.findCalendarFeed('0123456789abcdef01234568')).toBeNull();
      expect(await repository.setCalendarFeed(found._id, { tokenHash: '9'.repeat(64), createdAt: new Date(5) })).toBe(true);
      await repository.close();
      // Opening the file again adds nothing and keeps the feed.
      const again = SqliteUsersStore.open({ dataDir: dir });
      expect(await again.findByCalendarFeed('9'.repeat(64))).toEqual(found);
      await again.close();
      const db = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
      expect(db.prepare("SELECT name, type FROM pragma_table_info('users') WHERE name LIKE 'calendar_feed_%' ORDER BY cid").all()).toEqual([
        { name: 'calendar_feed_hash', type: 'TEXT' },
        { name: 'calendar_feed_at', type: 'INTEGER' },
      ]);
      expect(db.prepare('SELECT id, calendar_feed_hash, calendar_feed_at FROM users ORDER BY id').all()).toEqual([
        { id: '0123456789abcdef01234567', calendar_feed_hash: '9'.repeat(64), calendar_feed_at: 5 },
        { id: '0123456789abcdef01234568', calendar_feed_hash: null, calendar_feed_at: null },
      ]);
      db.close();
    } finally {
      await repository.close();
      remove();
    }
  });

  it('gives an account rebuilt from ISO text times no time zone', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const old = new Database(path.join(dir, SQLITE_FILE));
    old.exec(`CREATE TABLE users (
      id TEXT PRIMARY KEY, full_name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at TEXT NOT NULL
    ) STRICT;`);
    const user = newUser();
    old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?)').run('0123456789abcdef01234567', user.fullName, user.email, user.passwordHash, '2025-06-30T23:59:59.999Z');
    old.close();
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      expect(await repository.findById('0123456789abcdef01234567')).toEqual({ _id: '0123456789abcdef01234567', fullName: user.fullName, email: user.email });
      expect(await repository.updateProfile('0123456789abcdef01234567', { timeZone: 'UTC' })).toMatchObject({ timeZone: 'UTC' });
    } finally {
      await repository.close();
      remove();
    }
  });

  it('keeps only the digest of a link, and refuses a link for no user (foreign key)', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      const refused = await repository
        .createPasswordReset({ tokenHash: 'e'.repeat(64), userId: '0123456789abcdef01234567', createdAt: new Date(1), expiresAt: new Date(2) })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      // By its code: the driver's error class belongs to whichever jest context loaded the driver first.
      expect(refused).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
      const db = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
      expect(db.prepare("SELECT name FROM pragma_table_info('password_resets') ORDER BY cid").all()).toEqual(
        ['token_hash', 'user_id', 'created_at', 'expires_at', 'used_at'].map((name) => ({ name })),
      );
      db.close();
    } finally {
      await repository.close();
      remove();
    }
  });

  it('fails ping once closed, so readiness turns to 503', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const repository = SqliteUsersStore.open({ dataDir: dir });
    await repository.close();
    await expect(repository.ping()).rejects.toThrow();
    remove();
  });
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  describeUsersRepositoryContract('MongoDB', () => {
    // A database per test, dropped afterwards, so runs never see each other's users.
    const dbName = `tm_users_test_${randomUUID().replaceAll('-', '')}`;
    return {
      open: () => MongoUsersStore.open({ url: mongoUrl, dbName }),
      cleanup: async () => {
        const client = await MongoClient.connect(mongoUrl);
        await client.db(dbName).dropDatabase();
        await client.close();
      },
    };
  });
} else {
  console.warn('MongoDB store suite skipped: MONGO_URL is not set');
  // No MongoDB server can be installed on the dev/CI machines (docs/ARCHITECTURE.md, "Storage"); set MONGO_URL to run it.
  describe.skip('UsersRepository contract: MongoDB (MONGO_URL is not set)', () => { // reason: no MongoDB without MONGO_URL
    it('runs only against a real MongoDB server', () => {
      expect(mongoUrl).toBeDefined();
    });
  });
}
