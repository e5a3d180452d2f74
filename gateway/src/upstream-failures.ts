import { HttpError } from '@tm/service-kit';
import type { Middleware } from 'koa';
import { Counter, type Registry } from 'prom-client';

/** Why a call to a service failed, as the gateway answered it (upstream.proxy.ts, upstream-answer.ts). */
export type UpstreamFailureReason = 'timeout' | 'unreachable' | 'failed' | 'invalid_answer';

/**
 * An answer the gateway makes because a service did not give one it can pass on: 504 too slow, 503
 * unreachable, 502 failed or answered outside its contract. It names the service, so the failure is
 * counted against it ({@link countUpstreamFailures}).
 */
export class UpstreamFailure extends HttpError {
  constructor(
    readonly upstream: string,
    readonly reason: UpstreamFailureReason,
    status: number,
    message: string,
    code: string,
  ) {
    super(status, message, code);
  }
}

/**
 * Counts the requests that failed because of a service, by service and reason
 * (`gateway_upstream_failures_total`, the UpstreamFailures alert of deploy/prometheus/alerts.yml): the
 * gateway's own 5xx ratio mixes them with its own faults, and a service's metrics never see a call that did
 * not reach it. Runs inside the error handler, which still writes the answer.
 */
export function countUpstreamFailures(registry: Registry): Middleware {
  const failures = new Counter({
    name: 'gateway_upstream_failures_total',
    help: 'Requests answered 502/503/504 because a service timed out, was unreachable, failed or answered outside its contract',
    labelNames: ['upstream', 'reason'] as const,
    registers: [registry],
  });
  return async (_ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof UpstreamFailure) failures.inc({ upstream: error.upstream, reason: error.reason });
      throw error;
    }
  };
}
