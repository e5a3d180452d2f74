import type { Page } from 'playwright-core';
import { openSession, useBrowser, type Session } from './browser.js';
import { addTask, addTasksViaApi, describeInBrowser, newTaskInput, recordTaskWrites, row, serverTitles, serverTodos, signUp, snapshot, toastWith, xsrfHeaders } from './app.js';

// Edit, filters, bulk actions, Undo, live sync and shortcuts (docs/PRODUCT.md §10.11).

const browser = useBrowser();



/** Polls `read` until it returns a value equal to `expected` (deep), failing with the last value after 10 s. */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  expect(last).toEqual(expected);
}

/** Counts the requests a page makes to one API path. */
function countRequests(page: Page, path: string): { count: () => number } {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) count += 1;
  });
  return { count: () => count };
}

function filterTab(page: Page, name: 'All' | 'Active' | 'Completed') {
  // Within the filters (the lists' sidebar has "All tasks" too).
  return page.getByRole('navigation', { name: 'Filter tasks' }).getByRole('link', { name: new RegExp(`^${name}\\b`) });
}

/** Signs in to an existing account on a fresh profile and waits for the list. */
async function signIn(session: Session, account: { email: string; password: string }): Promise<void> {
  const { page } = session;
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
}

describeInBrowser('everyday features', () => {
  it('edits a title in place: Enter and leaving the field save, Escape cancels, an empty title is refused', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Editor');
    await addTask(page, 'Buy oat mlik');
    const before = (await serverTodos(page))[0]!;

    await row(page, 'Buy oat mlik').getByText('Buy oat mlik').dblclick();
    const field = page.getByRole('textbox', { name: /Edit/ });
    await field.fill('Buy oat milk');
    await field.press('Enter');
    await row(page, 'Buy oat milk').waitFor();
    await eventually(async () => (await serverTodos(page))[0]?.title, 'Buy oat milk');
    const after = (await serverTodos(page))[0]!;
    expect(after._id).toBe(before._id);
    expect(after.createdAt).toBe(before.createdAt);

    // Escape puts the old title back and sends nothing.
    const writes = recordTaskWrites(page);
    await row(page, 'Buy oat milk').getByText('Buy oat milk').dblclick();
    await field.fill('Something else');
    await field.press('Escape');
    await row(page, 'Buy oat milk').waitFor();
    expect(writes.count('PUT', `/todo/update-todo/${before._id}`)).toBe(0);

    // An empty title is refused with a message; the task stays.
    await row(page, 'Buy oat milk').getByText('Buy oat milk').dblclick();
    await field.fill('   ');
    await field.press('Enter');
    await page.getByText('A task needs a title. Press Escape to keep the old one.').waitFor();
    await snapshot(page, 'edit-empty-refused');
    await field.press('Escape');
    expect(await serverTitles(page)).toEqual(['Buy oat milk']);

    // Leaving the field saves.
    await row(page, 'Buy oat milk').getByText('Buy oat milk').dblclick();
    await field.fill('Buy oat milk and bread');
    await newTaskInput(page).click();
    await row(page, 'Buy oat milk and bread').waitFor();
    await eventually(async () => serverTitles(page), ['Buy oat milk and bread']);
    await context.close();
  });

  it('keeps the filter in the address (reload and Back), with counts and its own empty message', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Filterer');
    await addTasksViaApi(page, ['First', 'Second', 'Third']);
    await page.reload();
    await row(page, 'Third').waitFor();
    await row(page, 'Second').getByRole('checkbox').check();
    await eventually(async () => (await serverTodos(page)).filter((t) => t.completed).length, 1);

    await filterTab(page, 'Active').click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'active');
    await row(page, 'Second').waitFor({ state: 'detached' });
    expect(await page.locator('li[data-todo-id]').count()).toBe(2);
    await eventually(async () => (await filterTab(page, 'Active').textContent())?.replace(/\D/g, ''), '2');
    await eventually(async () => (await filterTab(page, 'Completed').textContent())?.replace(/\D/g, ''), '1');
    await eventually(async () => (await filterTab(page, 'All').textContent())?.replace(/\D/g, ''), '3');

    await page.reload();
    await row(page, 'Third').waitFor();
    expect(new URL(page.url()).searchParams.get('filter')).toBe('active');
    expect(await page.locator('li[data-todo-id]').count()).toBe(2);

    await filterTab(page, 'Completed').click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'completed');
    await row(page, 'Second').waitFor();
    expect(await page.locator('li[data-todo-id]').count()).toBe(1);
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'active');
    await row(page, 'First').waitFor();

    // Tick the last active ones: the filter says so in its own words.
    await row(page, 'First').getByRole('checkbox').check();
    await row(page, 'Third').getByRole('checkbox').check();
    await page.getByText('No active tasks. Nice work!').waitFor();
    await snapshot(page, 'filter-active-empty');
    await context.close();
  });

  it('marks all complete and back, and clears the completed ones, one request each', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Bulk User');
    await addTasksViaApi(page, ['One', 'Two', 'Three']);
    await page.reload();
    await row(page, 'Three').waitFor();
    const writes = recordTaskWrites(page);
    const syncCalls = countRequests(page, '/api/todo/sync');

    await page.getByRole('button', { name: 'Mark all complete' }).click();
    await toastWith(page, '3 tasks marked complete').waitFor();
    expect(writes.count('PUT', '/todo/complete-all')).toBe(1);
    expect(syncCalls.count()).toBe(1);
    expect((await serverTodos(page)).every((t) => t.completed)).toBe(true);

    await page.getByRole('button', { name: 'Mark all active' }).click();
    await toastWith(page, '3 tasks marked active').waitFor();
    expect((await serverTodos(page)).some((t) => t.completed)).toBe(false);

    await row(page, 'One').getByRole('checkbox').check();
    await row(page, 'Two').getByRole('checkbox').check();
    await eventually(async () => (await serverTodos(page)).filter((t) => t.completed).length, 2);
    await page.getByRole('button', { name: 'Clear completed' }).click();
    await toastWith(page, '2 completed tasks cleared').waitFor();
    expect(await serverTitles(page)).toEqual(['Three']);
    await row(page, 'One').waitFor({ state: 'detached' });
    await row(page, 'Two').waitFor({ state: 'detached' });
    expect(await page.locator('li[data-todo-id]').count()).toBe(1);
    await context.close();
  });

  it('offers Undo for 5 s after a delete and brings the task back exactly; a reload meanwhile keeps it deleted', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Undoer');
    await addTasksViaApi(page, ['Oldest', 'Middle', 'Newest']);
    const headers = await xsrfHeaders(page);
    const middle = (await serverTodos(page)).find((t) => t.title === 'Middle')!;
    await page.request.put(`/api/todo/update-todo/${middle._id}`, { data: { updateData: { completed: true } }, headers });
    const before = await serverTodos(page);
    await page.reload();
    await row(page, 'Middle').waitFor();

    await row(page, 'Middle').getByRole('button', { name: /^Delete/ }).click();
    await row(page, 'Middle').waitFor({ state: 'detached' });
    const undo = toastWith(page, 'Task deleted successfully').getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    await snapshot(page, 'undo-toast');
    await undo.click();
    await row(page, 'Middle').waitFor();
    expect(await serverTodos(page)).toEqual(before);
    expect((await page.locator('li[data-todo-id]').allTextContents()).map((t) => t.includes('Middle'))).toEqual([false, true, false]);

    // Delete again and reload during the 5 s: the task stays deleted.
    await row(page, 'Middle').getByRole('button', { name: /^Delete/ }).click();
    await toastWith(page, 'Task deleted successfully').waitFor();
    await page.reload();
    await row(page, 'Newest').waitFor();
    expect(await row(page, 'Middle').count()).toBe(0);
    expect(await serverTitles(page)).toEqual(['Newest', 'Oldest']);
    await context.close();
  });

  it('brings a change from one device to another of the same user without a reload; another user sees nothing', async () => {
    const laptop = await openSession(browser());
    const account = await signUp(laptop.page, 'Two Devices');
    await addTask(laptop.page, 'Before the phone');
    const phone = await openSession(browser(), { width: 375, height: 740 });
    await signIn(phone, account);
    await row(phone.page, 'Before the phone').waitFor();
    const stranger = await openSession(browser());
    await signUp(stranger.page, 'Stranger');
    await stranger.page.getByText('No tasks').waitFor();
    // A tick on the phone reaches the laptop.
    let started = Date.now();
    // The page that made a change puts the answer into its list, with no refetch (PRODUCT §4, §10.5.4).
    const ownAnswer = phone.page.waitForResponse((response) => new URL(response.url()).pathname === '/api/todo/sync');
    await row(phone.page, 'Before the phone').getByRole('checkbox').check();
    await ownAnswer;
    await laptop.page.waitForFunction(
      () => Array.from(document.querySelectorAll('li[data-todo-id]')).some((li) => li.textContent?.includes('Before the phone') && (li.querySelector('input[type=checkbox]') as HTMLInputElement).checked),
      undefined,
      { timeout: 10_000 },
    );
    console.log(`a tick on the phone was on the laptop ${Date.now() - started} ms later`);

    // From here on the phone is only watching: what the laptop does arrives without a fetch.
    const phoneFetches = countRequests(phone.page, '/api/todo/fetch-todo');
    const strangerFetches = countRequests(stranger.page, '/api/todo/fetch-todo');
    started = Date.now();
    await addTask(laptop.page, 'Made on the laptop');
    await row(phone.page, 'Made on the laptop').waitFor({ timeout: 10_000 });
    console.log(`a task added on the laptop was on the phone ${Date.now() - started} ms after the click`);

    started = Date.now();
    await laptop.page.getByRole('button', { name: 'Clear completed' }).click();
    await row(phone.page, 'Before the phone').waitFor({ state: 'detached', timeout: 10_000 });
    console.log(`a clear on the laptop reached the phone ${Date.now() - started} ms later`);

    await phone.page.waitForTimeout(500);
    expect(phoneFetches.count()).toBe(0);
    await snapshot(phone.page, 'live-sync-phone');
    // The other user's page learned nothing and fetched nothing.
    expect(strangerFetches.count()).toBe(0);
    expect(await stranger.page.locator('li[data-todo-id]').count()).toBe(0);
    await Promise.all([laptop.context.close(), phone.context.close(), stranger.context.close()]);
  });

  it('has keyboard shortcuts that stay quiet while typing', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Keyboard User');
    await addTask(page, 'Typed task');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('f');
    await page.waitForURL((url) => url.searchParams.get('filter') === 'active');
    await page.keyboard.press('n');
    expect(await newTaskInput(page).evaluate((el) => el === document.activeElement)).toBe(true);
    // Typed into the field, "n", "/" and "?" are text.
    await page.keyboard.type('n/?');
    expect(await newTaskInput(page).inputValue()).toBe('n/?');
    expect(new URL(page.url()).searchParams.get('filter')).toBe('active');
    await newTaskInput(page).fill('');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: /shortcuts/i });
    await dialog.waitFor();
    await snapshot(page, 'shortcuts-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });
});
