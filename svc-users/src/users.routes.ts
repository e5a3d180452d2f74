import type Router from '@koa/router';
import {
  ChangePasswordRequest,
  LoginRequest,
  SignupRequest,
  VerifyPasswordRequest,
  type MessageResponse,
  type UserResponse,
} from '@tm/contracts';
import { apiRouter, parseOr400, requireUser } from '@tm/service-kit';
import type { Context } from 'koa';
import type { UsersService } from './users.service.js';

const USER_MESSAGES = {
  passwordChanged: 'Password changed successfully',
  passwordVerified: 'Password verified',
  accountDeleted: 'Account deleted successfully',
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
