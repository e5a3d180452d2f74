import type Router from '@koa/router';
import { ErrorCode, ROUTES, SaveFilterRequest, SavedFilterIdParams, SAVED_FILTERS_FULL_MESSAGE, type SavedFilterResponse, type SavedFiltersResponse } from '@tm/contracts';
import { apiRouter, ConflictError, NotFoundError, parseOr400, requireUser } from '@tm/service-kit';
import type { SavedFiltersRepository } from './saved-filters.repository.js';
import { userIdOf } from './todos.routes.js';

// The saved filters' calls (docs/PRODUCT.md §10.20 "Saved filters"), as the gateway forwards them.

export const SAVED_FILTER_MESSAGES = {
  created: 'Filter saved',
  updated: 'Filter updated',
  deleted: 'Filter deleted',
  notFound: 'Saved filter not found',
} as const;

export function savedFiltersRoutes(store: SavedFiltersRepository): Router {
  const router = apiRouter();
  router.use(requireUser());

  router.get(ROUTES.savedFilters.path, async (ctx) => {
    const body: SavedFiltersResponse = { filters: await store.list(userIdOf(ctx)) };
    ctx.body = body;
  });

  router.put(ROUTES.saveFilter.path, async (ctx) => {
    const input = parseOr400(SaveFilterRequest, ctx.request.body);
    const outcome = await store.save(userIdOf(ctx), input);
    if (outcome.kind === 'full') throw new ConflictError(SAVED_FILTERS_FULL_MESSAGE, ErrorCode.savedFiltersFull);
    const body: SavedFilterResponse = { message: SAVED_FILTER_MESSAGES[outcome.kind], filter: outcome.filter };
    ctx.status = outcome.kind === 'created' ? 201 : 200;
    ctx.body = body;
  });

  router.delete(ROUTES.deleteSavedFilter.path, async (ctx) => {
    const { filterId } = parseOr400(SavedFilterIdParams, ctx.params);
    const filter = await store.remove(userIdOf(ctx), filterId);
    if (filter === null) throw new NotFoundError(SAVED_FILTER_MESSAGES.notFound, ErrorCode.savedFilterNotFound);
    const body: SavedFilterResponse = { message: SAVED_FILTER_MESSAGES.deleted, filter };
    ctx.body = body;
  });

  return router;
}
