import type Router from '@koa/router';
import { API, LIMITS, type UserResponse } from '@tm/contracts';
import { apiRouter, jsonBody } from '@tm/service-kit';
import type { Middleware } from 'koa';
import { wrongPassword, type AccountThrottle } from './account-throttle.js';
import { API_PREFIX } from './api-prefix.js';
import { knownDevice, rememberDevice } from './device-cookie.js';
import { callService, forwardTo } from './forward.middleware.js';
import type { LiveStreams } from './live-streams.js';
import { requireSession, signedInUser } from './require-session.js';
import type { SessionEnds } from './session-end.js';
import { rotateSession, sessionIdOf } from './session.middleware.js';
import { relay } from './upstream-answer.js';
import { setXsrfCookie } from './xsrf.middleware.js';
import type { Upstream } from './upstream.proxy.js';

export interface AuthRoutesOptions {
  users: Upstream;
  internalSecret: string;
  /** Per client IP, on login and signup (password guessing, account spraying). */
  authRateLimit: Middleware;
  /** Per client IP, on signup only (mass account creation). */
  signupRateLimit: Middleware;
  throttle: AccountThrottle;
  /** Live streams of this process: a logout ends the session's. */
  streams: LiveStreams;
  /** A logout records why the session ended (`signed-out`), for the requests that still carry its cookie. */
  ends: SessionEnds;
}

/** The email a login is for, normalised as the contracts do (trimmed, lower-cased); undefined when absent or absurd. */
function emailOf(body: unknown): string | undefined {
  const email: unknown = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).email : undefined;
  if (typeof email !== 'string') return undefined;
  const normalised = email.trim().toLowerCase();
  return normalised && normalised.length <= LIMITS.email.max ? normalised : undefined;
}

/**
 * Login and signup: the gateway reads the body (to throttle by account), asks svc-users, checks its answer,
 * and on success rotates the session and binds it to the user (signup signs the new user in), and marks the
 * browser as a known device of the account (device-cookie.ts). Logins are throttled per account as well as
 * per IP (SECURITY.md "Throttling"); a known device is not held by a lock others caused.
 */
function signIn(kind: 'signup' | 'login', { users, internalSecret, throttle }: AuthRoutesOptions): Middleware {
  const endpoint = API[kind];
  return async (ctx) => {
    const email = emailOf(ctx.request.body);
    const account = kind === 'login' ? email : undefined;
    const device = account ? knownDevice(ctx, account) : undefined;
    if (account) await throttle.check(ctx, account, device);
    const { answer, body } = await callService(ctx, users, internalSecret, {
      method: 'POST',
      path: endpoint.path,
      userId: '',
      body: ctx.request.body,
      contract: endpoint.response,
    });
    if (answer.status >= 300) {
      if (account && wrongPassword(answer.status, body)) await throttle.failed(ctx, account, device);
      relay(ctx, answer);
      return;
    }
    if (account) await throttle.succeeded(ctx, account, device);
    if (email) rememberDevice(ctx, email);
    setXsrfCookie(ctx, await rotateSession(ctx, (body as UserResponse).user._id));
    relay(ctx, answer);
  };
}

/**
 * Logout destroys the session server-side; a replayed old cookie then finds nothing and gets 401, saying
 * `signed-out` (SECURITY.md "Sessions": another tab's call on its way, a copy of the cookie). The session's
 * live streams in this process end with it (other instances notice at their next session check).
 */
function signOut(streams: LiveStreams, ends: SessionEnds): Middleware {
  return async (ctx) => {
    const sessionId = sessionIdOf(ctx);
    await ends.endOwn(ctx, 'signed-out');
    setXsrfCookie(ctx, await rotateSession(ctx, undefined));
    if (sessionId) streams.endSession(sessionId, 'logout');
    ctx.body = { message: 'Logged out successfully' };
  };
}

/** Routes under /api/user for signing in and out; the account page's calls are in account.routes.ts. */
export function authRoutes(options: AuthRoutesOptions): Router {
  const { users, internalSecret, authRateLimit, signupRateLimit, streams, ends } = options;
  const router = apiRouter(`${API_PREFIX}/user`);
  router.post('/signup', authRateLimit, signupRateLimit, jsonBody(), signIn('signup', options));
  router.post('/login', authRateLimit, jsonBody(), signIn('login', options));
  router.post('/logout', signOut(streams, ends));
  router.get('/me', requireSession(), forwardTo(users, internalSecret, signedInUser));
  return router;
}
