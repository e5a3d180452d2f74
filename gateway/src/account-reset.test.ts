// The account page's profile call and a forgotten password, through the gateway over real HTTP (docs/PRODUCT.md
// §10.10, SECURITY.md "Password reset"): svc-users and svc-todos as their built processes sharing a data folder,
// the reset mails read from svc-users' local outbox there, as a person reads their inbox.
import { request } from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ErrorCode, type UserResponse } from '@tm/contracts';
import { ApiClient, mailsTo, resetLinkOf, signUp, startServices, upstreamsOf, waitForMail, type RunningServices } from '@tm/test-support';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';
import { RESET_REQUESTS_PER_ADDRESS } from './password-reset.routes.js';

const SENT = 'If an account exists for that address, we sent it a link to choose a new password. The link works once, for 30 minutes.';
const NEW_PASSWORD = 'a lighthouse made of marmalade';

let services: RunningServices;
let gateway: TestGateway;
beforeAll(async () => {
  services = await startServices();
  gateway = await startGateway(upstreamsOf(services));
});
afterAll(async () => {
  await gateway.close();
  await services.stop();
});

type Overrides = Parameters<typeof startGateway>[1];

/** A gateway of its own (another configuration) in front of the same services. */
async function withGateway(overrides: Overrides, run: (other: TestGateway) => Promise<void>): Promise<void> {
  const other = await startGateway(upstreamsOf(services), overrides);
  try {
    await run(other);
  } finally {
    await other.close();
  }
}

/** A visitor's browser: it has its XSRF cookie. */
async function visitor(url = gateway.url): Promise<ApiClient> {
  const client = new ApiClient(url);
  await client.get('/api/user/me');
  return client;
}

/**
 * POSTs JSON as `client` with a Host header of the caller's choosing (fetch always sends the real one), as a
 * script would to make a link point elsewhere. Resolves to the status.
 */
function postWithHost(client: ApiClient, route: string, body: unknown, host: string): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      `${client.baseUrl}${route}`,
      {
        method: 'POST',
        headers: {
          host,
          'x-forwarded-host': host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          cookie: client.cookieHeader(),
          'x-xsrf-token': client.xsrfToken ?? '',
        },
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** The same account signed in on another device. */
async function otherDevice(email: string, password: string, url = gateway.url): Promise<ApiClient> {
  const client = await visitor(url);
  expect((await client.post('/api/user/login', { email, password })).status).toBe(200);
  return client;
}

/** Asks for a link for `email` from `client` and returns the link of the `count`-th reset mail to it. */
async function linkFor(client: ApiClient, email: string, count = 1): Promise<URL> {
  expect(await client.post('/api/user/forgot-password', { email })).toMatchObject({ status: 200, body: { message: SENT } });
  return resetLinkOf(await waitForMail(services.dataDir, email, { subject: /^Reset your/, count }));
}

const tokenOf = (link: URL) => link.searchParams.get('token') ?? '';

describe('forgot password (docs/PRODUCT.md §10.10)', () => {
  it('answers the same for an address with an account and one without; mails a link to the gateway\'s own address only for the first', async () => {
    const { email } = await signUp(gateway.url, { name: 'Forgetful' });
    const browser = await visitor();
    const known = await browser.post('/api/user/forgot-password', { email: ` ${email.toUpperCase()} ` });
    const unknown = await browser.post('/api/user/forgot-password', { email: `nobody-${email}` });
    expect({ status: known.status, body: known.body }).toEqual({ status: 200, body: { message: SENT } });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    const link = resetLinkOf(await waitForMail(services.dataDir, email));
    expect(`${link.origin}${link.pathname}`).toBe(`${gateway.url}/reset-password`);
    expect(tokenOf(link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mailsTo(services.dataDir, `nobody-${email}`)).toEqual([]);
    // Nothing is stored for a visitor, and no session is made.
    expect(browser.cookies.get('tm.sid')).toBeUndefined();
  });

  it('points the link at PUBLIC_URL when it is set, and never at the Host a caller names', async () => {
    const { email } = await signUp(gateway.url, { name: 'Proxied' });
    await withGateway({ publicUrl: 'https://tasks.example.test' }, async (proxied) => {
      const link = await linkFor(await visitor(proxied.url), email, 1);
      expect(`${link.origin}${link.pathname}`).toBe('https://tasks.example.test/reset-password');
    });
    expect(await postWithHost(await visitor(), '/api/user/forgot-password', { email }, 'evil.example')).toBe(200);
    const link = resetLinkOf(await waitForMail(services.dataDir, email, { subject: /^Reset your/, count: 2 }));
    expect(link.origin).toBe(gateway.url);
  });

  it('is refused without the XSRF token, and with an address that is not one, and sends nothing', async () => {
    const { email } = await signUp(gateway.url, { name: 'Guarded' });
    const browser = await visitor();
    expect((await browser.post('/api/user/forgot-password', { email }, { xsrf: false })).status).toBe(403);
    expect(await browser.post('/api/user/forgot-password', { email: 'not an address' })).toMatchObject({ status: 400, body: { code: ErrorCode.validation } });
    expect((await browser.post('/api/user/forgot-password', {})).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(services.dataDir, email)).toEqual([]);
  });

  it(`asks for at most ${RESET_REQUESTS_PER_ADDRESS.points} links an hour per address, from any client, with or without an account`, async () => {
    const { email } = await signUp(gateway.url, { name: 'Flooded' });
    for (const address of [email, `no-account-${email}`]) {
      for (let i = 0; i < RESET_REQUESTS_PER_ADDRESS.points; i += 1) {
        expect((await (await visitor()).post('/api/user/forgot-password', { email: address })).status).toBe(200);
      }
      const refused = await (await visitor()).post('/api/user/forgot-password', { email: address.toUpperCase() });
      expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes\.$/) } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
    await waitForMail(services.dataDir, email, { count: RESET_REQUESTS_PER_ADDRESS.points });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(services.dataDir, email)).toHaveLength(RESET_REQUESTS_PER_ADDRESS.points);
  });

  it('counts both calls per client IP with sign-in (AUTH_RATE_LIMIT)', async () => {
    await withGateway({ authRateLimit: { points: 3, windowSeconds: 60 } }, async (limited) => {
      const browser = await visitor(limited.url);
      expect((await browser.post('/api/user/login', { email: 'someone@example.com', password: 'not it at all' })).status).toBe(401);
      expect((await browser.post('/api/user/forgot-password', { email: 'someone@example.com' })).status).toBe(200);
      expect((await browser.post('/api/user/reset-password', { token: 'x'.repeat(43), newPassword: NEW_PASSWORD })).status).toBe(400);
      expect((await browser.post('/api/user/forgot-password', { email: 'someone-else@example.com' })).status).toBe(429);
      expect((await browser.post('/api/user/reset-password', { token: 'x'.repeat(43), newPassword: NEW_PASSWORD })).status).toBe(429);
    });
  });
});

describe('reset password with the link', () => {
  it('sets the new password once, ends every session of the account (password-changed), and signs nobody in', async () => {
    const owner = await signUp(gateway.url, { name: 'Reset Owner' });
    const phone = await otherDevice(owner.email, owner.password);
    const bystander = await signUp(gateway.url, { name: 'Bystander' });
    const link = await linkFor(await visitor(), owner.email);

    const browser = await visitor();
    const reset = await browser.post('/api/user/reset-password', { token: tokenOf(link), newPassword: NEW_PASSWORD });
    expect({ status: reset.status, body: reset.body }).toEqual({ status: 200, body: { message: 'Your password was changed. Sign in with your new password.' } });
    expect(browser.cookies.get('tm.sid')).toBeUndefined();
    expect((await browser.get('/api/user/me')).status).toBe(401);

    for (const device of [owner.client, phone]) {
      expect(await device.get('/api/todo/fetch-todo')).toMatchObject({ status: 401, body: { code: ErrorCode.unauthenticated, reason: 'password-changed' } });
    }
    expect((await bystander.client.get('/api/user/me')).status).toBe(200);
    expect((await (await visitor()).post('/api/user/login', { email: owner.email, password: owner.password })).status).toBe(401);
    expect((await otherDevice(owner.email, NEW_PASSWORD)).cookies.get('tm.sid')).toBeDefined();

    const again = await browser.post('/api/user/reset-password', { token: tokenOf(link), newPassword: 'one more new passphrase' });
    expect(again).toMatchObject({ status: 400, body: { code: ErrorCode.resetLinkInvalid, message: 'This link has expired or was already used. Ask for a new one.' } });
  });

  it('signs this browser out too when it was signed in to that account', async () => {
    const owner = await signUp(gateway.url, { name: 'Signed In Here' });
    const link = await linkFor(owner.client, owner.email);
    const before = owner.client.xsrfToken;
    expect((await owner.client.post('/api/user/reset-password', { token: tokenOf(link), newPassword: NEW_PASSWORD })).status).toBe(200);
    expect(owner.client.xsrfToken).not.toBe(before);
    expect((await owner.client.get('/api/user/me')).status).toBe(401);
    // Still a working visitor: it can sign in at once with the new password.
    expect((await owner.client.post('/api/user/login', { email: owner.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('lifts the lock that wrong passwords put on the address: the owner signs in at once with the new password', async () => {
    await withGateway({ accountThrottle: { failLimit: 3, windowSeconds: 900, lockoutSeconds: 900 } }, async (throttled) => {
      const owner = await signUp(throttled.url, { name: 'Locked Out' });
      const stranger = await visitor(throttled.url);
      const guesses: number[] = [];
      for (let i = 0; i < 4; i += 1) guesses.push((await stranger.post('/api/user/login', { email: owner.email, password: `guess number ${i}` })).status);
      expect(guesses).toEqual([401, 401, 401, 429]);
      // A new browser of the owner's is held by the lock, even with the right password.
      expect((await (await visitor(throttled.url)).post('/api/user/login', { email: owner.email, password: owner.password })).status).toBe(429);

      const link = await linkFor(await visitor(throttled.url), owner.email);
      expect((await (await visitor(throttled.url)).post('/api/user/reset-password', { token: tokenOf(link), newPassword: NEW_PASSWORD })).status).toBe(200);
      expect((await (await visitor(throttled.url)).post('/api/user/login', { email: owner.email, password: NEW_PASSWORD })).status).toBe(200);
    });
  });

  it('leaves a browser signed in to another account as it was', async () => {
    const owner = await signUp(gateway.url, { name: 'Owner' });
    const other = await signUp(gateway.url, { name: 'Someone Else' });
    const link = await linkFor(await visitor(), owner.email);
    expect((await other.client.post('/api/user/reset-password', { token: tokenOf(link), newPassword: NEW_PASSWORD })).status).toBe(200);
    expect(await other.client.get<UserResponse>('/api/user/me')).toMatchObject({ status: 200, body: { user: { email: other.email } } });
  });

  it('does not work 30 minutes after it was sent (its stored expiry passed), and changes nothing', async () => {
    const owner = await signUp(gateway.url, { name: 'Too Late' });
    const link = await linkFor(await visitor(), owner.email);
    // The 30 minutes pass: the stored expiry moves into the past, as the clock would have moved.
    const db = new Database(path.join(services.dataDir, 'users.sqlite'), { timeout: 5000 });
    try {
      db.prepare('UPDATE password_resets SET expires_at = ? WHERE user_id = ?').run(Date.now() - 1, owner.user._id);
    } finally {
      db.close();
    }
    const late = await (await visitor()).post('/api/user/reset-password', { token: tokenOf(link), newPassword: NEW_PASSWORD });
    expect(late).toMatchObject({ status: 400, body: { code: ErrorCode.resetLinkInvalid } });
    expect((await owner.client.get('/api/user/me')).status).toBe(200);
    expect((await otherDevice(owner.email, owner.password)).cookies.get('tm.sid')).toBeDefined();
  });

  it('refuses a weak new password at its field and keeps the link and the sessions', async () => {
    const owner = await signUp(gateway.url, { name: 'Weak Choice' });
    const link = await linkFor(await visitor(), owner.email);
    const browser = await visitor();
    const weak = await browser.post('/api/user/reset-password', { token: tokenOf(link), newPassword: 'password123' });
    expect(weak).toMatchObject({ status: 400, body: { code: ErrorCode.validation, issues: [{ path: ['newPassword'] }] } });
    expect((await owner.client.get('/api/user/me')).status).toBe(200);
    expect((await browser.post('/api/user/reset-password', { token: tokenOf(link), newPassword: NEW_PASSWORD })).status).toBe(200);
  });
});

describe('two password changes at the same moment (PRODUCT §10.10)', () => {
  it('answers one 200 and the other a clear 409 (or 403 once the first was written), and only one password works', async () => {
    let conflicts = 0;
    // Two requests race for real; on a busy machine one may finish before the other starts (then 403): try a few accounts.
    for (let attempt = 0; attempt < 6 && conflicts === 0; attempt += 1) {
      const owner = await signUp(gateway.url, { name: 'Racing' });
      const laptop = await otherDevice(owner.email, owner.password);
      const answers = await Promise.all([
        owner.client.put('/api/user/password', { currentPassword: owner.password, newPassword: 'phone passphrase is this one' }),
        laptop.put('/api/user/password', { currentPassword: owner.password, newPassword: 'laptop passphrase is that one' }),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      const loser = answers.find((answer) => answer.status !== 200);
      expect([403, 409]).toContain(loser?.status);
      if (loser?.status === 409) {
        conflicts += 1;
        expect(loser.body).toEqual({
          message: 'Your password was just changed elsewhere, so this change was not made. Sign in with the new password.',
          code: ErrorCode.passwordChangedConcurrently,
        });
      }
      const won = answers[0]?.status === 200 ? 'phone passphrase is this one' : 'laptop passphrase is that one';
      const lost = won === 'phone passphrase is this one' ? 'laptop passphrase is that one' : 'phone passphrase is this one';
      const fresh = await visitor();
      expect((await fresh.post('/api/user/login', { email: owner.email, password: lost })).status).toBe(401);
      expect((await fresh.post('/api/user/login', { email: owner.email, password: won })).status).toBe(200);
    }
    expect(conflicts).toBeGreaterThan(0);
  });
});

describe('change name and email', () => {
  it('changes the name without a password and answers the user as it now is', async () => {
    const owner = await signUp(gateway.url, { name: 'Old Name' });
    const renamed = await owner.client.put<UserResponse>('/api/user/profile', { fullName: 'New Name' });
    expect({ status: renamed.status, body: renamed.body }).toEqual({ status: 200, body: { message: 'Your details were saved', user: { ...owner.user, fullName: 'New Name' } } });
    expect(await owner.client.get<UserResponse>('/api/user/me')).toMatchObject({ body: { user: { fullName: 'New Name' } } });
  });

  it('changes the email with the current password (403 when wrong, 409 when taken), and the old one no longer signs in', async () => {
    const owner = await signUp(gateway.url, { name: 'Mover' });
    const taken = await signUp(gateway.url, { name: 'Taken' });
    const newEmail = `moved-${owner.email}`;
    expect(await owner.client.put('/api/user/profile', { email: newEmail, currentPassword: 'not my password' })).toMatchObject({
      status: 403,
      body: { code: ErrorCode.wrongPassword, issues: [{ path: ['currentPassword'] }] },
    });
    expect(await owner.client.put('/api/user/profile', { email: taken.email, currentPassword: owner.password })).toMatchObject({
      status: 409,
      body: { code: ErrorCode.emailTaken, issues: [{ path: ['email'] }] },
    });
    const before = owner.client.cookies.get('tm.device');
    const moved = await owner.client.put<UserResponse>('/api/user/profile', { email: newEmail, currentPassword: owner.password });
    expect(moved).toMatchObject({ status: 200, body: { user: { _id: owner.user._id, email: newEmail } } });
    // This browser stays a known device of the account, now under its new email.
    expect(owner.client.cookies.get('tm.device')).not.toBe(before);
    const fresh = await visitor();
    expect((await fresh.post('/api/user/login', { email: owner.email, password: owner.password })).status).toBe(401);
    expect((await fresh.post('/api/user/login', { email: newEmail, password: owner.password })).status).toBe(200);
  });

  it('counts a wrong current password against the account like the other checks of the account page', async () => {
    await withGateway({ trustProxy: true, accountThrottle: { failLimit: 10, windowSeconds: 900, lockoutSeconds: 900 } }, async (throttled) => {
      const owner = await signUp(throttled.url, { name: 'Guessed' });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await owner.client.put('/api/user/profile', { email: `x${i}-${owner.email}`, currentPassword: `guess ${i}` })).status);
      expect(statuses).toEqual([403, 403, 403, 429]);
    });
  });

  it('is refused without a session and without the XSRF token', async () => {
    expect((await (await visitor()).put('/api/user/profile', { fullName: 'Nobody' })).status).toBe(401);
    const owner = await signUp(gateway.url, { name: 'Careful' });
    expect((await owner.client.put('/api/user/profile', { fullName: 'Forged' }, { xsrf: false })).status).toBe(403);
    expect(await owner.client.get<UserResponse>('/api/user/me')).toMatchObject({ body: { user: { fullName: 'Careful' } } });
  });
});
