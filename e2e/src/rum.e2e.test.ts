import type { BrowserContext, Page } from 'playwright-core';
import { useOwnApp } from './browser.js';
import { describeInBrowser } from './app.js';

// What users feel, in the field (docs/OPERATIONS.md "What users feel (RUM)"). Chromium loads the
// built app, navigates, and leaves the page (it goes hidden, then away): the shell's reporter sends the
// Core Web Vitals of the page load with navigator.sendBeacon, and the gateway's /metrics shows them under
// the route pattern the page was loaded at. This file runs its own app, to read its gateway's ops port.

/** The override of the build's sample rate, for this browser only (shell/src/features/vitals/sampling.ts). */
const SAMPLE_RATE_KEY = 'tm:rum-sample-rate';

const app = useOwnApp({ web: true });

/**
 * A browser profile with this sample rate. Every beacon the page sends is also written down in the tab's
 * sessionStorage (the real sendBeacon still sends it): Chromium does not show a beacon sent while a page
 * unloads to Playwright, and the tab's next page of the same origin reads them back ({@link sentBeacons}).
 */
async function profile(rate: '0' | '1'): Promise<BrowserContext> {
  // Without the shell's service worker, as the suite's other pages (browser.ts openSession): a page it
  // controls has its unload beacons go through it, and Chromium drops one now and then (docs/OPERATIONS.md
  // "What users feel (RUM)"), which would make this test a matter of luck.
  const context = await app.browser().newContext({ baseURL: app.stack().url, viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  await context.addInitScript(
    ([key, value]) => {
      if (location.protocol !== 'http:') return;
      localStorage.setItem(key, value);
      // The entry types observed so far: once web-vitals observes layout shifts and events, the reporter runs.
      const observe = Object.getOwnPropertyDescriptor(PerformanceObserver.prototype, 'observe')?.value as (this: PerformanceObserver, options?: PerformanceObserverInit) => void;
      const observed: string[] = [];
      Object.assign(window, { e2eObserved: observed });
      PerformanceObserver.prototype.observe = function (this: PerformanceObserver, options?: PerformanceObserverInit) {
        if (options?.type) observed.push(options.type);
        observe.call(this, options);
      };
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        const sent = send(url, data);
        const log = JSON.parse(sessionStorage.getItem('e2e:beacons') ?? '[]') as unknown[];
        sessionStorage.setItem('e2e:beacons', JSON.stringify([...log, { url: String(url), body: typeof data === 'string' ? data : null, sent }]));
        return sent;
      };
    },
    [SAMPLE_RATE_KEY, rate] as const,
  );
  return context;
}

/** Resolves once web-vitals observes the page (the reporter was loaded and started). */
async function reporterRunning(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const observed = (window as unknown as { e2eObserved?: string[] }).e2eObserved ?? [];
    return ['largest-contentful-paint', 'layout-shift', 'event'].every((type) => observed.includes(type));
  });
}

interface Beacon {
  url: string;
  body: string | null;
  sent: boolean;
}

/** The beacons the tab's pages sent, read back on a page of the app's origin (any path serves it). */
async function sentBeacons(page: Page): Promise<Beacon[]> {
  await page.goto('/favicon.svg');
  return JSON.parse((await page.evaluate(() => sessionStorage.getItem('e2e:beacons'))) ?? '[]') as Beacon[];
}

/** The gateway's `web_vitals_*_count` series by `vital{route}`, from its ops port. */
async function vitalCounts(): Promise<Map<string, number>> {
  const text = await (await fetch(`${app.stack().gateway.opsUrl}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/^web_vitals_(\w+?)(?:_seconds)?_count\{([^}]*)\} (\S+)$/gm)) {
    const route = /route="([^"]*)"/.exec(match[2]!)?.[1];
    counts.set(`${match[1]}{${route}}`, Number(match[3]));
  }
  return counts;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const metrics = await (await fetch(`${app.stack().gateway.opsUrl}/metrics`)).text();
      const seen = metrics.split('\n').filter((line) => /^(web_vitals_\w+_count|gateway_rum_reports_refused_total)\{/.test(line));
      throw new Error(`${what}: not within ${timeoutMs} ms; the gateway has:\n${seen.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeInBrowser('Core Web Vitals from the field (POST /api/rum)', () => {
  it('reports the vitals of a page load under its route pattern when the page goes hidden, and the gateway counts them', async () => {
    const context = await profile('1');
    const page = await context.newPage();
    // Landing on the sign-in route, with a query the report must not carry.
    await page.goto('/login?utm_source=newsletter');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    // The reporter loads after the page's load event: wait until it runs before interacting, so the
    // interactions count for INP.
    await reporterRunning(page);
    await page.getByLabel('Email').click();
    await page.getByLabel('Email').pressSequentially('someone@example.com');
    // A navigation inside the app (no page load): the vitals stay those of the page loaded at /login.
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL('**/signup');
    await page.getByLabel('Full Name').click();
    // Leaving the page: Chromium fires pagehide, then the page goes hidden (visibilitychange), then it
    // unloads; the beacons outlive it.
    await page.goto('about:blank');
    const beacons = await sentBeacons(page);

    const counts = await until(`the vitals of /login on the gateway (the page sent ${JSON.stringify(beacons)})`, async () => {
      const now = await vitalCounts();
      return ['lcp', 'cls', 'ttfb', 'inp'].every((vital) => (now.get(`${vital}{/login}`) ?? 0) >= 1) ? now : undefined;
    });
    expect(counts.get('lcp{/login}')).toBe(1);
    expect(counts.get('ttfb{/login}')).toBe(1);
    expect(counts.get('cls{/login}')).toBe(1);
    expect(counts.get('inp{/login}')).toBe(1);
    // Filed under the pattern of the route the page was loaded at: no /signup (a navigation inside the
    // page), no query, no URL.
    expect([...counts.keys()].filter((key) => !key.endsWith('{/login}'))).toEqual([]);

    // What went over the wire: the route pattern and the four values, nothing else.
    expect(beacons.length).toBeGreaterThanOrEqual(1);
    const metrics: string[] = [];
    for (const beacon of beacons) {
      expect({ url: new URL(beacon.url, app.stack().url).pathname, sent: beacon.sent }).toEqual({ url: '/api/rum', sent: true });
      const body = JSON.parse(beacon.body ?? '') as { route: string; metrics: { name: string; value: number }[] };
      expect(Object.keys(body).sort()).toEqual(['metrics', 'route']);
      expect(body.route).toBe('/login');
      for (const metric of body.metrics) {
        expect(Object.keys(metric).sort()).toEqual(['name', 'value']);
        metrics.push(metric.name);
      }
      expect(beacon.body).not.toMatch(/utm|newsletter|someone|example\.com|signup/);
    }
    expect(metrics.sort()).toEqual(['CLS', 'INP', 'LCP', 'TTFB']);
    await context.close();
  });

  it('sends nothing for a page load outside the sample', async () => {
    const before = await vitalCounts();
    const context = await profile('0');
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.getByLabel('Email').click();
    await page.goto('about:blank');
    expect(await sentBeacons(page)).toEqual([]);
    expect(await vitalCounts()).toEqual(before);
    await context.close();
  });
});
