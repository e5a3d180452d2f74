import type Router from '@koa/router';
import { archivedListIds, ROUTES, SearchQuery, searchTerms, type SearchResponse } from '@tm/contracts';
import { apiRouter, parseOr400, requireUser } from '@tm/service-kit';
import { searchPlan } from './search.domain.js';
import type { TodosRepository } from './todos.repository.js';
import { userIdOf } from './todos.routes.js';

/**
 * Search (docs/PRODUCT.md §10.22): the user's tasks whose title, note or subtasks hold the words of `q`, narrowed
 * by the task screen's filters. The query's terms are the contracts' searchTerms; the store's full-text index
 * finds and ranks the matches, and the filters' rule (searchPlan) keeps the first SEARCH_RESULTS_MAX of those
 * that pass, counting the others; without a list filter, those of an archived list do not pass (§10.19
 * "Archive"). Without `now` the due filters read the current UTC minute as the person's clock.
 */
export async function searchTasks(repository: TodosRepository, userId: string, query: SearchQuery, now: () => Date = () => new Date()): Promise<SearchResponse> {
  const { q, now: clock = now().toISOString().slice(0, 16), ...filters } = query;
  const archived = filters.listId === undefined ? archivedListIds(await repository.listsOf(userId)) : new Set<string>();
  return repository.search(userId, searchTerms(q), searchPlan(filters, clock, archived));
}

/** GET /todo/search: a bad `q` or filter is a 400 naming it, before anything is read. */
export function searchRoutes(repository: TodosRepository): Router {
  const router = apiRouter();
  router.use(requireUser());
  router.get(ROUTES.searchTodos.path, async (ctx) => {
    ctx.body = await searchTasks(repository, userIdOf(ctx), parseOr400(SearchQuery, ctx.query));
  });
  return router;
}
