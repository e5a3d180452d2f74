import { ROUTES, type ApiResponse } from '@tm/contracts';
import { call } from './http.js';

/** GET /user/calendar-feed: whether the account's calendar feed is on, and since when (PRODUCT §10.18). */
export async function fetchCalendarFeed(): Promise<ApiResponse<'calendarFeed'>> {
  return call(ROUTES.calendarFeed);
}

/**
 * POST /user/calendar-feed: the feed with a new secret address, answered in full this once (the server keeps
 * only a digest of it); an address made before stops working.
 */
export async function turnOnCalendarFeed(): Promise<ApiResponse<'turnOnCalendarFeed'>> {
  return call(ROUTES.turnOnCalendarFeed);
}

/** DELETE /user/calendar-feed: the feed off; its address stops working. */
export async function turnOffCalendarFeed(): Promise<ApiResponse<'turnOffCalendarFeed'>> {
  return call(ROUTES.turnOffCalendarFeed);
}
