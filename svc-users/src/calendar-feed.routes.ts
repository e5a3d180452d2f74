import type Router from '@koa/router';
import { CalendarFeedOwnerRequest, type CalendarFeedMade, type CalendarFeedOwner, type CalendarFeedResponse } from '@tm/contracts';
import { apiRouter, parseOr400, requireUser } from '@tm/service-kit';
import type { Context } from 'koa';
import type { UsersService } from './users.service.js';

const CALENDAR_FEED_MESSAGES = {
  on: 'Your calendar feed is on',
  off: 'Your calendar feed is off',
  turnedOn: 'Calendar feed turned on',
  replaced: 'Your calendar feed has a new address. The old one no longer works.',
  turnedOff: 'Calendar feed turned off. Its address no longer works.',
} as const;

/** The vouched user id: requireUser() has already refused a call without one. */
const userIdOf = (ctx: Context): string => ctx.state.userId ?? '';

/**
 * The calendar feed of the account page (docs/PRODUCT.md §10.18), `/user/calendar-feed` as the gateway forwards
 * it: whether it is on, and turning it off. Turning it on is the gateway's own call ({@link internalCalendarFeedRoutes}):
 * the gateway makes the address on the app's public origin.
 */
export function calendarFeedRoutes(service: UsersService): Router {
  const router = apiRouter('/user');

  router.get('/calendar-feed', requireUser(), async (ctx) => {
    const feed = await service.calendarFeed(userIdOf(ctx));
    ctx.body = { message: feed.on ? CALENDAR_FEED_MESSAGES.on : CALENDAR_FEED_MESSAGES.off, feed } satisfies CalendarFeedResponse;
  });

  router.delete('/calendar-feed', requireUser(), async (ctx) => {
    await service.turnOffCalendarFeed(userIdOf(ctx));
    ctx.body = { message: CALENDAR_FEED_MESSAGES.turnedOff, feed: { on: false } } satisfies CalendarFeedResponse;
  });

  return router;
}

/**
 * `/internal/calendar-feeds/*`: calls only the gateway makes (INTERNAL_API). A new token for the signed-in user;
 * and, anonymously, whose feed a token opens (the public feed address, SECURITY.md "Calendar feed").
 */
export function internalCalendarFeedRoutes(service: UsersService): Router {
  const router = apiRouter('/internal');

  router.post('/calendar-feeds', requireUser(), async (ctx) => {
    const { token, since, replaced } = await service.turnOnCalendarFeed(userIdOf(ctx));
    ctx.status = 201;
    ctx.body = { message: replaced ? CALENDAR_FEED_MESSAGES.replaced : CALENDAR_FEED_MESSAGES.turnedOn, token, since } satisfies CalendarFeedMade;
  });

  router.post('/calendar-feeds/owner', async (ctx) => {
    const { token } = parseOr400(CalendarFeedOwnerRequest, ctx.request.body);
    ctx.body = (await service.calendarFeedOwner(token)) satisfies CalendarFeedOwner;
  });

  return router;
}
