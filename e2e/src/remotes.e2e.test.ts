import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describeInBrowser, seriousAxeViolations, signUp, snapshot } from './app.js';
import { openSession, useBrowser } from './browser.js';

const browser = useBrowser();
const ROOT = path.join(__dirname, '..', '..');

interface CatalogRoute {
  path: string;
  guard: string;
  title: string;
  headerLink?: { label: string; order?: number };
}
type Catalog = { remotes: Record<string, { routes: CatalogRoute[] }> };

/** The catalog the gateway serves, changed by `edit`, answered in place of /remotes.json for this page; resolves the catalog served. */
async function editCatalog(page: Page, edit: (catalog: Catalog) => void): Promise<{ served: () => Catalog }> {
  let served: Catalog | undefined;
  await page.route('**/remotes.json', async (route) => {
    const response = await route.fetch();
    const catalog = (await response.json()) as Catalog;
    edit(catalog);
    served = catalog;
    await route.fulfill({ response, json: catalog });
  });
  return {
    served: () => {
      if (!served) throw new Error('the page has not read the catalog yet');
      return served;
    },
  };
}

/**
 * The header links PRODUCT §2 promises for this catalog, read from it (no test names the set of
 * remotes, so a new remote with a link passes): the routes the visitor or user may open that declare one, by
 * declared order then catalog order, and the task list's own (order 0) once there is any.
 */
function expectedLinks(catalog: Catalog, signedIn: boolean): string[] {
  const admitted = Object.values(catalog.remotes)
    .flatMap((remote) => remote.routes)
    .filter((route) => route.guard === 'public' || (route.guard === 'signed-in') === signedIn);
  const links = admitted.flatMap((route) => (route.headerLink ? [{ path: route.path, ...route.headerLink }] : []));
  const home = admitted.find((route) => route.path === '/');
  if (links.length > 0 && home && !links.some((link) => link.path === '/')) links.unshift({ path: '/', label: home.title, order: 0 });
  return links
    .map((link, index) => ({ link, index }))
    .sort((a, b) => (a.link.order ?? Infinity) - (b.link.order ?? Infinity) || a.index - b.index)
    .map(({ link }) => link.label);
}

/**
 * A copy of the built tasks remote whose consumed react and react-dom ask for `range` instead of the
 * same-major range shared-deps.mjs wrote (`^19.0.0`): what a remote built against another React would
 * declare. Served in place of /remotes/tasks/ for this page.
 */
async function serveTasksRemoteRequiring(page: Page, range: string): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tasks-remote-'));
  cpSync(path.join(ROOT, 'mfe-tasks', 'dist'), dir, { recursive: true });
  let replaced = 0;
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const changed = text.replaceAll('requiredVersion:"^19.0.0"', () => {
      replaced += 1;
      return `requiredVersion:${JSON.stringify(range)}`;
    });
    if (changed !== text) writeFileSync(path.join(dir, file), changed);
  }
  expect(replaced).toBeGreaterThan(0);
  await page.route('**/remotes/tasks/**', (route) => route.fulfill({ path: path.join(dir, new URL(route.request().url()).pathname.replace(/^\/remotes\/tasks\//, '')) }));
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The About dialog's rows of one part, "term: value". */
async function rowsOf(page: Page, part: string): Promise<string[]> {
  return page
    .getByRole('dialog', { name: 'About Task Manager' })
    .getByRole('region', { name: part, exact: true })
    .locator('.about-dialog__row')
    .evaluateAll((rows) => rows.map((row) => `${row.querySelector('dt')?.textContent}: ${row.querySelector('dd')?.textContent}`));
}

describeInBrowser('remotes from the catalog in Chromium', () => {
  it('shows the About dialog with the builds of the shell and the remotes, signed out and signed in, wide and narrow', async () => {
    for (const [width, theme] of [
      [1280, 'light'],
      [375, 'dark'],
    ] as const) {
      const { page, context, errors } = await openSession(browser(), { width });
      await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      await snapshot(page, `header-signed-out-${width}-${theme}`, { fullPage: false });
      await page.getByRole('button', { name: 'About Task Manager' }).click();
      const dialog = page.getByRole('dialog', { name: 'About Task Manager' });
      await dialog.waitFor();
      await dialog.getByText('You are using version 0.1.0.').waitFor();
      await dialog.getByText('Technical details').click();
      const shell = await rowsOf(page, 'Shell');
      expect(shell[0]).toBe('Version: 0.1.0');
      expect(shell[1]).toMatch(/^Build: (?!dev$)\S+$/);
      // The sign-in screen is mfe_auth's: loaded, its version read from its manifest; mfe_tasks is not loaded.
      expect(await rowsOf(page, 'mfe_auth')).toEqual(expect.arrayContaining(['Version: 0.1.0', 'Manifest: /remotes/auth/mf-manifest.json']));
      expect(await dialog.getByRole('region', { name: 'mfe_auth' }).getByText('Loaded', { exact: true }).count()).toBe(1);
      expect(await dialog.getByRole('region', { name: 'mfe_tasks' }).getByText('Not loaded').count()).toBe(1);
      await snapshot(page, `about-signed-out-${width}-${theme}`, { fullPage: false });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('About Task Manager');

      await signUp(page, 'About Person');
      await snapshot(page, `header-signed-in-${width}-${theme}`, { fullPage: false });
      await page.getByRole('button', { name: 'Account menu' }).click();
      await snapshot(page, `account-menu-${width}-${theme}`, { fullPage: false });
      await page.getByRole('button', { name: 'About Task Manager' }).click();
      await dialog.waitFor();
      await dialog.getByText('Technical details').click();
      expect(await dialog.getByRole('region', { name: 'mfe_tasks' }).getByText('Loaded', { exact: true }).count()).toBe(1);
      await snapshot(page, `about-signed-in-${width}-${theme}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Account menu');
      // The signed-out check's 401 is the browser's log line, not the app's.
      expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
      await context.close();
    }
  });

  it('shows the header links a catalog declares, to those the guard admits, the current one marked', async () => {
    for (const width of [1280, 375]) {
      const { page, context } = await openSession(browser(), { width });
      const { served } = await editCatalog(page, (catalog) => {
        for (const remote of Object.values(catalog.remotes)) {
          for (const route of remote.routes) {
            if (route.path === '/') route.headerLink = { label: 'Tasks' };
            if (route.path === '/account') route.headerLink = { label: 'Account' };
            if (route.path === '/signup') route.headerLink = { label: 'Sign up' };
          }
        }
      });
      await page.goto('/login');
      const links = page.getByRole('navigation', { name: 'Screens' }).getByRole('link');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      // What the catalog declares, whatever other remotes it holds.
      expect(await links.allTextContents()).toEqual(expectedLinks(served(), false));
      expect(await links.allTextContents()).toContain('Sign up');
      await signUp(page, 'Link Person');
      expect(await links.allTextContents()).toEqual(expectedLinks(served(), true));
      console.info(`header links signed in, from the catalog: ${expectedLinks(served(), true).join(', ')}`);
      expect(await links.allTextContents()).toEqual(expect.arrayContaining(['Account', 'Tasks']));
      // The header's link (the task list's own sidebar has "All tasks", to the same address).
      const tasksLink = page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Tasks', exact: true });
      expect(await tasksLink.getAttribute('aria-current')).toBe('page');
      await snapshot(page, `header-links-${width}`, { fullPage: false });
      await page.getByRole('link', { name: 'Account', exact: true }).click();
      await page.waitForURL('**/account');
      // The router shows the new page once its code is in (a transition): the header follows with it.
      await page.locator('a[aria-current="page"]', { hasText: 'Account' }).waitFor();
      expect(await page.getByRole('link', { name: 'Account', exact: true }).getAttribute('aria-current')).toBe('page');
      expect(await tasksLink.getAttribute('aria-current')).toBeNull();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('opens every screen the catalog links to, each with its title and without a fallback', async () => {
    const { page, context, errors } = await openSession(browser());
    await signUp(page, 'Every Link');
    const catalog = (await (await page.request.get('/remotes.json')).json()) as Catalog;
    const linked = Object.values(catalog.remotes)
      .flatMap((remote) => remote.routes)
      .filter((route) => route.headerLink && route.guard !== 'public');
    expect(linked.length).toBeGreaterThan(0);
    for (const route of linked) {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: route.headerLink!.label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === route.path);
      await page.locator('a[aria-current="page"]', { hasText: route.headerLink!.label }).waitFor();
      await page.waitForFunction((title) => document.title.includes(title), route.title);
      expect(await page.getByRole('alert').filter({ hasText: /could not be loaded/ }).count()).toBe(0);
      console.info(`opened ${route.path} (${route.title}) from its header link`);
    }
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  });

  it('gives a remote built against another major of React the fallback with Retry and logs why, and shares React with a compatible one', async () => {
    const { page, context, errors } = await openSession(browser());
    await signUp(page, 'Skew Person');
    const cleanUp = await serveTasksRemoteRequiring(page, '^20.0.0');
    try {
      await page.reload();
      const fallback = page.getByRole('alert').filter({ hasText: 'The task list could not be loaded.' });
      await fallback.waitFor();
      await snapshot(page, 'version-skew-fallback');
      expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(1);
      const why = errors.find((text) => text.includes('was built for'));
      expect(why).toMatch(/Remote mfe_tasks was built for react(-dom)? \^20\.0\.0, but this page runs react(-dom)? 19\.3\.1 \(from shell\)/);
      // The header still works.
      await page.getByTitle('Switch to dark mode').click();
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    } finally {
      cleanUp();
    }
    await page.unrouteAll();

    // A remote that asks for a range the shell's copy satisfies (another minor) loads on the shell's React.
    const cleanUpMinor = await serveTasksRemoteRequiring(page, '^19.1.0');
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    } finally {
      cleanUpMinor();
    }
    await context.close();
  });
});
