import Router from '@koa/router';

/**
 * Every router of the gateway and the services: strict (a trailing slash is another path) and case-sensitive,
 * so each route has exactly one path, the one in the contracts' API table. The gateway checks a service's
 * answer against the contract of the path it forwarded; a service that also answered `/todo/add-todo/` or
 * `/TODO/add-todo` would act on a path the gateway cannot check.
 */
export function apiRouter(prefix?: string): Router {
  return new Router({ ...(prefix ? { prefix } : {}), strict: true, sensitive: true });
}
