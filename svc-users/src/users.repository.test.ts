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

    it('replaces the hash only while it is still the expected one (the upgrade at sign-in, issue #10)', async () => {
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

  it('reads a file written with ISO text times (before issue #11) and turns its times into milliseconds', async () => {
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
