import type { Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { describeInBrowser, played, RECORD_PLAYS, serverTitles, signUp, snapshot, toastWith, xsrfHeaders } from './app.js';

// A list of 1 000 tasks is windowed (only the rows near the window are in the DOM) and keeps
// every behaviour: order, scrolling to the end, a tick far down with its sound and confetti and no refetch of
// the list, keyboard reach, and the 375 px layout (docs/PRODUCT.md §10.5).

const browser = useBrowser();

const COUNT = 1000;
const SEED_CONCURRENCY = 8;
const LIST_PATH = '/api/todo/fetch-todo';

/** Adds "Task 1" … "Task <count>" through the API with the page's session, a few requests at a time. */
async function seedTasks(page: Page, count: number): Promise<Map<string, string>> {
  const headers = await xsrfHeaders(page);
  const ids = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const title = `Task ${next}`;
      const response = await page.request.post('/api/todo/add-todo', { data: { title }, headers });
      if (response.status() !== 201) throw new Error(`add-todo answered ${response.status()}`);
      ids.set(title, ((await response.json()) as { todo: { _id: string } }).todo._id);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return ids;
}

/** The titles of the rows in the DOM, top to bottom, with their place in the list (aria-posinset). */
const renderedRows = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLLIElement>('li[data-todo-id]'))
      .map((li) => ({ title: li.querySelector('.tasks-item__title')?.textContent ?? '', position: Number(li.getAttribute('aria-posinset')), size: Number(li.getAttribute('aria-setsize')) }))
      .sort((a, b) => a.position - b.position),
  );

/** Counts the page's requests for the whole list from now on. */
function countListFetches(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === LIST_PATH) count += 1;
  });
  return () => count;
}

async function scrollToEnd(page: Page): Promise<void> {
  // Twice: rows measured on the way may make the list a little taller or shorter than estimated.
  for (let i = 0; i < 2; i += 1) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(300);
  }
}

/** Ticks the task, far down the list, and checks the whole tick behaviour: sound, confetti, no refetch. */
async function tickFarDown(page: Page, title: string, fetches: () => number): Promise<void> {
  const before = fetches();
  const checkbox = page.getByRole('checkbox', { name: `Mark “${title}” as completed` });
  await checkbox.check();
  await page.locator('canvas').waitFor(); // confetti, once the server confirmed
  await toastWith(page, 'Task completed').waitFor();
  expect((await played(page)).at(-1)).toBe('/sounds/success.mp3');
  await page.waitForTimeout(1500);
  expect(fetches()).toBe(before); // the answer updated the cache: the list was not fetched again
  expect(await page.getByRole('checkbox', { name: `Mark “${title}” as not completed` }).isChecked()).toBe(true);
}

describeInBrowser('a list of 1 000 tasks', () => {
  it('is in order, windowed, scrolls to its end, ticks far down without a refetch, reaches rows by keyboard, at 1280 and 375 px', async () => {
    const { page, context, errors } = await openSession(browser(), { width: 1280, height: 800 });
    await context.addInitScript(RECORD_PLAYS);
    await signUp(page, 'Long List');
    const errorsBefore = errors.length; // the signed-out check before sign-up is a 401, as it should be
    const ids = await seedTasks(page, COUNT);
    const pinned = ids.get('Task 10');
    const pin = await page.request.put(`/api/todo/update-todo/${pinned}`, { data: { updateData: { isPinned: true } }, headers: await xsrfHeaders(page) });
    expect(pin.status()).toBe(200);
    // Seeded a few at a time, neighbours may share a creation time: the server's order is the reference.
    const order = await serverTitles(page);
    expect(order[0]).toBe('Task 10');
    const [last, nextToLast, third] = [order.at(-1)!, order.at(-2)!, order.at(-3)!];

    const fetches = countListFetches(page);
    await page.reload();
    // The app's own row (a role), not the kept screen's picture of it (PRODUCT §10.4).
    await page.getByRole('checkbox', { name: 'Mark “Task 10” as completed' }).waitFor();

    // Order: the pinned task first, then the newest first; a screen reader hears the full size of the list.
    const top = await renderedRows(page);
    expect(top.slice(0, 4).map((r) => r.title)).toEqual(order.slice(0, 4));
    expect(top.slice(0, 4).map((r) => r.position)).toEqual([1, 2, 3, 4]);
    expect(top.every((r) => r.size === COUNT)).toBe(true);
    expect(top.length).toBeLessThan(60); // windowed: a screen's worth of rows, not 1 000
    await snapshot(page, 'long-list-1000-top', { fullPage: false });

    // The end of the list: the oldest task, at position 1 000.
    await scrollToEnd(page);
    const end = await renderedRows(page);
    expect(end.at(-1)).toEqual({ title: last, position: COUNT, size: COUNT });
    expect(end.map((r) => r.title)).toEqual(order.slice(COUNT - end.length));
    expect(end.length).toBeLessThan(60);
    expect(await page.getByText(last, { exact: true }).isVisible()).toBe(true);
    await snapshot(page, 'long-list-1000-end', { fullPage: false });

    const afterLoad = fetches();
    await tickFarDown(page, nextToLast, fetches);
    expect(fetches()).toBe(afterLoad);

    // Keyboard: Home and End on a row's checkbox reach the first and the last task wherever they are.
    await page.getByRole('checkbox', { name: `Mark “${last}” as completed` }).focus();
    await page.keyboard.press('Home');
    await waitForFocusOn(page, 'Task 10');
    await page.keyboard.press('ArrowDown');
    await waitForFocusOn(page, order[1]!);
    await page.keyboard.press('End');
    await waitForFocusOn(page, last);
    expect(await page.getByText(last, { exact: true }).isVisible()).toBe(true);

    // The phone layout: same order, the end reachable, a tick far down behaves the same; nothing overflows.
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    const phoneFetches = countListFetches(phone);
    await phone.goto('/');
    await phone.getByRole('checkbox', { name: 'Mark “Task 10” as completed' }).waitFor();
    expect((await renderedRows(phone)).slice(0, 3).map((r) => r.title)).toEqual(order.slice(0, 3));
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await scrollToEnd(phone);
    expect((await renderedRows(phone)).at(-1)).toEqual({ title: last, position: COUNT, size: COUNT });
    await snapshot(phone, 'long-list-1000-end-small', { fullPage: false });
    await tickFarDown(phone, third, phoneFetches);

    expect(errors.slice(errorsBefore)).toEqual([]);
    await context.close();
  }, 240_000);
});

async function waitForFocusOn(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (name) => document.activeElement?.closest('li')?.querySelector('.tasks-item__title')?.textContent === name,
    title,
    { timeout: 5000 },
  );
}
