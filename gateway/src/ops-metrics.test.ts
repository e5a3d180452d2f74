import { ApiClient, openRawEventStream, signUp, startServices, upstreamsOf, type RunningServices } from '@tm/test-support';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * The series the alerts of deploy/prometheus/alerts.yml read (docs/OPERATIONS.md "Signals"), moved for real:
 * wrong passwords, locks and throttled checks; requests failed because of a service; readiness and each
 * dependency; the open live streams against their caps, at the gateway and at svc-todos. Over real HTTP, the
 * services as their built processes.
 */

/** `/metrics` of `url` as `name{labels}` → value, the `service` label left out. */
async function scrape(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(\{.*\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = (match[2] ?? '').replace(/,?service="[^"]*"/, '').replace('{,', '{').replace('{}', '');
    found.set(`${match[1]}${labels}`, Number(match[3]));
  }
  return found;
}

/** A client that says it comes from `ip` (the gateway trusts X-Forwarded-For here). */
async function clientFrom(gateway: TestGateway, ip: string): Promise<ApiClient> {
  const client = new ApiClient(gateway.url);
  const send = client.request.bind(client);
  // eslint-disable-next-line @typescript-eslint/no-useless-default-assignment -- ApiClient.request's own default makes it optional
  client.request = (method, path, options = {}) => send(method, path, { ...options, headers: { 'x-forwarded-for': ip, ...options.headers } });
  await client.get('/api/user/me');
  return client;
}

let services: RunningServices;
let gateway: TestGateway;
beforeAll(async () => {
  services = await startServices({ env: { TODO_EVENTS_MAX_STREAMS: '9' } });
  gateway = await startGateway(upstreamsOf(services), {
    trustProxy: true,
    accountThrottle: { failLimit: 2, windowSeconds: 900, lockoutSeconds: 900 },
    events: { maxPerSession: 5, maxPerUser: 10, maxPerAddress: 100, maxStreams: 7, sessionCheckMs: 15_000 },
  });
});
afterAll(async () => {
  await gateway.close();
  await services.stop();
});

describe('sign-in signals at the gateway', () => {
  it('counts wrong passwords, the lock they cause, and the checks refused while it holds', async () => {
    const victim = await signUp(gateway.url, { name: 'Metric Victim' });
    const before = await scrape(gateway.opsUrl);
    const wrong = { email: victim.email, password: 'not the password' };
    expect((await (await clientFrom(gateway, '192.0.2.1')).post('/api/user/login', wrong)).status).toBe(401);
    expect((await (await clientFrom(gateway, '192.0.2.2')).post('/api/user/login', wrong)).status).toBe(401);
    // The second wrong password reached the limit of 2: the account is locked against unknown clients.
    expect((await (await clientFrom(gateway, '192.0.2.3')).post('/api/user/login', { email: victim.email, password: victim.password })).status).toBe(429);
    const after = await scrape(gateway.opsUrl);
    const moved = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    expect(moved('gateway_wrong_passwords_total')).toBe(2);
    expect(moved('gateway_account_locks_total{scope="account"}')).toBe(1);
    expect(moved('gateway_account_throttled_total')).toBe(1);
  });
});

describe('live streams against their caps', () => {
  it('shows the caps, and each open stream at the gateway and at svc-todos', async () => {
    const idle = await scrape(gateway.opsUrl);
    expect(idle.get('gateway_live_streams_max')).toBe(7);
    expect(idle.get('gateway_live_streams')).toBe(0);
    const todosIdle = await scrape(services.todos.url);
    // TODO_EVENTS_MAX_STREAMS, as this svc-todos was started with.
    expect(todosIdle.get('todo_live_streams_max')).toBe(9);
    expect(todosIdle.get('todo_live_streams')).toBe(0);

    const { client } = await signUp(gateway.url, { name: 'Stream Holder' });
    const stream = await openRawEventStream(`${gateway.url}/api/todo/events`, { cookie: client.cookieHeader() });
    try {
      expect(stream.status).toBe(200);
      expect((await scrape(gateway.opsUrl)).get('gateway_live_streams')).toBe(1);
      expect((await scrape(services.todos.url)).get('todo_live_streams')).toBe(1);
    } finally {
      stream.close();
    }
  });
});

describe('readiness and upstream failures', () => {
  it('reports ready with every dependency up; a service down is a dependency down and counted failures', async () => {
    const up = await scrape(gateway.opsUrl);
    expect(up.get('readiness_ready')).toBe(1);
    expect(['sessions', 'users', 'todos'].map((check) => up.get(`readiness_check_up{check="${check}"}`))).toEqual([1, 1, 1]);
    for (const service of [services.users.url, services.todos.url]) {
      const own = await scrape(service);
      expect([own.get('readiness_ready'), own.get('readiness_check_up{check="store"}'), own.get('readiness_check_up{check="writes"}')]).toEqual([1, 1, 1]);
    }

    const { client } = await signUp(gateway.url, { name: 'Outage Witness' });
    await services.stopService('todos');
    try {
      const answer = await client.get('/api/todo/fetch-todo');
      expect(answer.status).toBe(503);
      const down = await scrape(gateway.opsUrl);
      expect(down.get('gateway_upstream_failures_total{upstream="todos",reason="unreachable"}')).toBe(1);
      // Still ready (the session store decides): degraded, with todos down.
      expect(down.get('readiness_ready')).toBe(1);
      expect(down.get('readiness_check_up{check="todos"}')).toBe(0);
      expect(down.get('readiness_check_up{check="users"}')).toBe(1);
    } finally {
      await services.startService('todos');
    }
    expect((await scrape(gateway.opsUrl)).get('readiness_check_up{check="todos"}')).toBe(1);
  });
});
