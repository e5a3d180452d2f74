import {
  closeConnectionsWhileDraining,
  createMetrics,
  errorHandler,
  healthRoutes,
  HttpError,
  LengthRequiredError,
  notFound,
  PayloadTooLargeError,
  requestLogger,
  type Logger,
} from '@tm/service-kit';
import { bodyLimitOf, ErrorCode } from '@tm/contracts';
import Koa, { type Middleware } from 'koa';
import compress from 'koa-compress';
import type { Registry } from 'prom-client';
import { AccountThrottle } from './account-throttle.js';
import { calendarFeedAccountRoutes, publicCalendarFeedRoutes, type CalendarFeedLimits } from './calendar-feed.routes.js';
import { CookieKeys } from './cookie-keys.js';
import { accountRoutes } from './account.routes.js';
import { API_PREFIX } from './api-prefix.js';
import { authRoutes } from './auth.routes.js';
import type { GatewayConfig } from './config.js';
import { forwardedHeader } from './forward.middleware.js';
import { LiveStreams } from './live-streams.js';
import { openApiRoutes } from './openapi.routes.js';
import { passwordResetRoutes } from './password-reset.routes.js';
import { rumRoutes, type RumLimits } from './rum.routes.js';
import { crossSiteProtection } from './origin.middleware.js';
import { rateLimit } from './rate-limit.middleware.js';
import type { RedisClient } from './redis-connection.js';
import { readiness } from './readiness.js';
import { pushSessionEnds, reminderRoutes } from './reminder.routes.js';
import { sessionEndAnswers, SessionEnds } from './session-end.js';
import { sessionLifetime, sessions } from './session.middleware.js';
import { securityHeaders } from './security-headers.middleware.js';
import { staticSite, type WebSite } from './static.middleware.js';
import type { SessionStore } from './session.repository.js';
import { countUpstreamFailures } from './upstream-failures.js';
import { todoRoutes } from './todo.routes.js';
import { createUpstream } from './upstream.proxy.js';
import { otherUserRoutes } from './user.routes.js';
import { xsrfProtection } from './xsrf.middleware.js';

export interface GatewayDeps {
  config: Pick<
    GatewayConfig,
    | 'usersUrl'
    | 'todosUrl'
    | 'sessionKeys'
    | 'internalSecret'
    | 'session'
    | 'allowedOrigins'
    | 'trustProxy'
    | 'trustProxyHops'
    | 'clients'
    | 'upstreamTimeoutMs'
    | 'authRateLimit'
    | 'signupRateLimit'
    | 'accountThrottle'
    | 'events'
  > &
    Partial<Pick<GatewayConfig, 'publicUrl'>> & {
      /** `POST /api/rum` limits (rum.routes.ts): RUM_REPORT_LIMITS when absent (tests set others). */
      rum?: RumLimits;
      /** The calendar feed's budget per address (calendar-feed.routes.ts): CALENDAR_FEED_LIMITS when absent. */
      calendarFeed?: CalendarFeedLimits;
    };
  sessionStore: SessionStore;
  logger: Logger;
  /** When set, rate-limit counters are shared through Redis. */
  redis?: RedisClient;
  /** Built frontends to serve (all-in-one mode); none in a deployment where nginx serves them. */
  web?: WebSite;
}

export interface Gateway {
  app: Koa;
  /**
   * `/healthz`, `/readyz` and `/metrics` for the platform (probes, Prometheus), served on a port of their own
   * (`OPS_PORT`), never on the app's public port, which keeps only `/healthz` (SECURITY.md "Limits and timeouts").
   */
  ops: Koa;
  /** Shutdown begins: readiness turns 503, live streams end (the pages reconnect elsewhere) and new ones are refused. */
  drain: () => void;
  /** Ends live streams and closes upstream sockets (the session store is the caller's to close). */
  close: () => void;
  /** The live streams open in this process. */
  streams: LiveStreams;
  /** This process's metrics (`/metrics`). */
  registry: Registry;
}

/** Only under /api: static files and health checks neither create sessions nor need XSRF tokens. */
function onlyUnderApi(middleware: Middleware): Middleware {
  return async (ctx, next) => {
    if (ctx.path === API_PREFIX || ctx.path.startsWith(`${API_PREFIX}/`)) await middleware(ctx, next);
    else await next();
  };
}

/**
 * Only plainly framed requests reach the routes and the proxy. A body must come with a Content-Length no
 * larger than the limit: a chunked body is refused with 411, because http-proxy forwards the body of a chunked
 * DELETE or OPTIONS behind a `Content-Length: 0`, where the service reads it as a second request (smuggling,
 * found by the fuzzer; docs/ARCHITECTURE.md "Testing"). Browsers and load tools always send a length. OPTIONS is answered
 * here: the API serves only its own origin, so there is no CORS preflight to forward.
 */
function framedRequests(limitOf: (path: string) => number): Middleware {
  return (ctx, next) => {
    if (ctx.get('transfer-encoding')) throw new LengthRequiredError();
    const limitBytes = limitOf(ctx.path);
    if (ctx.request.length && ctx.request.length > limitBytes) throw new PayloadTooLargeError(limitBytes);
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', 'GET, HEAD, POST, PUT, DELETE');
      ctx.status = 204;
      return undefined;
    }
    return next();
  };
}

/** The answers the gateway makes per request worth compressing: JSON and text, never the live event stream. */
const COMPRESSED_TYPES = /^(application\/(json|problem\+json)|text\/(plain|html|css|javascript|calendar))\b/;

/**
 * JSON answers (the task list above all: 1.8 MB for 10 000 tasks) are compressed when over 1 KiB, with gzip
 * at level 3: CPU-cheap per request. Brotli is kept for the built files, compressed once at build time
 * (static.middleware.ts): per request, a brotli stream cost the gateway 0.6–0.9 ms more CPU per answer than
 * gzip in `pnpm bench` (it sets up a large window for every answer), for answers a third smaller (a
 * 1 000-task list: 6.3 KB against 10.1 KB, from 196 KB). The event stream is never compressed: a compressor
 * buffers, and events must arrive at once (docs/PRODUCT.md §10.11.5).
 */
export function compressAnswers(): Middleware {
  return compress({
    threshold: 1024,
    filter: (type) => COMPRESSED_TYPES.test(type),
    gzip: { level: 3 },
    br: false,
    deflate: false,
  });
}

/**
 * A request with more headers than any browser sends is refused (431) before anything reads them: they would all be forwarded to a service, each a cost, and a service refusing them would look like
 * a 502 of ours. Their total size is capped by the server itself (`maxHeaderBytes`, config.ts CLIENT_REQUEST_LIMITS; also 431).
 */
function headerCountLimit(maxCount: number): Middleware {
  return (ctx, next) => {
    if (ctx.req.rawHeaders.length / 2 > maxCount) throw new HttpError(431, 'The request has too many headers', ErrorCode.headersTooLarge);
    return next();
  };
}

/** The public port's only health route: `/healthz` (alive); readiness and metrics are on the ops port. */
function aliveOnly(): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/healthz' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    ctx.body = { status: 'ok' };
  };
}

/** Answers under /api are personal: no cache along the way may keep them. */
const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};

/**
 * The gateway, middleware in one visible order: request id + logging → metrics → error handler → why a
 * session ended, in its 401 (session-end.ts) → header count limit → compression → security headers →
 * health → static frontends (all-in-one mode) → (under /api) no-store → framing and body limit →
 * the OpenAPI document (public, cacheable: no session) → RUM reports (no session: beacons) → calendar feeds (no session: calendar apps) → cross-site check → session → session lifetime →
 * XSRF → 404 (on the way back) → auth, account and todo routes (the services' answers checked before they
 * are sent on; the live stream relayed as a stream).
 */
export function createApp({ config, sessionStore, logger, redis, web = {} }: GatewayDeps): Gateway {
  // The client is the right-most X-Forwarded-For entry(ies) our own proxies wrote, never the
  // left-most one, which the client chose (client-address.ts).
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  app.keys = new CookieKeys(config.sessionKeys);
  const metrics = createMetrics('gateway');
  let draining = false;
  const isDraining = () => draining;
  const users = createUpstream({ name: 'users', target: config.usersUrl, timeoutMs: config.upstreamTimeoutMs, forwardsHeader: forwardedHeader });
  const todos = createUpstream({ name: 'todos', target: config.todosUrl, timeoutMs: config.upstreamTimeoutMs, forwardsHeader: forwardedHeader });
  const authRateLimit = rateLimit({ ...config.authRateLimit, redis, keyPrefix: 'tm:rl:auth' });
  const signupRateLimit = rateLimit({ ...config.signupRateLimit, redis, keyPrefix: 'tm:rl:signup' });
  const throttle = new AccountThrottle({ ...config.accountThrottle, redis, registry: metrics.registry });
  const { internalSecret } = config;
  const ends = new SessionEnds(sessionStore, config.session, pushSessionEnds(todos, internalSecret));
  const streams = new LiveStreams({
    limits: config.events,
    sessionStore,
    lifetime: config.session,
    logger,
    registry: metrics.registry,
  });

  app.use(requestLogger({ logger, trustIncomingId: false }));
  app.use(metrics.middleware);
  app.use(errorHandler());
  app.use(countUpstreamFailures(metrics.registry));
  app.use(sessionEndAnswers(ends));
  app.use(headerCountLimit(config.clients.maxHeaderCount));
  app.use(compressAnswers());
  app.use(closeConnectionsWhileDraining(isDraining));
  const ready = readiness({ sessionStore, services: { users: config.usersUrl, todos: config.todosUrl } });
  const ops = new Koa();
  ops.use(requestLogger({ logger, trustIncomingId: false }));
  ops.use(errorHandler());
  ops.use(closeConnectionsWhileDraining(isDraining));
  ops.use(healthRoutes({ registry: metrics.registry, ready, draining: () => draining }).routes());
  ops.silent = true;
  app.use(securityHeaders(web.shell, web.overrideOrigins));
  // After the security headers: the public /healthz carries them like every other answer.
  app.use(aliveOnly());
  app.use(staticSite(web));
  app.use(onlyUnderApi(noStore));
  app.use(onlyUnderApi(framedRequests(bodyLimitOf)));
  app.use(openApiRoutes().routes());
  // Before the session and XSRF checks: a beacon cannot carry the XSRF header (rum.routes.ts).
  const { catalog, remotes } = web;
  const servedCatalog = catalog ? async () => catalog : remotes ? () => remotes.catalog() : undefined;
  app.use(rumRoutes({ registry: metrics.registry, limits: config.rum, allowedOrigins: config.allowedOrigins, redis, catalog: servedCatalog }).routes());
  // Before the session and XSRF checks: a calendar app sends no cookie; the secret address is the key (PRODUCT §10.18).
  const calendarFeeds = { users, todos, internalSecret, redis, limits: config.calendarFeed, publicUrl: config.publicUrl };
  app.use(publicCalendarFeedRoutes(calendarFeeds).routes());
  app.use(onlyUnderApi(crossSiteProtection({ allowedOrigins: config.allowedOrigins })));
  app.use(onlyUnderApi(sessions(app, { store: sessionStore, lifetime: config.session })));
  app.use(onlyUnderApi(sessionLifetime(config.session, ends.endExpired)));
  app.use(onlyUnderApi(xsrfProtection()));
  app.use(notFound());
  app.use(authRoutes({ users, internalSecret, authRateLimit, signupRateLimit, throttle, streams, ends }).routes());
  app.use(accountRoutes({ users, todos, internalSecret, ends, throttle, streams }).routes());
  app.use(passwordResetRoutes({ users, internalSecret, authRateLimit, redis, publicUrl: config.publicUrl, ends, streams, throttle }).routes());
  app.use(calendarFeedAccountRoutes(calendarFeeds).routes());
  app.use(otherUserRoutes(users, internalSecret).routes());
  app.use(reminderRoutes({ todos, internalSecret, lifetime: config.session }).routes());
  app.use(todoRoutes(todos, internalSecret, streams).routes());
  app.silent = true;
  return {
    app,
    ops,
    streams,
    registry: metrics.registry,
    drain: () => {
      draining = true;
      streams.drain();
    },
    close: () => {
      streams.close();
      users.close();
      todos.close();
    },
  };
}
