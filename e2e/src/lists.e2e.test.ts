import type { Page } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, until, type Theme } from './phone.js';
import { addListViaApi, addTask, day, describeInBrowser, newTaskInput, row, seriousAxeViolations, serverLists, serverTodos, snapshot, toastWith, xsrfHeaders } from './app.js';

// Lists (docs/PRODUCT.md §10.19) in the built app: the sidebar on a wide screen and the drawer on a phone,
// making, filling, moving into, renaming, deleting (and undoing) a list, the list in the address, another
// tab following over the live stream, and a list made and filled offline reaching the server.

const browser = useBrowser();

const lists = (page: Page) => page.getByRole('navigation', { name: 'Lists' });
const listHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });
/** A list's link in the navigation: its name, then its open tasks ("Work 2 open"). */
const listLink = (page: Page, name: string) => lists(page).getByRole('link', { name: new RegExp(`^${name}\\b`) });
const openCount = (page: Page, name: string) => listLink(page, name).locator('.lists-nav__count').textContent();
/** The real id in the address of a list's screen (`/lists/<24 hex>`), once the server has given it. */
const LIST_ADDRESS = /\/lists\/([0-9a-f]{24})$/;
const idInAddress = (page: Page) => LIST_ADDRESS.exec(new URL(page.url()).pathname)?.[1];

/** "New list" in the navigation, as a person does it; resolves once the new list's screen shows. */
async function makeList(page: Page, name: string, tap = false): Promise<void> {
  const button = lists(page).getByRole('button', { name: 'New list' });
  if (tap) await button.tap();
  else await button.click();
  await lists(page).getByRole('textbox', { name: 'List name' }).fill(name);
  const create = lists(page).getByRole('button', { name: 'Create list' });
  if (tap) await create.tap();
  else await create.click();
  await listHeading(page, name).waitFor();
}

describeInBrowser('lists (docs/PRODUCT.md §10.19)', () => {
  it.each<Theme>(['light', 'dark'])('on a wide screen (%s): make a list, fill it, move tasks into it by Move to… and `M`, rename it, open it by address, delete it and Undo', async (theme) => {
    const { context, page, errors } = await openDevice(browser(), { width: 1280, height: 800, touch: false, theme });
    await signUpOn(page, 'Lena Lists', false);

    // A new list opens at once; the address names it by the server's id.
    await makeList(page, 'Work');
    await page.waitForURL(LIST_ADDRESS);
    const workId = idInAddress(page);
    expect(await listLink(page, 'Work').getAttribute('aria-current')).toBe('page');
    await addTask(page, 'Write report');
    await until(() => openCount(page, 'Work'), (count) => count === '1');
    await until(() => serverTodos(page), (todos) => todos.length === 1 && todos[0]?.listId === workId);

    // All tasks: a task added there goes to the Inbox; "Move to…" moves it.
    await listLink(page, 'All tasks').click();
    await page.waitForURL((url) => url.pathname === '/');
    await addTask(page, 'Buy milk');
    await addTask(page, 'Call Bob');
    expect(await openCount(page, 'Inbox')).toBe('2');
    await row(page, 'Buy milk').getByRole('button', { name: 'Move “Buy milk” to…' }).click();
    const moveDialog = page.getByRole('dialog', { name: 'Move “Buy milk” to…' });
    await moveDialog.getByRole('button', { name: 'Cancel' }).waitFor();
    expect(await moveDialog.getByRole('button').allTextContents()).toEqual(['Inbox (current)', 'Work', 'Cancel']);
    await moveDialog.getByRole('button', { name: 'Work' }).click();
    await toastWith(page, 'Task moved').first().waitFor();
    await row(page, 'Buy milk').locator('.tasks-item__list', { hasText: 'List: Work' }).waitFor();

    // `M` on a focused row, then the keyboard alone: Tab to "Work", Enter.
    await row(page, 'Call Bob').getByRole('checkbox').focus();
    await page.keyboard.press('m');
    const keyDialog = page.getByRole('dialog', { name: 'Move “Call Bob” to…' });
    await keyDialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Work');
    await page.keyboard.press('Enter');
    await keyDialog.waitFor({ state: 'detached' });
    await row(page, 'Call Bob').locator('.tasks-item__list', { hasText: 'List: Work' }).waitFor();
    await until(() => openCount(page, 'Work'), (count) => count === '3');
    expect(await lists(page).getByRole('link', { name: /^Inbox/ }).locator('.lists-nav__count').count()).toBe(0);
    await until(() => serverTodos(page), (todos) => todos.length === 3 && todos.every((todo) => todo.listId === workId));
    await snapshot(page, `lists-desktop-all-tasks-${theme}`, { fullPage: false });

    // Rename, from the list's menu.
    await lists(page).getByRole('button', { name: 'Actions for list “Work”' }).click();
    const menu = page.getByRole('menu', { name: 'Actions for list “Work”' });
    await menu.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, `lists-desktop-menu-${theme}`, { fullPage: false });
    await menu.getByRole('menuitem', { name: 'Rename…' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename “Work”' });
    await rename.getByRole('textbox', { name: 'Name' }).fill('Projects');
    await rename.getByRole('textbox', { name: 'Name' }).press('Enter');
    await toastWith(page, 'List renamed').waitFor();
    await listLink(page, 'Projects').waitFor();
    await until(() => serverLists(page), (saved) => saved.map((list) => list.name).join() === 'Projects');

    // The list's address, and a reload there.
    await listLink(page, 'Projects').click();
    await page.waitForURL(`/lists/${workId}`);
    await page.reload();
    await listHeading(page, 'Projects').waitFor();
    await row(page, 'Call Bob').waitFor();
    expect(await page.locator('li[data-todo-id] .tasks-item__title').allInnerTexts()).toHaveLength(3);
    expect(await listLink(page, 'Projects').getAttribute('aria-current')).toBe('page');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, `lists-desktop-list-${theme}`, { fullPage: false });

    // Delete with its tasks: asked first; then gone on the server, and Undo brings all of it back.
    await lists(page).getByRole('button', { name: 'Actions for list “Projects”' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete “Projects” and its 3 tasks?' });
    await ask.waitFor();
    await snapshot(page, `lists-desktop-delete-${theme}`, { fullPage: false });
    await ask.getByRole('button', { name: 'Delete list' }).click();
    await toastWith(page, 'List deleted').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await until(() => Promise.all([serverLists(page), serverTodos(page)]), ([saved, todos]) => saved.length === 0 && todos.length === 0);
    await toastWith(page, 'List deleted').getByRole('button', { name: /^Undo deleting/ }).click();
    await until(() => Promise.all([serverLists(page), serverTodos(page)]), ([saved, todos]) => saved.length === 1 && todos.length === 3 && todos.every((todo) => todo.listId === workId));
    await listLink(page, 'Projects').waitFor();
    await row(page, 'Write report').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it.each<Theme>(['light', 'dark'])('on a phone (%s): the Lists drawer, choosing a list, adding to it, the list menu; touch only', async (theme) => {
    const { context, page, errors } = await openDevice(browser(), { width: 375, height: 812, theme });
    await signUpOn(page, 'Pia Phone');
    const groceries = await addListViaApi(page, 'Groceries');
    await addListViaApi(page, 'Errands');
    await page.reload();
    // The app's own field (the kept screen's picture of it, shown until the app is drawn, has no label).
    await page.getByLabel('New task').waitFor();
    // No sidebar on a phone: the header's "Lists" button opens the same lists as a drawer.
    expect(await lists(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Lists', exact: true }).tap();
    const drawer = page.getByRole('dialog', { name: 'Lists' });
    await drawer.waitFor();
    await listLink(page, 'Groceries').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, `lists-phone-drawer-${theme}`, { fullPage: false });

    // A choice closes the drawer and the focus goes to the chosen list's heading.
    await listLink(page, 'Groceries').tap();
    await drawer.waitFor({ state: 'detached' });
    await page.waitForURL(`/lists/${groceries._id}`);
    await until(() => page.evaluate(() => document.activeElement?.textContent), (text) => text === 'Groceries');
    // In sight, not only for screen readers: nothing else on a phone names the list shown.
    expect((await listHeading(page, 'Groceries').boundingBox())?.height).toBeGreaterThan(16);

    await newTaskInput(page).fill('Apples');
    await page.getByRole('button', { name: 'Add Task' }).tap();
    await row(page, 'Apples').waitFor();
    await until(() => serverTodos(page), (todos) => todos.length === 1 && todos[0]?.listId === groceries._id);
    await snapshot(page, `lists-phone-list-${theme}`, { fullPage: false });

    // The list's menu inside the drawer, its items 44 px tall.
    await page.getByRole('button', { name: 'Lists', exact: true }).tap();
    await drawer.waitFor();
    expect(await listLink(page, 'Groceries').getAttribute('aria-current')).toBe('page');
    await drawer.getByRole('button', { name: 'Actions for list “Groceries”' }).tap();
    const menu = page.getByRole('menu', { name: 'Actions for list “Groceries”' });
    await menu.waitFor();
    for (const item of await menu.getByRole('menuitem').all()) expect((await item.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await snapshot(page, `lists-phone-menu-${theme}`, { fullPage: false });

    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone (dark), by touch: Archive takes a list\'s tasks out of All tasks, its count and Today, the list still showing them; Restore brings them back', async () => {
    const { context, page, errors } = await openDevice(browser(), { width: 375, height: 812, theme: 'dark' });
    await signUpOn(page, 'Arlo Archive');
    const trip = await addListViaApi(page, 'Trip');
    const headers = await xsrfHeaders(page);
    for (const data of [{ title: 'Pack the tent', due: day(0), listId: trip._id }, { title: 'Water the plants', due: day(0) }]) {
      expect((await page.request.post('/api/todo/add-todo', { data, headers })).status()).toBe(201);
    }
    await page.reload();
    await row(page, 'Pack the tent').waitFor();
    const drawer = page.getByRole('dialog', { name: 'Lists' });
    const listMenu = async (item: string) => {
      await page.getByRole('button', { name: 'Lists', exact: true }).tap();
      // An archived list waits under the Archived disclosure.
      if (item === 'Restore') await drawer.getByText(/^Archived \(1\)/).tap();
      await drawer.getByRole('button', { name: 'Actions for list “Trip”' }).tap();
      await page.getByRole('menu', { name: 'Actions for list “Trip”' }).getByRole('menuitem', { name: item }).tap();
      await until(() => serverLists(page), (saved) => saved[0]?.archived === (item === 'Archive'));
    };
    const todayTitles = async () => {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).tap();
      await page.getByRole('link', { name: 'Water the plants' }).waitFor();
      return page.getByRole('region', { name: /^Today \d/ }).getByRole('listitem').getByRole('link').allTextContents();
    };

    await listMenu('Archive');
    await row(page, 'Pack the tent').waitFor({ state: 'detached' });
    await row(page, 'Water the plants').waitFor();
    expect(await page.getByRole('button', { name: 'Mark all complete' }).count()).toBe(0);
    if (await drawer.isVisible()) await page.keyboard.press('Escape');
    await snapshot(page, 'lists-phone-archived-all-dark', { fullPage: false });
    await page.getByRole('button', { name: 'Lists', exact: true }).tap();
    expect(await openCount(page, 'All tasks')).toBe('1');
    await drawer.getByText(/^Archived \(1\)/).tap();
    await listLink(page, 'Trip').tap();
    await page.waitForURL(`/lists/${trip._id}`);
    await row(page, 'Pack the tent').waitFor();
    expect(await todayTitles()).toEqual(['Water the plants']);
    await snapshot(page, 'lists-phone-archived-today-dark', { fullPage: false });

    await page.getByRole('link', { name: 'Task Manager' }).first().tap();
    await page.waitForURL((url) => url.pathname === '/');
    await listMenu('Restore');
    if (await drawer.isVisible()) await page.keyboard.press('Escape');
    await row(page, 'Pack the tent').waitFor();
    expect(await todayTitles()).toEqual(['Water the plants', 'Pack the tent']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a list made in one tab shows in another through the live stream', async () => {
    const { context, page } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Tom Tabs', false);
    const other = await context.newPage();
    await other.goto('/');
    await lists(other).getByRole('link', { name: /^Inbox/ }).waitFor();
    await makeList(page, 'Shared');
    await listLink(other, 'Shared').waitFor({ timeout: 10_000 });
    await addTask(page, 'Seen elsewhere');
    await until(() => openCount(other, 'Shared'), (count) => count === '1');
    await context.close();
  });

  it('offline: a list made and filled without a network reaches the server when it is back, and the address gets its real id', async () => {
    const { context, page } = await openDevice(browser(), { width: 1280, height: 800, touch: false });
    await signUpOn(page, 'Olga Offline', false);
    await newTaskInput(page).waitFor();
    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline." }).waitFor({ timeout: 5000 });

    await makeList(page, 'Trip');
    expect(new URL(page.url()).pathname).toMatch(/^\/lists\/tmp-/);
    await addTask(page, 'Pack bags');
    expect(await openCount(page, 'Trip')).toBe('1');
    // The test's own calls are not the page's: they still reach the server, which has nothing yet.
    expect(await serverLists(page)).toEqual([]);

    await context.setOffline(false);
    const [trip] = await until(() => serverLists(page), (saved) => saved.length === 1);
    expect(trip?.name).toBe('Trip');
    await until(() => serverTodos(page), (todos) => todos.length === 1 && todos[0]?.title === 'Pack bags' && todos[0].listId === trip?._id);
    // The address is replaced, not pushed: Back leaves the list rather than returning to its temporary id.
    await page.waitForURL(`/lists/${trip?._id}`);
    await listHeading(page, 'Trip').waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
