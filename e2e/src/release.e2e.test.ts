// The release proofs, on a gateway of their own whose remotes come from a REMOTES_FILE (docs/DEPLOY.md
// "The remote catalog"): a remote is added, redeployed and rolled back by editing that file, with no restart
// and no rebuild of the shell.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { startStack, type RunningStack } from '@tm/test-support';
import { addTask, describeInBrowser, row, signUp, snapshot } from './app.js';
import { openSession, useBrowser } from './browser.js';

const run = promisify(execFile);
const browser = useBrowser();

/**
 * The greeting of the app's own page (#root). A page that opens on the kept screen (PRODUCT §10.4) holds its
 * picture of the last greeting too, until the app's own list is drawn.
 */
const greeting = (page: Page, text: string) => page.locator('#root').getByText(text);
const ROOT = path.join(__dirname, '..', '..');
const RSPACK = path.join(ROOT, 'node_modules/@rspack/cli/bin/rspack.js');
/** Builds of the test, inside the repository (git ignores .test-data) so that the root's node_modules are found. */
const SCRATCH = path.join(ROOT, '.test-data');

/** sha256 of every file under `dir`, by relative path. */
function hashes(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex')];
    }),
  );
}

/** `rspack build --mode production` in a remote's folder, as `pnpm --filter <remote> build` runs it; returns the wall time (ms). */
async function build(dir: string, buildId: string): Promise<number> {
  const started = Date.now();
  await run(process.execPath, [RSPACK, 'build', '--mode', 'production'], { cwd: dir, env: { ...process.env, BUILD_ID: buildId, NO_COLOR: '1' }, timeout: 90_000 });
  return Date.now() - started;
}

/** A remote's dependencies, as in the scaffold's own test: mfe-tasks' node_modules (the same list and versions) instead of `pnpm install`. */
function linkDependencies(dir: string): void {
  symlinkSync(path.join(ROOT, 'mfe-tasks/node_modules'), path.join(dir, 'node_modules'));
}

describeInBrowser('releasing remotes by configuration (REMOTES_FILE), in Chromium', () => {
  let scratch: string;
  let remotesFile: string;
  let app: RunningStack;
  let shellBefore: Record<string, string>;
  const remotes: Record<string, string> = { auth: path.join(ROOT, 'mfe-auth/dist'), tasks: path.join(ROOT, 'mfe-tasks/dist') };

  /** Replaces the REMOTES_FILE at once, as a deploy step does (write elsewhere, rename), and waits until the gateway's catalog shows `until`. */
  async function pointAt(list: Record<string, string>, until: (catalog: { remotes: Record<string, { buildId?: string }> }) => boolean): Promise<void> {
    writeFileSync(`${remotesFile}.tmp`, JSON.stringify(list, null, 2));
    renameSync(`${remotesFile}.tmp`, remotesFile);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const catalog = (await (await fetch(`${app.url}/remotes.json`)).json()) as Parameters<typeof until>[0];
      if (until(catalog)) return;
      if (Date.now() > deadline) throw new Error(`the gateway did not take up ${remotesFile}: ${JSON.stringify(catalog)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    shellBefore = hashes(path.join(ROOT, 'shell/dist'));
    mkdirSync(SCRATCH, { recursive: true });
    scratch = mkdtempSync(path.join(SCRATCH, 'release-'));
    remotesFile = path.join(scratch, 'remotes.json');
    writeFileSync(remotesFile, JSON.stringify(remotes));
    // startStack also passes REMOTES (every built mfe-*/dist); the gateway takes REMOTES_FILE instead.
    app = await startStack({ web: true, env: { REMOTES_FILE: remotesFile } });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('adds a remote scaffolded and built on its own: a fresh page shows its header link and route, the shell’s build untouched', async () => {
    const started = Date.now();
    await run(process.execPath, [path.join(ROOT, 'scripts/new-remote.mjs'), 'stats', '--route', '/stats', '--dir', scratch]);
    const stats = path.join(scratch, 'mfe-stats');
    linkDependencies(stats);
    const buildMs = await build(stats, 'stats-1');
    console.info(`scaffold + build of mfe-stats: ${Date.now() - started} ms (build ${buildMs} ms)`);

    const { page, context, errors } = await openSession(browser(), { baseUrl: app.url, serviceWorkers: 'allow' });
    await signUp(page, 'Stats Person');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const links = page.getByRole('navigation', { name: 'Screens' }).getByRole('link');
    expect(await links.allTextContents()).toEqual([]);

    await pointAt({ ...remotes, stats: path.join(stats, 'dist') }, (catalog) => catalog.remotes.mfe_stats?.buildId === 'stats-1');
    // The open page read its catalog when it loaded; a fresh load reads the new one.
    await page.reload();
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    // The task list gets a link too once another screen has one, so there is a way back.
    expect(await links.allTextContents()).toEqual(['Tasks', 'Stats']);
    await page.getByRole('link', { name: 'Stats', exact: true }).click();
    await page.waitForURL('**/stats');
    await page.getByRole('region', { name: 'Stats' }).getByText('Nothing here yet.').waitFor();
    expect(await page.getByRole('heading', { name: 'Stats', level: 1 }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Stats', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await page.title()).toContain('Stats');
    await snapshot(page, 'release-added-remote');
    // Back to the task list, and the stats page again from a fresh load of its own address.
    await page.getByRole('link', { name: 'Task Manager' }).first().click();
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    await page.goto('/stats');
    await page.getByRole('heading', { name: 'Stats', level: 1 }).waitFor();
    // The signed-out check's 401 is the browser's log line, not the app's.
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();

    // Taken out of the file, it is gone from the next load.
    await pointAt(remotes, (catalog) => !catalog.remotes.mfe_stats);
    expect(hashes(path.join(ROOT, 'shell/dist'))).toEqual(shellBefore);
  }, 90_000);

  it('redeploys mfe-tasks from a new folder and rolls it back; a page opened before keeps working', async () => {
    // A real rebuild, not a patched copy: mfe-tasks' sources copied, one visible string changed (the
    // greeting), built with its own rspack config. Every chunk whose content changed gets a new hashed name,
    // as in a release, so the page opened on the old build asks for files only the old folder has.
    const copy = path.join(scratch, 'mfe-tasks');
    cpSync(path.join(ROOT, 'mfe-tasks'), copy, { recursive: true, filter: (from) => !/[/\\](node_modules|dist)$/.test(from) });
    linkDependencies(copy);
    const pageFile = path.join(copy, 'src/features/todos/components/task-list-page.tsx');
    const source = readFileSync(pageFile, 'utf8');
    const changed = source.replace('`Hello, ${fullName}!`', '`Welcome back, ${fullName}!`');
    expect(changed).not.toBe(source);
    writeFileSync(pageFile, changed);
    const buildMs = await build(copy, 'tasks-2');
    console.info(`rebuild of mfe-tasks: ${buildMs} ms`);
    const oldAssets = new Set(readdirSync(path.join(ROOT, 'mfe-tasks/dist/assets')));
    const newAssets = new Set(readdirSync(path.join(copy, 'dist/assets')));
    const onlyOld = [...oldAssets].filter((name) => name.endsWith('.js') && !newAssets.has(name));
    expect(onlyOld.length).toBeGreaterThan(0);
    const oldBuildId = (JSON.parse(readFileSync(path.join(ROOT, 'mfe-tasks/dist/remote.json'), 'utf8')) as { buildId: string }).buildId;

    // Page A: the task list, on the old build; no key pressed on it yet, so its lazy confetti chunk is not loaded.
    // The shell's service worker runs: the pages below load through it, as a returning visitor's do.
    const { page: pageA, context, errors } = await openSession(browser(), { baseUrl: app.url, serviceWorkers: 'allow' });
    const account = await signUp(pageA, 'Release Person');
    await greeting(pageA, `Hello, ${account.fullName}!`).waitFor();
    await pageA.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    await pointAt({ ...remotes, tasks: path.join(copy, 'dist') }, (catalog) => catalog.remotes.mfe_tasks?.buildId === 'tasks-2');

    // Page B, loaded fresh: the new build.
    const pageB = await context.newPage();
    const errorsB: string[] = [];
    pageB.on('pageerror', (error) => errorsB.push(error.message));
    await pageB.goto('/');
    await greeting(pageB, `Welcome back, ${account.fullName}!`).waitFor();
    // Served by the service worker, which asked the network for the catalog and the manifest.
    expect(await pageB.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await greeting(pageB, `Hello, ${account.fullName}!`).count()).toBe(0);
    await pageB.getByText('No tasks').waitFor();
    await snapshot(pageB, 'release-redeployed');

    // Page A, opened before the switch, keeps working: what it loads now (its confetti chunk, fetched on the
    // first key press) comes from its own build, which the gateway keeps as a fallback for hashed assets.
    const lateA: { path: string; status: number }[] = [];
    pageA.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/remotes/tasks/')) lateA.push({ path: url.pathname, status: response.status() });
    });
    await pageA.bringToFront();
    await addTask(pageA, 'After the release');
    await row(pageA, 'After the release').getByRole('checkbox').check();
    await greeting(pageA, `Hello, ${account.fullName}!`).waitFor();
    expect(await pageA.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
    // Away to another remote's page and back, in the same page (no reload).
    await pageA.getByRole('button', { name: 'Account menu' }).click();
    await pageA.getByRole('link', { name: 'Account settings' }).click();
    await pageA.waitForURL('**/account');
    await pageA.goBack();
    await row(pageA, 'After the release').waitFor();
    // What page A loaded after the switch is a chunk the new build does not have (its hashed name changed in the rebuild).
    expect(lateA.filter((response) => onlyOld.includes(path.basename(response.path))).length).toBeGreaterThan(0);
    expect(lateA.filter((response) => response.status !== 200)).toEqual([]);
    // A hashed chunk only the old build has still answers, as a lazy import of page A would ask for it.
    const status = await pageA.evaluate(async (file) => (await fetch(`/remotes/tasks/assets/${file}`)).status, onlyOld[0]!);
    expect(status).toBe(200);
    await snapshot(pageA, 'release-open-page-after-switch');

    // Rolled back: a fresh page C has the old build again.
    await pointAt(remotes, (catalog) => catalog.remotes.mfe_tasks?.buildId === oldBuildId);
    const pageC = await context.newPage();
    await pageC.goto('/');
    await greeting(pageC, `Hello, ${account.fullName}!`).waitFor();
    expect(await pageC.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await greeting(pageC, 'Welcome back').count()).toBe(0);
    await row(pageC, 'After the release').waitFor();
    expect(await pageC.getByRole('checkbox').isChecked()).toBe(true);
    await snapshot(pageC, 'release-rolled-back');
    expect([...errors, ...errorsB].filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  }, 90_000);
});

