import { useBrowser, openSession } from './browser.js';
import { day, describeInBrowser, seriousAxeViolations, serverTodos, signUp, snapshot, xsrfHeaders } from './app.js';
import { openDevice, signUpOn, until } from './phone.js';
import type { Page } from 'playwright-core';

// Today and Upcoming (docs/PRODUCT.md §10.15), its own remote (mfe-agenda) at /today: by touch on a phone, by
// the keyboard on a desktop; what it does is checked on the server. A completion offers Undo as the task list
// does (§10.11.4): the same toast, its 5 s and the U key.

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

/** Waits until the toast's entrance (and any other finite animation) is over: a screenshot shows it as it stays. */
const settled = (page: Page) => page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity));

/** The toast that names this task (the Undo toast: its message, then the title in quotes). */
const undoToast = (page: Page, title: string) => page.getByRole('status').filter({ hasText: `“${title}”` });

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

  it('on a phone, by touch: a completed task offers Undo, and Undo brings it back to its place', async () => {
    const { page, context, errors } = await openDevice(browser(), { width: 375, height: 800, theme: 'dark' });
    await signUpOn(page, 'Undo Planner');
    await addDated(page, [
      ['Water the plants', day(0)],
      ['Call the dentist', `${day(0)}T09:00`],
      ['Stretch for ten minutes', day(1)],
    ]);
    await page.goto('/today');
    await page.getByRole('link', { name: 'Water the plants' }).waitFor();
    const before = await serverTodos(page);

    await page.getByRole('checkbox', { name: 'Mark “Call the dentist” as completed' }).tap();
    await page.getByRole('link', { name: 'Call the dentist' }).waitFor({ state: 'detached' });
    const offer = undoToast(page, 'Call the dentist');
    await offer.waitFor();
    // The task list's words: the server's message and the title; on a touch screen no key is shown.
    expect((await offer.textContent())?.trim()).toBe('Task completed“Call the dentist”Undo');
    const undo = offer.getByRole('button', { name: 'Undo completing “Call the dentist”' });
    expect(await undo.getAttribute('aria-keyshortcuts')).toBeNull();
    expect((await undo.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await until(() => serverTodos(page), (todos) => todos.some((todo) => todo.title === 'Call the dentist' && todo.completed));
    await settled(page);
    await snapshot(page, 'today-undo-375-dark', { fullPage: false });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await undo.tap();
    await until(() => titlesIn(page, /^Today \d/), (titles) => titles.join() === 'Call the dentist,Water the plants');
    await page.getByRole('status').filter({ hasText: '1 task restored' }).first().waitFor();
    // Exactly as it was, on the server too.
    expect(await until(() => serverTodos(page), (todos) => JSON.stringify(todos) === JSON.stringify(before))).toEqual(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at a desktop, by the keyboard: Space completes, U undoes it, the focus back on the task; a repeating task gets its date back', async () => {
    const { page, context, errors } = await openSession(browser(), { width: 1280, height: 800 });
    await signUp(page, 'Key Undo Planner');
    const headers = await xsrfHeaders(page);
    const added = await page.request.post('/api/todo/add-todo', { data: { title: 'Stretch', due: day(0), repeat: 'FREQ=DAILY' }, headers });
    expect(added.status()).toBe(201);
    await addDated(page, [['Pay rent', day(0)]]);
    await page.goto('/today');
    await page.getByRole('link', { name: 'Pay rent' }).waitFor();
    const before = await serverTodos(page);

    const payRent = page.getByRole('checkbox', { name: 'Mark “Pay rent” as completed' });
    await payRent.focus();
    await page.keyboard.press('Space');
    await page.getByRole('link', { name: 'Pay rent' }).waitFor({ state: 'detached' });
    const offer = undoToast(page, 'Pay rent');
    await offer.waitFor();
    expect((await offer.textContent())?.trim()).toBe('Task completed“Pay rent”Press U to undo.Undo');
    expect(await offer.getByRole('button', { name: 'Undo completing “Pay rent”' }).getAttribute('aria-keyshortcuts')).toBe('u');
    await settled(page);
    await snapshot(page, 'today-undo-1280', { fullPage: false });
    await until(() => serverTodos(page), (todos) => todos.some((todo) => todo.title === 'Pay rent' && todo.completed));

    await page.keyboard.press('u');
    await page.getByRole('link', { name: 'Pay rent' }).waitFor();
    await until(() => payRent.evaluate((box) => box === document.activeElement), Boolean);
    await until(() => serverTodos(page), (todos) => JSON.stringify(todos) === JSON.stringify(before));

    // A repeating task moves to its next day; its Undo says so and puts the date and the completion back.
    await page.getByRole('checkbox', { name: 'Mark “Stretch” as completed' }).click();
    const repeats = undoToast(page, 'Stretch');
    await repeats.waitFor();
    expect(await repeats.textContent()).toMatch(/^Task completed; it repeats“Stretch”/);
    await until(() => titlesIn(page, /^Tomorrow \d/), (titles) => titles.includes('Stretch'));
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('u');
    await until(() => titlesIn(page, /^Today \d/), (titles) => titles.includes('Stretch'));
    expect(await until(() => serverTodos(page), (todos) => JSON.stringify(todos) === JSON.stringify(before))).toEqual(before);
    // Nothing left on offer: U changes nothing more.
    await page.keyboard.press('u');
    await page.waitForTimeout(300);
    expect(await serverTodos(page)).toEqual(before);
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  });
});
