import { ErrorCode } from '@tm/contracts';
import type { Middleware } from 'koa';
import { HttpError, NotFoundError } from './errors.js';

/**
 * Wraps the routes: anything no route answered is a 404 in the API's error shape, and a known path with
 * the wrong method (the router's bare 405) gets the same shape.
 */
export function notFound(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.respond === false) return;
    if (ctx.status === 404) throw new NotFoundError(`No route for ${ctx.method} ${ctx.path}`);
    if (ctx.status === 405) {
      // The router sets Allow for the methods it knows; a HEAD answered 405 may come without one.
      const allow = ctx.response.get('Allow');
      throw new HttpError(405, `Method ${ctx.method} is not allowed on ${ctx.path}`, ErrorCode.methodNotAllowed, undefined, allow ? { Allow: allow } : {});
    }
  };
}
