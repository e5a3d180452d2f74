import type { Page } from 'playwright-core';
import { useOwnApp } from './browser.js';
import { addTask, describeInBrowser, row, seriousAxeViolations, signUp, snapshot, toastWith } from './app.js';

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

  it('plays no sound and fires no confetti for a tick the server did not take, and puts the box back', async () => {
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
      // click(), not check(): the box is ticked at once and put back as soon as the 503 arrives, which may be
      // before Playwright looks at it again (check() would then report that the click changed nothing).
      await row(page, 'Fragile task').getByRole('checkbox').click();
      await toastWith(page, /todos service is unavailable/).waitFor();
      await page.waitForFunction(() => !(document.querySelector('li[data-todo-id] input[type=checkbox]') as HTMLInputElement).checked);
      expect(await page.locator('canvas').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __played: string[] }).__played)).not.toContain('/sounds/success.mp3');

      // A failed delete brings the row back and says so.
      await row(page, 'Fragile task').getByRole('button', { name: 'Delete “Fragile task”' }).click();
      await toastWith(page, /todos service is unavailable/).waitFor();
      await row(page, 'Fragile task').waitFor();
    } finally {
      await app.stack().startService('todos');
    }
    // Once the server takes it: the sound and the confetti.
    await row(page, 'Fragile task').getByRole('checkbox').check();
    await page.locator('canvas').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __played: string[] }).__played)).toContain('/sounds/success.mp3');
    await page.context().close();
  });

  it('lets a delete win over a tick still on its way', async () => {
    const page = await newPage();
    await signUp(page, 'Quick Fingers');
    await addTask(page, 'Tick then delete');
    await page.route('**/api/todo/update-todo/**', async (route) => {
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
