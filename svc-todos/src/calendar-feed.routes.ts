import type Router from '@koa/router';
import { CalendarFeedQuery, type CalendarDocument } from '@tm/contracts';
import { apiRouter, parseOr400, requireUser } from '@tm/service-kit';
import type { CalendarFeedService } from './calendar-feed.service.js';

/**
 * `GET /internal/todos/calendar` (INTERNAL_API.calendarDocument): called only by the gateway, as the owner of
 * the feed whose secret address was asked for (docs/PRODUCT.md §10.18), never forwarded from the public `/api`.
 * `timeZone` is the account's, which the feed names. The text travels in JSON, checked by the gateway like
 * any answer, which sends it on as `text/calendar`.
 */
export function internalCalendarFeedRoutes(feeds: CalendarFeedService): Router {
  const router = apiRouter('/internal/todos');
  router.get('/calendar', requireUser(), async (ctx) => {
    const { timeZone } = parseOr400(CalendarFeedQuery, ctx.query);
    const userId = ctx.state.userId ?? '';
    ctx.body = { calendar: await feeds.calendar(userId, timeZone === undefined ? {} : { timeZone }) } satisfies CalendarDocument;
  });
  return router;
}
