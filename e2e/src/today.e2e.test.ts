import { useBrowser, openSession } from './browser.js';
import { day, describeInBrowser, seriousAxeViolations, serverTodos, signUp, snapshot, xsrfHeaders } from './app.js';
import { openDevice, signUpOn, until } from './phone.js';
import type { Page } from 'playwright-core';

// Today and Upcoming (docs/PRODUCT.md §10.15), its own remote (mfe-agenda) at /today: by touch on a phone, by
// the keyboard on a desktop; what it does is checked on the server.

const browser = useBrowser();

async function addDated(page: Page, tasks: [string, string | undefined][]): Promise<void> {
  const headers = await xsrfHeaders(page);
  for (const [title, due] of tasks) {
    const answer = await page.request.post('/api/todo/add-todo', { data: due ? { title, due } : { title }, headers });
    expect(answer.status()).toBe(201);
  }
}

/** The titles under a section of the screen, named by its heading ("Today 2 tasks"). */
const titlesIn = (page: Page, heading: RegExp) => page.getByRole('region', { name: heading }).getByRole('listitem').getByRole('link').allTextContents();

describeInBrowser('Today and Upcoming', () => {
  it('on a phone, by touch: reached from the header, completes, reschedules, and opens a task in the list', async () => {
    const { page, context, errors } = await openDevice(browser(), { width: 375, height: 800, theme: 'dark' });
    await signUpOn(page, 'Day Planner');
    await addDated(page, [
      ['No date at all', undefined],
      ['Renew passport', day(-3)],
      ['Water the plants', day(0)],
      ['Call the dentist', `${day(0)}T09:00`],
      ['Pay rent', day(1)],
    ]);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).tap();
    await page.waitForURL('**/today');
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await page.getByRole('link', { name: 'Water the plants' }).waitFor();
    expect(await titlesIn(page, /^Overdue \d/)).toEqual(['Renew passport']);
    expect(await titlesIn(page, /^Today \d/)).toEqual(['Call the dentist', 'Water the plants']);
    expect(await titlesIn(page, /^Tomorrow \d/)).toEqual(['Pay rent']);
    expect(await page.getByText('No date at all').count()).toBe(0);
    await snapshot(page, 'today-375-dark', { fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Every control is a 44 px target for a thumb (PRODUCT §10.9).
    const smallest = await page.evaluate(() =>
      Math.min(...Array.from(document.querySelectorAll('.agenda-task__check-area, .agenda-task__reschedule')).map((element) => element.getBoundingClientRect().height)),
    );
    expect(smallest).toBeGreaterThanOrEqual(44);

    // Completed: it leaves the screen, and the server has it.
    await page.getByRole('checkbox', { name: 'Mark “Renew passport” as completed' }).tap();
    await page.getByRole('link', { name: 'Renew passport' }).waitFor({ state: 'detached' });
    // Rescheduled to tomorrow, its time kept.
    await page.getByRole('button', { name: 'Reschedule “Call the dentist”' }).tap();
    await page.getByRole('group', { name: 'New date for “Call the dentist”' }).getByRole('button', { name: 'Tomorrow' }).tap();
    await until(() => titlesIn(page, /^Tomorrow \d/), (titles) => titles.includes('Call the dentist'));
    const saved = await until(
      () => serverTodos(page),
      (todos) => todos.some((todo) => todo.title === 'Renew passport' && todo.completed) && todos.some((todo) => todo.due === `${day(1)}T09:00`),
    );
    expect(saved.find((todo) => todo.title === 'Call the dentist')?.due).toBe(`${day(1)}T09:00`);

    // Opened: the task list, with the focus on that task's row.
    await page.getByRole('link', { name: 'Pay rent' }).tap();
    await page.waitForURL((url) => url.pathname === '/');
    const checkbox = page.getByRole('checkbox', { name: 'Mark “Pay rent” as completed' });
    await until(() => checkbox.evaluate((box) => box === document.activeElement), Boolean);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at a desktop, by the keyboard: the reschedule control, a quick choice, and the focus staying with the task', async () => {
    const { page, context } = await openSession(browser(), { width: 1280, height: 800 });
    await signUp(page, 'Keyboard Planner');
    await addDated(page, [['Book flights', `${day(0)}T18:30`]]);
    await page.goto('/today');
    const reschedule = page.getByRole('button', { name: 'Reschedule “Book flights”' });
    await reschedule.focus();
    await page.keyboard.press('Enter');
    expect(await reschedule.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Tomorrow');
    await page.keyboard.press('Enter');
    await until(() => titlesIn(page, /^Tomorrow \d/), (titles) => titles.includes('Book flights'));
    await until(() => page.evaluate(() => document.activeElement?.textContent ?? ''), (text) => text === 'Book flights');
    expect(await page.getByText('Nothing due today.').isVisible()).toBe(true);
    await snapshot(page, 'today-1280', { fullPage: false });
    const saved = await until(() => serverTodos(page), (todos) => todos[0]?.due === `${day(1)}T18:30`);
    expect(saved).toHaveLength(1);
    await context.close();
  });
});
