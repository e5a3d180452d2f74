import type Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { errorHandler } from './error-handler.middleware.js';
import { closeConnectionsWhileDraining, healthRoutes } from './health.routes.js';
import { requireSignedIdentity } from './identity.js';
import { jsonBody } from './json-body.middleware.js';
import { requestLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { notFound } from './not-found.middleware.js';

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  internalSecret: string;
  /** Resolves true when the service's store answers. */
  ready: () => Promise<boolean>;
  routes: Router[];
}

export interface ServiceApp {
  app: Koa;
  /** Turns readiness to 503 while the process drains before exit. */
  drain: () => void;
}

const PUBLIC_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/**
 * A Koa app for an internal service with the middleware in one visible order:
 * request id + logging (first, so even the error handler's log lines carry the id) → metrics (outside the
 * error handler, so it records the status actually sent) → error handler → health → gateway signature check → JSON body → the service's routes → 404.
 */
export function createServiceApp({ name, logger, internalSecret, ready, routes }: ServiceAppOptions): ServiceApp {
  const app = new Koa();
  const metrics = createMetrics(name);
  let draining = false;
  app.use(requestLogger({ logger, trustIncomingId: true }));
  app.use(metrics.middleware);
  app.use(errorHandler());
  app.use(closeConnectionsWhileDraining(() => draining));
  const health = healthRoutes({ registry: metrics.registry, ready, draining: () => draining });
  app.use(health.routes());
  app.use(requireSignedIdentity({ secret: internalSecret, publicPaths: PUBLIC_PATHS }));
  app.use(jsonBody());
  app.use(notFound());
  for (const router of routes) app.use(router.routes()).use(router.allowedMethods({ throw: false }));
  // Keep Koa's default error printer quiet: our error handler already logged it with the request id.
  app.silent = true;
  return { app, drain: () => { draining = true; } };
}
