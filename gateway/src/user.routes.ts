import type Router from '@koa/router';
import { apiRouter } from '@tm/service-kit';
import { API_PREFIX } from './api-prefix.js';
import { forwardTo } from './forward.middleware.js';
import { signedInUser } from './require-session.js';
import type { Upstream } from './upstream.proxy.js';

/**
 * Any /api/user path the gateway has no route of its own for (auth.routes.ts, account.routes.ts,
 * password-reset.routes.ts) goes to svc-users, which answers 404 for routes it does not have.
 */
export function otherUserRoutes(users: Upstream, internalSecret: string): Router {
  const router = apiRouter(`${API_PREFIX}/user`);
  router.all('/{*rest}', forwardTo(users, internalSecret, signedInUser));
  return router;
}
