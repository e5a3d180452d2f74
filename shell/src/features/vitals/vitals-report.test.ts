import { RUM_LIMITS, RumReport } from '@tm/contracts';
import { DEFAULT_SAMPLE_RATE, isSampled, pageInSample, SAMPLE_RATE_KEY, sampleRate } from './sampling';
import { createVitalsReporter, routeOf, type VitalsReport } from './vitals-report';

const ROUTES = ['/', '/login', '/signup', '/insights', '/account', '/lists/*'];

describe('the route a page load is filed under', () => {
  it('is the catalog route the path is, a trailing slash ignored', () => {
    expect(routeOf('/', ROUTES)).toBe('/');
    expect(routeOf('/login', ROUTES)).toBe('/login');
    expect(routeOf('/insights/', ROUTES)).toBe('/insights');
  });

  it('is the pattern of a route that serves the addresses below it, never the id in the path', () => {
    expect(routeOf('/lists/66f0c2a9e1b2c3d4e5f60718', ROUTES)).toBe('/lists/*');
    expect(routeOf('/lists', ROUTES)).toBe('/lists/*');
    expect(routeOf('/listsx', ROUTES)).toBe('other');
  });

  it('is `other` for any path the catalog does not name: never the path itself, which could carry an id', () => {
    expect(routeOf('/todo/66f0c2a9e1b2c3d4e5f60718', ROUTES)).toBe('other');
    expect(routeOf('/Login', ROUTES)).toBe('other');
    expect(routeOf('/insights/extra', ROUTES)).toBe('other');
    // The catalog could not be read: nothing is known, nothing is guessed.
    expect(routeOf('/login', [])).toBe('other');
  });
});

describe('sampling', () => {
  afterEach(() => localStorage.clear());

  it('takes the build’s rate, unless this browser overrides it; anything not in [0, 1] is no rate', () => {
    expect(sampleRate(undefined, null)).toBe(DEFAULT_SAMPLE_RATE);
    expect(sampleRate('', null)).toBe(DEFAULT_SAMPLE_RATE);
    expect(sampleRate('0.25', null)).toBe(0.25);
    expect(sampleRate('0.25', '1')).toBe(1);
    expect(sampleRate('0.25', '0')).toBe(0);
    expect(sampleRate('2', 'often')).toBe(DEFAULT_SAMPLE_RATE);
    expect(sampleRate('-0.5', '')).toBe(DEFAULT_SAMPLE_RATE);
  });

  it('puts a page load in the sample when its draw falls under the rate', () => {
    expect(isSampled(0.1, () => 0.05)).toBe(true);
    expect(isSampled(0.1, () => 0.1)).toBe(false);
    expect(isSampled(0.1, () => 0.7)).toBe(false);
    expect(isSampled(1, () => 0.999)).toBe(true);
    expect(isSampled(0, () => 0)).toBe(false);
  });

  it('reads the override from localStorage', () => {
    const draw = () => 0.5;
    expect(pageInSample('0.1', draw)).toBe(false);
    localStorage.setItem(SAMPLE_RATE_KEY, '1');
    expect(pageInSample('0.1', draw)).toBe(true);
    localStorage.setItem(SAMPLE_RATE_KEY, '0');
    expect(pageInSample('1', () => 0)).toBe(false);
  });
});

describe('the reporter', () => {
  function reporter(route = () => '/login') {
    const sent: string[] = [];
    return { sent, reports: () => sent.map((body) => JSON.parse(body) as VitalsReport), reporter: createVitalsReporter({ route, send: (body) => sent.push(body) }) };
  }

  it('sends the queued vitals in one report the gateway’s contract accepts: route, names and values only', () => {
    const { reporter: r, reports, sent } = reporter();
    r.record({ name: 'TTFB', value: 132.40000000596, id: 'v5-1' });
    r.record({ name: 'LCP', value: 1830.6, id: 'v5-2' });
    r.record({ name: 'CLS', value: 0.0213847, id: 'v5-3' });
    r.record({ name: 'INP', value: 96, id: 'v5-4' });
    expect(sent).toEqual([]);
    r.flush();
    expect(reports()).toEqual([
      {
        route: '/login',
        metrics: [
          { name: 'TTFB', value: 132 },
          { name: 'LCP', value: 1831 },
          { name: 'CLS', value: 0.0214 },
          { name: 'INP', value: 96 },
        ],
      },
    ]);
    expect(RumReport.safeParse(reports()[0]).success).toBe(true);
    // Nothing else rides along: no id, URL, user or user agent.
    expect(sent[0]).not.toMatch(/v5-|http|agent|user/i);
  });

  it('sends nothing when nothing is queued, and each metric once even when web-vitals reports it again', () => {
    const { reporter: r, reports } = reporter();
    r.flush();
    expect(reports()).toEqual([]);
    r.record({ name: 'CLS', value: 0.01, id: 'v5-cls' });
    r.flush();
    // Hidden a second time: INP and CLS come again with the same id, and are not counted twice.
    r.record({ name: 'CLS', value: 0.3, id: 'v5-cls' });
    r.flush();
    expect(reports()).toEqual([{ route: '/login', metrics: [{ name: 'CLS', value: 0.01 }] }]);
  });

  it('leaves out what the gateway does not take: other metrics, values out of range', () => {
    const { reporter: r, reports } = reporter();
    r.record({ name: 'FCP', value: 900, id: 'a' });
    r.record({ name: 'LCP', value: -1, id: 'b' });
    r.record({ name: 'LCP', value: Number.NaN, id: 'c' });
    r.record({ name: 'LCP', value: RUM_LIMITS.maxValue.LCP + 1, id: 'd' });
    r.record({ name: 'INP', value: RUM_LIMITS.maxValue.INP + 1, id: 'f' });
    r.record({ name: 'LCP', value: 2400, id: 'e' });
    r.flush();
    expect(reports()).toEqual([{ route: '/login', metrics: [{ name: 'LCP', value: 2400 }] }]);
  });

  it('splits a long queue into reports within the per-report limit, each within the size limit', () => {
    const { reporter: r, reports, sent } = reporter();
    for (let i = 0; i < RUM_LIMITS.metricsPerReport + 5; i += 1) r.record({ name: 'LCP', value: RUM_LIMITS.maxValue.LCP - 0.1, id: `v5-${i}` });
    r.flush();
    expect(reports().map((report) => report.metrics.length)).toEqual([RUM_LIMITS.metricsPerReport, 5]);
    for (const body of sent) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(RUM_LIMITS.bodyBytes);
  });

  it('reads the route when it sends (the catalog may arrive after the first vital)', () => {
    let route = 'other';
    const { reporter: r, reports } = reporter(() => route);
    r.record({ name: 'TTFB', value: 80, id: 'x' });
    route = '/insights';
    r.flush();
    expect(reports()[0]?.route).toBe('/insights');
  });
});
