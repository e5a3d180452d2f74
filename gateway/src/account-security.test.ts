import type { UserResponse } from '@tm/contracts';
import { ApiClient, newUser, type RunningServices, signUp, startServices, upstreamsOf } from '@tm/test-support';
import { delayAfterFailures } from './account-throttle.js';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';

let services: RunningServices;
beforeAll(async () => {
  services = await startServices();
});
afterAll(async () => {
  await services.stop();
});

type Overrides = Parameters<typeof startGateway>[1];

async function withGateway(overrides: Overrides, run: (gateway: TestGateway) => Promise<void>): Promise<void> {
  const gateway = await startGateway(upstreamsOf(services), overrides);
  try {
    await run(gateway);
  } finally {
    await gateway.close();
  }
}

/** A client that says it comes from `ip` (the gateway trusts X-Forwarded-For in these tests). */
async function clientFrom(gateway: TestGateway, ip: string): Promise<ApiClient> {
  const client = new ApiClient(gateway.url);
  const from = { 'x-forwarded-for': ip };
  const send = client.request.bind(client);
  // The rule misreads `options` as required: ApiClient.request's own default makes it optional.
  // eslint-disable-next-line @typescript-eslint/no-useless-default-assignment
  client.request = (method, path, options = {}) => send(method, path, { ...options, headers: { ...from, ...options.headers } });
  await client.get('/api/user/me');
  return client;
}

async function signedUp(gateway: TestGateway): Promise<{ email: string; password: string }> {
  const { email, password } = await signUp(gateway.url, { name: 'Victim' });
  return { email, password };
}

const throttleOn = (failLimit: number, lockoutSeconds = 900) => ({
  trustProxy: true,
  accountThrottle: { failLimit, windowSeconds: 900, lockoutSeconds },
});

describe('per-account throttling (SECURITY.md "Throttling")', () => {
  it('grows the wait between one client\'s consecutive failures: none, none, then 2, 4, 8 … s, capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => delayAfterFailures(n, 900))).toEqual([0, 0, 2, 4, 8, 16]);
    expect(delayAfterFailures(30, 900)).toBe(900);
  });

  it('stops one client guessing at full speed: 14 wrong passwords in a row are not all answered 401', async () => {
    await withGateway(throttleOn(10), async (gateway) => {
      const victim = await signedUp(gateway);
      const attacker = await clientFrom(gateway, '203.0.113.7');
      const statuses: number[] = [];
      for (let i = 0; i < 14; i += 1) {
        statuses.push((await attacker.post('/api/user/login', { email: victim.email, password: `guess-${i}` })).status);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
      const waiting = await attacker.post('/api/user/login', { email: victim.email, password: 'another guess' });
      expect(waiting.status).toBe(429);
      expect(waiting.headers.get('retry-after')).toBe('2');
      expect(waiting.body).toEqual({ message: 'Too many attempts. Try again in 2 seconds.', code: 'RATE_LIMITED' });
    });
  });

  it('locks the account after 10 failures from any IPs, says when to try again, and lets the owner in once it expires', async () => {
    await withGateway(throttleOn(10, 3), async (gateway) => {
      const victim = await signedUp(gateway);
      for (let i = 0; i < 10; i += 1) {
        const attacker = await clientFrom(gateway, `198.51.100.${i + 1}`);
        expect((await attacker.post('/api/user/login', { email: victim.email, password: `guess-${i}` })).status).toBe(401);
      }
      const owner = await clientFrom(gateway, '192.0.2.10');
      const locked = await owner.post('/api/user/login', { email: ` ${victim.email.toUpperCase()} `, password: victim.password });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(3);
      expect((locked.body as { message: string }).message).toMatch(/^Too many attempts\. Try again in \d seconds?\.$/);
      // Another account is not affected.
      const other = await signedUp(gateway);
      expect((await owner.post('/api/user/login', other)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      expect((await (await clientFrom(gateway, '192.0.2.11')).post('/api/user/login', victim)).status).toBe(200);
    });
  });

  it("lets the owner's known device in while strangers' guesses keep the account locked", async () => {
    await withGateway(throttleOn(10, 900), async (gateway) => {
      const victim = await signedUp(gateway);
      // The owner's browser signed in before: it holds a device cookie for the account.
      const owner = await clientFrom(gateway, '192.0.2.50');
      expect((await owner.post('/api/user/login', victim)).status).toBe(200);
      expect(owner.cookies.get('tm.device')).toBeDefined();
      await owner.post('/api/user/logout');
      // Ten wrong guesses from four addresses lock the account.
      for (let i = 0; i < 10; i += 1) {
        const attacker = await clientFrom(gateway, `203.0.113.${(i % 4) + 1}`);
        expect((await attacker.post('/api/user/login', { email: victim.email, password: `guess-${i}` })).status).toBe(401);
      }
      // A browser the account does not know is held by the lock, even with the right password.
      const stranger = await clientFrom(gateway, '192.0.2.51');
      expect((await stranger.post('/api/user/login', victim)).status).toBe(429);
      // The owner's known device gets in, from anywhere.
      const ownerAway = await clientFrom(gateway, '192.0.2.52');
      for (const name of ['tm.device', 'tm.device.sig']) ownerAway.cookies.set(name, owner.cookies.get(name)!);
      expect((await ownerAway.post('/api/user/login', victim)).status).toBe(200);
      // ... and its sign-in did not lift the lock for the others.
      expect((await (await clientFrom(gateway, '203.0.113.9')).post('/api/user/login', victim)).status).toBe(429);
      // A device cookie is worth nothing forged, or for another account.
      const forger = await clientFrom(gateway, '192.0.2.53');
      forger.cookies.set('tm.device', owner.cookies.get('tm.device')!);
      forger.cookies.set('tm.device.sig', 'AAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect((await forger.post('/api/user/login', victim)).status).toBe(429);
      const otherAccount = await signedUp(gateway);
      const borrower = await clientFrom(gateway, '192.0.2.54');
      expect((await borrower.post('/api/user/login', otherAccount)).status).toBe(200);
      await borrower.post('/api/user/logout');
      expect((await borrower.post('/api/user/login', victim)).status).toBe(429);
    });
  });

  it('locks a known device that guesses itself, and only that device', async () => {
    await withGateway(throttleOn(3, 900), async (gateway) => {
      const victim = await signedUp(gateway);
      const device = await clientFrom(gateway, '192.0.2.60');
      expect((await device.post('/api/user/login', victim)).status).toBe(200);
      await device.post('/api/user/logout');
      // Its own wrong passwords count against it (with the usual growing wait between them) …
      for (let i = 0; i < 3; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, i >= 2 ? 2_100 : 0));
        expect((await device.post('/api/user/login', { email: victim.email, password: `typo ${i}` })).status).toBe(401);
      }
      // The same device from another address (no streak to wait out there) is locked: the device itself is.
      const sameDevice = await clientFrom(gateway, '192.0.2.62');
      for (const name of ['tm.device', 'tm.device.sig']) sameDevice.cookies.set(name, device.cookies.get(name)!);
      expect((await sameDevice.post('/api/user/login', victim)).status).toBe(429);
      // … not against the account: another browser with the right password gets in.
      expect((await (await clientFrom(gateway, '192.0.2.61')).post('/api/user/login', victim)).status).toBe(200);
    });
  });

  it('says a lock of minutes in minutes', async () => {
    await withGateway(throttleOn(2, 240), async (gateway) => {
      const victim = await signedUp(gateway);
      for (const ip of ['198.51.100.20', '198.51.100.21']) {
        await (await clientFrom(gateway, ip)).post('/api/user/login', { email: victim.email, password: 'wrong password' });
      }
      const locked = await (await clientFrom(gateway, '198.51.100.22')).post('/api/user/login', victim);
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({ message: 'Too many attempts. Try again in 4 minutes.', code: 'RATE_LIMITED' });
    });
  });

  it('a successful login resets the count: typos before it do not add up', async () => {
    await withGateway(throttleOn(4), async (gateway) => {
      const victim = await signedUp(gateway);
      const owner = await clientFrom(gateway, '192.0.2.30');
      for (let round = 0; round < 3; round += 1) {
        expect((await owner.post('/api/user/login', { email: victim.email, password: 'typo one' })).status).toBe(401);
        expect((await owner.post('/api/user/login', { email: victim.email, password: 'typo two' })).status).toBe(401);
        expect((await owner.post('/api/user/login', victim)).status).toBe(200);
        await owner.post('/api/user/logout');
      }
    });
  });

  it('treats unknown emails like known ones (no account enumeration through the lock)', async () => {
    await withGateway(throttleOn(2, 60), async (gateway) => {
      const statuses: number[] = [];
      for (const ip of ['198.51.100.40', '198.51.100.41', '198.51.100.42']) {
        const client = await clientFrom(gateway, ip);
        statuses.push((await client.post('/api/user/login', { email: 'nobody@example.com', password: 'whatever it is' })).status);
      }
      expect(statuses).toEqual([401, 401, 429]);
    });
  });

  it('limits signups per client IP', async () => {
    await withGateway({ trustProxy: true, signupRateLimit: { points: 2, windowSeconds: 3600 } }, async (gateway) => {
      const client = await clientFrom(gateway, '203.0.113.50');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push((await client.post('/api/user/signup', newUser())).status);
        await client.post('/api/user/logout');
      }
      expect(statuses).toEqual([201, 201, 429]);
      expect((await (await clientFrom(gateway, '203.0.113.51')).post('/api/user/signup', newUser())).status).toBe(201);
    });
  });

  it("counts the address the proxy saw, not what the client wrote to the left of it", async () => {
    await withGateway({ trustProxy: true, signupRateLimit: { points: 2, windowSeconds: 3600 } }, async (gateway) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        // A client rotating the left-most X-Forwarded-For entry; the proxy appends the address it saw.
        const client = await clientFrom(gateway, `10.${i}.0.1, 203.0.113.60`);
        statuses.push((await client.post('/api/user/signup', newUser())).status);
      }
      expect(statuses).toEqual([201, 201, 429, 429]);
    });
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it does not escape the limit', async () => {
    await withGateway({ trustProxy: true, signupRateLimit: { points: 2, windowSeconds: 3600 } }, async (gateway) => {
      const statuses: number[] = [];
      for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:aaaa::9', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff']) {
        statuses.push((await (await clientFrom(gateway, address)).post('/api/user/signup', newUser())).status);
      }
      expect(statuses).toEqual([201, 201, 429]);
      // Another /64 is another client.
      expect((await (await clientFrom(gateway, '2001:db8:1:3::1')).post('/api/user/signup', newUser())).status).toBe(201);
    });
  });
});

describe('cross-site writes are refused (SECURITY.md "Cross-site requests")', () => {
  async function signedIn(gateway: TestGateway): Promise<ApiClient> {
    const client = new ApiClient(gateway.url);
    await client.get('/api/user/me');
    expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
    return client;
  }

  it('403 for a valid session and XSRF token sent from another site; nothing is written', async () => {
    await withGateway({}, async (gateway) => {
      const client = await signedIn(gateway);
      for (const headers of <Record<string, string>[]>[
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
        { origin: `${gateway.url}.evil.example`, 'sec-fetch-site': 'same-site' },
      ]) {
        const answer = await client.post('/api/todo/add-todo', { title: 'planted' }, { headers });
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: 'Requests from other sites are not allowed', code: 'AUTH.CROSS_SITE_REQUEST' });
      }
      expect((await client.post('/api/user/logout', undefined, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
      expect((await client.get<{ todos: unknown[] }>('/api/todo/fetch-todo')).body.todos).toEqual([]);
    });
  });

  it('same-origin browsers, configured origins and clients without these headers keep working', async () => {
    await withGateway({ allowedOrigins: ['https://app.example.com'] }, async (gateway) => {
      const client = await signedIn(gateway);
      const sameOrigin = { origin: gateway.url, 'sec-fetch-site': 'same-origin' };
      expect((await client.post('/api/todo/add-todo', { title: 'same origin' }, { headers: sameOrigin })).status).toBe(201);
      expect((await client.post('/api/todo/add-todo', { title: 'configured' }, { headers: { origin: 'https://app.example.com' } })).status).toBe(201);
      expect((await client.post('/api/todo/add-todo', { title: 'no headers' })).status).toBe(201);
      // Reads are not writes: a cross-site GET is answered (SameSite=Lax keeps the cookie off it anyway).
      expect((await client.get('/api/todo/fetch-todo', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    });
  });
});

describe('session lifetime (SECURITY.md "Sessions")', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('ends a session left idle longer than the idle timeout, with an honest 401', async () => {
    await withGateway({ session: { idleTimeoutMs: 1_000, absoluteTimeoutMs: 60_000 } }, async (gateway) => {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
      await sleep(1_300);
      // The first call after the pause is a write with the XSRF token of that session (a tab left open): it
      // is a 401, not a 403, so the client says "session ended", and why.
      const late = await client.post('/api/todo/add-todo', { title: 'late' });
      expect(late.body).toEqual({ message: 'Not signed in', code: 'AUTH.UNAUTHENTICATED', reason: 'idle-timeout' });
      expect((await client.get('/api/user/me')).status).toBe(401);
    });
  });

  it('keeps a session in use alive past the idle timeout, but not past the absolute lifetime', async () => {
    await withGateway({ session: { idleTimeoutMs: 1_000, absoluteTimeoutMs: 3_000 } }, async (gateway) => {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      expect((await client.post<UserResponse>('/api/user/signup', newUser())).status).toBe(201);
      const started = Date.now();
      while (Date.now() - started < 2_400) {
        expect((await client.get('/api/user/me')).status).toBe(200);
        await sleep(400);
      }
      await sleep(Math.max(0, 3_100 - (Date.now() - started)));
      expect((await client.get('/api/user/me')).status).toBe(401);
    });
  });
});
