import type Router from '@koa/router';
import { API } from '@tm/contracts';
import { apiRouter } from '@tm/service-kit';
import { API_PREFIX } from './api-prefix.js';
import { eventsRelay } from './events.relay.js';
import { forwardDownload, forwardTo } from './forward.middleware.js';
import type { LiveStreams } from './live-streams.js';
import { requireSession, signedInUser } from './require-session.js';
import type { Upstream } from './upstream.proxy.js';

/**
 * Routes under /api/todo: every one needs a signed-in user. The live stream is relayed as a stream
 * (events.relay.ts); every other call is forwarded with the page's `X-Client-Id` and its answer checked.
 */
export function todoRoutes(todos: Upstream, internalSecret: string, streams: LiveStreams): Router {
  const router = apiRouter(`${API_PREFIX}/todo`);
  router.get(API.todoEvents.path.slice('/todo'.length), requireSession(), eventsRelay({ todos, internalSecret, streams }));
  // A file, not a JSON answer (docs/PRODUCT.md §10.23): checked and relayed with its name.
  router.get(API.exportTodos.path.slice('/todo'.length), requireSession(), forwardDownload(todos, internalSecret, signedInUser));
  router.all('/{*rest}', requireSession(), forwardTo(todos, internalSecret, signedInUser, { clientId: true }));
  return router;
}
