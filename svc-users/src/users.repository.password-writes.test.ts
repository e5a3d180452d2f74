// The repository contract of a password write that ends the user's reset links (replacePasswordHash with
// `endResetLinks`, docs/PRODUCT.md §10.10, SECURITY.md "Password reset"), held to every adapter like the suite of
// users.repository.test.ts: SQLite always, MongoDB when MONGO_URL is set.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { newUser as newSignup, tempDir } from '@tm/test-support';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { MongoUsersStore } from './mongo-users.store.js';
import { SQLITE_FILE, SqliteUsersStore } from './sqlite-users.store.js';
import type { NewUser, UsersRepository } from './users.repository.js';

interface StoreHarness {
  open(): Promise<UsersRepository>;
  cleanup(): Promise<void>;
}

const OLD_HASH = 'scrypt$17$8$1$c2FsdA==$aGFzaA==';
const NEW_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

function newUser(): NewUser {
  const { fullName, email } = newSignup('Ada Lovelace');
  return { fullName, email, passwordHash: OLD_HASH };
}

const link = (userId: string, tokenHash: string) => ({
  tokenHash,
  userId,
  createdAt: new Date('2030-01-01T00:00:00.000Z'),
  expiresAt: new Date('2030-01-01T00:30:00.000Z'),
});

function describePasswordWriteContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`UsersRepository password writes: ${name}`, () => {
    let harness: StoreHarness;
    let repository: UsersRepository;
    beforeEach(async () => {
      harness = makeHarness();
      repository = await harness.open();
    });
    afterEach(async () => {
      await repository.close();
      await harness.cleanup();
    });

    it("writes the new hash and ends every reset link of that user, and nobody else's", async () => {
      const [ada, grace] = [newUser(), newUser()];
      const [adaId, graceId] = [(await repository.create(ada))._id, (await repository.create(grace))._id];
      await repository.createPasswordReset(link(adaId, '1'.repeat(64)));
      await repository.createPasswordReset(link(adaId, '2'.repeat(64)));
      await repository.createPasswordReset(link(graceId, '3'.repeat(64)));
      expect(await repository.replacePasswordHash(adaId, OLD_HASH, NEW_HASH, { endResetLinks: true })).toBe(true);
      expect(await repository.findByEmail(ada.email)).toMatchObject({ passwordHash: NEW_HASH });
      expect(await repository.findPasswordReset('1'.repeat(64))).toBeNull();
      expect(await repository.findPasswordReset('2'.repeat(64))).toBeNull();
      expect(await repository.findPasswordReset('3'.repeat(64))).toMatchObject({ userId: graceId, usedAt: null });
      expect(await repository.findByEmail(grace.email)).toMatchObject({ passwordHash: OLD_HASH });
    });

    it('writes nothing, the links included, when the hash changed meanwhile or there is no such user', async () => {
      const ada = newUser();
      const id = (await repository.create(ada))._id;
      await repository.createPasswordReset(link(id, '4'.repeat(64)));
      const changed = 'scrypt$17$8$1$Y2hhbmdlZA==$Y2hhbmdlZA==';
      await repository.updatePasswordHash(id, changed);
      expect(await repository.replacePasswordHash(id, OLD_HASH, NEW_HASH, { endResetLinks: true })).toBe(false);
      expect(await repository.replacePasswordHash('0123456789abcdef01234567', changed, NEW_HASH, { endResetLinks: true })).toBe(false);
      expect(await repository.replacePasswordHash('not-an-id', changed, NEW_HASH, { endResetLinks: true })).toBe(false);
      expect(await repository.findByEmail(ada.email)).toMatchObject({ passwordHash: changed });
      expect(await repository.findPasswordReset('4'.repeat(64))).toMatchObject({ userId: id, usedAt: null });
    });

    it('keeps the links without endResetLinks (the rehash at sign-in changes no password)', async () => {
      const ada = newUser();
      const id = (await repository.create(ada))._id;
      await repository.createPasswordReset(link(id, '5'.repeat(64)));
      expect(await repository.replacePasswordHash(id, OLD_HASH, NEW_HASH, { endResetLinks: false })).toBe(true);
      expect(await repository.findByEmail(ada.email)).toMatchObject({ passwordHash: NEW_HASH });
      expect(await repository.findPasswordReset('5'.repeat(64))).toMatchObject({ userId: id, usedAt: null });
    });
  });
}

describePasswordWriteContract('SQLite', () => {
  const { dir, remove } = tempDir('tm-users-');
  return { open: async () => SqliteUsersStore.open({ dataDir: dir }), cleanup: async () => remove() };
});

describe('SQLite password write, one transaction', () => {
  it('keeps the old hash when ending the links fails', async () => {
    const { dir, remove } = tempDir('tm-users-');
    const repository = SqliteUsersStore.open({ dataDir: dir });
    try {
      const ada = newUser();
      const id = (await repository.create(ada))._id;
      await repository.createPasswordReset(link(id, '6'.repeat(64)));
      // Another connection makes every removal of a link fail, after the hash was swapped in the same transaction.
      const db = new Database(path.join(dir, SQLITE_FILE));
      db.exec("CREATE TRIGGER refuse_link_removal BEFORE DELETE ON password_resets BEGIN SELECT RAISE(ABORT, 'links cannot be removed'); END;");
      db.close();
      const refused = await repository.replacePasswordHash(id, OLD_HASH, NEW_HASH, { endResetLinks: true }).then(
        () => undefined,
        (error: unknown) => error,
      );
      // By its code: the driver's error class belongs to whichever jest context loaded the driver first.
      expect(refused).toMatchObject({ code: 'SQLITE_CONSTRAINT_TRIGGER', message: 'links cannot be removed' });
      expect(await repository.findByEmail(ada.email)).toMatchObject({ passwordHash: OLD_HASH });
      expect(await repository.findPasswordReset('6'.repeat(64))).toMatchObject({ userId: id, usedAt: null });
    } finally {
      await repository.close();
      remove();
    }
  });
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  describePasswordWriteContract('MongoDB', () => {
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
  console.warn('MongoDB password write suite skipped: MONGO_URL is not set');
  // No MongoDB server can be installed on the dev/CI machines (docs/ARCHITECTURE.md, "Storage"); set MONGO_URL to run it.
  describe.skip('UsersRepository password writes: MongoDB (MONGO_URL is not set)', () => { // reason: no MongoDB without MONGO_URL
    it('runs only against a real MongoDB server', () => {
      expect(mongoUrl).toBeDefined();
    });
  });
}
