import { z } from 'zod';
import { ROUTE_PATH } from './remote-catalog.js';
import { RUM_LIMITS, RUM_METRIC_NAMES, RUM_OTHER_ROUTE, type RumMetricName } from './rum-limits.js';

// The body of `POST /api/rum`, checked by the gateway; the constants are in rum-limits.ts, zod-free for the shell.

/**
 * A route pattern (`/`, `/login`, `/insights`), or `other`: never a raw URL, ids or query. The gateway also
 * holds it to the routes its remote catalog declares (rum.routes.ts): this schema is the shape only.
 */
export const RumRoute = z
  .string()
  .max(RUM_LIMITS.routeLength, `route must be at most ${RUM_LIMITS.routeLength} characters`)
  .refine((route) => route === RUM_OTHER_ROUTE || ROUTE_PATH.test(route), 'route must be a route pattern such as /login, without query or fragment');

const UNITS: Record<RumMetricName, string> = { LCP: ' ms', INP: ' ms', CLS: '', TTFB: ' ms' };

/** One vital with its own plausible range (RUM_LIMITS.maxValue). */
const vital = <N extends RumMetricName>(name: N) =>
  z
    .object({
      name: z.literal(name),
      value: z
        .number('value must be a number')
        .min(0, 'value must not be negative')
        .max(RUM_LIMITS.maxValue[name], `the ${name} value must be at most ${RUM_LIMITS.maxValue[name]}${UNITS[name]}`),
    })
    .strict();

export const RumMetric = z.discriminatedUnion('name', [vital('LCP'), vital('INP'), vital('CLS'), vital('TTFB')], {
  error: (issue) => (typeof issue.input === 'object' && issue.input !== null ? `name must be one of ${RUM_METRIC_NAMES.join(', ')}` : 'a metric must be an object with name and value'),
});
export type RumMetric = z.infer<typeof RumMetric>;

/** The body of `POST /api/rum` (JSON, sent as text/plain or application/json by navigator.sendBeacon). */
export const RumReport = z
  .object({
    route: RumRoute,
    metrics: z.array(RumMetric).min(1, 'metrics must not be empty').max(RUM_LIMITS.metricsPerReport, `at most ${RUM_LIMITS.metricsPerReport} metrics per report`),
  })
  .strict();
export type RumReport = z.infer<typeof RumReport>;
