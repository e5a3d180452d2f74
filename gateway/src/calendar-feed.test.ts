import {
  CALENDAR_FEED_NOT_FOUND_MESSAGE,
  CalendarFeedResponse,
  CalendarFeedTurnedOn,
  ErrorBody,
  ErrorCode,
  type TodoResponse,
} from '@tm/contracts';
import { ApiClient, parseCalendar, signUp, startStack, upstreamsOf, type RunningStack, type SignedUp } from '@tm/test-support';
import { inProcessGateway, startGateway, type TestGateway } from './gateway.test-helpers.js';

// The calendar feed through the gateway (docs/PRODUCT.md §10.18, SECURITY.md "Calendar feed"), against the built
// services over real HTTP: turned on from a session, fetched with no cookie at all as a calendar app does, parsed
// by Mozilla's iCalendar parser; replaced, turned off, gone with its account; within its budget per address.

let stack: RunningStack<TestGateway>;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(async () => {
  await stack.stop();
});

/** A new account with a dated, an undated and a timed task; its time zone set. */
async function accountWithTasks(): Promise<SignedUp & { dated: string; timed: string; undated: string }> {
  const account = await signUp(stack.url, { name: 'Feed Owner' });
  expect((await account.client.put('/api/user/profile', { timeZone: 'Europe/Paris' })).status).toBe(200);
  const add = async (body: Record<string, unknown>) => {
    const answer = await account.client.post<TodoResponse>('/api/todo/add-todo', body);
    expect(answer.status).toBe(201);
    return answer.body.todo._id;
  };
  return { ...account, dated: await add({ title: 'File taxes, today; 📄', due: '2027-04-15' }), timed: await add({ title: 'Call Ada', due: '2027-04-16T14:30' }), undated: await add({ title: 'Someday' }) };
}

async function turnOn(client: ApiClient): Promise<CalendarFeedTurnedOn> {
  const answer = await client.post('/api/user/calendar-feed');
  expect(answer.status).toBe(201);
  return CalendarFeedTurnedOn.parse(answer.body);
}

/** The feed at `url`, fetched as a calendar app does: no cookie, no XSRF header, nothing of a session. */
const fetchFeed = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

/** The path of a feed address, for the gateway at `base`. */
const onGateway = (url: string, base: string) => base + new URL(url).pathname;

async function expectNoFeed(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(response.headers.getSetCookie()).toEqual([]);
  expect(ErrorBody.parse(await response.json())).toEqual({ message: CALENDAR_FEED_NOT_FOUND_MESSAGE, code: ErrorCode.calendarFeedNotFound });
}

describe('the calendar feed (PRODUCT §10.18)', () => {
  it('is turned on from the account, and serves the dated tasks to a client without any cookie', async () => {
    const owner = await accountWithTasks();
    expect(CalendarFeedResponse.parse((await owner.client.get('/api/user/calendar-feed')).body).feed).toEqual({ on: false });

    const { message, feed } = await turnOn(owner.client);
    expect(message).toBe('Calendar feed turned on');
    expect(feed.url).toMatch(new RegExp(`^${stack.url}/api/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(CalendarFeedResponse.parse((await owner.client.get('/api/user/calendar-feed')).body).feed).toEqual({ on: true, since: feed.since });

    const response = await fetchFeed(feed.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
    expect(response.headers.getSetCookie()).toEqual([]);
    const calendar = await parseCalendar(await response.text());
    expect(calendar.timeZone).toBe('Europe/Paris');
    expect(calendar.events.map((event) => event.uid).sort()).toEqual([`${owner.dated}@task-manager`, `${owner.timed}@task-manager`].sort());
    expect(calendar.event(`${owner.dated}@task-manager`)).toMatchObject({ summary: 'File taxes, today; 📄', allDay: true, start: '2027-04-15' });
    expect(calendar.event(`${owner.timed}@task-manager`)).toMatchObject({ summary: 'Call Ada', allDay: false, floating: true, start: '2027-04-16T14:30:00', end: '2027-04-16T15:00:00' });

    // A calendar app asking again with the ETag it has gets 304 while nothing changed, the new feed once a task did.
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    // (fetch() adds `Cache-Control: no-cache` to a conditional request unless the request names one of its own.)
    const revalidate = { 'if-none-match': etag, 'cache-control': 'max-age=0' };
    expect((await fetchFeed(feed.url, revalidate)).status).toBe(304);
    expect((await owner.client.put(`/api/todo/update-todo/${owner.undated}`, { updateData: { due: '2027-04-20' } })).status).toBe(200);
    const changed = await fetchFeed(feed.url, revalidate);
    expect(changed.status).toBe(200);
    expect((await parseCalendar(await changed.text())).events).toHaveLength(3);
  });

  it("answers one and the same 404 for an address no feed has, a malformed one, and another user's replaced or revoked one", async () => {
    const owner = await accountWithTasks();
    const first = (await turnOn(owner.client)).feed.url;
    const second = await turnOn(owner.client);
    expect(second.message).toBe('Your calendar feed has a new address. The old one no longer works.');
    expect(second.feed.url).not.toBe(first);
    await expectNoFeed(await fetchFeed(first));
    expect((await fetchFeed(second.feed.url)).status).toBe(200);

    const off = await owner.client.delete('/api/user/calendar-feed');
    expect(off.status).toBe(200);
    expect(CalendarFeedResponse.parse(off.body)).toEqual({ message: 'Calendar feed turned off. Its address no longer works.', feed: { on: false } });
    await expectNoFeed(await fetchFeed(second.feed.url));
    expect(CalendarFeedResponse.parse((await owner.client.get('/api/user/calendar-feed')).body).feed).toEqual({ on: false });
    // Turning off a feed that is off changes nothing and says so the same way.
    expect((await owner.client.delete('/api/user/calendar-feed')).status).toBe(200);

    const unknown = `${stack.url}/api/calendar/${'A'.repeat(43)}.ics`;
    for (const url of [unknown, `${stack.url}/api/calendar/short.ics`, `${stack.url}/api/calendar/${'A'.repeat(43)}`, `${stack.url}/api/calendar/${'A'.repeat(42)}%00.ics`]) {
      await expectNoFeed(await fetchFeed(url));
    }
  });

  it('stops working with its account: the feed of a deleted account is a 404', async () => {
    const owner = await accountWithTasks();
    const { feed } = await turnOn(owner.client);
    expect((await fetchFeed(feed.url)).status).toBe(200);
    expect((await owner.client.delete('/api/user/account', { body: { password: owner.password } })).status).toBe(200);
    await expectNoFeed(await fetchFeed(feed.url));
  });

  it('is turned on, read and turned off only with a session, and turned on or off only with the XSRF token', async () => {
    const visitor = new ApiClient(stack.url);
    await visitor.get('/api/user/me');
    for (const [method, path] of [['GET', '/api/user/calendar-feed'], ['POST', '/api/user/calendar-feed'], ['DELETE', '/api/user/calendar-feed']] as const) {
      expect([method, (await visitor.request(method, path)).status]).toEqual([method, 401]);
    }
    const owner = await accountWithTasks();
    const forged = await owner.client.post('/api/user/calendar-feed', undefined, { xsrf: false });
    expect([forged.status, ErrorBody.parse(forged.body).code]).toEqual([403, ErrorCode.xsrf]);
    expect(CalendarFeedResponse.parse((await owner.client.get('/api/user/calendar-feed')).body).feed).toEqual({ on: false });
    const { feed } = await turnOn(owner.client);
    expect((await owner.client.delete('/api/user/calendar-feed', { xsrf: false })).status).toBe(403);
    expect((await fetchFeed(feed.url)).status).toBe(200);
  });

  it('keeps to its budget per client address (429 with Retry-After), whatever the token', async () => {
    const limited = await startGateway(upstreamsOf(stack), { calendarFeed: { rateLimit: { points: 2, windowSeconds: 60 } } });
    try {
      const owner = await accountWithTasks();
      const { feed } = await turnOn(owner.client);
      const url = onGateway(feed.url, limited.url);
      expect((await fetchFeed(url)).status).toBe(200);
      await expectNoFeed(await fetchFeed(`${limited.url}/api/calendar/${'B'.repeat(43)}.ics`));
      const refused = await fetchFeed(url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(ErrorBody.parse(await refused.json()).code).toBe(ErrorCode.rateLimited);
      // The budget is the feed's own: the rest of the API is not counted against it.
      expect((await fetch(`${limited.url}/api/user/me`, { headers: { cookie: owner.client.cookieHeader() } })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
