import type Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { errorHandler } from './error-handler.middleware.js';
import { closeConnectionsWhileDraining, healthRoutes, type Readiness } from './health.routes.js';
import { requireSignedIdentity } from './identity.js';
import { jsonBody } from './json-body.middleware.js';
import { requestLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { notFound } from './not-found.middleware.js';
import { StorageWatch, type StorageWatchOptions } from './storage.js';

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  internalSecret: string;
  /** Resolves true when the service's store answers. */
  ready: () => Promise<boolean>;
  /**
   * Where the store keeps its data, for readiness ({@link StorageWatch}): `dataDir` for the SQLite files;
   * without it (MongoDB) only the writes that failed count, and they show as `degraded`, not as not ready.
   */
  storage?: Omit<StorageWatchOptions, 'logger'>;
  routes: Router[];
}

export interface ServiceApp {
  app: Koa;
  /** Turns readiness to 503 while the process drains before exit. */
  drain: () => void;
  /** This process's metrics (`/metrics`), for the service's own gauges and counters. */
  registry: Registry;
}

const PUBLIC_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/**
 * A Koa app for an internal service with the middleware in one visible order:
 * request id + logging (first, so even the error handler's log lines carry the id) → metrics (outside the
 * error handler, so it records the status actually sent) → error handler → health → gateway signature check → JSON body → the service's routes → 404.
 */
export function createServiceApp({ name, logger, internalSecret, ready, storage: storageOptions, routes }: ServiceAppOptions): ServiceApp {
  const app = new Koa();
  const metrics = createMetrics(name);
  const storage = new StorageWatch({ ...storageOptions, logger });
  let draining = false;
  app.use(requestLogger({ logger, trustIncomingId: true }));
  app.use(metrics.middleware);
  app.use(errorHandler({ onStorageFailure: (failure) => storage.failed(failure) }));
  app.use(closeConnectionsWhileDraining(() => draining));
  const health = healthRoutes({ registry: metrics.registry, ready: readiness(ready, storage), draining: () => draining });
  app.use(health.routes());
  app.use(requireSignedIdentity({ secret: internalSecret, publicPaths: PUBLIC_PATHS }));
  app.use(jsonBody());
  app.use(notFound());
  for (const router of routes) app.use(router.routes()).use(router.allowedMethods({ throw: false }));
  // Keep Koa's default error printer quiet: our error handler already logged it with the request id.
  app.silent = true;
  return { app, registry: metrics.registry, drain: () => { draining = true; } };
}

/**
 * `/readyz` of a service: `store` (it answers) and `writes` (it can take them, {@link StorageWatch}). A
 * SQLite store that cannot write makes the process not ready (503): its data folder is its own. A MongoDB
 * one only shows `writes: down` with status `degraded` (200): every replica shares the server's disk, and
 * taking them all out of the load balancer would stop the reads too.
 */
function readiness(storeAnswers: () => Promise<boolean>, storage: StorageWatch): () => Promise<Readiness> {
  return async () => {
    const [store, { writable }] = await Promise.all([storeAnswers(), storage.check()]);
    return { ready: store && (writable || !storage.local), checks: { store, writes: writable } };
  };
}
