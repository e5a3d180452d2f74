import { ServiceUnavailableError, TooManyRequestsError, withSpan } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { clientOf } from './client-address.js';
import type { RedisClient } from './redis-connection.js';

export interface LimiterOptions {
  points: number;
  windowSeconds: number;
  /** Shared counters across gateway instances; in memory when absent. */
  redis?: RedisClient;
  keyPrefix: string;
  /** The 503's words when the counters' store fails; the sign-in limits' words when absent. */
  unavailableMessage?: string;
}

/** A rate-limiter-flexible limiter in Redis when configured (every gateway instance counts together), else in memory. */
export function createLimiter({ points, windowSeconds, redis, keyPrefix }: LimiterOptions): RateLimiterAbstract {
  const options = { points, duration: windowSeconds, keyPrefix };
  return redis ? new RateLimiterRedis({ ...options, storeClient: redis, useRedisPackage: true }) : new RateLimiterMemory(options);
}

/**
 * Turns a limiter's rejection into an answer: over the limit is 429 with Retry-After; a store that failed is
 * an honest 503 at once (the Redis client queues nothing while disconnected), never a hang.
 */
export function limiterFailure(ctx: Context, rejection: unknown, unavailableMessage = 'Signing in is temporarily unavailable, please try again shortly'): Error {
  if (rejection instanceof RateLimiterRes) return new TooManyRequestsError(rejection.msBeforeNext / 1000);
  ctx.log.error({ err: rejection }, 'rate limiter store failed');
  return new ServiceUnavailableError(unavailableMessage);
}

/**
 * Limits requests per client (SECURITY.md "Throttling"): per IPv4 address, per IPv6 /64 (client-address.ts).
 * `points: 0` disables it. Over the limit: 429 with Retry-After.
 */
export function rateLimit(options: LimiterOptions): Middleware {
  if (options.points === 0) return (_ctx, next) => next();
  const limiter = createLimiter(options);
  const spanOptions = { attributes: { 'tm.limiter': options.keyPrefix } };
  const consume = async (ctx: Context) => {
    try {
      await limiter.consume(clientOf(ctx));
    } catch (rejection) {
      throw limiterFailure(ctx, rejection, options.unavailableMessage);
    }
  };
  return async (ctx, next) => {
    // The check alone is the span `rate-limit.check` (docs/OPERATIONS.md "Traces"), with the limiter's name.
    await withSpan('rate-limit.check', () => consume(ctx), spanOptions);
    await next();
  };
}
