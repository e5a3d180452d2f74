import type Router from '@koa/router';
import {
  ChangePasswordRequest,
  LoginRequest,
  ResetPasswordRequest,
  SendPasswordResetRequest,
  SignupRequest,
  UpdateProfileRequest,
  VerifyPasswordRequest,
  type MessageResponse,
  type PasswordResetDone,
  type UserResponse,
} from '@tm/contracts';
import { apiRouter, parseOr400, requireUser } from '@tm/service-kit';
import type { Context } from 'koa';
import type { UsersService } from './users.service.js';

const USER_MESSAGES = {
  passwordChanged: 'Password changed successfully',
  passwordVerified: 'Password verified',
  accountDeleted: 'Account deleted successfully',
  profileUpdated: 'Your details were saved',
  /** The same words whether or not the address has an account (PRODUCT §10.10). */
  resetLinkSent: 'If an account exists for that address, we sent it a link to choose a new password. The link works once, for 30 minutes.',
  passwordReset: 'Your password was changed. Sign in with your new password.',
} as const;

/** The vouched user id: requireUser() has already refused a call without one (the service 401s on ''). */
const userIdOf = (ctx: Context): string => ctx.state.userId ?? '';

/**
 * `/user/*` as the gateway forwards it (the `/api` prefix already stripped). Logout is not here: the gateway
 * owns sessions and ends them itself.
 */
export function usersRoutes(service: UsersService): Router {
  const router = apiRouter('/user');

  router.post('/signup', async (ctx) => {
    const user = await service.signup(parseOr400(SignupRequest, ctx.request.body));
    ctx.status = 201;
    ctx.body = { message: 'Account created successfully', user } satisfies UserResponse;
  });

  router.post('/login', async (ctx) => {
    const user = await service.login(parseOr400(LoginRequest, ctx.request.body));
    ctx.body = { message: 'Logged in successfully', user } satisfies UserResponse;
  });

  router.get('/me', requireUser(), async (ctx) => {
    const user = await service.me(userIdOf(ctx));
    ctx.body = { message: 'User fetched successfully', user } satisfies UserResponse;
  });

  router.put('/password', requireUser(), async (ctx) => {
    await service.changePassword(userIdOf(ctx), parseOr400(ChangePasswordRequest, ctx.request.body));
    ctx.body = { message: USER_MESSAGES.passwordChanged } satisfies MessageResponse;
  });

  router.put('/profile', requireUser(), async (ctx) => {
    const user = await service.updateProfile(userIdOf(ctx), parseOr400(UpdateProfileRequest, ctx.request.body));
    ctx.body = { message: USER_MESSAGES.profileUpdated, user } satisfies UserResponse;
  });

  return router;
}

/**
 * `/internal/users/*`: calls only the gateway makes (INTERNAL_API), never forwarded from the public `/api`.
 * The gateway checks the password here, then purges the tasks and deletes the account when one is closed.
 */
export function internalUsersRoutes(service: UsersService): Router {
  const router = apiRouter('/internal/users');
  router.use(requireUser());

  router.post('/verify-password', async (ctx) => {
    const { password } = parseOr400(VerifyPasswordRequest, ctx.request.body);
    await service.verifyPassword(userIdOf(ctx), password);
    ctx.body = { message: USER_MESSAGES.passwordVerified } satisfies MessageResponse;
  });

  router.delete('/me', async (ctx) => {
    await service.deleteAccount(userIdOf(ctx));
    ctx.body = { message: USER_MESSAGES.accountDeleted } satisfies MessageResponse;
  });

  return router;
}

/**
 * `/internal/password-resets/*`: anonymous calls only the gateway makes (the request carries its signature,
 * for no user), for a forgotten password (docs/PRODUCT.md §10.10). The gateway throttles them, builds the
 * reset page's address from the app's public origin, and ends every session of the user after a reset.
 */
export function internalPasswordResetRoutes(service: UsersService): Router {
  const router = apiRouter('/internal');

  router.post('/password-resets', (ctx) => {
    service.requestPasswordReset(parseOr400(SendPasswordResetRequest, ctx.request.body));
    ctx.body = { message: USER_MESSAGES.resetLinkSent } satisfies MessageResponse;
  });

  router.post('/password-resets/use', async (ctx) => {
    const { userId, email } = await service.resetPassword(parseOr400(ResetPasswordRequest, ctx.request.body));
    ctx.body = { message: USER_MESSAGES.passwordReset, userId, email } satisfies PasswordResetDone;
  });

  return router;
}
