import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseCalendar } from '@tm/test-support';
import { openSession, useBrowser } from './browser.js';
import { day, describeInBrowser, openAccountPage, seriousAxeViolations, signUp, toastWith, xsrfHeaders } from './app.js';

// The calendar feed (docs/PRODUCT.md §10.18) in Chromium at 375 px in the dark theme: turned on from the account
// page, its address fetched the way a calendar app fetches it (no cookie, outside the browser) and read by
// Mozilla's iCalendar parser; turned off, after which the address answers 404.

const browser = useBrowser();
const SCREENSHOTS = path.join(__dirname, '..', '..', '.test-data', 'screenshots');

describeInBrowser('the calendar feed', () => {
  it('is turned on from the account page, serves the dated tasks to a client without cookies, and is turned off', async () => {
    const { page, context, errors } = await openSession(browser(), { width: 375, height: 800 });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signUp(page, 'Calendar Subscriber');
    const headers = await xsrfHeaders(page);
    const dated = await page.request.post('/api/todo/add-todo', { data: { title: 'Book flights, hotel; 🧳', due: `${day(2)}T10:15` }, headers });
    expect(dated.status()).toBe(201);
    const { todo } = (await dated.json()) as { todo: { _id: string } };
    expect((await page.request.post('/api/todo/add-todo', { data: { title: 'No date' }, headers })).status()).toBe(201);

    await openAccountPage(page);
    const section = page.getByRole('region', { name: 'Calendar feed' });
    await section.getByRole('button', { name: 'Turn on calendar feed' }).click();
    await toastWith(page, 'Calendar feed turned on').waitFor();
    const field = section.getByRole('textbox', { name: 'Calendar address' });
    const url = await field.inputValue();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);

    // A calendar app: no cookie, no session, another client altogether.
    const response = await fetch(url);
    expect([response.status, response.headers.get('content-type'), response.headers.get('set-cookie')]).toEqual([200, 'text/calendar; charset=utf-8', null]);
    const calendar = await parseCalendar(await response.text());
    expect(calendar.events).toHaveLength(1);
    expect(calendar.event(`${todo._id}@task-manager`)).toMatchObject({ summary: 'Book flights, hotel; 🧳', allDay: false, floating: true, start: `${day(2)}T10:15:00` });

    // At 375 px: nothing wider than the screen, every control a 44 px target, no serious accessibility problem.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const name of ['Copy address', 'Get a new address', 'Turn off']) {
      const box = await section.getByRole('button', { name }).boundingBox();
      expect([name, (box?.height ?? 0) >= 44, (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375]).toEqual([name, true, true]);
    }
    expect(((await field.boundingBox())?.height ?? 0) >= 44).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(SCREENSHOTS, 'calendar-feed-375-dark.png') });

    await section.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('alertdialog', { name: 'Turn off the calendar feed?' }).getByRole('button', { name: 'Turn off' }).click();
    await toastWith(page, 'Calendar feed turned off. Its address no longer works.').waitFor();
    await section.getByRole('button', { name: 'Turn on calendar feed' }).waitFor();
    const gone = await fetch(url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe('CALENDAR.FEED_NOT_FOUND');
    // The visitor's first current-user check (before signing up) is the only failed request.
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  });
});
