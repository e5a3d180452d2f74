// A full disk (docs/OPERATIONS.md "Full disk") for svc-users: its SQLite file on a 4 MiB tmpfs mounted for the test, filled by a
// filler file, the service wired as server.ts does over real HTTP on 127.0.0.1. A signup on the full disk
// answers an honest 503; readiness says the store cannot write; every account acknowledged before still
// signs in; freeing the space brings it all back. Needs root to mount; anywhere else the suite says why it skipped.
import path from 'node:path';
import { API, ErrorBody, ErrorCode, UserResponse, type PublicUser } from '@tm/contracts';
import { createLogger, DEFAULT_MIN_FREE_BYTES, STORAGE_FULL_MESSAGE } from '@tm/service-kit';
import { listen, mountSmallDisk, newUser, jsonLogSink, readiness, readinessWithin, signedCall, smallDiskUnavailableReason, TEST_SECRET, type CallResult, type NewUser, type SmallDisk, type Started } from '@tm/test-support';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { createApp } from './app.js';
import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { LOCAL_MAIL_FROM } from './config.js';
import { createMailer } from './nodemailer-mailer.js';
import { SQLITE_FILE, SqliteUsersStore } from './sqlite-users.store.js';

const DISK_BYTES = 4 * 1024 * 1024;
/** Short here so the test sees readiness come back by itself; 15 s in production (DEFAULT_FAILURE_HOLD_MS). */
const FAILURE_HOLD_MS = 1500;
const StrictErrorBody = z.strictObject(ErrorBody.shape);

const unavailable = smallDiskUnavailableReason();

if (unavailable) {
  console.warn(`svc-users full-disk suite skipped: ${unavailable}. It mounts a 4 MiB tmpfs as DATA_DIR (CI runs as root).`);
  // Skipped on purpose: a full disk is only ever a real one here, never faked.
  describe.skip('svc-users on a full data disk (no tmpfs can be mounted here)', () => { // reason: mounting a tmpfs needs root on Linux
    it('needs a real small disk to fill', () => undefined);
  });
} else {
  describe('svc-users on a full data disk (a 4 MiB tmpfs)', () => {
    let disk: SmallDisk | undefined;
    let store: SqliteUsersStore | undefined;
    let server: Started | undefined;
    const { stream: out, lines: logs } = jsonLogSink();

    beforeAll(async () => {
      disk = mountSmallDisk(DISK_BYTES, 'svc-users-full-disk-');
      store = SqliteUsersStore.open({ dataDir: disk.dir });
      const { app } = createApp({
        repository: store,
        hasher: new Argon2idPasswordHasher(),
        logger: createLogger('svc-users', 'info', 'json', out),
        mailer: createMailer({ from: LOCAL_MAIL_FROM, dataDir: disk.dir, logger: createLogger('svc-users', 'silent') }),
        internalSecret: TEST_SECRET,
        storage: { dataDir: disk.dir, failureHoldMs: FAILURE_HOLD_MS },
      });
      server = await listen(app);
    });

    afterAll(async () => {
      try {
        await server?.close();
        await store?.close();
      } finally {
        // Even when a test failed: never leave a mount behind.
        disk?.unmount();
      }
    });

    const url = () => server?.url ?? '';
    const signup = (account: NewUser) => signedCall(url(), { method: API.signup.method, path: API.signup.path, body: account });
    const login = ({ email, password }: NewUser) => signedCall(url(), { method: API.login.method, path: API.login.path, body: { email, password } });
    const readyz = () => readiness(url());

    it('a signup answers 503 "Storage is full", readiness fails, every acknowledged account still signs in, and it all comes back once space is freed', async () => {
      const acknowledged: { account: NewUser; user: PublicUser }[] = [];
      const signupAcknowledged = async (answer: CallResult, account: NewUser) => {
        expect(answer.status).toBe(201);
        acknowledged.push({ account, user: UserResponse.parse(answer.body).user });
      };
      expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { store: 'up', writes: 'up' } } });
      for (let i = 0; i < 5; i += 1) {
        const account = newUser(`Before the disk filled ${i}`);
        await signupAcknowledged(await signup(account), account);
      }

      disk!.fill(64 * 1024);
      expect(disk!.freeBytes()).toBeLessThan(DEFAULT_MIN_FREE_BYTES);
      // Signups until the space runs out: each one 201 or, at the end, an honest 503; never a 500.
      let refused: CallResult | undefined;
      for (let i = 0; i < 50 && !refused; i += 1) {
        const account = newUser(`While the disk fills ${i}`);
        const answer = await signup(account);
        if (answer.status === 201) await signupAcknowledged(answer, account);
        else refused = answer;
      }
      expect(acknowledged.length).toBeGreaterThan(5);
      expect({ status: refused?.status, body: refused?.body }).toEqual({ status: 503, body: { message: STORAGE_FULL_MESSAGE, code: ErrorCode.storageNotWritable } });
      StrictErrorBody.parse(refused?.body);
      const requestId = refused?.headers.get('x-request-id');
      expect(logs.find((line) => line.msg === 'storage refused the write: the change was not saved' && (line.req as { id?: unknown } | undefined)?.id === requestId)).toMatchObject({
        level: 50,
        storage: { kind: 'full', code: 'SQLITE_FULL' },
      });
      expect(await readyz()).toEqual({ status: 503, body: { status: 'unavailable', checks: { store: 'up', writes: 'down' } } });

      // Reads still work: every acknowledged account signs in (Argon2id hashes need no rehash, so nothing is written).
      for (const { account, user } of acknowledged) {
        const answer = await login(account);
        expect({ status: answer.status, id: (answer.body as UserResponse).user?._id }).toEqual({ status: 200, id: user._id });
      }

      // Space back: readiness returns by itself, then signups work again.
      disk!.release();
      const ready = await readinessWithin(url(), FAILURE_HOLD_MS + 5000);
      expect(ready).toEqual({ status: 200, body: { status: 'ready', checks: { store: 'up', writes: 'up' } } });
      const late = newUser('After the space came back');
      await signupAcknowledged(await signup(late), late);
      expect((await login(late)).status).toBe(200);

      const db = new Database(path.join(disk!.dir, SQLITE_FILE));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: acknowledged.length });
      } finally {
        db.close();
      }
    });
  });
}
