import type Router from '@koa/router';
import { ExportQuery, ImportRequest } from '@tm/contracts';
import { apiRouter, parseOr400, requireUser } from '@tm/service-kit';
import { idempotencyOf, userIdOf } from './todos.routes.js';
import type { TransferService } from './transfer.service.js';

/**
 * `GET /todo/export?format=json|csv` (a download with its file name) and `POST /todo/import` (docs/PRODUCT.md
 * §10.23). The import's body limit is its own (contracts bodyLimitOf: LIMITS.import.bodyBytes, 413 beyond); it
 * takes an `Idempotency-Key` as the other task writes do.
 */
export function transferRoutes(service: TransferService): Router {
  const router = apiRouter('/todo');
  router.use(requireUser());

  router.get('/export', async (ctx) => {
    const { format } = parseOr400(ExportQuery, ctx.query);
    const { fileName, type, body } = await service.export(userIdOf(ctx), format);
    ctx.attachment(fileName);
    ctx.type = type;
    ctx.body = body;
  });

  router.post('/import', async (ctx) => {
    const { fileName, content, dryRun = false } = parseOr400(ImportRequest, ctx.request.body);
    // The change event carries no origin: the page that imports does not put the tasks in its own list (it has
    // only counts), so every page, its own task screen included, takes them from the event (docs/PRODUCT.md §10.23).
    const { status, body } = await service.import(userIdOf(ctx), null, { fileName, content, dryRun }, idempotencyOf(ctx));
    ctx.status = status;
    ctx.body = body;
  });

  return router;
}
