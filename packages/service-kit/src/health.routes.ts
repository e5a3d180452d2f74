import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';

export interface HealthOptions {
  registry: Registry;
  /** Resolves when every store this process needs answers; rejects (or returns false) otherwise. */
  ready: () => Promise<boolean>;
  /** True once shutdown has begun: readiness then fails so load balancers stop sending traffic. */
  draining: () => boolean;
}

/**
 * While the process drains before exit, every response asks the client (a load balancer's keep-alive
 * pool, usually) to close its connection, so no request is later written onto a socket this process is
 * about to close: new requests then reach another instance.
 */
export function closeConnectionsWhileDraining(draining: () => boolean): Middleware {
  return async (ctx, next) => {
    if (draining()) ctx.set('Connection', 'close');
    await next();
  };
}

/** `/healthz` (the process is alive), `/readyz` (it can serve: stores reachable, not draining), `/metrics`. */
export function healthRoutes({ registry, ready, draining }: HealthOptions): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    if (draining()) {
      ctx.status = 503;
      ctx.body = { status: 'draining' };
      return;
    }
    const ok = await ready().catch((error: unknown) => {
      ctx.log.warn({ err: error }, 'readiness check failed');
      return false;
    });
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ready' : 'unavailable' };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
