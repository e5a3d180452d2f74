import type { Locator, Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';
import { addTasksViaApi, day, describeInBrowser, newTaskInput, row, serverTodos, signUp, snapshot } from './app.js';

// A task's due-date picker (docs/PRODUCT.md §10.14, §10.9): reached and used with the keyboard alone on a wide
// screen, and with taps from the row's menu on a phone, where it fits the screen with 44 px controls.

const browser = useBrowser();

const serverDue = async (page: Page, title: string) => (await serverTodos(page)).find((todo) => todo.title === title)?.due;
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? null);
const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
};

/** The rows' first screen has come in (PRODUCT §10.5.2): every row there is opaque. */
const rowsIn = (page: Page) =>
  page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLElement>('li[data-todo-id]')).every((li) => getComputedStyle(li).opacity === '1'), undefined, {
    timeout: 10_000,
    polling: 100,
  });

describeInBrowser('the due-date picker', () => {
  it('sets a date with the keyboard alone at 1280 px: Tab to the row’s Due date button, Enter, type the date, Enter', async () => {
    const { page, context, errors } = await openSession(browser(), { width: 1280, height: 800 });
    await signUp(page, 'Key Board');
    await addTasksViaApi(page, ['Renew the passport']);
    await page.goto('/');
    await row(page, 'Renew the passport').waitFor();
    await rowsIn(page);

    // From the new-task input, Tab along the page until the row's Due date button has the focus.
    await newTaskInput(page).focus();
    for (let step = 0; step < 30 && (await focusedName(page)) !== 'Due date of “Renew the passport”'; step += 1) await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Due date of “Renew the passport”');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Due date of “Renew the passport”' });
    await dialog.waitFor();
    const date = dialog.getByLabel('Date', { exact: true });
    await until(() => date.evaluate((field) => field === document.activeElement), (focused) => focused);

    // The date's digits in the order the field shows them in the browser's locale (month first in en-US).
    const digits = await page.evaluate(() =>
      new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit' })
        .formatToParts(new Date(2027, 2, 14))
        .filter((part) => part.type !== 'literal')
        .map((part) => part.value)
        .join(''),
    );
    await page.keyboard.type(digits);
    expect(await date.inputValue()).toBe('2027-03-14');
    await snapshot(page, 'date-picker-1280', { fullPage: false });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // The focus is back on the button that opened it; the row says it, and the server has it.
    expect(await focusedName(page)).toBe('Due date of “Renew the passport”');
    await until(() => row(page, 'Renew the passport').locator('.tasks-item__due').textContent(), (text) => /^Due \D*(Mar 14|14 Mar)\D*2027$/.test(text ?? ''));
    await until(() => serverDue(page, 'Renew the passport'), (due) => due === '2027-03-14');
    // The only console error: the signed-out check before the sign-up (a 401).
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  });

  it('at 375 px with touch: "Due date…" from the menu, Tomorrow, Save, then Remove due date; it fits, 44 px controls, both themes', async () => {
    const { page, context, errors } = await openDevice(browser(), { width: 375, height: 800 });
    await signUpOn(page, 'Thumb Tapper');
    await addTasksViaApi(page, ['Return the library books']);
    await page.goto('/');
    await row(page, 'Return the library books').waitFor();
    await rowsIn(page);
    const trigger = page.getByRole('button', { name: 'More actions for “Return the library books”' });
    const dialog = page.getByRole('dialog', { name: 'Due date of “Return the library books”' });
    const openPicker = async () => {
      await trigger.tap();
      await page.getByRole('menuitem', { name: 'Due date…' }).tap();
      await dialog.waitFor();
    };

    await openPicker();
    // It fits the screen, and each of its controls is a touch target at least 44 px tall (PRODUCT §10.9).
    const frame = await box(dialog);
    expect(frame.x).toBeGreaterThanOrEqual(0);
    expect(frame.x + frame.width).toBeLessThanOrEqual(375);
    expect(frame.y + frame.height).toBeLessThanOrEqual(800);
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const controls = [dialog.getByLabel('Date', { exact: true }), dialog.getByLabel('Time (optional)'), ...['Today', 'Tomorrow', 'Next week', 'Save', 'Cancel'].map((name) => dialog.getByRole('button', { name }))];
    for (const control of controls) {
      const { x, width, height } = await box(control);
      expect(height).toBeGreaterThanOrEqual(44);
      expect(x).toBeGreaterThanOrEqual(frame.x);
      expect(x + width).toBeLessThanOrEqual(frame.x + frame.width);
    }
    await snapshot(page, 'date-picker-375-light', { fullPage: false });
    // At 360 px too: inside the screen, and no control's words spill out of it.
    await page.setViewportSize({ width: 360, height: 800 });
    expect((await box(dialog)).x + (await box(dialog)).width).toBeLessThanOrEqual(360);
    for (const control of controls) expect(await control.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 375, height: 800 });

    await dialog.getByRole('button', { name: 'Tomorrow' }).tap();
    expect(await dialog.getByLabel('Date', { exact: true }).inputValue()).toBe(day(1));
    await dialog.getByRole('button', { name: 'Save' }).tap();
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe('More actions for “Return the library books”');
    await until(() => row(page, 'Return the library books').locator('.tasks-item__due').textContent(), (text) => text === 'Due Tomorrow');
    await until(() => serverDue(page, 'Return the library books'), (due) => due === day(1));

    // In the dark theme: it opens on that date, with "Remove due date", which removes it.
    await page.getByTitle('Switch to dark mode').tap();
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await openPicker();
    expect(await dialog.getByLabel('Date', { exact: true }).inputValue()).toBe(day(1));
    const remove = dialog.getByRole('button', { name: 'Remove due date' });
    expect((await box(remove)).height).toBeGreaterThanOrEqual(44);
    const frameDark = await box(dialog);
    expect(frameDark.x + frameDark.width).toBeLessThanOrEqual(375);
    expect(frameDark.y + frameDark.height).toBeLessThanOrEqual(800);
    await snapshot(page, 'date-picker-375-dark', { fullPage: false });
    await remove.tap();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Return the library books').locator('.tasks-item__due').waitFor({ state: 'detached' });
    await until(() => serverTodos(page), (todos) => todos.length === 1 && !('due' in todos[0]!));
    expect(errors).toEqual([]);
    await context.close();
  });
});
