import { openSession, useBrowser, type Session } from './browser.js';
import { until } from './phone.js';
import { addTask, addTasksViaApi, describeInBrowser, newTaskInput, reloadAsFirstLoad, row, serverTodos, signUp, snapshot, xsrfHeaders } from './app.js';

// The details of a task row and the screen around it: the completion time, the offline notice, a paste cut
// at the title's limit, rows usable while they enter, the header's way back, right-to-left overrides, and
// the draft of a new task across a session's end (docs/PRODUCT.md §2, §9, §10.5, §10.11).

const browser = useBrowser();


const titles = (count: number, prefix = 'Task') => Array.from({ length: count }, (_, index) => `${prefix} ${String(index + 1).padStart(3, '0')}`);

describeInBrowser('the details of a task row and its screen', () => {
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
    const notice = page.getByText("You're offline. Your changes are kept on this device");
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
    // The 8th row waits 2.1 s for its turn in the stagger. The page's animations run at a twentieth of their
    // speed here, so that wait outlasts any busy machine's steps: the click surely lands while it still waits.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Animation.enable');
    await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.05 });
    await reloadAsFirstLoad(page);
    const opacity: unknown = await page
      .waitForFunction(() => {
        const li = document.querySelectorAll('li[data-todo-id]')[7];
        return li === undefined ? false : { opacity: Number(getComputedStyle(li).opacity) };
      })
      .then((handle) => handle.jsonValue());
    expect(opacity).toMatchObject({ opacity: expect.any(Number) });
    expect((opacity as { opacity: number }).opacity).toBeLessThan(1);
    const eighth = page.locator('li[data-todo-id]').nth(7);
    await eighth.getByRole('checkbox').click();
    await until(() => serverTodos(page), (todos) => todos[7]!.completed);
    // The pointer reaching it brought it in at once, long before its slowed turn.
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
    // The task list's link comes first (order 0), whatever other remotes declare links.
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
    // The row shows once the device keeps the task; the server has it once the sync has sent it.
    const kept = await until(() => serverTodos(page), (todos) => todos.length > 0);
    expect(kept.map((todo) => todo.title)).toEqual(['invoicefdp.exe']);
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
