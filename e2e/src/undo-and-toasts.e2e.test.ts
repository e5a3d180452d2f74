import type { Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { until } from './phone.js';
import { addTasksViaApi, describeInBrowser, newTaskInput, row, serverTodos, signUp, snapshot, toastWith, xsrfHeaders } from './app.js';

// Toasts that never cover work, and Undo that names what it undoes, bulk actions too, by key
// (docs/PRODUCT.md §2 Notifications, §4, §10.11.4).

const browser = useBrowser();


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

describeInBrowser('Undo and toasts', () => {
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
      {
        // The task list keeps the toasts in their band at every width: narrow, the margin is too small, and
        // wide, its sidebar of lists takes it (PRODUCT §10.19). The page keeps the toasts' height free below
        // its end, so its last row scrolls clear of them.
        // On a slow machine the two toasts' 5 s may have run out while tabbing: one more delete brings one back.
        if ((await page.locator('[data-rht-toaster] [role="status"]').count()) === 0) {
          await row(page, 'Task 012').getByRole('button', { name: /^(Delete|More actions)/ }).click();
          if (width < 640) await page.getByRole('menuitem', { name: 'Delete' }).click();
          await toastWith(page, '“Task 012”').waitFor();
        }
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const lastRow = await page.locator('li[data-todo-id]').last().boundingBox();
        // The toasts' area as drawn (a toast leaving or not laid out has no box): its top edge.
        const area = await page.locator('[data-rht-toaster]').evaluate((toaster) => {
          const boxes = Array.from(toaster.querySelectorAll('[role="status"]')).map((item) => item.getBoundingClientRect()).filter((box) => box.height > 0);
          return { top: toaster.getBoundingClientRect().top, toasts: boxes.map((box) => Math.round(box.top)) };
        });
        expect(area.toasts.length).toBeGreaterThan(0);
        const lastRowBottom = lastRow!.y + lastRow!.height;
        // The figures come with a failure: which edge crossed which.
        expect({ clear: lastRowBottom <= area.top, lastRowBottom, ...area }).toMatchObject({ clear: true });
        await snapshot(page, `toasts-scrolled-clear-${width}-${theme}`, { fullPage: false });
      }
      if (width >= 1248) {
        // A wide screen beside a 48rem page (Today): the toasts stay bottom-left, entirely in the margin left of it.
        const headers = await xsrfHeaders(page);
        const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
        expect((await page.request.post('/api/todo/add-todo', { data: { title: 'Due today', due: today }, headers })).status()).toBe(201);
        await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).click();
        await page.getByRole('checkbox', { name: 'Mark “Due today” as completed' }).click();
        await toastWith(page, '“Due today”').waitFor();
        const agenda = (await page.locator('.agenda').boundingBox())!.x;
        const toasts = await page.locator('[data-rht-toaster] [role="status"]').evaluateAll((items) => items.map((item) => item.parentElement!.getBoundingClientRect().right));
        expect(toasts.length).toBeGreaterThan(0);
        for (const right of toasts) expect(right).toBeLessThanOrEqual(agenda);
        expect(await page.evaluate(() => document.documentElement.dataset.widePage)).toBeUndefined();
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
    // The row is back at once; the server has it once the Undo's call is answered.
    await until(() => serverTodos(page), (todos) => todos.map((todo) => todo.title).sort().join() === 'Buy oat milk,Water the plants');
    // U undoes the newest action still on offer: the plumber's delete.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('u');
    await row(page, 'Call the plumber').waitFor();
    await until(() => serverTodos(page), (todos) => todos.length === before.length);
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
});
