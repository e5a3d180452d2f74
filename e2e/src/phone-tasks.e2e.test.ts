import type { Locator, Page } from 'playwright-core';
import { baseUrl, useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';
import { addTasksViaApi, describeInBrowser, newTaskInput, recordTaskWrites, row, seriousAxeViolations, serverTodos, snapshot, toastWith, xsrfHeaders } from './app.js';

// The task screen on a phone and at the keyboard (docs/PRODUCT.md §10.9, §10.11.1, §10.11.4, §10.21): a tap on
// a title opens its details and ticks nothing, every tick offers Undo, the title editor grows with the title and keeps
// what was typed when the task is deleted elsewhere, touch targets, the layout at 360 px and with the
// on-screen keyboard open, and the preferences for sounds and celebrations. Touch pages are touch only:
// every press is a tap.

const browser = useBrowser();

/** Tasks added through the API (oldest first), then the page loaded afresh at `path` with every row in. */
async function withTasks(page: Page, titles: string[], path = '/'): Promise<void> {
  await addTasksViaApi(page, titles);
  await page.goto(path);
  await row(page, titles.at(-1)!).waitFor();
  // The first screen's entrance is over (PRODUCT §10.5.2): every row there is opaque.
  await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLElement>('li[data-todo-id]')).every((li) => getComputedStyle(li).opacity === '1'), undefined, {
    timeout: 10_000,
    polling: 100,
  });
}

const titlesShown = (page: Page) => page.locator('li[data-todo-id] .tasks-item__title').allInnerTexts();
const editField = (page: Page) => page.getByRole('textbox', { name: /^Edit “/ });
const activeElementText = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('placeholder'));
/** A row's title editor on a phone: Edit in its More actions (a tap on the title opens its details, §10.21). */
async function editOnPhone(page: Page, title: string): Promise<void> {
  // The start of the button's name: a long title is named in full.
  await row(page, title).getByRole('button', { name: `More actions for “${title}` }).tap();
  await page.getByRole('menuitem', { name: 'Edit' }).tap();
}
const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
};

describeInBrowser('the task screen on a phone and at the keyboard', () => {
  it('a tap on a title opens its details and ticks nothing; a tap on the box ticks, "Task completed" offers Undo, and Undo brings the row back exactly', async () => {
    const { context, page, requests, errors } = await openDevice(browser());
    await signUpOn(page, 'Tap Test');
    await withTasks(page, ['bottom', 'middle', 'top'], '/?filter=active');
    const before = await serverTodos(page);

    // The title: its details (PRODUCT §10.21); no tick waits behind the tap.
    await row(page, 'middle').locator('.tasks-item__title').tap();
    const details = page.getByRole('dialog', { name: 'Details of “middle”' });
    await details.getByRole('textbox', { name: 'Title' }).waitFor();
    await page.waitForTimeout(600);
    expect(requests.filter((path) => path.startsWith('/api/todo/update-todo/') || path === '/api/todo/sync')).toEqual([]);
    expect(await row(page, 'middle').getByRole('checkbox').isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // The box: ticked, and in "Active" the row leaves; the toast says so, names it, and offers Undo.
    await row(page, 'middle').getByRole('checkbox').tap();
    await until(() => titlesShown(page), (titles) => titles.join() === 'top,bottom');
    const offer = toastWith(page, 'Task completed');
    await offer.waitFor();
    expect(await offer.innerText()).toMatch(/^Task completed\s*“middle”\s*Undo$/); // no "U" keycap on a touch screen
    expect(await offer.locator('kbd').count()).toBe(0);
    await until(() => serverTodos(page), (todos) => todos.find((todo) => todo.title === 'middle')?.completed === true);
    await snapshot(page, 'phone-tick-undo-offer', { fullPage: false });

    await offer.getByRole('button', { name: 'Undo completing “middle”' }).tap();
    await until(() => titlesShown(page), (titles) => titles.join() === 'top,middle,bottom');
    // Exactly as before the tick: completed, completedAt and updatedAt.
    await until(() => serverTodos(page), (todos) => JSON.stringify(todos) === JSON.stringify(before));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with a mouse: a double click opens the editor once and it stays open; Space ticks, U undoes, the focus returns to the task', async () => {
    const { context, page } = await openDevice(browser(), { width: 1024, height: 768, touch: false });
    const writes = recordTaskWrites(page);
    await signUpOn(page, 'Keyboard Test', false);
    await withTasks(page, ['C', 'B', 'A'], '/?filter=active');

    await row(page, 'B').locator('.tasks-item__title').dblclick();
    await page.waitForTimeout(500);
    expect(await editField(page).isVisible()).toBe(true);
    expect(await activeElementText(page)).toBe('Edit “B”');
    await page.keyboard.press('Escape');
    expect(await activeElementText(page)).toBe('Mark “B” as completed');

    // Space on the checkbox ticks; in "Active" the row leaves and the focus goes to the next row.
    await page.keyboard.press(' ');
    await until(() => titlesShown(page), (titles) => titles.join() === 'A,C');
    expect(await activeElementText(page)).toBe('Mark “C” as completed');
    const offer = toastWith(page, 'Task completed');
    await offer.waitFor();
    // A keyboard is likely here: the key is shown (generated content), and the button's name is its own.
    expect(await offer.locator('kbd').evaluate((key) => getComputedStyle(key, '::before').content)).toBe('"U"');
    expect(await offer.locator('kbd').isVisible()).toBe(true);
    await until(() => serverTodos(page), (todos) => todos.find((todo) => todo.title === 'B')?.completed === true);

    // U: back in its place, and the focus on it.
    await page.keyboard.press('u');
    await until(() => titlesShown(page), (titles) => titles.join() === 'A,B,C');
    await until(() => activeElementText(page), (name) => name === 'Mark “B” as completed');
    await until(() => serverTodos(page), (todos) => todos.every((todo) => !todo.completed));

    // Pinning says what it did.
    await row(page, 'A').getByRole('button', { name: 'Pin “A”' }).click();
    await toastWith(page, 'Task pinned').waitFor();
    expect(writes.count('POST', '/todo/restore-bulk')).toBe(1);
    await context.close();
  });

  it('the title editor grows with the title (4 lines show 4 lines); Enter and Shift+Enter save it as one line', async () => {
    const { context, page } = await openDevice(browser(), { width: 375, height: 740 });
    await signUpOn(page, 'Long Title');
    const long =
      'Call the insurance company about the broken window in the kitchen, ask for the claim number, ' +
      'send them the photos and the receipt from the glazier, and note the date of the visit';
    await withTasks(page, [long]);
    const titleHeight = (await box(row(page, 'Call the insurance').locator('.tasks-item__title'))).height;

    await editOnPhone(page, 'Call the insurance');
    const field = editField(page);
    await field.waitFor();
    const shape = await field.evaluate((element: HTMLTextAreaElement) => {
      const style = getComputedStyle(element);
      const inner = element.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
      return { tag: element.tagName, lines: Math.round(inner / parseFloat(style.lineHeight)), hidden: element.scrollHeight - element.clientHeight };
    });
    expect(shape.tag).toBe('TEXTAREA');
    expect(shape.lines).toBeGreaterThanOrEqual(4);
    expect(shape.hidden).toBeLessThanOrEqual(1); // nothing scrolled out of sight
    expect((await box(field)).height).toBeGreaterThanOrEqual(titleHeight);
    await snapshot(page, 'phone-editor-4-lines', { fullPage: false });

    // Typing more grows it further; Shift+Enter saves (a title is one line), no line break is kept.
    await field.press('End');
    await field.pressSequentially(', and the name of the person on the phone');
    expect(await field.evaluate((element: HTMLTextAreaElement) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(1);
    await field.press('Shift+Enter');
    await field.waitFor({ state: 'detached' });
    const saved = await until(() => serverTodos(page), (todos) => todos[0]!.title.endsWith('on the phone'));
    expect(saved[0]!.title).not.toMatch(/\n/);
    await context.close();
  });

  it('keeps the typed text when another device deletes the task being edited, says so, and restores it with the change', async () => {
    const { context, page } = await openDevice(browser(), { width: 375, height: 740 });
    await signUpOn(page, 'Two Devices');
    await withTasks(page, ['Older', 'Call the bank']);
    const [task] = await serverTodos(page);

    await editOnPhone(page, 'Call the bank');
    await editField(page).pressSequentially(' at 9');
    // Another device of the same person deletes it: the live stream takes it away while the editor is open.
    const deleted = await page.request.delete(`/api/todo/delete-todo/${task!._id}`, { headers: await xsrfHeaders(page) });
    expect(deleted.status()).toBe(200);
    await page.getByText('This task was deleted on another device.').waitFor();
    expect(await editField(page).inputValue()).toBe('Call the bank at 9');
    expect(await activeElementText(page)).toBe('Edit “Call the bank”');
    await snapshot(page, 'phone-deleted-elsewhere', { fullPage: false });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Restore with my change' }).tap();
    await toastWith(page, 'Title changed').waitFor();
    await until(() => titlesShown(page), (titles) => titles.join() === 'Call the bank at 9,Older');
    const [restored] = await until(() => serverTodos(page), (todos) => todos.some((todo) => todo.title === 'Call the bank at 9'));
    expect(restored).toMatchObject({ _id: task!._id, title: 'Call the bank at 9', createdAt: task!.createdAt });
    await context.close();
  });

  it('Add Task by a tap keeps the focus in the input (the keyboard stays open); touch targets are 44 px, 24 px at least with a mouse', async () => {
    const { context, page } = await openDevice(browser(), { width: 360, height: 740 });
    await signUpOn(page, 'Targets');
    await newTaskInput(page).tap();
    await newTaskInput(page).fill('Buy bread');
    await page.getByRole('button', { name: 'Add Task' }).tap();
    await row(page, 'Buy bread').waitFor();
    expect(await activeElementText(page)).toBe('What would you like to accomplish?');
    await newTaskInput(page).fill('Buy milk');
    await page.getByRole('button', { name: 'Add Task' }).tap();
    await row(page, 'Buy milk').waitFor();
    expect(await activeElementText(page)).toBe('What would you like to accomplish?');
    await row(page, 'Buy bread').getByRole('checkbox').tap();
    await toastWith(page, 'Task completed').waitFor();

    const targets = [
      row(page, 'Buy milk').locator('.tasks-item__check'),
      row(page, 'Buy milk').getByRole('button', { name: /^More actions/ }),
      page.getByRole('button', { name: 'Mark all complete' }),
      page.getByRole('button', { name: 'Clear completed' }),
      page.locator('.tasks-filters__link').first(),
      toastWith(page, 'Task completed').getByRole('button', { name: /^Undo/ }),
    ];
    for (const target of targets) {
      const { width, height } = await box(target);
      expect({ width: Math.round(width) >= 44, height: Math.round(height) >= 44 }).toEqual({ width: true, height: true });
    }
    // A tap anywhere on the box around the checkbox ticks it.
    const check = await box(row(page, 'Buy milk').locator('.tasks-item__check'));
    await page.touchscreen.tap(check.x + 3, check.y + 3);
    await until(() => row(page, 'Buy milk').getByRole('checkbox').isChecked(), (checked) => checked);
    await context.close();

    const desktop = await openDevice(browser(), { width: 1024, height: 768, touch: false });
    await signUpOn(desktop.page, 'Mouse Targets', false);
    await withTasks(desktop.page, ['Desk task']);
    for (const target of [row(desktop.page, 'Desk task').locator('.tasks-item__check'), row(desktop.page, 'Desk task').getByRole('button', { name: /^Pin/ })]) {
      const { width, height } = await box(target);
      expect(Math.min(width, height)).toBeGreaterThanOrEqual(24);
    }
    await desktop.context.close();
  });

  it('at 360 px the placeholder shows whole, and the completion time sits inside its row', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openDevice(browser(), { width: 360, height: 740, theme });
      await signUpOn(page, `Narrow ${theme}`);
      const fit = await newTaskInput(page).evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input, '::placeholder');
        const context2d = document.createElement('canvas').getContext('2d')!;
        context2d.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const inner = input.clientWidth - parseFloat(getComputedStyle(input).paddingLeft) - parseFloat(getComputedStyle(input).paddingRight);
        return { text: Math.ceil(context2d.measureText(input.placeholder).width), room: Math.floor(inner) };
      });
      expect(fit.text).toBeLessThanOrEqual(fit.room);

      await withTasks(page, ['A task done today with a title long enough to wrap onto a second line', 'Open one']);
      await row(page, 'A task done today').getByRole('checkbox').tap();
      const time = row(page, 'A task done today').locator('time');
      await time.waitFor();
      expect(await time.innerText()).toMatch(/^Completed today at /);
      const rowBox = await box(row(page, 'A task done today'));
      const timeBox = await box(time);
      // Inside the row's border (1 px) on every side.
      expect(timeBox.y).toBeGreaterThanOrEqual(rowBox.y + 1);
      expect(timeBox.y + timeBox.height).toBeLessThanOrEqual(rowBox.y + rowBox.height - 1);
      expect(timeBox.x + timeBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width - 1);
      await snapshot(page, `phone-360-completed-${theme}`, { fullPage: false });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('with the on-screen keyboard open (the window 400 px tall), the greeting gives way and rows stay in view', async () => {
    const { context, page } = await openDevice(browser(), { width: 375, height: 740 });
    await signUpOn(page, 'Keyboard Open');
    await withTasks(page, Array.from({ length: 12 }, (_, index) => `Task ${String(12 - index).padStart(2, '0')}`));
    /** Rows wholly in the window, below the new-task input. */
    const rowsInView = () =>
      page.evaluate(() => {
        const input = document.querySelector('.tasks-form__input')!.getBoundingClientRect();
        const height = window.visualViewport?.height ?? window.innerHeight;
        return Array.from(document.querySelectorAll<HTMLElement>('li[data-todo-id]')).filter((li) => {
          const rect = li.getBoundingClientRect();
          return rect.top >= input.bottom && rect.bottom <= height;
        }).length;
      });

    // The keyboard takes about half of a 740 px phone screen: the window left is 400 px tall.
    await page.setViewportSize({ width: 375, height: 400 });
    // The sign-up left the focus in the new-task input: it leaves it first, so "before" is without a keyboard.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await until(() => page.evaluate(() => document.documentElement.dataset.keyboard), (value) => value === undefined);
    await page.evaluate(() => window.scrollTo(0, 0)); // the input at the top, where a person taps it
    const before = await rowsInView();
    await snapshot(page, 'phone-keyboard-closed', { fullPage: false });
    await newTaskInput(page).tap();
    // The page marks the keyboard open from the input's focus, a frame or so after the tap.
    await until(() => page.evaluate(() => document.documentElement.dataset.keyboard), (value) => value === 'open', 5_000);
    // Typing: the way to the other lists gives way too (it stays while the input is empty, PRODUCT §10.19).
    expect(await page.getByRole('button', { name: 'Lists', exact: true }).isVisible()).toBe(true);
    await newTaskInput(page).pressSequentially('Buy');
    await until(() => page.getByRole('button', { name: 'Lists', exact: true }).isVisible(), (visible) => !visible);
    expect(await page.getByText('Hello, Keyboard Open!').isVisible()).toBe(false);
    expect(await page.locator('.tasks-page__illustration').isVisible()).toBe(false);
    const typing = await rowsInView();
    console.log(`rows in view above a 340 px keyboard: ${before} before, ${typing} while typing`);
    expect(typing).toBeGreaterThanOrEqual(3);
    expect(typing).toBeGreaterThan(before);
    await snapshot(page, 'phone-keyboard-open', { fullPage: false });

    // The focus leaves the input: the greeting comes back.
    // The layout grows back once the tap is over, so the tap ticks the row it was on.
    await row(page, 'Task 12').locator('.tasks-item__check').tap();
    await until(() => page.evaluate(() => document.documentElement.dataset.keyboard), (value) => value === undefined);
    expect(await row(page, 'Task 12').getByRole('checkbox').isChecked()).toBe(true);
    expect(await page.getByText('Hello, Keyboard Open!').isVisible()).toBe(true);
    await context.close();
  });

  it('honours the preferences (localStorage tm.preferences): sounds and celebrations off, then celebrations on from another tab', async () => {
    const { context, page, requests } = await openDevice(browser(), { width: 390, height: 844 });
    await context.addInitScript(() => localStorage.setItem('tm.preferences', JSON.stringify({ sounds: false, celebrations: false })));
    await signUpOn(page, 'Quiet Person');
    await withTasks(page, ['second', 'first']);
    await row(page, 'first').getByRole('checkbox').tap();
    await toastWith(page, 'Task completed').waitFor();
    await newTaskInput(page).tap();
    await newTaskInput(page).fill('third');
    await page.getByRole('button', { name: 'Add Task' }).tap();
    await row(page, 'third').waitFor();
    await page.waitForTimeout(1000);
    expect(await page.locator('.tasks-confetti, [data-testid="success-cue"]').count()).toBe(0);
    expect(requests.filter((path) => path.startsWith('/sounds/'))).toEqual([]);

    // Celebrations turned on in another tab (the account page does it there): this page follows at once.
    const other = await context.newPage();
    await other.goto('/');
    await other.evaluate(() => localStorage.setItem('tm.preferences', JSON.stringify({ sounds: false, celebrations: true })));
    await other.close();
    await row(page, 'second').getByRole('checkbox').tap();
    await page.locator('.tasks-confetti canvas').waitFor();
    expect(requests.filter((path) => path.startsWith('/sounds/'))).toEqual([]);
    await context.close();
  });

  it('300 tasks at 360, 375 and 1024 px in both themes: screenshots for people to look at, and axe', async () => {
    const setup = await openDevice(browser(), { width: 1024, height: 768, touch: false });
    await signUpOn(setup.page, 'Three Hundred', false);
    const headers = await xsrfHeaders(setup.page);
    const titles = Array.from({ length: 300 }, (_, index) => (index % 7 === 0 ? `Task ${index + 1}: a longer title that wraps onto a second line on a phone` : `Task ${index + 1}`));
    for (let start = 0; start < titles.length; start += 20) {
      await Promise.all(titles.slice(start, start + 20).map((title) => setup.page.request.post('/api/todo/add-todo', { data: { title }, headers })));
    }
    const todos = await serverTodos(setup.page);
    for (const todo of todos.filter((_, index) => index % 5 === 1)) {
      await setup.page.request.put(`/api/todo/update-todo/${todo._id}`, { data: { updateData: { completed: true } }, headers });
    }
    await setup.page.request.put(`/api/todo/update-todo/${todos[3]!._id}`, { data: { updateData: { isPinned: true } }, headers });
    const state = await setup.context.storageState();
    await setup.context.close();

    for (const width of [360, 375, 1024]) {
      for (const theme of ['light', 'dark'] as const) {
        const touch = width < 1024;
        const context = await browser().newContext({
          baseURL: baseUrl(),
          viewport: { width, height: touch ? 740 : 768 },
          hasTouch: touch,
          isMobile: touch,
          serviceWorkers: 'block',
          storageState: state,
        });
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
        const page = await context.newPage();
        await page.goto('/');
        await page.locator('li[data-todo-id]').nth(5).waitFor();
        await page.waitForTimeout(2800); // the first screen's entrance is over
        await snapshot(page, `tasks-300-${width}-${theme}`, { fullPage: false });
        // A phone edits a title from More actions (a tap on it opens the details, §10.21); a mouse clicks it.
        if (touch) {
          await page.locator('li[data-todo-id]').first().getByRole('button', { name: /^More actions for/ }).tap();
          await page.getByRole('menuitem', { name: 'Edit' }).tap();
        } else await page.locator('li[data-todo-id]').first().locator('.tasks-item__title').click();
        await editField(page).waitFor();
        await snapshot(page, `tasks-300-${width}-${theme}-editing`, { fullPage: false });
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      }
    }
  }, 300_000);
});
