import { ErrorCode } from '@tm/contracts';
import { ForbiddenError } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { SAFE_METHODS } from './xsrf.middleware.js';

export interface CrossSiteOptions {
  /** Origins allowed to write besides the gateway's own (deployments where the app is served elsewhere). */
  allowedOrigins: readonly string[];
}

/** The origin the browser used to reach us (behind a trusted proxy: its X-Forwarded-Proto and -Host). */
function ownOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}

/**
 * Refuses writes from other sites with 403, before any session is read (SECURITY.md "Cross-site requests"):
 * a browser marks a request from another site with `Sec-Fetch-Site: cross-site`, and sends the page's
 * `Origin` with every non-GET fetch. A write is refused when either says "elsewhere"; a client that sends
 * neither (curl, k6, a server) is not a browser carrying someone's cookies and passes on to the XSRF check.
 * This is defence in depth: the session-bound XSRF token is still required.
 */
export function crossSiteProtection({ allowedOrigins }: CrossSiteOptions): Middleware {
  const allowed = new Set(allowedOrigins);
  return async (ctx, next) => {
    if (!SAFE_METHODS.has(ctx.method)) {
      const site = ctx.get('sec-fetch-site').toLowerCase();
      const origin = ctx.get('origin');
      if (site === 'cross-site' || (origin !== '' && origin !== ownOrigin(ctx) && !allowed.has(origin))) {
        throw new ForbiddenError('Requests from other sites are not allowed', ErrorCode.crossSite);
      }
    }
    await next();
  };
}
