import Router from '@koa/router';
import { LoginRequest, SignupRequest, type UserResponse } from '@tm/contracts';
import { parseOr400, requireUser } from '@tm/service-kit';
import type { UsersService } from './users.service.js';

/**
 * `/user/*` as the gateway forwards it (the `/api` prefix already stripped). Logout is not here: the gateway
 * owns sessions and ends them itself.
 */
export function usersRoutes(service: UsersService): Router {
  const router = new Router({ prefix: '/user' });

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
    // requireUser() has already refused a call without a vouched user id.
    const user = await service.me(ctx.state.userId ?? '');
    ctx.body = { message: 'User fetched successfully', user } satisfies UserResponse;
  });

  return router;
}

