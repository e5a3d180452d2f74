import { randomBytes } from 'node:crypto';
import { signUp as signUpThroughApi } from '@tm/test-support';
import type { Page, Response } from 'playwright-core';
import { describeInBrowser, row, signUp, snapshot, xsrfHeaders } from './app.js';
import { baseUrl, openSession, useBrowser } from './browser.js';

// What a person on a phone or a slow network gets (docs/ARCHITECTURE.md "Delivery to the
// browser"): compressed files and answers with the live stream untouched, the loading screen painted by the
// HTML alone, the page's first requests started by the HTML, a large list over a slow link, and repeat visits
// through the service worker with nothing personal kept on the device after sign-out. Behaviour only: the
// figures are `pnpm bench`'s (perf/bench/bench-mobile.mjs).

const browser = useBrowser();
const LIST_PATH = '/api/todo/fetch-todo';

/** Makes the page's device one that keeps no list (no kept person, no databases), as on a first visit. */
async function forgetDeviceList(page: Page): Promise<void> {
  await page.evaluate(async () => {
    localStorage.removeItem('tm.device-user');
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith('tm-sync-')) continue;
      await new Promise((resolve) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = request.onerror = request.onblocked = resolve;
      });
    }
  });
}

/** Adds `count` tasks through the API with the page's session, a few requests at a time. */
async function seedTasks(page: Page, count: number, title: (n: number) => string): Promise<void> {
  const headers = await xsrfHeaders(page);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await page.request.post('/api/todo/add-todo', { data: { title: title(next) }, headers });
      if (response.status() !== 201) throw new Error(`add-todo answered ${response.status()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** Every response of the page from now on, by path. */
function responsesOf(page: Page): Response[] {
  const seen: Response[] = [];
  page.on('response', (response) => seen.push(response));
  return seen;
}

const pathOf = (response: Response) => new URL(response.url()).pathname;

describeInBrowser('delivery to the browser in Chromium', () => {
  it('sends scripts, styles and large JSON compressed, and the live stream still delivers at once', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Compressed Reader');
    await seedTasks(page, 40, (n) => `A task with a longish title, number ${n}`);
    // A device that keeps no list: the whole list is read (what changed since is compressed the same way).
    await forgetDeviceList(page);
    const responses = responsesOf(page);
    // The live stream opens after the list is drawn: its answer is awaited, however late it comes.
    const streamOpened = page.waitForResponse((response) => pathOf(response) === '/api/todo/events', { timeout: 30_000 });
    // A cold load: with a route in place, Chromium keeps nothing in its HTTP cache.
    await page.route('**/*', (route) => route.continue());
    await page.reload();
    await row(page, 'A task with a longish title, number 40').waitFor();

    // Every script worth compressing (the build writes a copy of each over 1 KiB) arrived in brotli.
    const scripts = [];
    for (const response of responses) {
      if (response.request().resourceType() === 'script' && response.status() === 200 && (await response.body()).length > 1024) scripts.push(response);
    }
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) {
      expect({ script: pathOf(script), encoding: await script.headerValue('content-encoding') }).toEqual({ script: pathOf(script), encoding: 'br' });
    }
    const list = responses.find((response) => pathOf(response) === LIST_PATH);
    expect(await list?.headerValue('content-encoding')).toBe('gzip');
    const events = await streamOpened;
    expect(await events.headerValue('content-encoding')).toBeNull();

    // A change made elsewhere (another client of the same account) appears on the open page by the stream.
    const headers = await xsrfHeaders(page);
    expect((await page.request.post('/api/todo/add-todo', { data: { title: 'Arrived on the stream' }, headers })).status()).toBe(201);
    await row(page, 'Arrived on the stream').waitFor({ timeout: 5000 });
    await context.close();
  });

  it('paints the loading screen from the HTML alone, with JavaScript blocked, and says what is missing', async () => {
    const { page, context } = await openSession(browser(), { javaScriptEnabled: false, width: 375, height: 740 });
    await page.goto('/login');
    const screen = page.getByRole('status', { name: 'Loading' });
    await screen.waitFor();
    await page.getByText('Starting up').waitFor();
    await page.getByText('Connecting to the server...').waitFor();
    // Inside <noscript>, which Playwright's own visibility check does not look into: its box is read instead.
    const note = await page.locator('.loading-screen__noscript').evaluate((element) => ({ text: element.textContent, height: element.getBoundingClientRect().height }));
    expect(note.text).toMatch(/^Task Manager needs JavaScript to run/);
    expect(note.height).toBeGreaterThan(0);
    // One character at a time is visible, drawn as a picture.
    const visible = await page.locator('.loading-screen__character').evaluateAll((items) => items.filter((item) => getComputedStyle(item).visibility === 'visible').length);
    expect(visible).toBe(1);
    expect(await page.getByTestId('loading-character').innerText()).toMatch(/—/);
    await snapshot(page, 'loading-screen-no-javascript-375');
    await context.close();
  });

  it('takes the loading screen over without a jump, in the saved theme from the first paint', async () => {
    const { page, context } = await openSession(browser());
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    // The screen the HTML painted, remembered before any script of the app runs.
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { __painted: Element | null }).__painted = document.querySelector('.loading-screen');
      });
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/remotes.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByRole('status', { name: 'Loading' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // React's screen has replaced the HTML's (while the catalog is held) and carries on from it: the character
    // it shows is the one of the time since the HTML's screen started, and one character at a time shows.
    await page.waitForFunction(() => {
      const screen = document.querySelector('.loading-screen');
      return screen !== null && screen !== (window as unknown as { __painted: Element | null }).__painted;
    });
    const shown = await page.evaluate(() => {
      const screen = document.querySelector<HTMLElement>('.loading-screen')!;
      const elapsed = Number.parseFloat(screen.style.getPropertyValue('--loading-elapsed'));
      const visible = Array.from(screen.querySelectorAll('.loading-screen__character')).map((item) => getComputedStyle(item).visibility === 'visible');
      return { elapsed, visible };
    });
    expect(shown.elapsed).toBeGreaterThanOrEqual(0);
    expect(shown.visible.filter(Boolean)).toHaveLength(1);
    const expected = Math.floor(shown.elapsed / 2000) % 6;
    // The character of the moment React took over, or (had a change fallen in between) the next one.
    expect([expected, (expected + 1) % 6]).toContain(shown.visible.indexOf(true));
    await snapshot(page, 'loading-screen-taken-over-dark');
    release();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await context.close();
  });

  it('starts the current-user check, the catalog, the manifest and the list from the HTML, each asked once', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Early Bird');
    await seedTasks(page, 3, (n) => `Early task ${n}`);
    // A device that keeps no list (a first visit here): the HTML asks for the whole list.
    await forgetDeviceList(page);
    const requests: { path: string; type: string }[] = [];
    page.on('request', (request) => requests.push({ path: new URL(request.url()).pathname, type: request.resourceType() }));
    await page.reload();
    await row(page, 'Early task 3').waitFor();
    const asked = (path: string) => requests.filter((request) => request.path === path);
    // `fetch` from the HTML's script, not the XHR of the app's HTTP client: the bundles took the answers.
    for (const path of ['/api/user/me', '/remotes.json', '/remotes/tasks/mf-manifest.json', LIST_PATH]) {
      expect({ path, requests: asked(path) }).toEqual({ path, requests: [{ path, type: 'fetch' }] });
    }
    await context.close();
  });

  it('loads a list of over 1 MB on a slow link: a download that keeps coming is never cut by the 10 s timeout', async () => {
    // Signed up and filled through the API, so the open page is not also sent 6 000 live changes.
    const { client } = await signUpThroughApi(baseUrl(), { name: 'Long Lister' });
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 6000) {
          next += 1;
          // A random part in each title, so the list does not shrink to almost nothing when compressed.
          const added = await client.post('/api/todo/add-todo', { title: `Task ${next} of a very long list, ${randomBytes(12).toString('hex')}` });
          if (added.status !== 201) throw new Error(`add-todo answered ${added.status}`);
        }
      }),
    );
    const { page, context } = await openSession(browser());
    await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: baseUrl() })));
    const everything = page.getByText('You have 6000 tasks left. Keep going!');
    await page.goto('/');
    await everything.waitFor({ timeout: 30_000 });
    // The slow link's reload is a device that keeps no list: the whole list is read.
    await forgetDeviceList(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // 10 KB/s: the list (over 1 MB of JSON, some 150 KB compressed) takes well over 10 s to arrive; the
    // page's scripts come from the browser's cache.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 100, downloadThroughput: 10 * 1024, uploadThroughput: 10 * 1024 });
    const answer = page.waitForResponse((response) => pathOf(response) === LIST_PATH, { timeout: 60_000 });
    const started = Date.now();
    await page.reload({ timeout: 60_000 });
    const list = await answer;
    expect((await list.body()).length).toBeGreaterThan(1024 * 1024);
    await everything.waitFor({ timeout: 60_000 });
    expect(Date.now() - started).toBeGreaterThan(10_000); // the set-up really was slower than the timeout
    expect(await page.getByRole('alert').filter({ hasText: 'We could not load your tasks' }).count()).toBe(0);
    await context.close();
  }, 150_000);
});

describeInBrowser('repeat visits through the service worker in Chromium', () => {
  it('serves the shell from its cache, revalidates the catalog, and keeps nothing personal after sign-out', async () => {
    const { page, context } = await openSession(browser(), { serviceWorkers: 'allow' });
    await signUp(page, 'Returning Reader');
    await seedTasks(page, 2, (n) => `Kept task ${n}`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const responses = responsesOf(page);
    // The rows show from the device's list before its catch-up with the server has been answered.
    const caughtUp = page.waitForResponse((response) => pathOf(response) === LIST_PATH || pathOf(response) === '/api/todo/changes');
    await page.reload();
    await row(page, 'Kept task 2').waitFor();
    await caughtUp;
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const navigation = responses.find((response) => response.request().isNavigationRequest());
    expect(navigation?.fromServiceWorker()).toBe(true);
    const catalog = responses.filter((response) => pathOf(response) === '/remotes.json');
    // From the service worker, which asked the network for it (NetworkFirst): a redeploy is seen at once.
    expect(catalog.map((response) => response.fromServiceWorker())).toEqual([true]);
    // The list is the device's, brought up to date by what changed since (PRODUCT §10.4), never from the worker's caches.
    expect(responses.filter((response) => pathOf(response) === LIST_PATH || pathOf(response) === '/api/todo/changes').map((response) => response.fromServiceWorker())).toEqual([false]);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    // The device's copy of the list goes with the sign-out (SECURITY.md "What is kept on the device").
    await page.waitForFunction(async () => (await indexedDB.databases()).every((database) => database.name?.startsWith('workbox')), undefined, { timeout: 10_000 });
    const kept = await page.evaluate(async () => {
      const cached: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) cached.push(new URL(request.url).pathname);
      }
      const databases = 'databases' in indexedDB ? (await indexedDB.databases()).map((database) => database.name) : [];
      return { cached, databases, storage: Object.keys(localStorage).sort() };
    });
    expect(kept.cached.filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(kept.cached).toContain('/index.html');
    expect(kept.databases.filter((name) => !name?.startsWith('workbox'))).toEqual([]);
    // Public things only: the theme, the catalog and the page files last used; no sign of who was here.
    expect(kept.storage.filter((key) => !['theme', 'tm:catalog', 'tm:page-files'].includes(key))).toEqual([]);
    await context.close();
  });
});
