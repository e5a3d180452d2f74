import type { Page } from 'playwright-core';
import { openSession, useBrowser, type Session } from './browser.js';
import { addTask, addTasksViaApi, describeInBrowser, newTaskInput, row, serverTodos, signUp, snapshot, toastWith, xsrfHeaders } from './app.js';

// Issue #18: toasts that never cover work, Undo that names what it undoes (bulk actions too, by key),
// completion times, and the smaller things (docs/PRODUCT.md §2, §9, §10.5, §10.11).

const browser = useBrowser();



/** Polls `read` until `done` holds for its value, failing with the last value after 10 s. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  expect(done(last)).toBe(true);
  return last;
}

const titles = (count: number, prefix = 'Task') => Array.from({ length: count }, (_, index) => `${prefix} ${String(index + 1).padStart(3, '0')}`);

/**
 * Tabs through the page from the new-task input to the end of the list and, at each control the focus
 * lands on, asks the browser which element is at the control's centre: a toast there means it is covered.
 * Returns the controls found covered (by their accessible name or text).
 */
async function coveredControlsWhileTabbing(page: Page, steps: number): Promise<{ reached: number; covered: string[] }> {
  await newTaskInput(page).focus();
  const covered: string[] = [];
  let reached = 0;
  for (let step = 0; step < steps; step += 1) {
    await page.keyboard.press('Tab');
    const result = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body || active.closest('[data-rht-toaster]')) return { done: true, covered: null };
      const box = active.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const isCovered = hit !== null && hit !== active && !active.contains(hit) && hit.closest('[data-rht-toaster]') !== null;
      return { done: false, covered: isCovered ? (active.getAttribute('aria-label') ?? active.textContent ?? active.tagName) : null };
    });
    if (result.done) break;
    reached += 1;
    if (result.covered) covered.push(result.covered);
  }
  return { reached, covered };
}

describeInBrowser('everyday use, round three (issue #18)', () => {
  it('keeps every control reachable with toasts on screen: in the margin when it fits, space kept free below it otherwise', async () => {
    for (const [width, height, theme] of [
      [1024, 700, 'light'],
      [375, 740, 'dark'],
      [1280, 800, 'light'],
    ] as const) {
      const { page, context } = await openSession(browser(), { width, height });
      await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signUp(page, `Toast Person ${width}`);
      await addTasksViaApi(page, titles(14));
      await page.reload();
      await row(page, 'Task 014').waitFor();
      // Two deletes: two Undo toasts (5 s each) stacked bottom-left.
      for (const title of ['Task 014', 'Task 013']) {
        await row(page, title).getByRole('button', { name: /^(Delete|More actions)/ }).click();
        if (width < 640) await page.getByRole('menuitem', { name: 'Delete' }).click();
        await row(page, title).waitFor({ state: 'detached' });
      }
      await toastWith(page, '“Task 013”').waitFor();
      await toastWith(page, '“Task 014”').waitFor();
      await snapshot(page, `toasts-over-list-${width}-${theme}`, { fullPage: false });
      const { reached, covered } = await coveredControlsWhileTabbing(page, 80);
      expect(reached).toBeGreaterThan(12);
      expect(covered).toEqual([]);
      if (width >= 1248) {
        // Wide: the toasts stay bottom-left, entirely in the margin left of the page.
        const page_ = await page.locator('.tasks-page').boundingBox();
        const toasts = await page.locator('[data-rht-toaster] [role="status"]').evaluateAll((items) => items.map((item) => item.parentElement!.getBoundingClientRect().right));
        expect(toasts.length).toBeGreaterThan(0);
        for (const right of toasts) expect(right).toBeLessThanOrEqual(page_!.x);
      } else {
        // Narrow: the page keeps the toasts' height free below its end, so its last row scrolls clear of them.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const lastRow = await page.locator('li[data-todo-id]').last().boundingBox();
        const topToast = await page.locator('[data-rht-toaster] [role="status"]').evaluateAll((items) => Math.min(...items.map((item) => item.getBoundingClientRect().top)));
        expect(lastRow!.y + lastRow!.height).toBeLessThanOrEqual(topToast);
        await snapshot(page, `toasts-scrolled-clear-${width}-${theme}`, { fullPage: false });
      }
      await context.close();
    }
  });

  it('names the task each Undo brings back, restores exactly that one, and undoes the newest with the U key', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Named Undo');
    await addTasksViaApi(page, ['Buy oat milk', 'Call the plumber', 'Water the plants']);
    await page.reload();
    const before = await serverTodos(page);
    for (const title of ['Buy oat milk', 'Call the plumber']) {
      await row(page, title).getByRole('button', { name: /^Delete/ }).click();
      await row(page, title).waitFor({ state: 'detached' });
    }
    const milk = toastWith(page, '“Buy oat milk”');
    const plumber = toastWith(page, '“Call the plumber”');
    await milk.waitFor();
    await plumber.waitFor();
    // Each toast says what its Undo does, and how to do it from the keyboard (read out: it is a live region).
    expect(await milk.textContent()).toContain('Press U to undo.');
    expect(await milk.getByRole('button').getAttribute('aria-label')).toBe('Undo deleting “Buy oat milk”');
    await snapshot(page, 'undo-named-two-toasts', { fullPage: false });
    // The older toast's Undo brings back the older delete, and only it.
    await milk.getByRole('button', { name: 'Undo deleting “Buy oat milk”' }).click();
    await row(page, 'Buy oat milk').waitFor();
    expect((await serverTodos(page)).map((todo) => todo.title).sort()).toEqual(['Buy oat milk', 'Water the plants']);
    // U undoes the newest action still on offer: the plumber's delete.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('u');
    await row(page, 'Call the plumber').waitFor();
    expect(await serverTodos(page)).toEqual(before);
    // Nothing left on offer: U does nothing more.
    await page.keyboard.press('u');
    await page.waitForTimeout(300);
    expect(await serverTodos(page)).toEqual(before);
    await context.close();
  });

  it('undoes "Clear completed" and "Mark all complete" on the server, every task exactly as before', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Bulk Undo');
    await addTasksViaApi(page, titles(6, 'Chore'));
    const headers = await xsrfHeaders(page);
    const added = await serverTodos(page);
    // Four done (at different times), one of them pinned; two open.
    for (const todo of added.slice(0, 4)) {
      await page.request.put(`/api/todo/update-todo/${todo._id}`, { data: { updateData: { completed: true } }, headers });
    }
    await page.request.put(`/api/todo/update-todo/${added[0]!._id}`, { data: { updateData: { isPinned: true } }, headers });
    await page.reload();
    await row(page, 'Chore 001').waitFor();
    const before = await serverTodos(page);
    expect(before.filter((todo) => todo.completedAt !== null)).toHaveLength(4);

    await page.getByRole('button', { name: 'Clear completed' }).click();
    const cleared = toastWith(page, '4 completed tasks cleared');
    await cleared.waitFor();
    expect(await cleared.getByRole('button').getAttribute('aria-label')).toBe('Undo clearing 4 tasks');
    await until(() => serverTodos(page), (todos) => todos.length === 2);
    await cleared.getByRole('button', { name: /^Undo/ }).click();
    await until(() => serverTodos(page), (todos) => todos.length === 6);
    expect(await serverTodos(page)).toEqual(before);
    await until(() => page.locator('li[data-todo-id]').count(), (count) => count === 6);

    await page.getByRole('button', { name: 'Mark all complete' }).click();
    const marked = toastWith(page, '2 tasks marked complete');
    await marked.waitFor();
    await until(() => serverTodos(page), (todos) => todos.every((todo) => todo.completed));
    await snapshot(page, 'undo-mark-all', { fullPage: false });
    await page.keyboard.press('u');
    await until(() => serverTodos(page), (todos) => todos.filter((todo) => todo.completed).length === 4);
    expect(await serverTodos(page)).toEqual(before);
    await until(() => page.locator('li[data-todo-id] input[type="checkbox"]:checked').count(), (count) => count === 4);
    await context.close();
  });

  it('keeps a toast with Undo while it has the focus, lists U among the shortcuts with keycaps that fit', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Focus Keeper');
    await addTasksViaApi(page, ['Keep me', 'Other']);
    await page.reload();
    await row(page, 'Keep me').getByRole('button', { name: /^Delete/ }).click();
    const undo = toastWith(page, '“Keep me”').getByRole('button', { name: /^Undo/ });
    await undo.focus();
    // Well past its 5 s, it is still there while it has the focus.
    await page.waitForTimeout(6500);
    expect(await undo.isVisible()).toBe(true);
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await toastWith(page, '“Keep me”').waitFor({ state: 'detached', timeout: 8000 });
    // Once gone, U has nothing to undo.
    await page.keyboard.press('u');
    await page.waitForTimeout(300);
    expect((await serverTodos(page)).map((todo) => todo.title)).toEqual(['Other']);

    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.getByText('Undo the last delete, tick, clear or mark-all while its message shows').count()).toBe(1);
    // No keycap is squeezed: each is as wide as its text needs.
    const squeezed = await dialog.locator('kbd').evaluateAll((keys) => keys.filter((key) => key.scrollWidth > key.clientWidth + 1).map((key) => key.textContent));
    expect(squeezed).toEqual([]);
    for (const width of [1024, 375]) {
      await page.setViewportSize({ width, height: 740 });
      await snapshot(page, `shortcuts-dialog-${width}`, { fullPage: false });
    }
    await context.close();
  });

  it('records when a task was completed, shows it on the row, and forgets it when the task is reopened', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Completion Times');
    await addTask(page, 'Finish the report');
    await row(page, 'Finish the report').getByRole('checkbox').check();
    const done = await until(() => serverTodos(page), (todos) => todos[0]!.completedAt !== null);
    expect(Date.parse(done[0]!.completedAt!)).toBeGreaterThan(Date.now() - 60_000);
    await row(page, 'Finish the report').hover();
    const label = row(page, 'Finish the report').locator('time');
    await label.waitFor();
    expect(await label.textContent()).toMatch(/^Completed today at /);
    expect(await label.getAttribute('datetime')).toBe(done[0]!.completedAt);
    // The checkbox is described by it, so a screen reader hears it too.
    const describedBy = await row(page, 'Finish the report').getByRole('checkbox').getAttribute('aria-describedby');
    expect(describedBy).toBe(await label.getAttribute('id'));
    await snapshot(page, 'completed-at-hover', { fullPage: false });
    await row(page, 'Finish the report').getByRole('checkbox').uncheck();
    await until(() => serverTodos(page), (todos) => todos[0]!.completedAt === null);
    expect(await row(page, 'Finish the report').locator('time').count()).toBe(0);
    await context.close();
  });

  it('keeps the offline notice in view while offline, wherever the list is scrolled (300 tasks, 375 px)', async () => {
    const { page, context } = await openSession(browser(), { width: 375, height: 740 });
    await signUp(page, 'Offline Scroller');
    await addTasksViaApi(page, titles(300));
    await page.reload();
    await row(page, 'Task 300').waitFor();
    await context.setOffline(true);
    const notice = page.getByText("You're offline. Your tasks stay on screen");
    await notice.waitFor();
    for (const y of [2000, 8000, 1_000_000]) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      await page.waitForTimeout(100);
      const box = await notice.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(740);
    }
    await snapshot(page, 'offline-notice-scrolled-375', { fullPage: false });
    await context.setOffline(false);
    await notice.waitFor({ state: 'detached' });
    await context.close();
  });

  it('says at the field when a paste was too long, and how much was kept', async () => {
    const { page, context } = await openSession(browser());
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUp(page, 'Long Paster');
    await page.evaluate((text) => navigator.clipboard.writeText(text), 'x'.repeat(5000));
    await newTaskInput(page).focus();
    await page.keyboard.press('Control+V');
    expect(await newTaskInput(page).inputValue()).toHaveLength(500);
    const notice = page.locator('.tasks-form__notice[aria-live="polite"]').filter({ hasText: 'The pasted text had 5,000 characters' });
    await notice.waitFor();
    expect(await notice.textContent()).toBe('The pasted text had 5,000 characters; a task holds 500, so only the first 500 were pasted.');
    expect(await newTaskInput(page).getAttribute('aria-describedby')).toContain(await notice.getAttribute('id'));
    await snapshot(page, 'paste-cut-notice', { fullPage: false });
    // The next change of the person's own clears it.
    await page.keyboard.press('Backspace');
    expect(await page.locator('.tasks-form__notice').textContent()).toBe('');
    await context.close();
  });

  it('lets a row be used while it is still entering on a reload', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Early Clicker');
    await addTasksViaApi(page, titles(12));
    await page.reload();
    // The 8th row waits 2.1 s for its turn in the stagger; it takes a click as soon as the list is there.
    await row(page, 'Task 012').waitFor();
    const eighth = page.locator('li[data-todo-id]').nth(7);
    const opacity = await eighth.evaluate((element) => Number(getComputedStyle(element).opacity));
    expect(opacity).toBeLessThan(1);
    await eighth.getByRole('checkbox').click({ timeout: 1000 });
    await until(() => serverTodos(page), (todos) => todos[7]!.completed);
    expect(await eighth.evaluate((element) => Number(getComputedStyle(element).opacity))).toBeGreaterThan(0.5);
    await context.close();
  });

  it('gives the header a link back to the task list once another screen declares one', async () => {
    const { page, context } = await openSession(browser());
    await page.route('**/remotes.json', async (route) => {
      const response = await route.fetch();
      const catalog = (await response.json()) as { remotes: Record<string, { routes: { path: string; headerLink?: { label: string } }[] }> };
      for (const remote of Object.values(catalog.remotes)) {
        for (const route_ of remote.routes) if (route_.path === '/account') route_.headerLink = { label: 'Account' };
      }
      await route.fulfill({ response, json: catalog });
    });
    await signUp(page, 'Way Back');
    const links = page.getByRole('navigation', { name: 'Screens' }).getByRole('link');
    // The task list's link comes first (order 0), whatever other remotes declare links (issue #19).
    const shown = await links.allTextContents();
    expect(shown[0]).toBe('Tasks');
    expect(shown).toContain('Account');
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.waitForURL('**/account');
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Tasks', exact: true }).getAttribute('aria-current')).toBe('page');
    await context.close();
  });

  it('strips right-to-left override characters from titles on the server', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Bidi Person');
    await newTaskInput(page).fill('invoice\u202Efdp.exe');
    await page.getByRole('button', { name: 'Add Task' }).click();
    await row(page, 'invoicefdp.exe').waitFor();
    expect((await serverTodos(page)).map((todo) => todo.title)).toEqual(['invoicefdp.exe']);
    await context.close();
  });

  it('keeps the draft of a new task when the session ends on another device, for the same person', async () => {
    const phone: Session = await openSession(browser(), { width: 375, height: 740 });
    const account = await signUp(phone.page, 'Draft Keeper');
    await newTaskInput(phone.page).fill('Half-written thought');
    // Another device changes the password: every other session of the account ends.
    const laptop = await openSession(browser());
    await laptop.page.goto('/login');
    await laptop.page.getByLabel('Email').fill(account.email);
    await laptop.page.getByLabel('Password').fill(account.password);
    await laptop.page.getByRole('button', { name: 'Sign In' }).click();
    await laptop.page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    const newPassword = `${account.password}-new`;
    const changed = await laptop.page.request.put('/api/user/password', {
      data: { currentPassword: account.password, newPassword },
      headers: await xsrfHeaders(laptop.page),
    });
    expect(changed.status()).toBe(200);
    // The phone finds out (live stream, or its next request) and goes to the sign-in screen.
    await phone.page.waitForURL('**/login', { timeout: 15_000 });
    await phone.page.getByLabel('Email').fill(account.email);
    await phone.page.getByLabel('Password').fill(newPassword);
    await phone.page.getByRole('button', { name: 'Sign In' }).click();
    await phone.page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    expect(await newTaskInput(phone.page).inputValue()).toBe('Half-written thought');
    // A sign-out of this page's own removes it (after asking, since it would lose it: PRODUCT §2 Header):
    // the next person on this tab starts empty.
    await phone.page.getByRole('button', { name: 'Logout' }).click();
    await phone.page.getByRole('alertdialog', { name: 'Sign out?' }).getByRole('button', { name: 'Sign out' }).click();
    await phone.page.waitForURL('**/login');
    expect(await phone.page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('tm.draft.')))).toEqual([]);
    await laptop.context.close();
    await phone.context.close();
  });
});
