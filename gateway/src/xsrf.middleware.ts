import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, XSRF_COOKIE, XSRF_HEADER } from '@tm/contracts';
import { ForbiddenError, UnauthorizedError, withSpan } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { API_PREFIX } from './api-prefix.js';
import { newToken, sessionIdOf, sessionOf, setVisitorToken, visitorToken } from './session.middleware.js';

/** Methods that change nothing: neither the XSRF token nor the Origin check applies to them. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Sets the script-readable XSRF cookie the client echoes in the `X-XSRF-TOKEN` header. */
export function setXsrfCookie(ctx: Context, token: string): void {
  ctx.cookies.set(XSRF_COOKIE, token, { httpOnly: false, sameSite: 'lax', signed: false, overwrite: true, path: '/' });
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The request's XSRF token: a signed-in session's own (stored with it), or a visitor's (in its signed,
 * HttpOnly cookie: nothing is stored for a visitor). A visitor without one gets a new one.
 */
async function tokenOf(ctx: Parameters<Middleware>[0]): Promise<string> {
  const session = sessionOf(ctx);
  if (session.userId) {
    if (!session.xsrf) {
      // A session from before tokens were kept with it.
      session.xsrf = newToken();
      await session.manuallyCommit();
    }
    return session.xsrf;
  }
  let token = visitorToken(ctx);
  if (!token) {
    // A visitor session stored by an older gateway keeps its token until it expires; else a new one.
    token = session.xsrf ?? newToken();
    setVisitorToken(ctx, token);
  }
  return token;
}

/** The calls that sign in: their XSRF check stands whatever cookie comes with them. */
const SIGN_IN_PATHS: ReadonlySet<string> = new Set([`${API_PREFIX}/user/login`, `${API_PREFIX}/user/signup`]);

/**
 * A write that fails the check while its signed session cookie names a session that has ended (signed out
 * elsewhere, expired, revoked): its token was that session's, which nobody holds any more. It is answered 401,
 * with why the session ended (session-end.ts), as a read would be, instead of a 403 the page cannot act on
 *. Either way nothing happens; sign-in calls keep their 403.
 */
function endedSessionWrite(ctx: Context): boolean {
  return !SIGN_IN_PATHS.has(ctx.path) && sessionIdOf(ctx) !== undefined && !sessionOf(ctx).userId;
}

/**
 * Double-submit XSRF protection bound to the session or, before sign-in, to the visitor's signed cookie:
 * the token is mirrored in the readable `XSRF-TOKEN` cookie; every non-safe method (login and signup
 * included) must send it back in `X-XSRF-TOKEN`, and both cookie and header must equal the request's own
 * token, else 403. A token from another session or visitor, or a cookie planted by a sibling subdomain (it
 * cannot carry our signature), therefore fails.
 */
export function xsrfProtection(): Middleware {
  return async (ctx, next) => {
    // The check alone is the span `xsrf.check` (docs/OPERATIONS.md "Traces"), not the rest of the request.
    await withSpan('xsrf.check', () => checkXsrf(ctx));
    await next();
  };
}

/** The double-submit check itself: throws 403 (or 401 for a write of an ended session), else sets the readable cookie. */
async function checkXsrf(ctx: Context): Promise<void> {
  const token = await tokenOf(ctx);
  if (ctx.cookies.get(XSRF_COOKIE) !== token) setXsrfCookie(ctx, token);
  if (SAFE_METHODS.has(ctx.method)) return;
  const header = ctx.get(XSRF_HEADER);
  const cookie = ctx.cookies.get(XSRF_COOKIE) ?? '';
  if (!header || !same(header, token) || !same(cookie, token)) {
    if (endedSessionWrite(ctx)) throw new UnauthorizedError();
    throw new ForbiddenError('Missing or invalid XSRF token', ErrorCode.xsrf);
  }
}
