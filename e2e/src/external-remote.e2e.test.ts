// A remote from a repository of its own, loaded by the shell through the catalog (docs/ADDING_A_REMOTE.md
// "A remote in its own repository"): examples/external-remote installed and built outside this repository
// (@tm/test-support prepareExternalRemote: its contract from the packed @tm/remote-contract, pnpm offline), its
// dist/ added to a gateway's REMOTES_FILE next to the workspace's built remotes. deploy/checks/external-remote.test.ts
// checks its types; this checks that a signed-in user gets its link and its page, on the shell's React.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtRemotes, externalRemoteUnavailable, prepareExternalRemote, startStack, tempDir, type ExternalRemote, type RunningStack } from '@tm/test-support';
import { describeInBrowser, signUp, snapshot } from './app.js';
import { openSession, useBrowser } from './browser.js';

const browser = useBrowser();
const unavailable = externalRemoteUnavailable();
if (unavailable) console.warn(`External remote browser test skipped: ${unavailable}`);

(unavailable ? describe.skip : describeInBrowser)('a remote built outside the repository, in Chromium', () => {
  let remote: ExternalRemote;
  let app: RunningStack;
  let files: ReturnType<typeof tempDir> | undefined;
  const started = Date.now();

  beforeAll(async () => {
    remote = await prepareExternalRemote();
    const build = await remote.run('build', { BUILD_ID: 'external-e2e' });
    if (build.status !== 0) throw new Error(`the external remote did not build:\n${build.output}`);
    console.info(`external remote: pack ${remote.timings.pack} ms, offline install ${remote.timings.install} ms, build ${build.ms} ms`);
    // The workspace's built remotes (as npm start serves them) and the external one, under the key "external".
    const remotes = Object.fromEntries(builtRemotes().split(',').map((item) => item.split('=') as [string, string]));
    files = tempDir('tm-external-catalog-');
    const remotesFile = path.join(files.dir, 'remotes.json');
    writeFileSync(remotesFile, JSON.stringify({ ...remotes, external: path.join(remote.dir, 'dist') }, null, 2));
    app = await startStack({ web: true, env: { REMOTES_FILE: remotesFile } });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    remote?.remove();
    files?.remove();
    console.info(`external remote browser test: ${Date.now() - started} ms in all`);
  });

  it('is in the catalog, and a signed-in user opens its page from its header link', async () => {
    const catalog = (await (await fetch(`${app.url}/remotes.json`)).json()) as { remotes: Record<string, { manifest: string; buildId?: string }> };
    expect(catalog.remotes.external_remote).toMatchObject({ manifest: '/remotes/external/mf-manifest.json', version: '0.1.0', buildId: 'external-e2e' });

    const { page, context, requests, errors } = await openSession(browser(), { baseUrl: app.url });
    await signUp(page, 'External Person');
    const links = page.getByRole('navigation', { name: 'Screens' }).getByRole('link');
    expect(await links.allTextContents()).toContain('External');
    await page.getByRole('link', { name: 'External', exact: true }).click();
    await page.waitForURL('**/external');
    const region = page.getByRole('region', { name: 'External' });
    await region.getByText('Built in a repository of its own, loaded by the shell through the catalog.').waitFor();
    expect(await page.getByRole('heading', { name: 'External', level: 1 }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'External', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await page.title()).toContain('External');
    // Its state works: its hooks run on the page's one React (a second copy would throw "Invalid hook call").
    await region.getByRole('button', { name: 'Pressed 0 times' }).click();
    await region.getByRole('button', { name: 'Pressed 1 time' }).waitFor();
    // Its code came from its own build, through its manifest.
    expect(requests).toEqual(expect.arrayContaining(['/remotes/external/mf-manifest.json', '/remotes/external/remoteEntry.js']));
    await snapshot(page, 'external-remote');

    // The About dialog (in the account menu when signed in) reads its version and build id from its manifest.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'About Task Manager' }).click();
    const dialog = page.getByRole('dialog', { name: 'About Task Manager' });
    await dialog.getByText('Technical details').click();
    const about = dialog.getByRole('region', { name: 'external_remote', exact: true });
    await about.getByText('Loaded', { exact: true }).waitFor();
    expect(await about.getByText('external-e2e', { exact: true }).count()).toBe(1);
    // The signed-out check's 401 is the browser's log line, not the app's.
    expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
    await context.close();
  });
});
