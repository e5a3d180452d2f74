// The calendar feed (docs/PRODUCT.md §10.18, SECURITY.md "Calendar feed"): a secret address per account that a
// calendar app (Google Calendar, Apple Calendar) subscribes to, answering the account's dated tasks as
// iCalendar (RFC 5545). The address carries a random token; svc-users keeps only its SHA-256.
import { z } from 'zod';
import { IsoDateString, MessageResponse, ObjectIdString } from './common.js';
import { API_BASE } from './limits.js';
import { TimeZone } from './users.js';

/** The folder of the feeds below the app's origin: `/api/calendar/<token>.ics`. */
export const CALENDAR_FEED_FOLDER = `${API_BASE}/calendar`;

/** The ending of a feed's file name: calendar apps recognise an iCalendar address by it. */
export const CALENDAR_FEED_EXTENSION = '.ics';

/** A feed token: 256 random bits in base64url, 43 characters, as svc-users makes them. */
export const CALENDAR_FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The path of the feed of `token` on the app's origin. */
export function calendarFeedPath(token: string): string {
  return `${CALENDAR_FEED_FOLDER}/${token}${CALENDAR_FEED_EXTENSION}`;
}

/** The 404's words for an address no feed has: the same whether it never was one, was replaced or turned off. */
export const CALENDAR_FEED_NOT_FOUND_MESSAGE = 'There is no calendar feed at this address. It may have been turned off or replaced by a new address.';

/** What a log line or a trace shows in place of a feed's token. */
export const CALENDAR_FEED_TOKEN_REDACTED = '[token]';

/**
 * `url` with a feed's token replaced by {@link CALENDAR_FEED_TOKEN_REDACTED}: the token is the feed's only
 * key, so no log line or trace keeps it (SECURITY.md "Calendar feed"). Any other URL is returned as it is.
 */
export function withoutCalendarFeedToken(url: string): string {
  if (!url.startsWith(`${CALENDAR_FEED_FOLDER}/`)) return url;
  const rest = url.slice(CALENDAR_FEED_FOLDER.length + 1);
  const end = rest.search(/[?#]/);
  return `${CALENDAR_FEED_FOLDER}/${CALENDAR_FEED_TOKEN_REDACTED}${CALENDAR_FEED_EXTENSION}${end === -1 ? '' : rest.slice(end)}`;
}

/** Whether the account's feed is on, and since when (the address itself is shown once, when it is made). */
export const CalendarFeedState = z.object({ on: z.boolean(), since: IsoDateString.optional() });
export type CalendarFeedState = z.infer<typeof CalendarFeedState>;

/** GET /user/calendar-feed and DELETE /user/calendar-feed (turned off: `on` false). */
export const CalendarFeedResponse = MessageResponse.extend({ feed: CalendarFeedState });
export type CalendarFeedResponse = z.infer<typeof CalendarFeedResponse>;

/**
 * POST /user/calendar-feed: a feed with a new address, answered this once in full (`url`, on the app's public
 * origin); any address made before stops working.
 */
export const CalendarFeedTurnedOn = MessageResponse.extend({
  feed: z.object({ on: z.literal(true), since: IsoDateString, url: z.url({ protocol: /^https?$/ }) }),
});
export type CalendarFeedTurnedOn = z.infer<typeof CalendarFeedTurnedOn>;

/** POST /internal/calendar-feeds (gateway → svc-users): the new token, for the gateway to make the address of. */
export const CalendarFeedMade = MessageResponse.extend({ token: z.string().regex(CALENDAR_FEED_TOKEN_PATTERN), since: IsoDateString });
export type CalendarFeedMade = z.infer<typeof CalendarFeedMade>;

/** POST /internal/calendar-feeds/owner (gateway → svc-users, anonymous): whose feed a token opens. */
export const CalendarFeedOwnerRequest = z.object({ token: z.string().min(1, 'The feed token is missing').max(256, 'The feed token is too long') });
export type CalendarFeedOwnerRequest = z.infer<typeof CalendarFeedOwnerRequest>;

/** The owner of a feed, with the account's time zone when it has one (the feed names it for calendar apps). */
export const CalendarFeedOwner = z.object({ userId: ObjectIdString, timeZone: TimeZone.optional() });
export type CalendarFeedOwner = z.infer<typeof CalendarFeedOwner>;

/**
 * GET /internal/todos/calendar?timeZone= (gateway → svc-todos, as the feed's owner). The zone is one svc-users
 * knows; only its characters are checked here, so nothing but a zone's name reaches the feed's text.
 */
export const CalendarFeedQuery = z.object({ timeZone: TimeZone.regex(/^[A-Za-z0-9_+\-/]+$/, 'timeZone must be an IANA time zone name').optional() });
export type CalendarFeedQuery = z.infer<typeof CalendarFeedQuery>;

/** The feed's iCalendar text, in JSON so the gateway checks it like any answer before sending it as `text/calendar`. */
export const CalendarDocument = z.object({ calendar: z.string().startsWith('BEGIN:VCALENDAR\r\n') });
export type CalendarDocument = z.infer<typeof CalendarDocument>;
