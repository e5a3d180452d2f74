// No zod here: the shell's vitals reporter imports these, and must not pull the schema library in with them
// (the schemas are in rum.ts, for the gateway).

/**
 * Real-user monitoring (docs/OPERATIONS.md "What users feel (RUM)"): the browser reports the Core Web Vitals
 * of a sampled share of page loads to `POST /api/rum`, and the gateway keeps them as Prometheus histograms.
 * Nothing personal travels: no user, no URL (the route pattern only), no query, no user agent.
 */
export const RUM_PATH = '/api/rum';

/** The vitals reported, as the `web-vitals` package names them. */
export const RUM_METRIC_NAMES = ['LCP', 'INP', 'CLS', 'TTFB'] as const;
export type RumMetricName = (typeof RUM_METRIC_NAMES)[number];

/** The route of a page load that matched no route of the catalog (the shell sends it on to `/`). */
export const RUM_OTHER_ROUTE = 'other';

export const RUM_LIMITS = {
  /** Largest report body (413 beyond): a report of every vital fits in a tenth of it. */
  bodyBytes: 4 * 1024,
  /** Values per report: one page's vitals, or a few more after a return from the back/forward cache. */
  metricsPerReport: 20,
  /** Longest route pattern. */
  routeLength: 100,
  /** Largest value: milliseconds for LCP, INP and TTFB (an hour), a unitless score for CLS. */
  value: 3_600_000,
} as const;
