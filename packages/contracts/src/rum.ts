import { z } from 'zod';
import { ROUTE_PATH } from './remote-catalog.js';
import { RUM_LIMITS, RUM_METRIC_NAMES, RUM_OTHER_ROUTE } from './rum-limits.js';

// The body of `POST /api/rum`, checked by the gateway; the constants are in rum-limits.ts, zod-free for the shell.

/** A route pattern of the catalog (`/`, `/login`, `/insights`), or `other`: never a raw URL, ids or query. */
export const RumRoute = z
  .string()
  .max(RUM_LIMITS.routeLength, `route must be at most ${RUM_LIMITS.routeLength} characters`)
  .refine((route) => route === RUM_OTHER_ROUTE || ROUTE_PATH.test(route), 'route must be a route pattern such as /login, without query or fragment');

export const RumMetric = z
  .object({
    name: z.enum(RUM_METRIC_NAMES, 'name must be one of LCP, INP, CLS, TTFB'),
    value: z.number('value must be a number').min(0, 'value must not be negative').max(RUM_LIMITS.value, 'value is out of range'),
  })
  .strict();
export type RumMetric = z.infer<typeof RumMetric>;

/** The body of `POST /api/rum` (JSON, sent as text/plain or application/json by navigator.sendBeacon). */
export const RumReport = z
  .object({
    route: RumRoute,
    metrics: z.array(RumMetric).min(1, 'metrics must not be empty').max(RUM_LIMITS.metricsPerReport, `at most ${RUM_LIMITS.metricsPerReport} metrics per report`),
  })
  .strict();
export type RumReport = z.infer<typeof RumReport>;
