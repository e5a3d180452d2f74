import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, XSRF_COOKIE, XSRF_HEADER } from '@tm/contracts';
import { ForbiddenError } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { newToken, sessionOf } from './session.middleware.js';

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
 * Double-submit XSRF protection bound to the session: every visitor's session carries a token, mirrored
 * in the `XSRF-TOKEN` cookie; every non-safe method (login and signup included) must send it back in
 * `X-XSRF-TOKEN`, and both cookie and header must equal the session's own token, else 403. A token from
 * another session, or a cookie planted by a sibling subdomain, therefore fails.
 */
export function xsrfProtection(): Middleware {
  return async (ctx, next) => {
    const session = sessionOf(ctx);
    if (!session.xsrf) {
      session.xsrf = newToken();
      await session.manuallyCommit();
      setXsrfCookie(ctx, session.xsrf);
    } else if (ctx.cookies.get(XSRF_COOKIE) !== session.xsrf) {
      setXsrfCookie(ctx, session.xsrf);
    }
    if (!SAFE_METHODS.has(ctx.method)) {
      const header = ctx.get(XSRF_HEADER);
      const cookie = ctx.cookies.get(XSRF_COOKIE) ?? '';
      if (!header || !same(header, session.xsrf) || !same(cookie, session.xsrf)) {
        throw new ForbiddenError('Missing or invalid XSRF token', ErrorCode.xsrf);
      }
    }
    await next();
  };
}
