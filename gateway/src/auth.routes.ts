import Router from '@koa/router';
import { ErrorCode, UserResponse } from '@tm/contracts';
import { HttpError, UnauthorizedError } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { API_PREFIX, forwardTo, prepareForUpstream } from './forward.middleware.js';
import { rotateSession, sessionOf } from './session.middleware.js';
import { setXsrfCookie } from './xsrf.middleware.js';
import type { Upstream } from './upstream.proxy.js';

export interface AuthRoutesOptions {
  users: Upstream;
  internalSecret: string;
  /** Applied to login and signup (password guessing, account spraying). */
  authRateLimit: Middleware;
}

/** 401 unless the session belongs to a signed-in user. */
export function requireSession(): Middleware {
  return async (ctx, next) => {
    if (!sessionOf(ctx).userId) throw new UnauthorizedError();
    await next();
  };
}

export function signedInUser(ctx: Context): string {
  return sessionOf(ctx).userId ?? '';
}

/**
 * Login and signup go to svc-users through the proxy, but their answer is read here: on success the
 * session is rotated and bound to the user (signup signs the new user in), then the body is passed on.
 */
function signIn(users: Upstream, internalSecret: string): Middleware {
  return async (ctx) => {
    prepareForUpstream(ctx, internalSecret, '');
    const answer = await users.capture(ctx.req, ctx.res);
    const body: unknown = answer.contentType.includes('json') ? JSON.parse(answer.body.toString('utf8') || 'null') : null;
    if (answer.status < 200 || answer.status >= 300) {
      ctx.status = answer.status;
      ctx.body = body ?? { message: 'The users service failed to answer', code: ErrorCode.badGateway };
      return;
    }
    const parsed = UserResponse.safeParse(body);
    if (!parsed.success) throw new HttpError(502, 'The users service gave an invalid answer', ErrorCode.badGateway);
    setXsrfCookie(ctx, await rotateSession(ctx, parsed.data.user._id));
    ctx.status = answer.status;
    ctx.body = parsed.data;
  };
}

/** Logout destroys the session server-side; a replayed old cookie then finds nothing and gets 401. */
function signOut(): Middleware {
  return async (ctx) => {
    setXsrfCookie(ctx, await rotateSession(ctx, undefined));
    ctx.body = { message: 'Logged out successfully' };
  };
}

/** Routes under /api/user. */
export function authRoutes({ users, internalSecret, authRateLimit }: AuthRoutesOptions): Router {
  const router = new Router({ prefix: `${API_PREFIX}/user` });
  router.post('/signup', authRateLimit, signIn(users, internalSecret));
  router.post('/login', authRateLimit, signIn(users, internalSecret));
  router.post('/logout', signOut());
  router.get('/me', requireSession(), forwardTo(users, internalSecret, signedInUser));
  // Any other /api/user path: svc-users decides (it answers 404 for unknown routes).
  router.all('/{*rest}', forwardTo(users, internalSecret, signedInUser));
  return router;
}

/** Routes under /api/todo: every one needs a signed-in user. */
export function todoRoutes(todos: Upstream, internalSecret: string): Router {
  const router = new Router({ prefix: `${API_PREFIX}/todo` });
  router.all('/{*rest}', requireSession(), forwardTo(todos, internalSecret, signedInUser));
  return router;
}
