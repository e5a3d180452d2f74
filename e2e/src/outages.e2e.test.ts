import type { Page } from 'playwright-core';
import { useOwnApp } from './browser.js';
import { addTask, describeInBrowser, row, seriousAxeViolations, serverTodos, signUp, snapshot, toastWith } from './app.js';

// A failing service is not a sign-out, and nothing is celebrated before the server confirms
// (docs/PRODUCT.md §10.1, §10.6). This file runs its own app, so it can stop and restart the services.

const app = useOwnApp({ web: true });

async function newPage(): Promise<Page> {
  const context = await app.browser().newContext({ baseURL: app.stack().url, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

describeInBrowser('outages of a service', () => {
  it('calls /user/me once per page load', async () => {
    const page = await newPage();
    await signUp(page, 'Counted Once');
    let calls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/user/me') calls += 1;
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    await page.getByText('No tasks').waitFor();
    await page.waitForTimeout(500);
    expect(calls).toBe(1);
    await page.context().close();
  });

  it('keeps a signed-in user out of /login while svc-users is down, and recovers with Retry', async () => {
    const page = await newPage();
    await signUp(page, 'Still Signed In');
    await app.stack().stopService('users');
    try {
      await page.reload();
      const problem = page.getByRole('heading', { name: "Can't reach Task Manager" });
      await problem.waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      // The shell keeps its header and theme.
      await page.getByTitle('Switch to dark mode').click();
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
      await snapshot(page, 'cant-reach-dark');
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Retry while still down: the same state, no sign-in screen.
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('button', { name: 'Retry' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
    } finally {
      await app.stack().startService('users');
    }
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Hello, Still Signed In!').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  it('keeps a tick the server could not take, with no sound or confetti until it does; a delete likewise', async () => {
    const page = await newPage();
    await page.addInitScript(() => {
      const played: string[] = [];
      (window as unknown as { __played: string[] }).__played = played;
      HTMLMediaElement.prototype.play = function play() {
        played.push(new URL(this.src).pathname);
        return Promise.resolve();
      };
    });
    await signUp(page, 'Unlucky Ticker');
    await addTask(page, 'Fragile task');
    await app.stack().stopService('todos');
    try {
      // The tick is kept on the device (PRODUCT §10.4): the box stays ticked, the sync line says it waits, and
      // nothing celebrates a change the server has not taken (§10.6).
      await row(page, 'Fragile task').getByRole('checkbox').click();
      const line = page.locator('.tasks-sync__summary');
      await line.filter({ hasText: /^1 change waiting to sync.*The server did not answer; trying again soon\./ }).waitFor({ timeout: 15_000 });
      expect(await row(page, 'Fragile task').getByRole('checkbox').isChecked()).toBe(true);
      expect(await page.locator('canvas').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __played: string[] }).__played)).not.toContain('/sounds/success.mp3');
    } finally {
      await app.stack().startService('todos');
    }
    // Once the server is back, the tick reaches it, once.
    await page.locator('.tasks-sync__summary').filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 40_000 });
    expect((await serverTodos(page)).map((todo) => [todo.title, todo.completed])).toEqual([['Fragile task', true]]);
    // A tick the server takes at once: the sound and the confetti.
    await row(page, 'Fragile task').getByRole('checkbox').uncheck();
    await row(page, 'Fragile task').getByRole('checkbox').check();
    await page.locator('canvas').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __played: string[] }).__played)).toContain('/sounds/success.mp3');
    await page.context().close();
  });

  it('lets a delete win over a tick still on its way', async () => {
    const page = await newPage();
    await signUp(page, 'Quick Fingers');
    await addTask(page, 'Tick then delete');
    await page.route('**/api/todo/sync', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await row(page, 'Tick then delete').getByRole('checkbox').check();
    await row(page, 'Tick then delete').getByRole('button', { name: 'Delete “Tick then delete”' }).click();
    await row(page, 'Tick then delete').waitFor({ state: 'detached' });
    await page.waitForTimeout(1500);
    expect(await row(page, 'Tick then delete').count()).toBe(0);
    expect(await toastWith(page, /not found/i).count()).toBe(0);
    await page.context().close();
  });
});
