// The calendar feed (docs/PRODUCT.md §10.18, SECURITY.md "Calendar feed").
//
// `GET /api/calendar/<token>.ics` is for calendar apps (Google Calendar, Apple Calendar), which send no cookie
// and no XSRF header: it is mounted before the session and XSRF checks, reads no session and sets no cookie.
// The secret address is its only key: svc-users says whose feed the token opens (it keeps only the token's
// SHA-256), then svc-todos writes that user's dated tasks as iCalendar. An unknown, replaced or revoked token
// gets one and the same 404. Each client address has a budget of feed requests (429 past it).
//
// Turning the feed on (`POST /api/user/calendar-feed`) is the gateway's own call: svc-users makes the token,
// and the gateway answers the whole address on the app's public origin, this once. Whether the feed is on and
// turning it off are forwarded to svc-users like the other /api/user calls (user.routes.ts).
import type Router from '@koa/router';
import {
  CALENDAR_FEED_NOT_FOUND_MESSAGE,
  CALENDAR_FEED_EXTENSION,
  CALENDAR_FEED_TOKEN_PATTERN,
  calendarFeedPath,
  ErrorCode,
  INTERNAL_API,
  type CalendarDocument,
  type CalendarFeedMade,
  type CalendarFeedOwner,
  type CalendarFeedTurnedOn,
} from '@tm/contracts';
import { apiRouter, HttpError, jsonBody } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { API_PREFIX } from './api-prefix.js';
import { appOrigin } from './app-origin.js';
import { callService } from './forward.middleware.js';
import { rateLimit } from './rate-limit.middleware.js';
import { answerRevalidated, etagOf } from './revalidated-answer.js';
import type { RedisClient } from './redis-connection.js';
import { requireSession, signedInUser } from './require-session.js';
import { relay } from './upstream-answer.js';
import type { Upstream } from './upstream.proxy.js';

export interface CalendarFeedLimits {
  /** Feed requests per client address per window; 0 turns the limit off. */
  rateLimit: { points: number; windowSeconds: number };
}

/**
 * The limits outside tests: a calendar app fetches a feed every few hours, but the big ones fetch every
 * subscriber's feed from a few shared addresses, so the budget per address is generous; it bounds what one
 * address can make svc-users and svc-todos do, while 256-bit tokens leave nothing to guess.
 */
export const CALENDAR_FEED_LIMITS: CalendarFeedLimits = { rateLimit: { points: 120, windowSeconds: 60 } };

/**
 * How long a calendar app or a cache on the way may keep a feed before asking again (it revalidates by ETag):
 * short, so a task changed or a feed turned off shows within minutes. `private`: a shared cache keeps nothing.
 */
export const CALENDAR_FEED_CACHE_CONTROL = 'private, max-age=300';

/** 404 `CALENDAR.FEED_NOT_FOUND`: the same for a malformed, unknown, replaced or revoked token. */
function feedNotFound(): HttpError {
  return new HttpError(404, CALENDAR_FEED_NOT_FOUND_MESSAGE, ErrorCode.calendarFeedNotFound);
}

export interface CalendarFeedRoutesOptions {
  users: Upstream;
  todos: Upstream;
  internalSecret: string;
  /** Shared rate-limit counters across gateway instances; in memory when absent. */
  redis?: RedisClient;
  limits?: CalendarFeedLimits;
  /** PUBLIC_URL (config.ts): the origin of the addresses; unset, the address the gateway listens on. */
  publicUrl?: string;
}

/** The feed of the token in the path, as `text/calendar`, or 404 when no feed has it. */
function serveFeed({ users, todos, internalSecret }: CalendarFeedRoutesOptions): Middleware {
  return async (ctx: Context) => {
    const token = String((ctx.params as Record<string, string | undefined>).token);
    if (!CALENDAR_FEED_TOKEN_PATTERN.test(token)) throw feedNotFound();
    const owner = await callService(ctx, users, internalSecret, {
      ...INTERNAL_API.calendarFeedOwner,
      userId: '',
      body: { token },
      contract: INTERNAL_API.calendarFeedOwner.response,
    });
    if (owner.answer.status >= 300) return relay(ctx, owner.answer);
    const { userId, timeZone } = owner.body as CalendarFeedOwner;
    const query = timeZone === undefined ? '' : `?${new URLSearchParams({ timeZone }).toString()}`;
    const document = await callService(ctx, todos, internalSecret, {
      method: INTERNAL_API.calendarDocument.method,
      path: `${INTERNAL_API.calendarDocument.path}${query}`,
      userId,
      contract: INTERNAL_API.calendarDocument.response,
    });
    if (document.answer.status >= 300) return relay(ctx, document.answer);
    const text = (document.body as CalendarDocument).calendar;
    answerRevalidated(ctx, { text, etag: etagOf(text), type: 'text/calendar; charset=utf-8', cacheControl: CALENDAR_FEED_CACHE_CONTROL });
  };
}

/** `GET /api/calendar/<token>.ics`: mounted before the session and XSRF checks (app.ts). */
export function publicCalendarFeedRoutes(options: CalendarFeedRoutesOptions): Router {
  const { rateLimit: budget } = options.limits ?? CALENDAR_FEED_LIMITS;
  const limit = rateLimit({
    ...budget,
    redis: options.redis,
    keyPrefix: 'tm:rl:calendar',
    unavailableMessage: 'Calendar feeds are temporarily unavailable, please try again shortly',
  });
  const router = apiRouter(`${API_PREFIX}/calendar`);
  router.get(`/:token${CALENDAR_FEED_EXTENSION}`, limit, serveFeed(options));
  // Any other path here is no feed either: the same 404, within the same budget, and no session or cookie.
  router.get('/{*rest}', limit, () => {
    throw feedNotFound();
  });
  return router;
}

/** Turns the feed on with a new token: the address on the app's origin, answered in full this once. */
function turnOn({ users, internalSecret, publicUrl }: CalendarFeedRoutesOptions): Middleware {
  return async (ctx: Context) => {
    const { answer, body } = await callService(ctx, users, internalSecret, {
      ...INTERNAL_API.makeCalendarFeed,
      userId: signedInUser(ctx),
      contract: INTERNAL_API.makeCalendarFeed.response,
    });
    if (answer.status >= 300) return relay(ctx, answer);
    const { message, token, since } = body as CalendarFeedMade;
    ctx.status = 201;
    ctx.body = { message, feed: { on: true, since, url: `${appOrigin(ctx, publicUrl)}${calendarFeedPath(token)}` } } satisfies CalendarFeedTurnedOn;
  };
}

/** `POST /api/user/calendar-feed`: after the session and XSRF checks, before the /api/user forwarding (app.ts). */
export function calendarFeedAccountRoutes(options: CalendarFeedRoutesOptions): Router {
  const router = apiRouter(`${API_PREFIX}/user`);
  router.post('/calendar-feed', requireSession(), jsonBody(), turnOn(options));
  return router;
}
