// Real-user monitoring (docs/OPERATIONS.md "What users feel (RUM)"): `POST /api/rum` takes the Core
// Web Vitals a sampled share of page loads report (shell/src/features/vitals) and keeps them as Prometheus
// histograms by route, for the p75 alerts of deploy/prometheus/alerts.yml.
//
// A report comes from navigator.sendBeacon, which can set no header: no XSRF token, so this route is mounted
// before the session and XSRF checks, and reads no session (a report needs no user, and says nothing about
// one). What guards it instead: the Origin must be the app's own (a beacon is a same-origin POST, and every
// browser sends Origin with a POST), the body is small (413 past RUM_LIMITS.bodyBytes), each client address
// has a budget of reports (429), and the body must be exactly the RumReport shape (400): strict objects, so
// nothing else (a user id, a URL, a user agent) is ever stored, and each value within its vital's plausible
// range (RUM_LIMITS.maxValue). The route must be one the remote catalog declares, or `other` (400 for any
// other): a client inventing routes cannot grow the series; a process also keeps at most `maxRoutes` labels.
import type { Context, Middleware } from 'koa';
import { ErrorCode, RUM_LIMITS, RUM_OTHER_ROUTE, RUM_PATH, RumReport, type RemoteCatalog, type RumMetricName } from '@tm/contracts';
import { apiRouter, ForbiddenError, HttpError, PayloadTooLargeError, ServiceUnavailableError, TooManyRequestsError, UnsupportedMediaTypeError, ValidationError } from '@tm/service-kit';
import type Router from '@koa/router';
import { Counter, Histogram, type Registry } from 'prom-client';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { clientOf } from './client-address.js';
import { crossSiteProtection } from './origin.middleware.js';
import { createLimiter } from './rate-limit.middleware.js';
import type { RedisClient } from './redis-connection.js';

export interface RumLimits {
  /** Reports per client address per window; 0 turns the limit off. */
  rateLimit: { points: number; windowSeconds: number };
  /** Distinct route labels this process keeps; reports for further routes are filed under `other`. */
  maxRoutes: number;
}

/**
 * The limits outside tests: a page reports once per load (a sampled share of loads), so 60 a minute from one
 * address is a busy office; 50 route labels are more than any catalog declares, and bound the series kept.
 */
export const RUM_REPORT_LIMITS: RumLimits = { rateLimit: { points: 60, windowSeconds: 60 }, maxRoutes: 50 };

export interface RumRoutesOptions {
  registry: Registry;
  limits?: RumLimits;
  /** Origins besides the gateway's own whose pages may report (ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** Shared rate-limit counters across gateway instances; in memory when absent. */
  redis?: RedisClient;
  /**
   * The remote catalog this gateway serves as /remotes.json (read at each report; RemoteFolders caches it):
   * its routes are the only ones a report may name. Absent where the gateway serves no frontends (nginx does,
   * docs/DEPLOY.md): it cannot tell a real route from a made-up one, and files every report under `other`.
   */
  catalog?: () => Promise<RemoteCatalog | undefined>;
}

/** The route patterns a catalog declares (`/`, `/login`, `/insights`…). */
function catalogRoutes(catalog: RemoteCatalog): Set<string> {
  return new Set(Object.values(catalog.remotes).flatMap((remote) => remote.routes.map((route) => route.path)));
}

/**
 * Buckets around the "good" and "poor" thresholds of each vital (web.dev/articles/vitals: LCP 2.5 s / 4 s,
 * INP 200 ms / 500 ms, CLS 0.1 / 0.25, TTFB 0.8 s / 1.8 s), so a p75 near a threshold is read from the
 * buckets on either side of it rather than interpolated across a wide one.
 */
const VITALS: Record<RumMetricName, { name: string; help: string; buckets: number[]; scale: number }> = {
  LCP: {
    name: 'web_vitals_lcp_seconds',
    help: 'Largest Contentful Paint of page loads, by route (field data, sampled)',
    buckets: [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10, 20],
    scale: 1 / 1000,
  },
  INP: {
    name: 'web_vitals_inp_seconds',
    help: 'Interaction to Next Paint of page loads, by route (field data, sampled)',
    buckets: [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2, 5],
    scale: 1 / 1000,
  },
  CLS: {
    name: 'web_vitals_cls',
    help: 'Cumulative Layout Shift of page loads, by route (field data, sampled; unitless)',
    buckets: [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2],
    scale: 1,
  },
  TTFB: {
    name: 'web_vitals_ttfb_seconds',
    help: 'Time to First Byte of page loads, by route (field data, sampled)',
    buckets: [0.1, 0.2, 0.4, 0.8, 1.2, 1.8, 3, 5, 10],
    scale: 1 / 1000,
  },
};

type RefusedReason = 'cross_site' | 'rate_limited' | 'too_large' | 'media_type' | 'malformed';

/** The body, read whole up to `limit` bytes (framedRequests has already required a Content-Length). */
async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new PayloadTooLargeError(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** A beacon's Blob or string body: JSON sent as text/plain (a string) or application/json (a typed Blob). */
function isReportType(ctx: Context): boolean {
  return ctx.is('text/plain', 'application/json') !== false;
}

export function rumRoutes({ registry, limits = RUM_REPORT_LIMITS, allowedOrigins, redis, catalog }: RumRoutesOptions): Router {
  const histograms = Object.fromEntries(
    Object.entries(VITALS).map(([metric, { name, help, buckets }]) => [metric, new Histogram({ name, help, buckets, labelNames: ['route'] as const, registers: [registry] })]),
  ) as Record<RumMetricName, Histogram<'route'>>;
  const refused = new Counter({
    name: 'gateway_rum_reports_refused_total',
    help: 'RUM reports refused: cross-site, rate-limited, too large, not JSON text, or not a valid report',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const routes = new Set<string>();
  const routeLabel = (route: string): string => {
    if (routes.has(route)) return route;
    if (routes.size >= limits.maxRoutes) return RUM_OTHER_ROUTE;
    routes.add(route);
    return route;
  };
  const limiter = limits.rateLimit.points > 0 ? createLimiter({ ...limits.rateLimit, redis, keyPrefix: 'tm:rl:rum' }) : undefined;
  const sameSite = crossSiteProtection({ allowedOrigins });

  /** Counts a refusal by its reason, whichever check threw it. */
  const countRefusals: Middleware = async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpError) {
        const reason: RefusedReason | undefined =
          error.status === 403 ? 'cross_site' : error.status === 429 ? 'rate_limited' : error.status === 413 ? 'too_large' : error.status === 415 ? 'media_type' : error.status === 400 ? 'malformed' : undefined;
        if (reason) refused.inc({ reason });
      }
      throw error;
    }
  };

  /** The app's own pages only: a cross-site page, or a request naming no Origin at all, is refused (403). */
  const ownPagesOnly: Middleware = async (ctx, next) => {
    if (!ctx.get('origin')) throw new ForbiddenError('Reports are accepted from the app\'s own pages only (no Origin header)', ErrorCode.crossSite);
    await sameSite(ctx, next);
  };

  const budget: Middleware = async (ctx, next) => {
    if (limiter) {
      try {
        await limiter.consume(clientOf(ctx));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw new TooManyRequestsError(rejection.msBeforeNext / 1000);
        ctx.log.error({ err: rejection }, 'rate limiter store failed');
        throw new ServiceUnavailableError('Reports are not accepted right now, please try again later');
      }
    }
    await next();
  };

  /** The report's route as a label: a route of the catalog, or `other`; anything else is refused (400). */
  const knownRoute = async (route: string): Promise<string> => {
    if (route === RUM_OTHER_ROUTE) return route;
    const served = await catalog?.();
    if (!served) return RUM_OTHER_ROUTE;
    const routes = catalogRoutes(served);
    if (routes.has(route)) return route;
    throw new ValidationError([{ path: ['route'], message: `route must be a route of the app (${[...routes].sort().join(', ')}) or ${RUM_OTHER_ROUTE}` }]);
  };

  const receive: Middleware = async (ctx) => {
    if (ctx.request.length && ctx.request.length > RUM_LIMITS.bodyBytes) throw new PayloadTooLargeError(RUM_LIMITS.bodyBytes);
    if (!isReportType(ctx)) throw new UnsupportedMediaTypeError('A report must be JSON, sent as text/plain or application/json');
    const text = (await readBody(ctx, RUM_LIMITS.bodyBytes)).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'The report is not valid JSON', ErrorCode.malformedJson);
    }
    const parsed = RumReport.safeParse(body);
    if (!parsed.success) throw ValidationError.fromZod(parsed.error);
    const route = routeLabel(await knownRoute(parsed.data.route));
    for (const { name, value } of parsed.data.metrics) histograms[name].observe({ route }, value * VITALS[name].scale);
    ctx.status = 204;
  };

  const router = apiRouter();
  router.post(RUM_PATH, countRefusals, ownPagesOnly, budget, receive);
  return router;
}
