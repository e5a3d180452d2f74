import type Router from '@koa/router';
import { API, INTERNAL_API, type UserResponse } from '@tm/contracts';
import { apiRouter, jsonBody } from '@tm/service-kit';
import type { Middleware } from 'koa';
import { wrongPassword, type AccountThrottle } from './account-throttle.js';
import { API_PREFIX } from './api-prefix.js';
import { rememberDevice } from './device-cookie.js';
import { callService } from './forward.middleware.js';
import { requireSession, signedInUser } from './require-session.js';
import { endAllSessions, type SessionEnders } from './session-end.js';
import { rotateSession } from './session.middleware.js';
import { relay } from './upstream-answer.js';
import { setXsrfCookie } from './xsrf.middleware.js';
import type { Upstream } from './upstream.proxy.js';

export interface AccountRoutesOptions extends SessionEnders {
  users: Upstream;
  todos: Upstream;
  internalSecret: string;
  throttle: AccountThrottle;
}

/** The throttle's key for the password checks of the account page: the user, whatever the email. */
const accountOf = (userId: string) => `user:${userId}`;

/**
 * Change password (docs/PRODUCT.md §10.10): svc-users checks the current password and the new one; on success every
 * session of the account ends and this one is rotated (a new id and XSRF token, still signed in).
 */
function changePassword(options: AccountRoutesOptions): Middleware {
  const { users, internalSecret, throttle } = options;
  return async (ctx) => {
    const userId = signedInUser(ctx);
    await throttle.check(ctx, accountOf(userId));
    const { answer, body } = await callService(ctx, users, internalSecret, {
      method: 'PUT',
      path: API.changePassword.path,
      userId,
      body: ctx.request.body,
      contract: API.changePassword.response,
    });
    if (wrongPassword(answer.status, body)) await throttle.failed(ctx, accountOf(userId));
    if (answer.status >= 300) return relay(ctx, answer);
    await throttle.succeeded(ctx, accountOf(userId));
    const ended = await endAllSessions(ctx, options, userId, 'password-changed', { keepOwn: true });
    setXsrfCookie(ctx, await rotateSession(ctx, userId));
    ctx.log.info({ userId, endedSessions: ended }, 'password changed');
    relay(ctx, answer);
  };
}

/** Whether a request body names a field (the gateway reads no more of it; svc-users checks it whole). */
function bodyHas(body: unknown, field: string): boolean {
  return typeof body === 'object' && body !== null && field in body;
}

/**
 * Change the name and/or email (docs/PRODUCT.md §10.10): svc-users checks the fields and, for a new email,
 * the current password, which counts against the account like the other password checks of this page
 * (SECURITY.md "Throttling"). After a new email the browser is a known device of the account under it.
 */
function updateProfile(options: AccountRoutesOptions): Middleware {
  const { users, internalSecret, throttle } = options;
  return async (ctx) => {
    const userId = signedInUser(ctx);
    const checksPassword = bodyHas(ctx.request.body, 'currentPassword');
    if (checksPassword) await throttle.check(ctx, accountOf(userId));
    const { answer, body } = await callService(ctx, users, internalSecret, {
      method: API.updateProfile.method,
      path: API.updateProfile.path,
      userId,
      body: ctx.request.body,
      contract: API.updateProfile.response,
    });
    if (wrongPassword(answer.status, body)) await throttle.failed(ctx, accountOf(userId));
    if (answer.status >= 300) return relay(ctx, answer);
    if (checksPassword) await throttle.succeeded(ctx, accountOf(userId));
    if (bodyHas(ctx.request.body, 'email')) rememberDevice(ctx, (body as UserResponse).user.email);
    relay(ctx, answer);
  };
}

/** Sign out everywhere: every session of the account ends, this one included. */
function logoutAll(options: AccountRoutesOptions): Middleware {
  return async (ctx) => {
    const userId = signedInUser(ctx);
    const ended = await endAllSessions(ctx, options, userId, 'signed-out-everywhere');
    setXsrfCookie(ctx, await rotateSession(ctx, undefined));
    ctx.log.info({ userId, endedSessions: ended }, 'signed out everywhere');
    ctx.body = { message: 'Signed out of all devices' };
  };
}

/**
 * Delete the account with all its tasks (docs/PRODUCT.md §10.10). Three calls, in an order that never leaves tasks
 * without an account: the password is checked, then the tasks are deleted, then the account; each step is
 * idempotent, so after a failure (an honest 5xx) the same request finishes the job. Then every session ends.
 */
function deleteAccount(options: AccountRoutesOptions): Middleware {
  const { users, todos, internalSecret, throttle } = options;
  return async (ctx) => {
    const userId = signedInUser(ctx);
    await throttle.check(ctx, accountOf(userId));
    const check = await callService(ctx, users, internalSecret, {
      ...INTERNAL_API.verifyPassword,
      userId,
      body: ctx.request.body,
      contract: INTERNAL_API.verifyPassword.response,
    });
    if (wrongPassword(check.answer.status, check.body)) await throttle.failed(ctx, accountOf(userId));
    if (check.answer.status >= 300) return relay(ctx, check.answer);
    await throttle.succeeded(ctx, accountOf(userId));
    for (const [upstream, step] of [
      [todos, INTERNAL_API.purgeTodos],
      [todos, INTERNAL_API.purgeReminders],
      [users, INTERNAL_API.deleteUser],
    ] as const) {
      const { answer } = await callService(ctx, upstream, internalSecret, { ...step, userId, contract: step.response });
      if (answer.status >= 300) return relay(ctx, answer);
    }
    const ended = await endAllSessions(ctx, options, userId, 'account-deleted');
    setXsrfCookie(ctx, await rotateSession(ctx, undefined));
    ctx.log.info({ userId, endedSessions: ended }, 'account deleted');
    ctx.body = { message: 'Account deleted successfully' };
  };
}

/** The account page's calls under /api/user (typed in the contracts' API table). */
export function accountRoutes(options: AccountRoutesOptions): Router {
  const router = apiRouter(`${API_PREFIX}/user`);
  router.put('/password', requireSession(), jsonBody(), changePassword(options));
  router.post('/logout-all', requireSession(), logoutAll(options));
  router.delete('/account', requireSession(), jsonBody(), deleteAccount(options));
  router.put('/profile', requireSession(), jsonBody(), updateProfile(options));
  return router;
}
