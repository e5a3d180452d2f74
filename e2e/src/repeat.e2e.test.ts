import type { Locator, Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';
import { day, describeInBrowser, newTaskInput, row, serverTodos, signUp, snapshot, xsrfHeaders } from './app.js';

// Repeating tasks (docs/PRODUCT.md §10.16): said in quick add, ticked from the list (the task stays open and
// moves to its next date), and set in the date dialog with a preview of the next dates, by touch on a phone.

const browser = useBrowser();

interface RepeatingTodo {
  title: string;
  completed: boolean;
  due?: string;
  repeat?: string;
  repeatFrom?: string;
  reminders?: number[];
  repeatDone?: string[];
}

const serverTask = async (page: Page, title: string) => ((await serverTodos(page)) as RepeatingTodo[]).find((todo) => todo.title === title);
const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
};

/** Days from today to the next Monday, today included (0 on a Monday): the first date of "every monday". */
const toMonday = () => (8 - new Date().getDay()) % 7;

describeInBrowser('repeating tasks', () => {
  it('"Water plants every monday" repeats weekly; ticking it records the completion and moves it a week on, and the task stays open', async () => {
    const { page, context, errors } = await openSession(browser(), { width: 1280, height: 800 });
    await signUp(page, 'Plant Keeper');
    const input = newTaskInput(page);
    await input.fill('Water plants every monday');
    const preview = page.locator('.tasks-form__preview');
    await until(() => preview.textContent(), (text) => /Repeats every monday/.test(text ?? '') && /“Water plants”/.test(text ?? ''));
    await input.press('Enter');
    const first = day(toMonday());
    await until(() => serverTask(page, 'Water plants'), (todo) => todo?.due === first && todo.repeat === 'FREQ=WEEKLY;BYDAY=MO');
    const plants = row(page, 'Water plants');
    expect(await plants.locator('.tasks-item__plan').textContent()).toBe('Repeats');

    await plants.getByRole('checkbox').click();
    // Done for this week: the toast says so, and the row stays open, a week on (on the server too).
    const repeated = page.getByRole('status').filter({ hasText: 'Task completed; it repeats' }).first();
    // A failure says which toasts were showing instead.
    await repeated.waitFor().catch(async (error: unknown) => {
      throw new Error(`${String(error)}\nToasts showing: ${JSON.stringify(await page.getByRole('status').allTextContents())}`);
    });
    // Its Undo undoes a completion, though the task the server answered is open again.
    await repeated.getByRole('button', { name: 'Undo completing “Water plants”' }).waitFor();
    const next = day(toMonday() + 7);
    await until(() => serverTask(page, 'Water plants'), (todo) => todo?.due === next && !todo.completed && todo.repeatDone?.length === 1);
    await until(() => plants.getByRole('checkbox').isChecked(), (checked) => !checked);
    await until(() => plants.locator('.tasks-item__due').getAttribute('datetime'), (due) => due === next);
    await snapshot(page, 'repeat-ticked-1280', { fullPage: false });

    // Insights counts the completed occurrence on today's bar.
    await page.goto('/insights');
    await page.getByText('Completed this week').first().waitFor();
    expect(await page.locator('body').innerText()).toMatch(/1\s*Completed this week|Completed this week\s*1/);
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  });

  it('at 375 px by touch in the dark theme: Repeat monthly on the last day, from completion, with a reminder; the preview shows the next five dates first', async () => {
    const { page, context, errors } = await openDevice(browser(), { width: 375, height: 800 });
    await signUpOn(page, 'Month Ender');
    const headers = await xsrfHeaders(page);
    const added = await page.request.post('/api/todo/add-todo', { data: { title: 'Pay the card', due: `${day(1)}T18:00` }, headers });
    expect(added.status()).toBe(201);
    await page.goto('/');
    await row(page, 'Pay the card').waitFor();
    await page.getByTitle('Switch to dark mode').tap();
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'More actions for “Pay the card”' }).tap();
    await page.getByRole('menuitem', { name: 'Due date…' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Due date of “Pay the card”' });
    await dialog.waitFor();

    const repeat = dialog.getByRole('combobox', { name: 'Repeat' });
    await repeat.selectOption('monthly-last');
    await dialog.getByRole('radio', { name: 'From when I complete it' }).tap();
    await dialog.getByRole('checkbox', { name: '1 hour before' }).tap();
    // Five coming dates, each a month's last day, before anything is saved.
    const preview = dialog.locator('.tasks-due__preview');
    await until(() => preview.textContent(), (text) => (text ?? '').startsWith('Done today, next: ') && (text ?? '').split(' · ').length === 5);
    expect(await repeat.getAttribute('aria-describedby')).toBe(await preview.getAttribute('id'));

    // It fits the phone; its controls are 44 px touch targets; nothing spills out sideways (at 360 px too).
    const frame = await box(dialog);
    expect(frame.x + frame.width).toBeLessThanOrEqual(375);
    expect(frame.y + frame.height).toBeLessThanOrEqual(800);
    for (const control of [repeat, dialog.getByRole('radio', { name: 'On schedule' }).locator('xpath=..'), dialog.getByRole('checkbox', { name: '1 hour before' }).locator('xpath=..')]) {
      expect((await box(control)).height).toBeGreaterThanOrEqual(44);
    }
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 375, height: 800 });
    await snapshot(page, 'repeat-dialog-375-dark', { fullPage: false });

    await dialog.getByRole('button', { name: 'Save' }).tap();
    await dialog.waitFor({ state: 'detached' });
    await until(
      () => serverTask(page, 'Pay the card'),
      (todo) => todo?.repeat === 'FREQ=MONTHLY;BYMONTHDAY=-1' && todo.repeatFrom === 'completion' && todo.reminders?.join() === '60',
    );
    await until(() => row(page, 'Pay the card').locator('.tasks-item__plan').textContent(), (text) => text === 'Repeats · 1 reminder');

    // A rule that never comes, sent by hand, is refused with the field named and changes nothing.
    const id = ((await serverTodos(page)) as (RepeatingTodo & { _id: string })[])[0]!._id;
    const refused = await page.request.put(`/api/todo/update-todo/${id}`, { data: { updateData: { repeat: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' } }, headers });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { issues: { path: string[] }[] }).issues[0]?.path).toEqual(['repeat']);
    expect((await serverTask(page, 'Pay the card'))?.repeat).toBe('FREQ=MONTHLY;BYMONTHDAY=-1');
    expect(errors).toEqual([]);
    await context.close();
  });
});
