import { Agent, createServer, request } from 'node:http';
import { once } from 'node:events';
import { ApiClient, newUser, openRawEventStream, type RunningProcess, type RunningServices, startProcess, startServices, tempDir, TEST_SECRET } from '@tm/test-support';

let services: RunningServices;
beforeAll(async () => {
  services = await startServices();
});
afterAll(async () => {
  await services.stop();
});

const secrets = { INTERNAL_SECRET: TEST_SECRET, SESSION_KEYS: 'process-test-session-key-0123456789abcdef' };

/** The gateway's built process in front of the services, on a data folder of its own; `env` adds or overrides. */
async function startGatewayProcess(env: Record<string, string> = {}): Promise<{ gateway: RunningProcess; data: ReturnType<typeof tempDir> }> {
  const data = tempDir('tm-proc-');
  // No sign-in limits: these tests sign up through gateways whose counters may be shared in Redis (REDIS_URL).
  const gateway = await startProcess('gateway', { ...secrets, DATA_DIR: data.dir, USERS_URL: services.users.url, TODOS_URL: services.todos.url, AUTH_RATE_LIMIT: '0', ...env });
  return { gateway, data };
}

describe('the gateway process', () => {
  it('finishes in-flight requests on SIGTERM, refuses new ones, and exits 0 within 10 s', async () => {
    const slow = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"todos":[],"lists":[],"cursor":"0"}'), 1500);
    });
    slow.listen(0, '127.0.0.1');
    await once(slow, 'listening');
    const { gateway, data } = await startGatewayProcess({ TODOS_URL: `http://127.0.0.1:${(slow.address() as { port: number }).port}` });
    try {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
      const inFlight = client.get('/api/todo/fetch-todo');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const exitCode = gateway.stop('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ todos: [], lists: [], cursor: '0' });
      expect(await exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
    } finally {
      await gateway.stop('SIGKILL');
      slow.close();
      data.remove();
    }
  });

  it('on SIGTERM refuses new connections, serves open ones with Connection: close, then exits 0', async () => {
    const { gateway, data } = await startGatewayProcess({ SHUTDOWN_DRAIN_MS: '1500' });
    // One keep-alive socket, as a load balancer's upstream pool would hold.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = request(`${gateway.url}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await get('/healthz')).toEqual({ status: 200, connection: 'keep-alive' });
      expect((await fetch(`${gateway.opsUrl}/readyz`)).status).toBe(200);
      const exitCode = gateway.stop('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Readiness (on the ops port) says draining; the open connection is served, and told to close.
      expect((await fetch(`${gateway.opsUrl}/readyz`)).status).toBe(503);
      expect(await get('/healthz')).toEqual({ status: 200, connection: 'close' });
      await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
      expect(await exitCode).toBe(0);
    } finally {
      agent.destroy();
      await gateway.stop('SIGKILL');
      data.remove();
    }
  });

  it('on SIGTERM ends its live streams at once (the pages reconnect elsewhere) and they do not hold the exit', async () => {
    const { gateway, data } = await startGatewayProcess({ SHUTDOWN_DRAIN_MS: '1000' });
    try {
      const client = new ApiClient(gateway.url);
      await client.get('/api/user/me');
      expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
      const streams = [
        await openRawEventStream(`${gateway.url}/api/todo/events`, { cookie: client.cookieHeader() }),
        await openRawEventStream(`${gateway.url}/api/todo/events`, { cookie: client.cookieHeader() }),
      ];
      await Promise.all(streams.map((live) => live.waitFor((event) => event.event === 'ready')));
      const started = Date.now();
      const exitCode = gateway.stop('SIGTERM');
      for (const live of streams) await expect(live.ended(1000)).resolves.toBe('end');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await exitCode).toBe(0);
      // The drain window, then the idle sockets are closed: far from the 9 s a held stream would cost.
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await gateway.stop('SIGKILL');
      data.remove();
    }
  });

  it('refuses to start in production without secrets, naming what is missing', async () => {
    await expect(startProcess('gateway', { NODE_ENV: 'production', SESSION_KEYS: '', INTERNAL_SECRET: '' }, 5000)).rejects.toThrow(
      /SESSION_KEYS: is required in production/,
    );
  });

  it('serves /healthz, and /readyz and /metrics on the ops port only', async () => {
    const { gateway, data } = await startGatewayProcess();
    try {
      expect(gateway.opsUrl).not.toBe(gateway.url);
      expect(await (await fetch(`${gateway.url}/healthz`)).json()).toEqual({ status: 'ok' });
      for (const path of ['/readyz', '/metrics']) expect({ path, status: (await fetch(`${gateway.url}${path}`)).status }).toEqual({ path, status: 404 });
      expect(await (await fetch(`${gateway.opsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${gateway.opsUrl}/readyz`)).json()).toEqual({ status: 'ready', checks: { sessions: 'up', users: 'up', todos: 'up' } });
      await fetch(`${gateway.url}/api/user/me`);
      const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
      expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/user\/me"[^}]*status="401"/);
      expect(metrics).toMatch(/process_resident_memory_bytes/);
    } finally {
      expect(await gateway.stop()).toBe(0);
      data.remove();
    }
  });
});

describe('the service processes', () => {
  it.each(['svc-users', 'svc-todos'])('%s stops on SIGTERM with exit code 0 and serves health unsigned', async (app) => {
    const data = tempDir('tm-proc-');
    const service = await startProcess(app, { INTERNAL_SECRET: TEST_SECRET, DATA_DIR: data.dir });
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      expect(await service.stop('SIGTERM')).toBe(0);
    } finally {
      data.remove();
    }
  });
});
