import type { RemindersResponse } from '@tm/contracts';
import type { Page } from 'playwright-core';
import { describeInBrowser, row, snapshot, xsrfHeaders } from './app.js';
import { baseUrl, useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';

// Reminders (docs/PRODUCT.md §10.17) in Chromium: a reminder comes while the page is open and is shown in it,
// with Open going to the task; one that comes while no page is open and no browser takes pushes is missed, and
// the next page shows it, with why, on the task's row in the list and on Today; and the account page's
// "Reminders on this device" says honestly that this browser could not reach its push service (Chromium's own
// is unreachable here).

const browser = useBrowser();

/** The next whole minute of the page's own clock at least 5 s away, as a due time, and its instant. */
async function nextMinute(page: Page): Promise<{ due: string; at: number }> {
  return page.evaluate(() => {
    const at = Math.ceil((Date.now() + 5_000) / 60_000) * 60_000;
    const date = new Date(at);
    const two = (n: number) => String(n).padStart(2, '0');
    return { due: `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`, at };
  });
}

const reminders = async (page: Page) => (await (await page.request.get('/api/todo/reminders')).json()) as RemindersResponse;

/** The mark of a missed reminder on the row of this task ("Reminder missed", with why for screen readers). */
const missedMark = (page: Page, title: string) => row(page, title).locator('.platform-missed');

describeInBrowser('Reminders', () => {
  it('shows a reminder in the open page at its time, and Open goes to the task', async () => {
    const { page, context, errors } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Reminded Person', false);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // The page tells the server the zone due times are read in (the account's, from this browser at sign-up).
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await until(() => reminders(page), (answer) => answer.timeZone === zone, 15_000);

    const { due, at } = await nextMinute(page);
    const added = await page.request.post('/api/todo/add-todo', { data: { title: 'Call the plumber', due, reminders: [0] }, headers: await xsrfHeaders(page) });
    expect(added.status()).toBe(201);
    const todoId = ((await added.json()) as { todo: { _id: string } }).todo._id;
    // Planned on the server, and known to the page before its time.
    expect((await until(() => reminders(page), (answer) => answer.upcoming.length > 0)).upcoming).toEqual([
      expect.objectContaining({ todoId, title: 'Call the plumber', due, minutes: 0, state: 'pending' }),
    ]);

    const toast = page.getByRole('status').filter({ hasText: 'Reminder: Call the plumber' });
    await toast.waitFor({ timeout: Math.max(0, at - Date.now()) + 20_000 });
    expect(await toast.textContent()).toContain('Due now');
    // Shown in the page: the server does not count it as missed, though no browser takes pushes here.
    await until(() => reminders(page), (answer) => answer.upcoming.length === 0);
    expect((await reminders(page)).missed).toEqual([]);

    // From another screen, Open goes to the task in the list.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).click();
    await page.waitForURL('**/today');
    await toast.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const checkbox = page.getByRole('checkbox', { name: 'Mark “Call the plumber” as completed' });
    await until(() => checkbox.evaluate((box) => box === document.activeElement), Boolean);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('marks a reminder missed while no page was open on its task’s row, with why, until it is seen', async () => {
    const { page, context, errors } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Missed Person', false);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await until(() => reminders(page), (answer) => answer.timeZone === zone, 15_000);
    const { due, at } = await nextMinute(page);
    const headers = await xsrfHeaders(page);
    const added = await page.request.post('/api/todo/add-todo', { data: { title: 'Call the plumber', due, reminders: [0] }, headers });
    expect(added.status()).toBe(201);
    const todoId = ((await added.json()) as { todo: { _id: string } }).todo._id;
    expect((await page.request.post('/api/todo/add-todo', { data: { title: 'Water the plants', due: due.slice(0, 10) }, headers })).status()).toBe(201);

    // No page of the app open when it comes (the API's description instead), and no browser takes pushes here:
    // it is missed, and why.
    await page.goto('/api/openapi.json');
    const missed = await until(() => reminders(page), (answer) => answer.missed.length > 0, Math.max(0, at - Date.now()) + 30_000);
    expect(missed.missed).toEqual([expect.objectContaining({ todoId, due, minutes: 0, state: 'missed', reason: 'No browser allows notifications' })]);

    // The next page shows it once as a toast, and on the task's row: in words, why as its tooltip and read
    // with the checkbox; no other row is marked.
    await page.goto('/');
    const mark = missedMark(page, 'Call the plumber');
    await mark.waitFor();
    expect(await mark.getAttribute('title')).toBe('No browser allows notifications');
    const checkbox = page.getByRole('checkbox', { name: 'Mark “Call the plumber” as completed' });
    expect(await checkbox.evaluate((box) => box.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent).join(' '))).toContain(
      'Reminder missed: No browser allows notifications',
    );
    expect(await mark.evaluate((element) => element.firstChild?.textContent)).toBe('Reminder missed');
    expect(await page.locator('.platform-missed').count()).toBe(1);
    const notice = page.getByRole('status').filter({ hasText: 'Missed reminder: Call the plumber' });
    await notice.waitFor();
    await snapshot(page, 'missed-reminder-row-1280', { fullPage: false });

    // On Today too, and in the dark theme on a phone's width.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).click();
    await page.waitForURL('**/today');
    await missedMark(page, 'Call the plumber').waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByTitle('Switch to dark mode').click();
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await page.getByRole('link', { name: 'Task Manager' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await missedMark(page, 'Call the plumber').waitFor();
    await snapshot(page, 'missed-reminder-row-375-dark', { fullPage: false });
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).click();
    await page.waitForURL('**/today');
    await missedMark(page, 'Call the plumber').waitFor();
    await snapshot(page, 'missed-reminder-today-375-dark', { fullPage: false });

    // Seen (Open on its toast): the mark leaves the row, and the server lists it no more.
    await page.getByRole('status').filter({ hasText: 'Missed reminder: Call the plumber' }).getByRole('button', { name: 'Open' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await row(page, 'Call the plumber').waitFor();
    await missedMark(page, 'Call the plumber').waitFor({ state: 'detached' });
    await until(() => reminders(page), (answer) => answer.missed.length === 0);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('asks for notifications only on a click, and says so when the push service cannot be reached', async () => {
    const context = await browser().newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    await signUpOn(page, 'Device Person', false);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Reminders on this device' });
    await section.getByText(/^Off\./).waitFor();
    await section.getByRole('button', { name: 'Turn on' }).click();
    const status = section.getByRole('status');
    await until(() => status.textContent(), (text) => text !== null && !text.startsWith('Off.'), 20_000);
    // Chromium here has no reachable push service: either it subscribed, or it says so plainly.
    expect(await status.textContent()).toMatch(/^(On\.|This browser could not reach its push service)/);
    await context.close();
  }, 60_000);
});
