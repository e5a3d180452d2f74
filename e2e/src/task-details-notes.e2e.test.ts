import type { Locator, Page } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, until, type Theme } from './phone.js';
import { describeInBrowser, newTaskInput, recordTaskWrites, row, seriousAxeViolations, serverTodos, snapshot, toastWith, xsrfHeaders, type ServerTodo } from './app.js';

// A task's details: its note and subtasks (docs/PRODUCT.md §10.21) in the built app, on a phone (375 px, touch
// only: a sheet as tall as the screen, opened by a tap on the title) and a desktop (1280 px, mouse and
// keyboard: a dialog, opened by Enter on the row), in both themes: the row's progress and note mark, the note
// shown as text with its links, the checklist's actions one update each; and a subtask ticked offline.

const browser = useBrowser();

type Subtask = { id: string; title: string; done: boolean };
/** A task as the server answers it, with its note and subtasks. */
type DetailedTodo = ServerTodo & { note?: string; subtasks?: Subtask[] };
const detailed = async (page: Page) => (await serverTodos(page)) as DetailedTodo[];
const taskNamed = (todos: DetailedTodo[], title: string) => todos.find((todo) => todo.title === title);

/** Adds a task through the API with the page's session (fast set-up), with the note and subtasks it starts with. */
async function addViaApi(page: Page, task: { title: string; note?: string; subtasks?: Subtask[] }): Promise<void> {
  const response = await page.request.post('/api/todo/add-todo', { data: task, headers: await xsrfHeaders(page) });
  if (response.status() !== 201) throw new Error(`add-todo answered ${response.status()}: ${await response.text()}`);
}

/** Presses a control as the device does: a tap on a phone, a click with a mouse. */
const press = (touch: boolean, locator: Locator) => (touch ? locator.tap() : locator.click());
/** No part of the page is wider than the window (nothing to scroll sideways). */
const fitsTheWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const heightOf = async (locator: Locator) => (await locator.boundingBox())?.height ?? 0;

describeInBrowser('a task’s details: note and subtasks (docs/PRODUCT.md §10.21)', () => {
  const devices = [
    { name: 'phone', width: 375, height: 812, touch: true },
    { name: 'desktop', width: 1280, height: 800, touch: false },
  ] as const;
  const cases = devices.flatMap((device) => (['light', 'dark'] as Theme[]).map((theme) => ({ ...device, theme })));

  it.each(cases)('$name ($width px, $theme): the row’s marks, the details opened and closed, the note’s links, the checklist’s actions', async ({ name, width, height, touch, theme }) => {
    const { context, page, errors } = await openDevice(browser(), { width, height, touch, theme });
    const shot = (what: string) => snapshot(page, `details-${name}-${what}-${theme}`, { fullPage: false });
    await signUpOn(page, `Nora Notes ${name}`, touch);
    await addViaApi(page, {
      title: 'Plan the trip',
      note: 'Book by Friday <b>not bold</b>.\nTrains: https://trains.example/plan?from=A&to=B (cheapest)\n\nPack light.',
      subtasks: [
        { id: 'a', title: 'Passport', done: true },
        { id: 'b', title: 'Tickets', done: false },
      ],
    });
    await addViaApi(page, { title: 'Water the plants' });
    await page.reload();
    const trip = row(page, 'Plan the trip');
    await trip.waitFor();

    // The row: "1/2", read "1 of 2 subtasks done" with its checkbox, and the note's mark.
    expect(await trip.locator('.tasks-progress > span[aria-hidden="true"]').innerText()).toBe('1/2');
    expect(await trip.getByRole('checkbox').evaluate((box) => box.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent))).toEqual(['1/21 of 2 subtasks done']);
    await trip.locator('.tasks-note-mark').waitFor();
    const rowHeight = await heightOf(trip);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('rows');

    // Opening: a tap on the title on a phone, Enter on the row's checkbox at the keyboard.
    if (touch) await trip.locator('.tasks-item__title').tap();
    else {
      await trip.getByRole('checkbox').focus();
      await page.keyboard.press('Enter');
    }
    const details = page.getByRole('dialog', { name: 'Details of “Plan the trip”' });
    await details.getByRole('heading', { name: /^Subtasks/ }).waitFor();
    expect(await trip.getByRole('checkbox').isChecked()).toBe(false);
    const box = await details.boundingBox();
    // A phone: a sheet as tall and wide as the screen; a desktop: a dialog in the middle.
    if (touch) expect(box).toEqual({ x: 0, y: 0, width, height });
    else expect(box!.width).toBeLessThan(width / 2);

    // The note: as written, its address a link opening apart from this page; no markup rendered.
    const note = details.locator('.details__note');
    expect(await note.innerText()).toContain('Book by Friday <b>not bold</b>.');
    expect(await note.locator('b').count()).toBe(0);
    const link = note.getByRole('link', { name: 'https://trains.example/plan?from=A&to=B' });
    expect([await link.getAttribute('href'), await link.getAttribute('target'), await link.getAttribute('rel')]).toEqual(['https://trains.example/plan?from=A&to=B', '_blank', 'noopener noreferrer']);
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('details');

    // The checklist: each action one update, shown at once; Enter adds and keeps the focus for the next.
    const writes = recordTaskWrites(page);
    await press(touch, details.getByRole('checkbox', { name: 'Tickets' }));
    await details.getByRole('heading', { name: 'Subtasks (2 of 2 subtasks done)' }).waitFor();
    const field = details.getByRole('textbox', { name: 'New subtask' });
    await press(touch, field);
    await field.fill('Charge the camera');
    await field.press('Enter');
    await details.getByRole('checkbox', { name: 'Charge the camera' }).waitFor();
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    await press(touch, details.getByRole('button', { name: 'Delete subtask “Passport”' }));
    await details.getByRole('checkbox', { name: 'Passport' }).waitFor({ state: 'detached' });
    await until(
      () => detailed(page),
      (todos) => JSON.stringify(taskNamed(todos, 'Plan the trip')?.subtasks?.map(({ title, done }) => [title, done])) === JSON.stringify([['Tickets', true], ['Charge the camera', false]]),
    );
    expect(writes.count('PUT', /^\/todo\/update-todo\//)).toBe(3);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('checklist');

    // Closing gives the focus back to the row, whose progress says the new count; its height is unchanged.
    await press(touch, details.getByRole('button', { name: 'Close' }));
    await details.waitFor({ state: 'detached' });
    await until(() => trip.getByRole('checkbox').evaluate((box) => box === document.activeElement), (focused) => focused);
    expect(await trip.locator('.tasks-progress > span[aria-hidden="true"]').innerText()).toBe('1/2');
    expect(await heightOf(trip)).toBe(rowHeight);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offline: a subtask ticked shows at once and reaches the server when the network is back, beside a change from elsewhere', async () => {
    const { context, page } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Olga Offline', false);
    await addViaApi(page, { title: 'Pay the bills', note: 'Before the 5th', subtasks: [{ id: 'rent', title: 'Rent', done: false }, { id: 'power', title: 'Power', done: false }] });
    await page.reload();
    const bills = row(page, 'Pay the bills');
    await bills.waitFor();
    // A person who has pressed anything on the page has the details' code (fetched at the first press).
    await newTaskInput(page).click();
    await page.waitForLoadState('networkidle');
    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline." }).waitFor({ timeout: 5000 });

    await bills.getByRole('button', { name: 'Details of “Pay the bills”' }).click();
    const details = page.getByRole('dialog', { name: 'Details of “Pay the bills”' });
    await details.getByRole('checkbox', { name: 'Power' }).click();
    await details.getByRole('heading', { name: 'Subtasks (1 of 2 subtasks done)' }).waitFor();
    await details.getByRole('button', { name: 'Close' }).click();
    await bills.locator('.tasks-progress', { hasText: '1/2' }).waitFor();
    // The test's own calls are not the page's: they still reach the server, which has nothing new yet; another
    // device changes the note meanwhile.
    const [task] = await detailed(page);
    expect(task?.subtasks?.every((item) => !item.done)).toBe(true);
    const elsewhere = await page.request.put(`/api/todo/update-todo/${task!._id}`, { data: { updateData: { note: 'Before the 5th, by card' } }, headers: await xsrfHeaders(page) });
    expect(elsewhere.status()).toBe(200);

    await context.setOffline(false);
    await until(
      () => detailed(page),
      (todos) => taskNamed(todos, 'Pay the bills')?.note === 'Before the 5th, by card' && taskNamed(todos, 'Pay the bills')?.subtasks?.find((item) => item.id === 'power')?.done === true,
    );
    await toastWith(page, 'Subtasks saved').first().waitFor();
    await context.close();
  });
});
