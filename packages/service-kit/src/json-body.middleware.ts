import { bodyParser } from '@koa/bodyparser';
import { bodyLimitOf } from '@tm/contracts';
import type { Middleware } from 'koa';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.js';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body (`{}` when the request had none); validate it before use. */
    body?: unknown;
  }
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Parses JSON bodies (strict: an object or array at the top) up to the path's limit (`limitOf`: a sync
 * call's is larger, contracts bodyLimitOf), and refuses a body of any other media type with 415. A request
 * without a body passes with `ctx.request.body` set to `{}`.
 */
export function jsonBody(limitOf: (path: string) => number = bodyLimitOf): Middleware {
  const parsers = new Map<number, Middleware>();
  const parserFor = (limitBytes: number): Middleware => {
    let parse = parsers.get(limitBytes);
    if (!parse) {
      parse = bodyParser({
        enableTypes: ['json'],
        // The default leaves DELETE bodies unread; DELETE /api/user/account carries the password.
        parsedMethods: [...METHODS_WITH_BODY],
        jsonLimit: limitBytes,
        jsonStrict: true,
        encoding: 'utf-8',
      });
      parsers.set(limitBytes, parse);
    }
    return parse;
  };
  return async (ctx, next) => {
    const limitBytes = limitOf(ctx.path);
    if (!METHODS_WITH_BODY.has(ctx.method) || !ctx.request.length && !ctx.get('transfer-encoding')) {
      ctx.request.body = {};
      await next();
      return;
    }
    if (ctx.request.length && ctx.request.length > limitBytes) throw new PayloadTooLargeError(limitBytes);
    if (!ctx.is('application/json', '+json')) throw new UnsupportedMediaTypeError();
    // Bodies are small JSON: a compressed one is refused (RFC 7694's 415) rather than inflated, which
    // also keeps a body that only claims to be gzip from failing deep in the parser.
    const encoding = ctx.get('content-encoding').trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw new UnsupportedMediaTypeError('Request bodies must not be compressed (Content-Encoding)');
    await parserFor(limitBytes)(ctx, next);
  };
}
