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
  /**
   * The largest plausible value of each vital: milliseconds for LCP, INP and TTFB, a unitless score for CLS.
   * A page load past them is not one to learn from (a tab left loading, a clock that jumped): the report is
   * refused rather than let it stretch the histograms, and the page leaves such a value out of its report.
   * LCP and TTFB: a minute (the gateway answers in 8 s or says it failed); INP: 10 s, twice the top bucket
   * of its histogram (beyond is a frozen page, not an interaction); CLS: 10 (a layout shift scores at most
   * 1; even the worst pages stay below a few).
   */
  maxValue: { LCP: 60_000, INP: 10_000, CLS: 10, TTFB: 60_000 } satisfies Record<RumMetricName, number>,
} as const;
