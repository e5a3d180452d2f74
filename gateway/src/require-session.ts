import { UnauthorizedError } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { sessionOf } from './session.middleware.js';

/** 401 unless the session belongs to a signed-in user. */
export function requireSession(): Middleware {
  return async (ctx, next) => {
    if (!sessionOf(ctx).userId) throw new UnauthorizedError();
    await next();
  };
}

/** The signed-in user of the request's session; '' for a visitor (behind {@link requireSession}: never). */
export function signedInUser(ctx: Context): string {
  return sessionOf(ctx).userId ?? '';
}
