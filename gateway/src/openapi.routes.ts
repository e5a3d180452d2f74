import type Router from '@koa/router';
import { API_BASE } from '@tm/contracts';
import { createOpenApiDocument, OPENAPI_PATH } from '@tm/contracts/openapi';
import { apiRouter } from '@tm/service-kit';
import { answerRevalidated, etagOf } from './revalidated-answer.js';
import { SESSION_COOKIE } from './session.middleware.js';

/** Public and the same for everyone: caches may keep it a while, and revalidate it by its ETag. */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * GET /api/openapi.json: the OpenAPI 3.1 description of the API (docs/PRODUCT.md §10.11.7), generated once
 * from the contracts. Mounted before the session middleware: it needs no session, and a cacheable answer
 * must not set a session or XSRF cookie.
 */
export function openApiRoutes(): Router {
  const text = JSON.stringify(createOpenApiDocument({ sessionCookie: SESSION_COOKIE }));
  const etag = etagOf(text);
  const router = apiRouter(API_BASE);
  router.get(OPENAPI_PATH, (ctx) => answerRevalidated(ctx, { text, etag, type: 'application/json', cacheControl: CACHE_CONTROL }));
  return router;
}
