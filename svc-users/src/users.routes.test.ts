import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ErrorCode, INTERNAL_API, MessageResponse, UserResponse, type PublicUser } from '@tm/contracts';
import { WEAK_PASSWORD_MESSAGE } from '@tm/password-policy';
import { IDENTITY_HEADERS, signIdentity } from '@tm/service-kit';
import { signedCall, TEST_SECRET } from '@tm/test-support';
import Database from 'better-sqlite3';
import { ScryptPasswordHasher } from './scrypt-password.hasher.js';
import { SQLITE_FILE } from './sqlite-users.store.js';
import { startTestService, type TestService } from './users.test-helpers.js';

const ada = { fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical-engine' };
const INVALID_CREDENTIALS = { message: 'Invalid email or password', code: ErrorCode.invalidCredentials };
const NOT_SIGNED_IN = { message: 'Not signed in', code: ErrorCode.unauthenticated };
const BAD_SIGNATURE = { message: 'Request was not signed by the gateway', code: ErrorCode.badSignature };

const signup = (url: string, body: unknown) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/signup', body });
const login = (url: string, body: unknown) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/login', body });
const me = (url: string, userId?: string) => signedCall<UserResponse>(url, { path: '/user/me', userId });
const changePassword = (url: string, userId: string | undefined, body: unknown) =>
  signedCall(url, { method: 'PUT', path: '/user/password', userId, body });
const verifyPassword = (url: string, userId: string | undefined, body: unknown) =>
  signedCall(url, { method: INTERNAL_API.verifyPassword.method, path: INTERNAL_API.verifyPassword.path, userId, body });
const deleteUser = (url: string, userId?: string) =>
  signedCall(url, { method: INTERNAL_API.deleteUser.method, path: INTERNAL_API.deleteUser.path, userId });

const weakPassword = (field: string) => ({
  message: WEAK_PASSWORD_MESSAGE,
  code: ErrorCode.validation,
  issues: [{ path: [field], message: WEAK_PASSWORD_MESSAGE }],
});
const wrongPassword = (field: string, message: string) => ({ message, code: ErrorCode.wrongPassword, issues: [{ path: [field], message }] });
const WRONG_CURRENT_PASSWORD = wrongPassword('currentPassword', 'The current password is incorrect');

/** Median duration of `runs` calls of `call`, one after the other. */
async function medianMs(runs: number, call: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

describe('svc-users at the production hashing cost', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  it('signs up (201), logs in (200) and fetches the profile (200)', async () => {
    const created = await signup(service.url, ada);
    expect(created.status).toBe(201);
    expect(UserResponse.parse(created.body)).toEqual({
      message: 'Account created successfully',
      user: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), fullName: ada.fullName, email: ada.email },
    });
    const user = created.body.user;

    const loggedIn = await login(service.url, { email: ada.email, password: ada.password });
    expect(loggedIn).toMatchObject({ status: 200, body: { message: 'Logged in successfully', user } });

    const profile = await me(service.url, user._id);
    expect(profile).toMatchObject({ status: 200, body: { message: 'User fetched successfully', user } });
    expect(JSON.stringify(profile.body)).not.toMatch(/password|scrypt|argon2/i);
  });

  it('answers an unknown email and a wrong password identically, in comparable time', async () => {
    const wrongPassword = await login(service.url, { email: ada.email, password: 'not-the-password' });
    const unknownEmail = await login(service.url, { email: 'nobody@example.com', password: 'not-the-password' });
    expect(wrongPassword).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    // Not a speed target: without the dummy hash the unknown email answers in ~1 ms against ~15 ms (a ratio
    // near 0.1). Medians of a few calls, and a loose bound, so a busy CI machine cannot make it flaky.
    const wrongMs = await medianMs(5, () => login(service.url, { email: ada.email, password: 'not-the-password' }));
    const unknownMs = await medianMs(5, () => login(service.url, { email: 'nobody@example.com', password: 'not-the-password' }));
    expect(unknownMs / wrongMs).toBeGreaterThan(0.3);
  });
});

describe('svc-users with a password stored by scrypt, before Argon2id', () => {
  const legacy = new ScryptPasswordHasher({ logN: 10 });
  const ARGON2ID = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
  let service: TestService;
  let file: Database.Database;
  let user: PublicUser;
  beforeEach(async () => {
    service = await startTestService();
    user = await service.repository.create({ fullName: ada.fullName, email: ada.email, passwordHash: await legacy.hash(ada.password) });
    file = new Database(path.join(service.dataDir, SQLITE_FILE));
  });
  afterEach(async () => {
    file.close();
    await service.stop();
  });

  /** The hash in the SQLite file, read over a connection of its own. */
  const storedHash = (): string => (file.prepare('SELECT password_hash FROM users WHERE id = ?').get(user._id) as { password_hash: string }).password_hash;
  const loginWith = (password: string) => login(service.url, { email: ada.email, password });

  it('signs in, replaces the hash with Argon2id in the SQLite file, and the same password still signs in', async () => {
    const scryptHash = storedHash();
    expect(scryptHash.startsWith('scrypt$10$8$1$')).toBe(true);
    expect(await loginWith('not-the-password')).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
    expect(storedHash()).toBe(scryptHash);

    expect(await loginWith(ada.password)).toMatchObject({ status: 200, body: { user } });
    const upgraded = storedHash();
    expect(upgraded).toMatch(ARGON2ID);

    expect(await loginWith(ada.password)).toMatchObject({ status: 200, body: { user } });
    expect(storedHash()).toBe(upgraded);
    expect(await loginWith('not-the-password')).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
    expect(await verifyPassword(service.url, user._id, { password: ada.password })).toMatchObject({ status: 200 });
  });

  it('signs in even when storing the new hash fails, logs why, and upgrades at a later sign-in', async () => {
    const scryptHash = storedHash();
    file.exec("CREATE TRIGGER refuse_hash_change BEFORE UPDATE OF password_hash ON users BEGIN SELECT RAISE(ABORT, 'hashes are read-only'); END");
    const warn = jest.spyOn(service.logger, 'warn');
    expect(await loginWith(ada.password)).toMatchObject({ status: 200, body: { user } });
    expect(storedHash()).toBe(scryptHash);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ userId: user._id, err: expect.objectContaining({ message: 'hashes are read-only' }) }),
      'password hash upgrade failed; the stored hash is kept',
    );

    file.exec('DROP TRIGGER refuse_hash_change');
    expect(await loginWith(ada.password)).toMatchObject({ status: 200 });
    expect(storedHash()).toMatch(ARGON2ID);
  });

  it('checks the current password against the scrypt hash on a password change, and stores the new one with Argon2id', async () => {
    const newPassword = 'difference-engine-1837';
    expect(await changePassword(service.url, user._id, { currentPassword: ada.password, newPassword })).toMatchObject({ status: 200 });
    expect(storedHash()).toMatch(ARGON2ID);
    expect(await loginWith(newPassword)).toMatchObject({ status: 200 });
    expect(await loginWith(ada.password)).toMatchObject({ status: 401 });
  });

  it('stores a new account with Argon2id', async () => {
    const created = await signup(service.url, { ...ada, email: 'grace@example.com', fullName: 'Grace Hopper' });
    expect(created.status).toBe(201);
    const row = file.prepare('SELECT password_hash FROM users WHERE id = ?').get(created.body.user._id) as { password_hash: string };
    expect(row.password_hash).toMatch(ARGON2ID);
  });
});

describe('svc-users accounts', () => {
  let service: TestService;
  beforeEach(async () => {
    service = await startTestService();
  });
  afterEach(() => service.stop());

  it('normalises the email: "  Foo@Example.COM " signs in as foo@example.com', async () => {
    const created = await signup(service.url, { ...ada, email: '  Foo@Example.COM ' });
    expect(created).toMatchObject({ status: 201, body: { user: { email: 'foo@example.com' } } });
    const loggedIn = await login(service.url, { email: 'foo@example.com', password: ada.password });
    expect(loggedIn).toMatchObject({ status: 200, body: { user: { email: 'foo@example.com' } } });
    expect(await login(service.url, { email: 'FOO@example.com  ', password: ada.password })).toMatchObject({ status: 200 });
  });

  it.each([ada.email, 'ADA@Example.com'])('refuses a second signup with %s (409) and keeps the first account', async (email) => {
    await signup(service.url, ada);
    const again = await signup(service.url, { fullName: 'Impostor', email, password: 'impostor-password' });
    expect(again).toMatchObject({ status: 409, body: { message: 'An account with this email already exists', code: ErrorCode.emailTaken } });
    expect(await login(service.url, { email: ada.email, password: 'impostor-password' })).toMatchObject({ status: 401 });
    expect(await login(service.url, { email: ada.email, password: ada.password })).toMatchObject({
      status: 200,
      body: { user: { fullName: ada.fullName } },
    });
  });

  it('lets exactly one of several concurrent signups with one email win', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => signup(service.url, { ...ada, fullName: `Racer ${n}` })));
    expect(results.map((result) => result.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('answers 401 on me without a signed-in user', async () => {
    expect(await me(service.url)).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
  });

  it.each([
    ['an id with no account', '0123456789abcdef01234567'],
    ['a malformed id', 'not-an-object-id'],
  ])('answers 401 on me for %s', async (_case, userId) => {
    expect(await me(service.url, userId)).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
  });
});

describe('svc-users weak passwords at signup', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  it.each([
    ['a common password', 'password123'],
    ['a run of digits', '12345678'],
    ['a keyboard row', 'qwertyuiop'],
    ['the email itself', ada.email],
    ['the name with a year', 'adalovelace1815'],
  ])('refuses %s with 400 on the password field and creates no account', async (_case, password) => {
    const refused = await signup(service.url, { ...ada, password });
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.body).toEqual(weakPassword('password'));
    expect(await service.repository.findByEmail(ada.email)).toBeNull();
  });

  it('accepts a passphrase', async () => {
    expect(await signup(service.url, { ...ada, password: 'correct horse battery staple' })).toMatchObject({ status: 201 });
  });
});

describe('svc-users with an account', () => {
  let service: TestService;
  let userId: string;
  beforeEach(async () => {
    service = await startTestService();
    userId = (await signup(service.url, ada)).body.user._id;
  });
  afterEach(() => service.stop());

  describe('password change', () => {
    const loginWith = (password: string) => login(service.url, { email: ada.email, password });

    /** The password still in force is `password`, and nothing else logs in. */
    async function expectPasswordIs(password: string, notPasswords: string[]): Promise<void> {
      expect(await loginWith(password)).toMatchObject({ status: 200 });
      for (const other of notPasswords) expect(await loginWith(other)).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
    }

    it('changes the password: the old one no longer logs in, the new one does', async () => {
      const newPassword = 'difference-engine-1837';
      const changed = await changePassword(service.url, userId, { currentPassword: ada.password, newPassword });
      expect(changed.status).toBe(200);
      expect(MessageResponse.strict().parse(changed.body)).toEqual({ message: 'Password changed successfully' });
      await expectPasswordIs(newPassword, [ada.password]);
      expect(await me(service.url, userId)).toMatchObject({ status: 200, body: { user: { _id: userId } } });
    });

    it('refuses a wrong current password with 403 and changes nothing', async () => {
      const refused = await changePassword(service.url, userId, { currentPassword: 'not-the-password', newPassword: 'difference-engine-1837' });
      expect(refused).toMatchObject({ status: 403, body: WRONG_CURRENT_PASSWORD });
      expect(refused.body).toEqual(WRONG_CURRENT_PASSWORD);
      await expectPasswordIs(ada.password, ['difference-engine-1837']);
    });

    it.each([
      ['a common password', 'password123'],
      ['the email', ada.email],
      ['the name', 'AdaLovelace'],
    ])('refuses %s as the new password with 400 and changes nothing', async (_case, newPassword) => {
      const refused = await changePassword(service.url, userId, { currentPassword: ada.password, newPassword });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: weakPassword('newPassword') });
      await expectPasswordIs(ada.password, [newPassword]);
    });

    it.each([
      ['the same password', ada.password],
      ['the same password in another Unicode form (NFKC)', `\uFF41${ada.password.slice(1)}`],
    ])('refuses %s as the new one with 400', async (_case, newPassword) => {
      const message = 'Choose a password different from your current one';
      const refused = await changePassword(service.url, userId, { currentPassword: ada.password, newPassword });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: { message, code: ErrorCode.validation, issues: [{ path: ['newPassword'], message }] },
      });
      await expectPasswordIs(ada.password, []);
    });

    it.each([
      ['an id with no account', '0123456789abcdef01234567'],
      ['a malformed id', 'not-an-object-id'],
      ['no signed-in user', undefined],
    ])('answers 401 for %s', async (_case, otherId) => {
      const refused = await changePassword(service.url, otherId, { currentPassword: ada.password, newPassword: 'difference-engine-1837' });
      expect(refused).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      await expectPasswordIs(ada.password, ['difference-engine-1837']);
    });
  });

  describe('internal account calls', () => {
    it('verifies the right password (200) and refuses a wrong one (403 on the password field)', async () => {
      const verified = await verifyPassword(service.url, userId, { password: ada.password });
      expect(verified.status).toBe(200);
      expect(MessageResponse.strict().parse(verified.body)).toEqual({ message: 'Password verified' });
      const refused = await verifyPassword(service.url, userId, { password: 'not-the-password' });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 403,
        body: wrongPassword('password', 'The password is incorrect'),
      });
    });

    it('deletes the account: login then fails, me is 401, and a repeat answers the same 200', async () => {
      const other = (await signup(service.url, { ...ada, email: 'grace@example.com', fullName: 'Grace Hopper' })).body.user;
      const deleted = await deleteUser(service.url, userId);
      expect(deleted.status).toBe(200);
      expect(MessageResponse.strict().parse(deleted.body)).toEqual({ message: 'Account deleted successfully' });
      expect(await login(service.url, { email: ada.email, password: ada.password })).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
      expect(await me(service.url, userId)).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect(await deleteUser(service.url, userId)).toMatchObject({ status: 200, body: { message: 'Account deleted successfully' } });
      expect(await me(service.url, other._id)).toMatchObject({ status: 200, body: { user: other } });
    });

    it('answers 401 to password calls for a deleted account, and frees its email', async () => {
      await deleteUser(service.url, userId);
      expect(await verifyPassword(service.url, userId, { password: ada.password })).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      const change = await changePassword(service.url, userId, { currentPassword: ada.password, newPassword: 'difference-engine-1837' });
      expect(change).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      const again = await signup(service.url, ada);
      expect(again.status).toBe(201);
      expect(again.body.user._id).not.toBe(userId);
    });

    it.each([
      ['verify-password', () => verifyPassword(service.url, undefined, { password: ada.password })],
      ['delete', () => deleteUser(service.url)],
    ])('%s needs a signed-in user (401) and leaves the account alone', async (_case, request) => {
      expect(await request()).toMatchObject({ status: 401, body: NOT_SIGNED_IN });
      expect(await me(service.url, userId)).toMatchObject({ status: 200 });
    });

    it('never answers with the password hash', async () => {
      const bodies = [
        (await verifyPassword(service.url, userId, { password: ada.password })).body,
        (await verifyPassword(service.url, userId, { password: 'not-the-password' })).body,
        (await changePassword(service.url, userId, { currentPassword: ada.password, newPassword: 'difference-engine-1837' })).body,
        (await deleteUser(service.url, userId)).body,
      ];
      expect(JSON.stringify(bodies)).not.toMatch(/scrypt|argon2|passwordHash|password_hash/i);
    });
  });
});

describe('svc-users gateway signature', () => {
  let service: TestService;
  let userId: string;
  beforeAll(async () => {
    service = await startTestService();
    userId = (await signup(service.url, ada)).body.user._id;
  });
  afterAll(() => service.stop());

  async function rawCall(path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const response = await fetch(service.url + path, { headers });
    return { status: response.status, body: await response.json() };
  }

  it('accepts a properly signed call (the baseline the cases below break)', async () => {
    expect(await me(service.url, userId)).toMatchObject({ status: 200 });
  });

  it('refuses an unsigned call with a bare user id header', async () => {
    expect(await rawCall('/user/me', { [IDENTITY_HEADERS.userId]: userId })).toEqual({ status: 401, body: BAD_SIGNATURE });
  });

  it('refuses a call signed with another secret', async () => {
    const forged = await signedCall(service.url, { path: '/user/me', userId, secret: 'forged-secret-forged-secret-forged-secret' });
    expect(forged).toMatchObject({ status: 401, body: BAD_SIGNATURE });
  });

  it('refuses a signature for another user id', async () => {
    const swapped = await signedCall(service.url, {
      path: '/user/me',
      userId: '0123456789abcdef01234567',
      headers: { [IDENTITY_HEADERS.userId]: userId },
    });
    expect(swapped).toMatchObject({ status: 401, body: BAD_SIGNATURE });
  });

  it('refuses a stale signature', async () => {
    const requestId = randomUUID();
    const stale = signIdentity(TEST_SECRET, { method: 'GET', url: '/user/me', userId, requestId }, Date.now() - 60_000);
    expect(await rawCall('/user/me', { 'x-request-id': requestId, ...stale })).toEqual({ status: 401, body: BAD_SIGNATURE });
  });

  it.each(['/healthz', '/readyz', '/metrics'])('serves %s without a signature', async (path) => {
    const response = await fetch(service.url + path);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(path === '/metrics' ? /http_request_duration_seconds/ : /"status":"(ok|ready)"/);
  });

  it('answers 404 and 405 in the API error shape', async () => {
    expect(await signedCall(service.url, { path: '/user/nope' })).toMatchObject({ status: 404, body: { code: ErrorCode.routeNotFound } });
    expect(await signedCall(service.url, { path: '/user/login' })).toMatchObject({ status: 405, body: { code: ErrorCode.methodNotAllowed } });
  });
});

describe('svc-users readiness', () => {
  it('reports 503 on /readyz once the store is gone', async () => {
    const service = await startTestService();
    await service.repository.close();
    const response = await fetch(`${service.url}/readyz`);
    expect(response.status).toBe(503);
    await service.stop();
  });
});
