import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { baseUrl, CHROMIUM_PATH, openSession, useBrowser } from './browser.js';
import { describeInBrowser, newTaskInput, signUp, snapshot } from './app.js';

// The app installed to a home screen (docs/PRODUCT.md §10.13): its manifest as the browser reads it, Chromium's
// own verdict on whether it can be installed, the browser's bar in the app's colours, the "Add a task"
// shortcut, and no dead end for a window without the browser's Back button.

const browser = useBrowser();

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  id: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
  shortcuts: { name: string; url: string }[];
}

const THEME_COLORS = { light: '#ffffff', dark: '#181c2e' };

/** The content of every theme-color meta of the page. */
function themeColors(page: Page): Promise<string[]> {
  return page.evaluate(() => Array.from(document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')).map((meta) => meta.content));
}

/** The header's way home, the product name linking to `/`, is on screen. */
async function expectWayHome(page: Page): Promise<void> {
  // The app's own header (#root), not a kept screen's picture of it (PRODUCT §10.4).
  const home = page.locator('#root header a[href="/"]').first();
  await home.waitFor();
  expect(await home.isVisible()).toBe(true);
  const box = (await home.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.height).toBeGreaterThanOrEqual(24);
}

describeInBrowser('the installable app', () => {
  it('serves its manifest as application/manifest+json, naming PNG icons that are there', async () => {
    const response = await fetch(`${baseUrl()}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Manifest;
    expect(manifest).toMatchObject({ name: 'Task Manager', short_name: 'Tasks', id: '/', start_url: '/', scope: '/', display: 'standalone', theme_color: THEME_COLORS.light });
    for (const icon of manifest.icons) {
      const served = await fetch(new URL(icon.src, baseUrl()));
      expect([icon.src, served.status, served.headers.get('content-type')?.split(';')[0]]).toEqual([icon.src, 200, icon.type]);
    }
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable' && icon.sizes === '512x512')).toBe(true);
    expect(manifest.shortcuts.map((shortcut) => shortcut.url)).toEqual(['/?new=1']);
    const touchIcon = await fetch(`${baseUrl()}/icons/apple-touch-icon.png`);
    expect([touchIcon.status, touchIcon.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('is installable as Chromium judges it: the manifest reads without errors, and nothing stands in the way', async () => {
    // A profile of its own on disk: Chromium never offers to install from an incognito-like profile.
    const profile = mkdtempSync(path.join(tmpdir(), 'tm-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      baseURL: baseUrl(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      // The service worker (shell/build/service-worker.mjs) takes the page on its next load.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.reload();
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.url).toBe(`${baseUrl()}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      expect((JSON.parse(manifest.data ?? '{}') as Manifest).name).toBe('Task Manager');
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('paints the browser’s bar in the colour of the app’s theme, from the first paint and as the theme switches', async () => {
    const { page, context } = await openSession(browser(), { width: 390, height: 844 });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await themeColors(page)).toEqual([THEME_COLORS.light, THEME_COLORS.light]);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    expect(await themeColors(page)).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
    // Saved: the next load has the dark bar before any bundle has run (the head's own script).
    await page.route('**/assets/**', (route) => route.abort());
    await page.reload();
    expect(await themeColors(page)).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
    await context.close();
  });

  it('opens the "Add a task" shortcut with the cursor in the new-task field, then leaves the address plain', async () => {
    const { page, context } = await openSession(browser(), { width: 390, height: 844 });
    await signUp(page, 'Shortcut Person');
    await page.goto('/?new=1');
    await newTaskInput(page).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('placeholder') === 'What would you like to accomplish?');
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await page.keyboard.type('Typed straight away');
    expect(await newTaskInput(page).inputValue()).toBe('Typed straight away');
    await context.close();
  });

  it('leaves no dead end without a Back button: a way home on every screen, dialogs that close, Retry on every failure', async () => {
    const { page, context } = await openSession(browser(), { width: 390, height: 844 });
    // Signed out: the sign-in and sign-up screens link to each other, and the product name goes home.
    for (const address of ['/login', '/signup', '/nowhere']) {
      await page.goto(address);
      await page.locator('#root main h1').waitFor();
      await expectWayHome(page);
    }
    await page.getByRole('button', { name: 'About Task Manager' }).click();
    const about = page.getByRole('dialog', { name: 'About Task Manager' });
    await about.waitFor();
    await about.getByRole('button', { name: 'Close' }).click();
    await about.waitFor({ state: 'hidden' });

    // Signed in: every screen has the header's links back to the task list.
    await signUp(page, 'Standalone Person');
    for (const address of ['/', '/insights', '/account']) {
      await page.goto(address);
      await page.locator('#root main h1').waitFor();
      await expectWayHome(page);
      expect(await page.getByRole('link', { name: 'Tasks', exact: true }).isVisible()).toBe(true);
    }
    await snapshot(page, 'standalone-account-390', { fullPage: false });

    // A screen that cannot load, screens that cannot be listed, a server out of reach: Retry, and the way home.
    await page.route('**/remotes/*/mf-manifest.json', (route) => route.abort());
    await page.goto('/');
    await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await expectWayHome(page);
    await page.unroute('**/remotes/*/mf-manifest.json');

    await page.route('**/remotes.json', (route) => route.fulfill({ status: 500, body: 'broken' }));
    await page.goto('/');
    await page.getByText('The screens could not be loaded.').waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await expectWayHome(page);
    await page.unroute('**/remotes.json');

    await page.route('**/api/user/me', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' }));
    await page.goto('/');
    await page.getByRole('heading', { name: "Can't reach Task Manager" }).waitFor();
    expect(await page.getByRole('button', { name: /Retry|Try again/ }).isVisible()).toBe(true);
    await expectWayHome(page);
    await context.close();
  });
});
