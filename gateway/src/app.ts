import {
  closeConnectionsWhileDraining,
  createMetrics,
  errorHandler,
  healthRoutes,
  notFound,
  PayloadTooLargeError,
  requestLogger,
  ServiceUnavailableError,
  type Logger,
} from '@tm/service-kit';
import { LIMITS } from '@tm/contracts';
import Koa, { type Middleware } from 'koa';
import { authRoutes, todoRoutes } from './auth.routes.js';
import type { GatewayConfig } from './config.js';
import { API_PREFIX } from './forward.middleware.js';
import { rateLimit } from './rate-limit.middleware.js';
import type { RedisClient } from './redis-session.store.js';
import { sessions } from './session.middleware.js';
import { securityHeaders, staticSite, type WebRoots } from './static.middleware.js';
import type { SessionStore } from './session.store.js';
import { createUpstream } from './upstream.proxy.js';
import { xsrfProtection } from './xsrf.middleware.js';

export interface GatewayDeps {
  config: Pick<
    GatewayConfig,
    'usersUrl' | 'todosUrl' | 'sessionKeys' | 'internalSecret' | 'sessionMaxAgeMs' | 'trustProxy' | 'upstreamTimeoutMs' | 'authRateLimit'
  >;
  sessionStore: SessionStore;
  logger: Logger;
  /** When set, rate-limit counters are shared through Redis. */
  redis?: RedisClient;
  /** Built frontends to serve (all-in-one mode); none in a deployment where nginx serves them. */
  web?: WebRoots;
}

export interface Gateway {
  app: Koa;
  drain: () => void;
  /** Closes upstream keep-alive sockets (the session store is the caller's to close). */
  close: () => void;
}

/** Only under /api: static files and health checks neither create sessions nor need XSRF tokens. */
function onlyUnderApi(middleware: Middleware): Middleware {
  return (ctx, next) => (ctx.path === API_PREFIX || ctx.path.startsWith(`${API_PREFIX}/`) ? middleware(ctx, next) : next());
}

/** Refuses a declared body over the limit before anything is proxied (services enforce it for chunked ones). */
function bodyLimit(limitBytes: number): Middleware {
  return (ctx, next) => {
    if (ctx.request.length && ctx.request.length > limitBytes) throw new PayloadTooLargeError(limitBytes);
    return next();
  };
}

/** A session store that cannot be reached is a 503, not a 500: the request itself was fine. */
function sessionStoreErrors(sessionMiddleware: Middleware): Middleware {
  return async (ctx, next) => {
    let inner = false;
    try {
      await sessionMiddleware(ctx, async () => {
        inner = true;
        await next();
      });
    } catch (error) {
      if (inner) throw error;
      ctx.log.error({ err: error }, 'session store failed');
      throw new ServiceUnavailableError('Sessions are temporarily unavailable, please try again');
    }
  };
}

/**
 * The gateway, middleware in one visible order: request id + logging → metrics → error handler → health →
 * security headers → static frontends (all-in-one mode) → (under /api) body limit → session → XSRF → auth and todo routes (proxied to the services) → 404.
 */
export function createApp({ config, sessionStore, logger, redis, web = {} }: GatewayDeps): Gateway {
  const app = new Koa({ proxy: config.trustProxy, keys: config.sessionKeys });
  const metrics = createMetrics('gateway');
  let draining = false;
  const isDraining = () => draining;
  const users = createUpstream({ name: 'users', target: config.usersUrl, timeoutMs: config.upstreamTimeoutMs, isDraining });
  const todos = createUpstream({ name: 'todos', target: config.todosUrl, timeoutMs: config.upstreamTimeoutMs, isDraining });
  const authRateLimit = rateLimit({ ...config.authRateLimit, redis, keyPrefix: 'tm:rl:auth' });

  app.use(requestLogger({ logger, trustIncomingId: false }));
  app.use(metrics.middleware);
  app.use(errorHandler());
  app.use(closeConnectionsWhileDraining(isDraining));
  app.use(healthRoutes({ registry: metrics.registry, ready: () => sessionStore.ping(), draining: () => draining }).routes());
  app.use(securityHeaders(web.shell));
  app.use(staticSite(web));
  app.use(onlyUnderApi(bodyLimit(LIMITS.bodyBytes)));
  app.use(onlyUnderApi(sessionStoreErrors(sessions(app, { store: sessionStore, maxAgeMs: config.sessionMaxAgeMs }))));
  app.use(onlyUnderApi(xsrfProtection()));
  app.use(notFound());
  app.use(authRoutes({ users, internalSecret: config.internalSecret, authRateLimit }).routes());
  app.use(todoRoutes(todos, config.internalSecret).routes());
  app.silent = true;
  return {
    app,
    drain: () => {
      draining = true;
    },
    close: () => {
      users.close();
      todos.close();
    },
  };
}
