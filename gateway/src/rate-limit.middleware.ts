import { ServiceUnavailableError, TooManyRequestsError } from '@tm/service-kit';
import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from './redis-session.store.js';

export interface RateLimitOptions {
  points: number;
  windowSeconds: number;
  /** Shared counters across gateway instances; in memory when absent. */
  redis?: RedisClient;
  keyPrefix: string;
}

/**
 * Limits attempts per client IP with rate-limiter-flexible (Redis when configured, so every gateway
 * instance counts together). `points: 0` disables it. Over the limit: 429 with Retry-After.
 */
export function rateLimit({ points, windowSeconds, redis, keyPrefix }: RateLimitOptions): Middleware {
  if (points === 0) return (_ctx, next) => next();
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ storeClient: redis, useRedisPackage: true, points, duration: windowSeconds, keyPrefix })
    : new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix });
  return async (ctx, next) => {
    try {
      await limiter.consume(ctx.ip);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw new TooManyRequestsError(rejection.msBeforeNext / 1000);
      ctx.log.error({ err: rejection }, 'rate limiter store failed');
      throw new ServiceUnavailableError();
    }
    await next();
  };
}
