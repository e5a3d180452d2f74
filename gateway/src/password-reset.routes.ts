import type Router from '@koa/router';
import { ForgotPasswordRequest, INTERNAL_API, RESET_PASSWORD_PAGE, type MessageResponse, type PasswordResetDone } from '@tm/contracts';
import { apiRouter, jsonBody, parseOr400, withSpan } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AccountThrottle } from './account-throttle.js';
import { appOrigin } from './app-origin.js';
import { API_PREFIX } from './api-prefix.js';
import { callService } from './forward.middleware.js';
import { createLimiter, limiterFailure } from './rate-limit.middleware.js';
import type { RedisClient } from './redis-connection.js';
import { endAllSessions, type SessionEnders } from './session-end.js';
import { rotateSession, sessionOf } from './session.middleware.js';
import { relay } from './upstream-answer.js';
import type { Upstream } from './upstream.proxy.js';
import { setXsrfCookie } from './xsrf.middleware.js';

export interface PasswordResetRoutesOptions extends SessionEnders {
  users: Upstream;
  internalSecret: string;
  /** Per client IP, shared with sign-in and sign-up (AUTH_RATE_LIMIT): both calls count there. */
  authRateLimit: Middleware;
  /** Counters in Redis when configured (all gateway instances count together), else in memory. */
  redis?: RedisClient;
  /** PUBLIC_URL (config.ts): where the links in the mails point; unset, the address the gateway listens on. */
  publicUrl?: string;
  /** The sign-in throttle: a reset lifts the lock wrong passwords put on the address. */
  throttle: AccountThrottle;
}

/**
 * Reset links asked for one address (SECURITY.md "Throttling"): 5 an hour, counted for every address alike,
 * with an account or without, so a refusal tells nothing; it bounds the mails one address can be sent.
 */
export const RESET_REQUESTS_PER_ADDRESS = { points: 5, windowSeconds: 60 * 60 } as const;

/** The reset page's address for a mail, on the app's origin ({@link appOrigin}). */
export function resetPageFor(ctx: Context, publicUrl: string | undefined): string {
  return `${appOrigin(ctx, publicUrl)}${RESET_PASSWORD_PAGE}`;
}

/** Counts one request for `email`; 429 with Retry-After past the limit, 503 when the counters' store fails. */
async function countFor(ctx: Context, limiter: RateLimiterAbstract, email: string): Promise<void> {
  await withSpan('rate-limit.check', async () => {
    try {
      await limiter.consume(email);
    } catch (rejection) {
      throw limiterFailure(ctx, rejection);
    }
  });
}

/**
 * "Forgot password?" (docs/PRODUCT.md §10.10): checks the address, counts it, and asks svc-users to mail a
 * link to the reset page. svc-users answers at once, the same for every address, and does the lookup and
 * the mail afterwards; the answer is passed on as it came.
 */
function forgotPassword({ users, internalSecret, publicUrl }: PasswordResetRoutesOptions, perAddress: RateLimiterAbstract): Middleware {
  return async (ctx) => {
    const { email } = parseOr400(ForgotPasswordRequest, ctx.request.body);
    await countFor(ctx, perAddress, email);
    const { answer } = await callService(ctx, users, internalSecret, {
      method: INTERNAL_API.sendPasswordReset.method,
      path: INTERNAL_API.sendPasswordReset.path,
      userId: '',
      body: { email, resetPage: resetPageFor(ctx, publicUrl) },
      contract: INTERNAL_API.sendPasswordReset.response,
    });
    relay(ctx, answer);
  };
}

/**
 * A new password with a link's token (PRODUCT §10.10): svc-users checks the link and the password and writes
 * it; then every session of the account ends, recorded as `password-changed` like a password change
 * (SECURITY.md "Sessions"): a copied session cookie is worth nothing after a reset. When this browser was
 * signed in to that account, it is a visitor afterwards. Nobody is signed in by a reset: the person signs in
 * with the new password. A reset proves the person holds the mailbox, and the guessed password is gone: the
 * lock wrong passwords put on the address is lifted (SECURITY.md "Throttling"), so the owner can sign in at once.
 */
function resetPassword(options: PasswordResetRoutesOptions): Middleware {
  const { users, internalSecret } = options;
  return async (ctx) => {
    const { answer, body } = await callService(ctx, users, internalSecret, {
      method: INTERNAL_API.usePasswordReset.method,
      path: INTERNAL_API.usePasswordReset.path,
      userId: '',
      body: ctx.request.body,
      contract: INTERNAL_API.usePasswordReset.response,
    });
    if (answer.status >= 300) return relay(ctx, answer);
    const { message, userId, email } = body as PasswordResetDone;
    const signedInHere = sessionOf(ctx).userId === userId;
    const ended = await endAllSessions(ctx, options, userId, 'password-changed', {
      failure: 'Your password was changed, but your devices could not all be signed out: sign in and use "Sign out everywhere"',
    });
    await options.throttle.succeeded(ctx, email);
    if (signedInHere) setXsrfCookie(ctx, await rotateSession(ctx, undefined));
    ctx.log.info({ userId, endedSessions: ended }, 'password reset with a link');
    ctx.body = { message } satisfies MessageResponse;
  };
}

/** The anonymous calls of a forgotten password under /api/user (typed in the contracts' API table). */
export function passwordResetRoutes(options: PasswordResetRoutesOptions): Router {
  const perAddress = createLimiter({ ...RESET_REQUESTS_PER_ADDRESS, redis: options.redis, keyPrefix: 'tm:rl:reset-address' });
  const router = apiRouter(`${API_PREFIX}/user`);
  router.post('/forgot-password', options.authRateLimit, jsonBody(), forgotPassword(options, perAddress));
  router.post('/reset-password', options.authRateLimit, jsonBody(), resetPassword(options));
  return router;
}
