import { IDENTITY_HEADERS, signIdentity } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import type { Upstream } from './upstream.proxy.js';

/** Prefix the gateway owns; services serve the same paths without it. */
export const API_PREFIX = '/api';

const STRIPPED_HEADERS = ['cookie', 'x-xsrf-token', ...Object.values(IDENTITY_HEADERS)];

/**
 * Prepares the raw request for a service: the /api prefix removed, client-sent identity headers, cookies
 * and the XSRF header dropped, and the gateway's signed statement of who is calling added.
 */
export function prepareForUpstream(ctx: Context, secret: string, userId: string): void {
  const req = ctx.req;
  req.url = (req.url ?? '/').slice(API_PREFIX.length) || '/';
  for (const header of STRIPPED_HEADERS) Reflect.deleteProperty(req.headers, header);
  Object.assign(
    req.headers,
    signIdentity(secret, { method: req.method ?? 'GET', url: req.url, userId, requestId: ctx.requestId }),
  );
}

/** Streams the request to `upstream` as `userId` (or anonymously with ''); the proxy owns the response. */
export function forwardTo(upstream: Upstream, secret: string, userOf: (ctx: Context) => string): Middleware {
  return async (ctx) => {
    prepareForUpstream(ctx, secret, userOf(ctx));
    ctx.respond = false;
    try {
      await upstream.stream(ctx.req, ctx.res);
    } catch (error) {
      // Nothing was sent yet: give the response back to Koa so the error handler writes it.
      ctx.respond = true;
      throw error;
    }
  };
}
