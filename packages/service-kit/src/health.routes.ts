import Router from '@koa/router';
import type { Registry } from 'prom-client';

export interface HealthOptions {
  registry: Registry;
  /** Resolves when every store this process needs answers; rejects (or returns false) otherwise. */
  ready: () => Promise<boolean>;
  /** True once shutdown has begun: readiness then fails so load balancers stop sending traffic. */
  draining: () => boolean;
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
