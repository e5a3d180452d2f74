// Loaded lazily by bootstrap.tsx once the page has loaded, and only for a page load in the sample: the
// `web-vitals` library costs the first load nothing (docs/PERFORMANCE.md "First-load budgets"). Its
// observers read buffered performance entries, so LCP, CLS and TTFB are whole however late it starts; INP
// misses only the interactions before it started.
import { RUM_PATH } from '@tm/contracts';
import { onCLS, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { createVitalsReporter, routeOf } from './vitals-report';

/** Sends one report: a beacon (it outlives the page), else a keep-alive fetch; never throws. */
function send(body: string): void {
  try {
    if (navigator.sendBeacon?.(RUM_PATH, body)) return;
    void fetch(RUM_PATH, { method: 'POST', body, keepalive: true, credentials: 'omit', headers: { 'content-type': 'text/plain;charset=UTF-8' } }).catch(() => undefined);
  } catch {
    // Reporting must never disturb the page.
  }
}

/**
 * Reports this page load's vitals under the route it was loaded at (`landingPath`, read before the app
 * redirected anywhere), as one of the catalog's route patterns (`catalogRoutes`; `other` until they are
 * known, or when the catalog cannot be read).
 */
export function startVitals(landingPath: string, catalogRoutes: () => Promise<readonly string[]>): void {
  let routes: readonly string[] = [];
  catalogRoutes().then(
    (known) => {
      routes = known;
    },
    () => undefined,
  );
  const reporter = createVitalsReporter({ route: () => routeOf(landingPath, routes), send });
  const record = (metric: Metric) => reporter.record(metric);
  onLCP(record);
  onINP(record);
  onCLS(record);
  onTTFB(record);
  // Registered after web-vitals' own listeners (on window, capturing): they have reported the page's final
  // values by the time this runs. `pagehide` covers browsers that skip visibilitychange on unload.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') reporter.flush();
  });
  addEventListener('pagehide', () => reporter.flush());
}
