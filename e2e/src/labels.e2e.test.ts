import type { Page } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, until, type Theme } from './phone.js';
import { describeInBrowser, newTaskInput, recordTaskWrites, row, seriousAxeViolations, serverTodos, snapshot, toastWith, xsrfHeaders, type ServerTodo } from './app.js';

// Labels, priorities and filters (docs/PRODUCT.md §10.20) in the built app, on a phone (375 px, touch only) and
// a desktop (1280 px, mouse and keyboard), in both themes: quick add "p1" and "@name", the row's flag and label
// chips, Priority and Labels… from the row's actions, the Priority, Label and Due filters in the address and in
// their controls (a reload keeps them, Back undoes one), Clear filters; and a change made offline.

const browser = useBrowser();

/** A task as the server answers it, with its priority and labels. */
type MarkedTodo = ServerTodo & { priority?: number; labels?: string[] };
const marked = async (page: Page) => (await serverTodos(page)) as MarkedTodo[];
const taskNamed = (todos: MarkedTodo[], title: string) => todos.find((todo) => todo.title === title);

/** Adds a task through the API with the page's session (fast set-up), with whatever fields it starts with. */
async function addViaApi(page: Page, task: { title: string; priority?: number; labels?: string[]; due?: string }): Promise<void> {
  const response = await page.request.post('/api/todo/add-todo', { data: task, headers: await xsrfHeaders(page) });
  if (response.status() !== 201) throw new Error(`add-todo answered ${response.status()}: ${await response.text()}`);
}

/** The titles of the rows shown, top to bottom. */
const titlesShown = (page: Page) => page.locator('li[data-todo-id] .tasks-item__title').allInnerTexts();
const query = (page: Page) => new URL(page.url()).search;

/** Presses a control as the device does: a tap on a phone, a click with a mouse. */
const press = (touch: boolean, locator: ReturnType<Page['locator']>) => (touch ? locator.tap() : locator.click());

/** Opens one of a row's actions: the button on a wide screen, the item of More actions on a phone. */
async function rowAction(page: Page, touch: boolean, title: string, action: 'Priority' | 'Labels'): Promise<void> {
  if (touch) {
    await row(page, title).getByRole('button', { name: `More actions for “${title}”` }).tap();
    await page.getByRole('menuitem', { name: `${action}…` }).tap();
  } else {
    await row(page, title).getByRole('button', { name: `${action} of “${title}”` }).click();
  }
}

/** No part of the page is wider than the window (nothing to scroll sideways). */
const fitsTheWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Whether every label chip of the row lies inside the row's box. */
const chipsInsideRow = (page: Page, title: string) =>
  row(page, title).evaluate((item) => {
    const box = item.getBoundingClientRect();
    return Array.from(item.querySelectorAll('.tasks-label')).every((chip) => {
      const inner = chip.getBoundingClientRect();
      return inner.left >= box.left && inner.right <= box.right && inner.top >= box.top && inner.bottom <= box.bottom;
    });
  });

describeInBrowser('labels, priorities and filters (docs/PRODUCT.md §10.20)', () => {
  const devices = [
    { name: 'phone', width: 375, height: 812, touch: true },
    { name: 'desktop', width: 1280, height: 800, touch: false },
  ] as const;
  const cases = devices.flatMap((device) => (['light', 'dark'] as Theme[]).map((theme) => ({ ...device, theme })));

  it.each(cases)('$name ($width px, $theme): quick add, the marks, Priority and Labels…, the filters in the address and the controls, Clear filters', async ({ name, width, height, touch, theme }) => {
    const { context, page, errors } = await openDevice(browser(), { width, height, touch, theme });
    const shot = (what: string) => snapshot(page, `labels-${name}-${what}-${theme}`, { fullPage: false });
    await signUpOn(page, `Lea Labels ${name}`, touch);
    await addViaApi(page, { title: 'Call the bank' });
    await addViaApi(page, { title: 'Water the plants', priority: 3, labels: ['home', 'weekend', 'garden-and-balcony-plants-every-week', 'a', 'b', 'c', 'd/e', 'f.g'] });
    await page.reload();
    await row(page, 'Water the plants').waitFor();

    // Quick add: "p1" and "@errand" leave the title, the preview says what they set.
    await newTaskInput(page).fill('Buy stamps @errand p1');
    const preview = page.locator('.tasks-form__preview');
    await until(() => preview.textContent(), (text) => text === 'Priority 1 · @errand · “Buy stamps”');
    await press(touch, page.getByRole('button', { name: 'Add Task' }));
    await row(page, 'Buy stamps').locator('.tasks-item__title', { hasText: /^Buy stamps$/ }).waitFor();
    await until(() => marked(page), (todos) => taskNamed(todos, 'Buy stamps')?.priority === 1 && taskNamed(todos, 'Buy stamps')?.labels?.join() === 'errand');

    // The row's marks: a flag "P1" read "Priority 1", the label a link; many labels wrap inside their row.
    const stamps = row(page, 'Buy stamps');
    expect(await stamps.locator('.tasks-priority > span[aria-hidden="true"]').innerText()).toBe('P1');
    expect(await stamps.locator('.tasks-priority').getAttribute('title')).toBe('Priority 1');
    expect(await stamps.getByRole('checkbox').evaluate((box) => box.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent))).toEqual(['P1Priority 1']);
    expect(await stamps.getByRole('link', { name: '@errand' }).getAttribute('href')).toBe('/?label=errand');
    expect(await chipsInsideRow(page, 'Water the plants')).toBe(true);
    // On a phone the filters wait behind "Filters" (beside "Lists") until opened or set: the rows keep their room.
    expect(await page.getByRole('combobox', { name: 'Priority' }).isVisible()).toBe(!touch);
    if (touch) expect(await page.getByRole('button', { name: 'Filters', exact: true }).getAttribute('aria-expanded')).toBe('false');
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('rows');

    // Priority from the row's actions: one update, shown at once.
    const writes = recordTaskWrites(page);
    await rowAction(page, touch, 'Call the bank', 'Priority');
    const priority = page.getByRole('dialog', { name: 'Priority of “Call the bank”' });
    await priority.getByRole('button', { name: 'Priority 4: none (current)' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('priority-dialog');
    await press(touch, priority.getByRole('button', { name: 'Priority 2' }));
    await priority.waitFor({ state: 'detached' });
    await row(page, 'Call the bank').locator('.tasks-priority', { hasText: 'P2' }).waitFor();
    await toastWith(page, 'Priority set').first().waitFor();

    // Labels…: tick one the person has, write a new one; Save sends one update.
    await rowAction(page, touch, 'Call the bank', 'Labels');
    const labels = page.getByRole('dialog', { name: 'Labels of “Call the bank”' });
    await labels.getByRole('checkbox', { name: '@errand' }).waitFor();
    // The person's labels, every task's: the eight of "Water the plants" and "errand".
    expect(await labels.getByRole('checkbox').count()).toBe(9);
    await press(touch, labels.getByRole('checkbox', { name: '@errand' }));
    await labels.getByRole('textbox', { name: 'New label' }).fill('two words');
    await press(touch, labels.getByRole('button', { name: 'Add', exact: true }));
    await labels.getByRole('alert').filter({ hasText: 'no spaces' }).waitFor();
    await labels.getByRole('textbox', { name: 'New label' }).fill('bank');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('labels-dialog');
    await press(touch, labels.getByRole('button', { name: 'Save' }));
    await labels.waitFor({ state: 'detached' });
    await row(page, 'Call the bank').getByRole('link', { name: '@bank' }).waitFor();
    await until(() => marked(page), (todos) => taskNamed(todos, 'Call the bank')?.priority === 2 && taskNamed(todos, 'Call the bank')?.labels?.join() === 'bank,errand');
    expect(writes.count('PUT', /^\/todo\/update-todo\//)).toBe(2);

    // The filters in the address: the list shows what they leave; a reload keeps them.
    await page.goto('/?label=errand&priority=1');
    await until(() => titlesShown(page), (titles) => titles.join() === 'Buy stamps');
    await page.reload();
    await until(() => titlesShown(page), (titles) => titles.join() === 'Buy stamps');
    expect(await page.getByRole('combobox', { name: 'Priority' }).inputValue()).toBe('1');
    expect(await page.getByRole('combobox', { name: 'Label' }).inputValue()).toBe('errand');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('filtered');

    // The controls: each choice keeps the others; a label on a row narrows to it; Back undoes one choice.
    await press(touch, page.getByRole('button', { name: 'Clear filters' }));
    await until(() => titlesShown(page), (titles) => titles.length === 3);
    expect(query(page)).toBe('');
    await page.getByRole('combobox', { name: 'Label' }).selectOption('errand');
    await until(() => titlesShown(page), (titles) => titles.join() === 'Buy stamps,Call the bank');
    await page.getByRole('combobox', { name: 'Priority' }).selectOption('2');
    await until(() => titlesShown(page), (titles) => titles.join() === 'Call the bank');
    expect(query(page)).toBe('?label=errand&priority=2');
    await press(touch, row(page, 'Call the bank').getByRole('link', { name: '@bank' }));
    await until(async () => query(page), (search) => search === '?label=bank&priority=2');
    await page.goBack();
    await until(async () => query(page), (search) => search === '?label=errand&priority=2');
    await until(() => titlesShown(page), (titles) => titles.join() === 'Call the bank');

    // Nothing left: said so, with Clear filters at hand.
    await page.getByRole('combobox', { name: 'Due' }).selectOption('overdue');
    await page.getByText('No tasks match these filters.').waitFor();
    expect(query(page)).toBe('?label=errand&priority=2&due=overdue');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot('nothing-matches');
    await press(touch, page.locator('.tasks-list__empty').getByRole('button', { name: 'Clear filters' }));
    await until(() => titlesShown(page), (titles) => titles.length === 3);
    expect(query(page)).toBe('');
    expect(await fitsTheWidth(page)).toBe(true);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('offline: Priority and Labels… show at once and reach the server when the network is back', async () => {
    const { context, page } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Olga Offline', false);
    await addViaApi(page, { title: 'Pay the rent', labels: ['home'] });
    await page.reload();
    await row(page, 'Pay the rent').waitFor();
    // A person who has pressed anything on the page has its dialogs' code (fetched at the first press).
    await newTaskInput(page).click();
    await page.waitForLoadState('networkidle');
    // Every chunk the press asked for is in: the loaders' script elements (data-rspack) leave once loaded, and
    // none has been on its way for a second.
    await page.waitForFunction(
      () => {
        const state = window as unknown as { chunksQuietSince?: number };
        if (document.querySelector('script[data-rspack], script[data-webpack]')) state.chunksQuietSince = undefined;
        else state.chunksQuietSince ??= performance.now();
        return state.chunksQuietSince !== undefined && performance.now() - state.chunksQuietSince > 1000;
      },
      null,
      { polling: 100, timeout: 30_000 },
    );
    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline." }).waitFor({ timeout: 5000 });

    await rowAction(page, false, 'Pay the rent', 'Priority');
    await page.getByRole('dialog', { name: 'Priority of “Pay the rent”' }).getByRole('button', { name: 'Priority 1' }).click();
    await row(page, 'Pay the rent').locator('.tasks-priority', { hasText: 'P1' }).waitFor();
    await rowAction(page, false, 'Pay the rent', 'Labels');
    const labels = page.getByRole('dialog', { name: 'Labels of “Pay the rent”' });
    await labels.getByRole('textbox', { name: 'New label' }).fill('monthly');
    await labels.getByRole('button', { name: 'Save' }).click();
    await row(page, 'Pay the rent').getByRole('link', { name: '@monthly' }).waitFor();
    // The test's own calls are not the page's: they still reach the server, which has nothing new yet.
    expect(taskNamed(await marked(page), 'Pay the rent')).not.toHaveProperty('priority');

    await context.setOffline(false);
    await until(() => marked(page), (todos) => taskNamed(todos, 'Pay the rent')?.priority === 1 && taskNamed(todos, 'Pay the rent')?.labels?.join() === 'home,monthly');
    await context.close();
  });
});
