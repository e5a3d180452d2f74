import { CALENDAR_FEED_TOKEN_PATTERN, calendarFeedPath, CalendarFeedQuery, withoutCalendarFeedToken } from './calendar-feed.js';

// The calendar feed's address (docs/PRODUCT.md §10.18, SECURITY.md "Calendar feed"): where it is, and that its
// token never reaches a log line or a trace.
describe('the calendar feed address', () => {
  const token = 'AbC_-0123456789abcdefghijklmnopqrstuvwxyzAB';

  it('is /api/calendar/<token>.ics for a 43-character base64url token', () => {
    expect(token).toMatch(CALENDAR_FEED_TOKEN_PATTERN);
    expect(calendarFeedPath(token)).toBe(`/api/calendar/${token}.ics`);
    for (const refused of [token.slice(1), `${token}A`, `${token.slice(1)}.`, `${token.slice(1)}/`]) expect(refused).not.toMatch(CALENDAR_FEED_TOKEN_PATTERN);
  });

  it('shows [token] in place of the token, keeping a query, and leaves every other URL as it is', () => {
    expect(withoutCalendarFeedToken(calendarFeedPath(token))).toBe('/api/calendar/[token].ics');
    expect(withoutCalendarFeedToken(`${calendarFeedPath(token)}?x=1`)).toBe('/api/calendar/[token].ics?x=1');
    expect(withoutCalendarFeedToken(`/api/calendar/${token}/more`)).toBe('/api/calendar/[token].ics');
    for (const other of ['/api/todo/fetch-todo', '/api/calendar', '/api/calendarX/abc', '/healthz']) expect(withoutCalendarFeedToken(other)).toBe(other);
  });

  it("takes a time zone's name for the feed, and nothing that could break a line of it", () => {
    expect(CalendarFeedQuery.parse({ timeZone: 'America/Argentina/Buenos_Aires' })).toEqual({ timeZone: 'America/Argentina/Buenos_Aires' });
    expect(CalendarFeedQuery.parse({})).toEqual({});
    for (const bad of ['Europe/Paris\r\nX-EVIL:1', 'Europe/Paris;x', 'a b']) expect(CalendarFeedQuery.safeParse({ timeZone: bad }).success).toBe(false);
  });
});
