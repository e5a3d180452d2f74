import type { Middleware } from 'koa';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { nameServerSpan } from './tracing.js';

export interface Metrics {
  registry: Registry;
  /** Times every request by method, matched route and status. */
  middleware: Middleware;
}

/** A Prometheus registry for one process with default Node metrics and an HTTP duration histogram. */
export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests in seconds',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const middleware: Middleware = async (ctx, next) => {
    const stop = duration.startTimer();
    try {
      await next();
    } finally {
      // Label by route pattern, not raw path, so ids in paths cannot blow up the series count.
      const route = (ctx.state.metricsRoute as string | undefined) ?? (ctx._matchedRoute as string | undefined) ?? 'unmatched';
      const labels = { method: ctx.method, route };
      // The same pattern names the request's span, unless the code that served it named it already.
      nameServerSpan(ctx, route);
      if (ctx.respond === false && !ctx.res.writableFinished) {
        ctx.res.once('close', () => stop({ ...labels, status: String(ctx.res.statusCode) }));
      } else {
        stop({ ...labels, status: String(ctx.status) });
      }
    }
  };
  return { registry, middleware };
}
