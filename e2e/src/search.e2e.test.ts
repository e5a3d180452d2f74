import type { Page, Response } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, until, type Theme } from './phone.js';
import { describeInBrowser, row, seriousAxeViolations, snapshot, xsrfHeaders } from './app.js';

// Search (docs/PRODUCT.md §10.22) in the built app, on a phone (375 px, touch only) and a desktop (1280 px, mouse
// and keyboard), in both themes: the Search button or `/`, the matches as typed with their words highlighted,
// the line of the note or subtask that matched and the list's name, the live count, the query in the address
// (a reload keeps it, Escape clears it); offline, the device's own tasks are searched and that is said.

const browser = useBrowser();

/** Sets up through the API with the page's session: a call's body, or the failure. */
async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(path, { data, headers: await xsrfHeaders(page) });
  if (response.status() !== 201) throw new Error(`${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The search call's answer for `q`, however many letters came before it (the page asks once the typing rests). */
const searchAnswer = (page: Page, q: string): Promise<Response> =>
  page.waitForResponse((response) => response.url().includes('/api/todo/search?') && new URL(response.url()).searchParams.get('q') === q);

const field = (page: Page) => page.getByRole('searchbox', { name: 'Search tasks' });
const results = (page: Page) => page.getByRole('list', { name: /^Tasks matching/ }).getByRole('listitem');
const marks = (page: Page) => page.locator('.tasks-search__results mark').allInnerTexts();
const fitsTheWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describeInBrowser('search (docs/PRODUCT.md §10.22)', () => {
  const devices = [
    { name: 'phone', width: 375, height: 812, touch: true },
    { name: 'desktop', width: 1280, height: 800, touch: false },
  ] as const;
  const cases = devices.flatMap((device) => (['light', 'dark'] as Theme[]).map((theme) => ({ ...device, theme })));

  it.each(cases)('$name ($width px, $theme): opened by its button or `/`, matches as typed, highlighted, in the address', async ({ name, width, height, touch, theme }) => {
    const { context, page, errors } = await openDevice(browser(), { width, height, touch, theme });
    const shot = (what: string) => snapshot(page, `search-${name}-${what}-${theme}`, { fullPage: false });
    await signUpOn(page, `Sam Search ${name}`, touch);
    const { list } = await post<{ list: { _id: string } }>(page, '/api/todo/lists', { name: 'Groceries', colour: 'green' });
    await post(page, '/api/todo/add-todo', { title: 'Buy oat milk', listId: list._id });
    await post(page, '/api/todo/add-todo', { title: 'Weekend', note: 'Farmers market first\nthen bring the milk crate back to the shop' });
    await post(page, '/api/todo/add-todo', { title: 'Party', subtasks: [{ id: 's1', title: 'Milkshakes for everyone', done: false }] });
    await post(page, '/api/todo/add-todo', { title: 'Call the bank' });
    await page.reload();
    await row(page, 'Call the bank').waitFor();

    // A phone keeps the field behind Search (beside Lists); a desktop shows it, and `/` puts the focus in it.
    if (touch) {
      expect(await field(page).count()).toBe(0);
      await page.getByRole('button', { name: 'Search', exact: true }).tap();
    } else {
      await page.getByRole('heading', { name: 'Task Manager', level: 1 }).click();
      await page.keyboard.press('/');
    }
    await until(() => field(page).evaluate((input) => input === document.activeElement), (focused) => focused);

    const answered = searchAnswer(page, 'mil');
    await page.keyboard.type('mil');
    expect((await answered).status()).toBe(200);
    await page.getByRole('status').filter({ hasText: '3 tasks match “mil”.' }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('mil');
    expect(await results(page).count()).toBe(3);
    expect((await marks(page)).sort()).toEqual(['Mil', 'mil', 'mil']);
    await results(page).filter({ hasText: 'Buy oat milk' }).getByText('Groceries').waitFor();
    await results(page).filter({ hasText: 'Weekend' }).getByText('Note: then bring the milk crate back to the shop').waitFor();
    await results(page).filter({ hasText: 'Party' }).getByText('Subtask: Milkshakes for everyone').waitFor();
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('matches');

    // A reload keeps the search; more words narrow it; nothing left is said in words.
    const reloaded = searchAnswer(page, 'mil');
    await page.reload();
    await reloaded;
    await page.getByRole('status').filter({ hasText: '3 tasks match “mil”.' }).waitFor();
    expect(await field(page).inputValue()).toBe('mil');
    const narrowed = searchAnswer(page, 'milk zebra');
    await field(page).fill('milk zebra');
    await narrowed;
    await page.getByText('No tasks match “milk zebra”.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('nothing');

    // Escape clears it: the address loses q and the list is back.
    await field(page).press('Escape');
    await until(async () => new URL(page.url()).search, (search) => search === '');
    await row(page, 'Call the bank').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offline, or with the service failing: the tasks on the device are searched by the same rule, and the page says so', async () => {
    const { context, page } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Olga Offline Search', false);
    await post(page, '/api/todo/add-todo', { title: 'Café au lait', note: 'with oat milk' });
    await post(page, '/api/todo/add-todo', { title: 'Tea' });
    await page.reload();
    await row(page, 'Tea').waitFor();
    // A person who has pressed anything on the page has the search's code (fetched at the first press).
    await field(page).click();
    await page.waitForLoadState('networkidle');

    // The service failing (its answers stood in for by a 503 here): the device's matches, and why.
    await page.route('**/api/todo/search?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service unavailable","code":"UNAVAILABLE"}' }));
    await field(page).fill('tea');
    await page.getByRole('alert').filter({ hasText: "Search isn't answering right now, so these are the matches among this device's tasks." }).waitFor();
    await page.getByRole('status').filter({ hasText: '1 task matches “tea”.' }).waitFor();
    await page.unroute('**/api/todo/search?*');
    await field(page).fill('');

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline." }).waitFor({ timeout: 5000 });

    await field(page).fill('cafe OAT');
    await page.getByRole('alert').filter({ hasText: "Searching this device's tasks — you're offline." }).waitFor();
    await page.getByRole('status').filter({ hasText: '1 task matches “cafe OAT”.' }).waitFor();
    expect(await marks(page)).toEqual(['Café', 'oat']);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, 'search-desktop-offline-light', { fullPage: false });
    await context.setOffline(false);
    await context.close();
  });
});
