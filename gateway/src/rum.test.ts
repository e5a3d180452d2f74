import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUM_LIMITS, type RemoteBuildInfo } from '@tm/contracts';
import { createLogger } from '@tm/service-kit';
import { startServices, tempDir, type RunningServices, upstreamsOf } from '@tm/test-support';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';
import { RemoteFolders } from './remote-folders.js';

/**
 * `POST /api/rum` over real HTTP (rum.routes.ts, docs/OPERATIONS.md "What users feel (RUM)"): what a beacon
 * from the app's own page gets (204, no session, no XSRF token needed), what everything else gets (403, 400,
 * 413, 415, 429 with a message), routes held to those of the remote catalog the gateway serves, values to
 * each vital's plausible range, and the gateway's histograms moving on `/metrics` of its ops port.
 */

interface Sent {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A POST as navigator.sendBeacon makes it: the page's Origin, a JSON text body, no cookie, no XSRF header. */
async function beacon(gateway: TestGateway, body: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  const response = await fetch(`${gateway.url}/api/rum`, {
    method: 'POST',
    headers: { origin: gateway.url, 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: response.headers };
}

/** One sample of `/metrics` (ops port): `name{labels}` → value, for the lines whose name starts with `prefix`. */
async function samples(gateway: TestGateway, prefix: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const match = /^(\S+?)(\{.*\})? (\S+)$/.exec(line);
    // The registry adds `service="gateway"` to every series: left out of the key.
    if (match) found.set(`${match[1]}${(match[2] ?? '').replace(/,?service="gateway"/, '').replace('{,', '{').replace('{}', '')}`, Number(match[3]));
  }
  return found;
}

// `metrics` is unknown[]: the malformed reports below are built with it too.
const report = (route: string, metrics: unknown[]) => ({ route, metrics });
const VITALS = [
  { name: 'LCP', value: 1830 },
  { name: 'INP', value: 96 },
  { name: 'CLS', value: 0.02 },
  { name: 'TTFB', value: 120 },
];

/** The remotes' remote.json as their builds write them: the routes the catalog declares. */
const REMOTES: Record<string, RemoteBuildInfo> = {
  auth: {
    name: 'mfe_auth',
    routes: [
      { path: '/login', module: './LoginPage', guard: 'signed-out', title: 'Sign in', name: 'sign-in screen' },
      { path: '/signup', module: './SignupPage', guard: 'signed-out', title: 'Sign up', name: 'sign-up screen' },
    ],
  },
  tasks: { name: 'mfe_tasks', routes: [{ path: '/', module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list' }] },
  insights: { name: 'mfe_insights', routes: [{ path: '/insights', module: './InsightsPage', guard: 'signed-in', title: 'Insights', name: 'insights page' }] },
};
const STATS: RemoteBuildInfo = { name: 'mfe_stats', routes: [{ path: '/stats', module: './StatsPage', guard: 'signed-in', title: 'Statistics', name: 'statistics page' }] };

let services: RunningServices;
let data: ReturnType<typeof tempDir>;
/** The gateway's REMOTES_FILE: which remote folders it serves (and so which routes its catalog has). */
let remotesFile: string;

/** Points REMOTES_FILE at remote folders holding these remote.json files (as a deploy step would). */
function serveRemotes(remotes: Record<string, RemoteBuildInfo>): void {
  const list: Record<string, string> = {};
  for (const [key, info] of Object.entries(remotes)) {
    const folder = path.join(data.dir, 'remotes', `${key}-${info.routes.length}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'remote.json'), JSON.stringify(info));
    writeFileSync(path.join(folder, 'mf-manifest.json'), JSON.stringify({ name: info.name }));
    list[key] = folder;
  }
  writeFileSync(`${remotesFile}.tmp`, JSON.stringify(list));
  renameSync(`${remotesFile}.tmp`, remotesFile);
}

/** A gateway serving the remotes of REMOTES_FILE (all-in-one mode), with these RUM limits. */
function gatewayWithCatalog(rum: { rateLimit: { points: number; windowSeconds: number }; maxRoutes: number }): Promise<TestGateway> {
  const remotes = RemoteFolders.open({ file: remotesFile, logger: createLogger('rum-test', 'silent'), recheckMs: 0 });
  return startGateway(upstreamsOf(services), { rum }, undefined, undefined, { remotes });
}

beforeAll(async () => {
  services = await startServices();
  data = tempDir('tm-rum-');
  remotesFile = path.join(data.dir, 'remotes.json');
  serveRemotes(REMOTES);
});
afterAll(async () => {
  await services.stop();
  data.remove();
});

describe('POST /api/rum', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await gatewayWithCatalog({ rateLimit: { points: 0, windowSeconds: 60 }, maxRoutes: 3 });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('takes a beacon from the app’s own page without a session or XSRF token, and the histograms move', async () => {
    const before = await samples(gateway, 'web_vitals_');
    const sent = await beacon(gateway, report('/login', VITALS));
    expect(sent.status).toBe(204);
    // No session made for it: a report needs none.
    expect(sent.headers.get('set-cookie')).toBeNull();
    const after = await samples(gateway, 'web_vitals_');
    const moved = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    expect(moved('web_vitals_lcp_seconds_count{route="/login"}')).toBe(1);
    expect(moved('web_vitals_lcp_seconds_sum{route="/login"}')).toBeCloseTo(1.83, 6);
    // 1.83 s lies between the 1.5 and 2 buckets.
    expect(moved('web_vitals_lcp_seconds_bucket{le="1.5",route="/login"}')).toBe(0);
    expect(moved('web_vitals_lcp_seconds_bucket{le="2",route="/login"}')).toBe(1);
    expect(moved('web_vitals_inp_seconds_sum{route="/login"}')).toBeCloseTo(0.096, 6);
    expect(moved('web_vitals_cls_sum{route="/login"}')).toBeCloseTo(0.02, 6);
    expect(moved('web_vitals_ttfb_seconds_bucket{le="0.2",route="/login"}')).toBe(1);
  });

  it('takes the same JSON sent as an application/json Blob', async () => {
    const sent = await beacon(gateway, report('/', [{ name: 'TTFB', value: 80 }]), { 'content-type': 'application/json' });
    expect(sent.status).toBe(204);
    expect((await samples(gateway, 'web_vitals_ttfb_seconds_count')).get('web_vitals_ttfb_seconds_count{route="/"}')).toBeGreaterThanOrEqual(1);
  });

  it('refuses a report from another site, or naming no origin, with 403', async () => {
    const other = await beacon(gateway, report('/', VITALS), { origin: 'https://evil.example' });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ message: 'Requests from other sites are not allowed', code: 'AUTH.CROSS_SITE_REQUEST' });
    const crossSite = await beacon(gateway, report('/', VITALS), { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const response = await fetch(`${gateway.url}/api/rum`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(report('/', VITALS)) });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: "Reports are accepted from the app's own pages only (no Origin header)", code: 'AUTH.CROSS_SITE_REQUEST' });
  });

  it('refuses what is not a report with 400 and says why', async () => {
    const notJson = await beacon(gateway, '{"route": "/", "metrics": [');
    expect(notJson).toMatchObject({ status: 400, body: { message: 'The report is not valid JSON', code: 'BODY.MALFORMED_JSON' } });
    const cases: [unknown, RegExp][] = [
      [report('/login?next=/insights', VITALS), /route must be a route pattern/],
      [report('https://app.example/login', VITALS), /route must be a route pattern/],
      [report('/', [{ name: 'FID', value: 10 }]), /name must be one of LCP, INP, CLS, TTFB/],
      [report('/', [{ name: 'LCP', value: -1 }]), /must not be negative/],
      [report('/', [{ name: 'LCP', value: '1200' }]), /value must be a number/],
      [report('/', []), /metrics must not be empty/],
      // Nothing beyond the shape is taken: no user, URL or user agent rides along.
      [{ ...report('/', VITALS), userAgent: 'Mozilla/5.0' }, /userAgent/],
      [report('/', [{ name: 'LCP', value: 1000, id: 'v4-1' }]), /id/],
    ];
    for (const [body, message] of cases) {
      const sent = await beacon(gateway, body);
      expect({ body, status: sent.status }).toEqual({ body, status: 400 });
      expect(sent.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(message) });
    }
  });

  it('refuses a body over 4 KiB with 413 and one of another media type with 415', async () => {
    const big = report(
      '/',
      Array.from({ length: 400 }, () => ({ name: 'CLS', value: 0.1 })),
    );
    expect(JSON.stringify(big).length).toBeGreaterThan(RUM_LIMITS.bodyBytes);
    const tooLarge = await beacon(gateway, big);
    expect(tooLarge).toMatchObject({ status: 413, body: { message: `Request body is larger than ${RUM_LIMITS.bodyBytes} bytes`, code: 'BODY.TOO_LARGE' } });
    const form = await beacon(gateway, 'route=/', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form).toMatchObject({ status: 415, body: { message: 'A report must be JSON, sent as text/plain or application/json' } });
  });

  it('refuses a route the catalog does not declare with 400 naming the field, and records nothing of it', async () => {
    const before = await samples(gateway, 'web_vitals_');
    for (const route of ['/admin', '/login/extra', '/insights2', '/a', '/b']) {
      const sent = await beacon(gateway, report(route, VITALS));
      expect({ route, status: sent.status }).toEqual({ route, status: 400 });
      expect(sent.body).toEqual({
        message: 'route must be a route of the app (/, /insights, /login, /signup) or other',
        code: 'VALIDATION_FAILED',
        issues: [{ path: ['route'], message: 'route must be a route of the app (/, /insights, /login, /signup) or other' }],
      });
    }
    expect(await samples(gateway, 'web_vitals_')).toEqual(before);
    // `other` (a page the catalog does not name, which the shell sends on to `/`) is always taken.
    expect((await beacon(gateway, report('other', [{ name: 'TTFB', value: 90 }]))).status).toBe(204);
  });

  it('takes each vital up to its plausible largest value and refuses one beyond (400 naming the field), recording nothing of that report', async () => {
    const largest = [
      { name: 'LCP', value: RUM_LIMITS.maxValue.LCP },
      { name: 'INP', value: RUM_LIMITS.maxValue.INP },
      { name: 'CLS', value: RUM_LIMITS.maxValue.CLS },
      { name: 'TTFB', value: RUM_LIMITS.maxValue.TTFB },
    ];
    expect(largest.map((metric) => metric.value)).toEqual([60_000, 10_000, 10, 60_000]);
    expect((await beacon(gateway, report('/signup', largest))).status).toBe(204);
    const before = await samples(gateway, 'web_vitals_');
    const cases: [{ name: string; value: number }, string][] = [
      [{ name: 'LCP', value: 60_001 }, 'the LCP value must be at most 60000 ms'],
      [{ name: 'LCP', value: 3_600_000 }, 'the LCP value must be at most 60000 ms'],
      [{ name: 'TTFB', value: 61_000 }, 'the TTFB value must be at most 60000 ms'],
      [{ name: 'INP', value: 10_001 }, 'the INP value must be at most 10000 ms'],
      [{ name: 'CLS', value: 10.5 }, 'the CLS value must be at most 10'],
    ];
    for (const [metric, message] of cases) {
      // The bad value second: the good one before it is not recorded either.
      const sent = await beacon(gateway, report('/signup', [{ name: 'TTFB', value: 120 }, metric]));
      expect({ metric, status: sent.status }).toEqual({ metric, status: 400 });
      expect(sent.body).toEqual({ message, code: 'VALIDATION_FAILED', issues: [{ path: ['metrics', 1, 'value'], message }] });
    }
    expect(await samples(gateway, 'web_vitals_')).toEqual(before);
  });

  it('keeps at most `maxRoutes` routes as labels: further ones count under `other`', async () => {
    // This gateway keeps 3: `/login`, `/` and `other` are taken above.
    const before = (await samples(gateway, 'web_vitals_cls_count')).get('web_vitals_cls_count{route="other"}') ?? 0;
    for (const route of ['/insights', '/insights']) expect((await beacon(gateway, report(route, [{ name: 'CLS', value: 0 }]))).status).toBe(204);
    const counts = await samples(gateway, 'web_vitals_cls_count');
    expect(counts.has('web_vitals_cls_count{route="/insights"}')).toBe(false);
    expect(counts.get('web_vitals_cls_count{route="other"}')).toBe(before + 2);
  });

  it('counts the refusals by reason', async () => {
    const refused = await samples(gateway, 'gateway_rum_reports_refused_total');
    expect(refused.get('gateway_rum_reports_refused_total{reason="cross_site"}')).toBe(3);
    expect(refused.get('gateway_rum_reports_refused_total{reason="malformed"}')).toBe(9 + 5 + 5);
    expect(refused.get('gateway_rum_reports_refused_total{reason="too_large"}')).toBe(1);
    expect(refused.get('gateway_rum_reports_refused_total{reason="media_type"}')).toBe(1);
  });
});

describe('POST /api/rum, the routes of the catalog as it is now', () => {
  it('takes a route as soon as a remote that declares it is served, without a restart', async () => {
    const gateway = await gatewayWithCatalog({ rateLimit: { points: 0, windowSeconds: 60 }, maxRoutes: 50 });
    try {
      expect((await beacon(gateway, report('/stats', VITALS))).status).toBe(400);
      serveRemotes({ ...REMOTES, stats: STATS });
      expect((await beacon(gateway, report('/stats', VITALS))).status).toBe(204);
      expect((await samples(gateway, 'web_vitals_lcp_seconds_count')).get('web_vitals_lcp_seconds_count{route="/stats"}')).toBe(1);
    } finally {
      serveRemotes(REMOTES);
      await gateway.close();
    }
  });

  it('files every report under `other` on a gateway that serves no catalog (nginx serves the frontends)', async () => {
    const gateway = await startGateway(upstreamsOf(services), { rum: { rateLimit: { points: 0, windowSeconds: 60 }, maxRoutes: 50 } });
    try {
      for (const route of ['/login', '/made-up']) expect((await beacon(gateway, report(route, VITALS))).status).toBe(204);
      const counts = await samples(gateway, 'web_vitals_lcp_seconds_count');
      expect([...counts.keys()]).toEqual(['web_vitals_lcp_seconds_count{route="other"}']);
      expect(counts.get('web_vitals_lcp_seconds_count{route="other"}')).toBe(2);
      // The shape and the values are held to the same rules.
      expect((await beacon(gateway, report('/login', [{ name: 'LCP', value: 70_000 }]))).status).toBe(400);
    } finally {
      await gateway.close();
    }
  });
});

describe('POST /api/rum, rate-limited per client address', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await gatewayWithCatalog({ rateLimit: { points: 3, windowSeconds: 60 }, maxRoutes: 50 });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('answers 429 with Retry-After past the budget, and takes nothing from the refused report', async () => {
    for (let i = 0; i < 3; i += 1) expect((await beacon(gateway, report('/', [{ name: 'LCP', value: 900 }]))).status).toBe(204);
    const refused = await beacon(gateway, report('/', [{ name: 'LCP', value: 900 }]));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many attempts\. Try again in/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const counts = await samples(gateway, 'web_vitals_lcp_seconds_count');
    expect(counts.get('web_vitals_lcp_seconds_count{route="/"}')).toBe(3);
    expect((await samples(gateway, 'gateway_rum_reports_refused_total')).get('gateway_rum_reports_refused_total{reason="rate_limited"}')).toBe(1);
  });
});
