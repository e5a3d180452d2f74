import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { Gauge, type Registry } from 'prom-client';
import { apiRouter } from './router.js';

/** A readiness report: whether this process can serve, and the state of each dependency it names. */
export interface Readiness {
  ready: boolean;
  checks: Record<string, boolean>;
}

export interface HealthOptions {
  registry: Registry;
  /**
   * Resolves true (or a report with `ready: true`) when this process can serve; rejects or resolves false
   * otherwise. A report's `checks` are shown as `up`/`down`, and a ready process with a dependency down
   * answers 200 with status `degraded`.
   */
  ready: () => Promise<boolean | Readiness>;
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

/**
 * `/healthz` (the process is alive), `/readyz` (it can serve: stores reachable and, for a SQLite store, able
 * to write, see createServiceApp; not draining), `/metrics`.
 */
export function healthRoutes({ registry, ready, draining }: HealthOptions): Router {
  readinessGauges({ registry, ready, draining });
  const router = apiRouter();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    if (draining()) {
      ctx.status = 503;
      ctx.body = { status: 'draining' };
      return;
    }
    const report = await ready().catch((error: unknown) => {
      ctx.log.warn({ err: error }, 'readiness check failed');
      return false;
    });
    const { ready: ok, checks } = typeof report === 'boolean' ? { ready: report, checks: undefined } : report;
    const allUp = !checks || Object.values(checks).every(Boolean);
    ctx.status = ok ? 200 : 503;
    ctx.body = {
      status: ok ? (allUp ? 'ready' : 'degraded') : 'unavailable',
      ...(checks ? { checks: Object.fromEntries(Object.entries(checks).map(([name, up]) => [name, up ? 'up' : 'down'])) } : {}),
    };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}

/**
 * Readiness as Prometheus sees it (deploy/prometheus, docs/OPERATIONS.md "Signals"): `readiness_ready` is 1
 * when `/readyz` would answer 200 (ready or degraded), 0 when not ready or draining; `readiness_check_up`
 * gives each named dependency (1 up, 0 down). A load balancer's probe sees the same report, but only
 * Prometheus keeps its history and pages on it. The report is made once per scrape: the two gauges are
 * collected together and share it.
 */
function readinessGauges({ registry, ready, draining }: HealthOptions): void {
  let report: Promise<Readiness & { draining: boolean }> | undefined;
  const current = () =>
    (report ??= (async () => {
      if (draining()) return { ready: false, checks: {}, draining: true };
      const answer = await ready().catch(() => false as const);
      return typeof answer === 'boolean' ? { ready: answer, checks: {}, draining: false } : { ...answer, draining: false };
    })().finally(() => {
      report = undefined;
    }));
  new Gauge({
    name: 'readiness_ready',
    help: '1 when /readyz answers 200 (ready, or degraded with a dependency down), 0 when not ready or draining',
    registers: [registry],
    async collect() {
      this.set((await current()).ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'readiness_check_up',
    help: 'Each dependency /readyz names: 1 up, 0 down',
    labelNames: ['check'] as const,
    registers: [registry],
    async collect() {
      const { checks, draining: stopping } = await current();
      if (stopping) return;
      this.reset();
      for (const [check, up] of Object.entries(checks)) this.set({ check }, up ? 1 : 0);
    },
  });
}
