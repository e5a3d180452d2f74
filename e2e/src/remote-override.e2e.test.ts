// A local remote against the real shell (docs/ADDING_A_REMOTE.md "Trying your remote against the
// real shell"). A team serves its remote on 127.0.0.1 and points the shell at it for its own browser only,
// without touching the catalog; the deployment must allow it (the gateway's REMOTE_OVERRIDES).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startStack, type RunningStack } from '@tm/test-support';
import { describeInBrowser, seriousAxeViolations, signUp, snapshot } from './app.js';
import { baseUrl, openSession, useBrowser } from './browser.js';

const browser = useBrowser();
const ROOT = path.join(__dirname, '..', '..');
/** Inside the repository (git ignores .test-data), as release.e2e.test.ts does. */
const SCRATCH = path.join(ROOT, '.test-data');
const KEY = 'tm-remote-overrides';
/** What the local copy says instead of "Current streak": how a page shows which build it runs. */
const LOCAL_LABEL = 'Current streak (local build)';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.map': 'application/json' };

/** A remote's folder served as a team's machine would (`npx serve`, a dev server): plain files, CORS open, on 127.0.0.1. */
async function serveFolder(dir: string): Promise<{ origin: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    requests.push(pathname);
    const file = path.join(dir, path.normalize(pathname));
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Cache-Control', 'no-cache');
    let body: Buffer;
    try {
      if (!file.startsWith(dir + path.sep)) throw new Error('outside');
      body = readFileSync(file);
    } catch {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeInBrowser('a local remote against the real shell (REMOTE_OVERRIDES), in Chromium', () => {
  let scratch: string;
  let local: Awaited<ReturnType<typeof serveFolder>>;
  let allowing: RunningStack;

  beforeAll(async () => {
    mkdirSync(SCRATCH, { recursive: true });
    scratch = mkdtempSync(path.join(SCRATCH, 'remote-override-'));
    // "Built on the team's machine": the built mfe-insights with one visible text changed, so the page shows
    // which build it runs. The compressed copies go (they would still say the old text; this server sends files as they are).
    const copy = path.join(scratch, 'mfe-insights');
    cpSync(path.join(ROOT, 'mfe-insights/dist'), copy, { recursive: true, filter: (from) => !/\.(br|gz)$/.test(from) });
    const changed = readdirSync(path.join(copy, 'assets')).filter((name) => {
      if (!name.endsWith('.js')) return false;
      const file = path.join(copy, 'assets', name);
      const text = readFileSync(file, 'utf8');
      if (!text.includes('"Current streak"')) return false;
      writeFileSync(file, text.replace('"Current streak"', JSON.stringify(LOCAL_LABEL)));
      return true;
    });
    expect(changed).toHaveLength(1);
    // And its build id, which the About dialog reads from the manifest of a loaded remote.
    const manifestFile = path.join(copy, 'mf-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { metaData: { buildInfo: { buildId: string } } };
    manifest.metaData.buildInfo.buildId = 'local-copy';
    writeFileSync(manifestFile, JSON.stringify(manifest));
    local = await serveFolder(copy);
    allowing = await startStack({ web: true, env: { REMOTE_OVERRIDES: 'on' } });
  }, 60_000);

  afterAll(async () => {
    await allowing?.stop();
    await local?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('loads the local build for this browser only, with a banner, until Reset', async () => {
    const catalog = (await (await fetch(`${allowing.url}/remotes.json`)).json()) as { overrides?: { origins: string[] } };
    expect(catalog.overrides).toEqual({ origins: ['http://127.0.0.1:*', 'http://localhost:*'] });

    const team = await openSession(browser(), { baseUrl: allowing.url });
    await signUp(team.page, 'Team Developer');
    // The documented address: asked first, used after a yes.
    await team.page.goto(`/insights?remote-override=insights=${local.origin}/`);
    const ask = team.page.getByRole('region', { name: 'Load a local remote?' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain(`Load insights from ${local.origin}/mf-manifest.json instead of the deployed build?`);
    // Nothing of the local build runs before the yes: the page shows the deployed one.
    await team.page.getByText('Current streak', { exact: true }).waitFor();
    expect(local.requests).toEqual([]);
    await snapshot(team.page, 'remote-override-ask', { fullPage: false });
    expect(await seriousAxeViolations(team.page)).toEqual([]);
    await ask.getByRole('button', { name: 'Use local remote' }).click();

    // The page loads again, with the local build, and says so above the header.
    await team.page.getByText(LOCAL_LABEL).waitFor();
    const banner = team.page.getByRole('status').filter({ hasText: 'Using local remote' });
    expect(await banner.textContent()).toBe(`Using local remote: insights from ${local.origin} — Reset`);
    expect(await banner.isVisible()).toBe(true);
    expect(new URL(team.page.url()).search).toBe('');
    expect(await team.page.evaluate((key) => localStorage.getItem(key), KEY)).toBe(JSON.stringify({ insights: `${local.origin}/mf-manifest.json` }));
    expect(local.requests).toContain('/mf-manifest.json');
    expect(local.requests).toContain('/remoteEntry.js');
    // The About dialog (in the account menu when signed in) names the build the page runs: the local one, from the local manifest.
    await team.page.getByRole('button', { name: 'Account menu' }).click();
    await team.page.getByRole('button', { name: 'About Task Manager' }).click();
    const about = team.page.getByRole('dialog', { name: 'About Task Manager' });
    await about.getByText('Technical details').click();
    const insights = about.getByRole('region', { name: 'mfe_insights', exact: true });
    expect(await insights.locator('.about-dialog__row').evaluateAll((rows) => rows.map((row) => `${row.querySelector('dt')?.textContent}: ${row.querySelector('dd')?.textContent}`))).toEqual(
      expect.arrayContaining(['Build: local-copy', `Manifest: ${local.origin}/mf-manifest.json`]),
    );
    expect(await insights.getByText('Loaded', { exact: true }).count()).toBe(1);
    await team.page.keyboard.press('Escape');
    await about.waitFor({ state: 'detached' });
    // Other screens still come from the catalog, with the banner on them too.
    await team.page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await team.page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    expect(await banner.isVisible()).toBe(true);
    await team.page.getByRole('link', { name: 'Insights', exact: true }).click();
    await team.page.getByText(LOCAL_LABEL).waitFor();
    await snapshot(team.page, 'remote-override-in-use');
    expect(await seriousAxeViolations(team.page)).toEqual([]);

    // Another person on the same deployment (another browser profile) gets the catalog's build, no banner.
    const other = await openSession(browser(), { baseUrl: allowing.url });
    await signUp(other.page, 'Someone Else');
    await other.page.goto('/insights');
    await other.page.getByText('Current streak', { exact: true }).waitFor();
    expect(await other.page.getByText(LOCAL_LABEL).count()).toBe(0);
    expect(await other.page.getByText(/Using local remote/).count()).toBe(0);
    expect(other.errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await other.context.close();

    // Reset: the page loads again with the catalog's build, nothing stored.
    await banner.getByRole('button', { name: 'Reset' }).click();
    await team.page.getByText('Current streak', { exact: true }).waitFor();
    expect(await team.page.getByText(LOCAL_LABEL).count()).toBe(0);
    expect(await team.page.getByText(/Using local remote/).count()).toBe(0);
    expect(await team.page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
    // No CSP refusal, no error on the way (the signed-out check's 401 is the browser's line, not the app's).
    expect(team.errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await team.context.close();
  }, 90_000);

  it('is ignored where the deployment does not allow it (the default), and its code could not load there anyway', async () => {
    // The run's own app: REMOTE_OVERRIDES unset.
    const catalog = (await (await fetch(`${baseUrl()}/remotes.json`)).json()) as Record<string, unknown>;
    expect(catalog.overrides).toBeUndefined();
    const before = local.requests.length;
    const { page, context, errors } = await openSession(browser());
    await signUp(page, 'Not Allowed');
    // An override left in storage, and one in the address.
    await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [KEY, JSON.stringify({ insights: `${local.origin}/mf-manifest.json` })]);
    await page.goto(`/insights?remote-override=insights=${local.origin}/`);
    await page.getByText('Current streak', { exact: true }).waitFor();
    expect(await page.getByText(LOCAL_LABEL).count()).toBe(0);
    expect(await page.getByText(/Using local remote/).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Load a local remote?' }).count()).toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
    await page.waitForFunction(() => !location.search.includes('remote-override'));
    expect(local.requests.length).toBe(before);
    // The second wall: this deployment's Content-Security-Policy refuses that origin, whatever a page tried.
    const refused = await page.evaluate(async (url) => {
      try {
        await fetch(url);
        return 'fetched';
      } catch {
        return 'refused';
      }
    }, `${local.origin}/mf-manifest.json`);
    expect(refused).toBe('refused');
    expect(local.requests.length).toBe(before);
    expect(errors.some((text) => text.includes('Content Security Policy'))).toBe(true);
    await context.close();
  }, 60_000);
});
