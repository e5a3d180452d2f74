import { randomUUID } from 'node:crypto';
import { ErrorCode, UserResponse } from '@tm/contracts';
import { IDENTITY_HEADERS, signIdentity } from '@tm/service-kit';
import { signedCall, TEST_SECRET } from '@tm/test-support';
import { fastHasher, startTestService, type TestService } from './users.test-app.js';

const ada = { fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical-engine' };
const INVALID_CREDENTIALS = { message: 'Invalid email or password', code: ErrorCode.invalidCredentials };
const NOT_SIGNED_IN = { message: 'Not signed in', code: ErrorCode.unauthenticated };
const BAD_SIGNATURE = { message: 'Request was not signed by the gateway', code: ErrorCode.badSignature };

const signup = (url: string, body: unknown) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/signup', body });
const login = (url: string, body: unknown) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/login', body });
const me = (url: string, userId?: string) => signedCall<UserResponse>(url, { path: '/user/me', userId });

async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await call();
  return [result, performance.now() - start];
}

describe('svc-users at the production scrypt cost', () => {
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
    expect(JSON.stringify(profile.body)).not.toMatch(/password|scrypt/i);
  });

  it('answers an unknown email and a wrong password identically, in comparable time', async () => {
    const [wrongPassword, wrongMs] = await timed(() => login(service.url, { email: ada.email, password: 'not-the-password' }));
    const [unknownEmail, unknownMs] = await timed(() => login(service.url, { email: 'nobody@example.com', password: 'not-the-password' }));
    expect(wrongPassword).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    // Not a speed target: without the dummy hash the unknown email answers in ~1 ms against ~500 ms
    // (ratio ~0.002). The bound is loose so a busy CI machine cannot make it flaky.
    expect(unknownMs / wrongMs).toBeGreaterThan(0.2);
  });
});

describe('svc-users accounts', () => {
  let service: TestService;
  beforeEach(async () => {
    service = await startTestService(fastHasher());
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

describe('svc-users gateway signature', () => {
  let service: TestService;
  let userId: string;
  beforeAll(async () => {
    service = await startTestService(fastHasher());
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
    const service = await startTestService(fastHasher());
    await service.repository.close();
    const response = await fetch(`${service.url}/readyz`);
    expect(response.status).toBe(503);
    await service.stop();
  });
});
