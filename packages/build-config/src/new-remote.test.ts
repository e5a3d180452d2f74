import { createServer, type AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { checkRemoteBuildInfo } from '@tm/contracts';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/new-remote.mjs');
// Inside the repository (git ignores .test-data), so that the root's node_modules are found by walking up.
const SCRATCH = path.join(__dirname, '..', '.test-data');
const bin = (file: string) => path.join(ROOT, 'node_modules', file);

/** A loopback port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(args: string[], cwd: string, env: Record<string, string> = {}, timeout = 90_000): { status: number | null; stderr: string; output: string } {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, timeout });
  return { status: result.status, stderr: result.stderr, output: `${result.stdout}${result.stderr}` };
}

/**
 * `pnpm new:remote stats --route /stats`, into a scratch folder instead of the repository (--dir): the remote
 * must type-check, build (remote.json and manifest included, within its budget) and pass its own test as
 * written. Its workspace dependencies are mfe-tasks' (the same list and versions; node_modules links there
 * instead of `pnpm install`).
 */
describe('pnpm new:remote', () => {
  let scratch: string;
  let remote: string;
  beforeAll(() => {
    mkdirSync(SCRATCH, { recursive: true });
    scratch = mkdtempSync(path.join(SCRATCH, 'new-remote-'));
    remote = path.join(scratch, 'mfe-stats');
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('refuses an invalid name, a taken route and an existing folder, saying why', () => {
    expect(run([SCRIPT, 'Stats!', '--route', '/stats', '--dir', scratch], ROOT)).toMatchObject({ status: 2, stderr: expect.stringContaining('"Stats!" is not a valid remote name') });
    expect(run([SCRIPT, 'stats', '--route', 'stats', '--dir', scratch], ROOT).stderr).toContain('--route stats must be an absolute path such as /stats');
    expect(run([SCRIPT, 'stats', '--route', '/stats', '--guard', 'admins', '--dir', scratch], ROOT).stderr).toContain('--guard must be one of signed-in, signed-out, public');
    expect(run([SCRIPT, 'board', '--route', '/'], ROOT).stderr).toContain("the route / is already mfe-tasks's");
    expect(run([SCRIPT, 'tasks', '--route', '/tasks'], ROOT).stderr).toContain('mfe-tasks already exists');
    expect(existsSync(remote)).toBe(false);
  });

  it('scaffolds a remote that type-checks, builds with its remote.json and manifest, and passes its test', async () => {
    const scaffold = run([SCRIPT, 'stats', '--route', '/stats', '--dir', scratch], ROOT);
    expect(scaffold.output).toContain('mfe_stats, exposing ./StatsPage at /stats (signed-in), dev port 3003');
    // The split deployments' steps (docs/DEPLOY.md "The remote catalog"): none by hand, `pnpm deploy:render` writes them.
    expect(scaffold.output).toContain('nothing to add by hand for compose or Kubernetes');
    expect(scaffold.output).toContain('pnpm deploy:render');
    expect(scaffold.output).not.toMatch(/<<: \*remote|deploy\/k8s\/new-remote\.mjs|deploy\/remotes-catalog\.json/);
    expect(scaffold.status).toBe(0);
    // And so it does: given the scratch folder as its workspace (--root), the generator writes the scaffold's
    // catalog entry, compose service, Kubernetes manifests, image tag and Ingress path.
    const rendered = path.join(scratch, 'deploy-generated');
    expect(run([path.join(ROOT, 'deploy/render-remotes.mjs'), '--root', scratch, '--out', rendered], ROOT)).toMatchObject({ status: 0, output: expect.stringContaining('1 remote(s)') });
    const generated = (file: string) => readFileSync(path.join(rendered, file), 'utf8');
    expect(JSON.parse(generated('remotes-catalog.json'))).toMatchObject({ remotes: { mfe_stats: { manifest: '/remotes/stats/mf-manifest.json', routes: [{ path: '/stats' }] } } });
    expect(generated('compose.remotes.yaml')).toMatch(/^ {2}mfe-stats:\n(?: {4}.*\n)*? {8}REMOTE: mfe-stats\n {4}image: .*\/mfe-stats:\$\{MFE_STATS_TAG:-/m);
    expect(generated('k8s/kustomization.yaml')).toMatch(/^ {2}- mfe-stats\.yaml\n[\s\S]*^ {2}- name: task-manager\/mfe-stats\n/m);
    expect(generated('k8s/ingress-paths.yaml')).toMatch(/^ {4}path: \/remotes\/stats\n[\s\S]*?^ {8}name: mfe-stats\n/m);
    expect(generated('k8s/mfe-stats.yaml')).toMatch(/^kind: Deployment\nmetadata:\n {2}name: mfe-stats\n/m);
    symlinkSync(path.join(ROOT, 'mfe-tasks/node_modules'), path.join(remote, 'node_modules'));
    const pkg = JSON.parse(readFileSync(path.join(remote, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    const template = JSON.parse(readFileSync(path.join(ROOT, 'mfe-tasks/package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    for (const [name, version] of Object.entries(pkg.dependencies)) expect([name, version]).toEqual([name, template.dependencies[name]]);
    // The template's scripts, its test script selecting the new remote's own jest project (`pnpm check:changed` runs it through turbo).
    expect(Object.keys(pkg.scripts)).toEqual(Object.keys(template.scripts));
    expect(pkg.scripts.test).toBe('jest --config ../jest.config.js --selectProjects mfe-stats');

    // The type-check of the web project (tsconfig.web.json), over the new remote's sources.
    writeFileSync(path.join(remote, 'tsconfig.json'), JSON.stringify({ extends: path.join(ROOT, 'tsconfig.web.json'), include: ['src', path.join(ROOT, 'web-env.d.ts')] }));
    const typecheck = run([bin('typescript/bin/tsc'), '-p', path.join(remote, 'tsconfig.json')], remote);
    expect(typecheck.output).toBe('');
    expect(typecheck.status).toBe(0);

    const build = run([bin('@rspack/cli/bin/rspack.js'), 'build', '--mode', 'production'], remote, { BUILD_ID: 'scaffold-test' });
    expect(build.output).toMatch(/mfe-stats \(StatsPage\): first load \d+\.\d KiB gzipped/);
    expect(build.status).toBe(0);
    const info: unknown = JSON.parse(readFileSync(path.join(remote, 'dist/remote.json'), 'utf8'));
    expect(checkRemoteBuildInfo(info)).toEqual({
      ok: true,
      info: {
        name: 'mfe_stats',
        version: '0.1.0',
        buildId: 'scaffold-test',
        routes: [{ path: '/stats', module: './StatsPage', guard: 'signed-in', title: 'Stats', name: 'stats screen', headerLink: { label: 'Stats' } }],
      },
    });
    const manifest = JSON.parse(readFileSync(path.join(remote, 'dist/mf-manifest.json'), 'utf8')) as { name: string; exposes: { name: string }[]; metaData: { buildInfo: unknown } };
    expect(manifest).toMatchObject({ name: 'mfe_stats', exposes: [{ name: 'StatsPage' }], metaData: { buildInfo: { buildVersion: '0.1.0', buildId: 'scaffold-test' } } });

    // Its component test, with the settings the root jest.config.js gives every remote, and its test gateway:
    // the scaffolded test renders with the real providers and a signed-up user.
    const root = createRequire(__filename)(path.join(ROOT, 'jest.config.js')) as { projects: { displayName: string }[]; globalSetup: string; globalTeardown: string };
    const web = root.projects.find((project) => project.displayName === 'mfe-tasks');
    // A test gateway of its own, on a port of its own (this jest run's gateway holds WEB_TEST_PORT).
    const port = await freePort();
    writeFileSync(
      path.join(remote, 'jest.config.json'),
      JSON.stringify({
        ...web,
        displayName: 'mfe-stats',
        rootDir: remote,
        testEnvironmentOptions: { url: `http://127.0.0.1:${port}/` },
        globalSetup: root.globalSetup,
        globalTeardown: root.globalTeardown,
      }),
    );
    expect(readFileSync(path.join(remote, 'src/expose/stats-page.test.tsx'), 'utf8')).toContain('await signUpNewUser();');
    const test = run([bin('jest/bin/jest.js'), '--config', path.join(remote, 'jest.config.json'), '--ci'], remote, { WEB_TEST_PORT: String(port) });
    expect(test.output).toContain('Tests:       1 passed, 1 total');
    expect(test.status).toBe(0);
  }, 120_000);

  // A team's new remote with a header link passes the browser suites without editing them. The
  // catalog suites run against an app serving every built workspace remote plus the one just scaffolded.
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const inBrowser = existsSync(chromium) ? it : it.skip;
  if (!existsSync(chromium)) console.warn(`new remote in the browser suites skipped: no Chromium at ${chromium}`);
  inBrowser('passes the catalog browser suites with the new remote and its header link in the catalog', () => {
    expect(existsSync(path.join(remote, 'dist/remote.json'))).toBe(true);
    const remotesFile = path.join(scratch, 'remotes.json');
    // Every built workspace remote, as `npm start` serves them (packages/build-config/workspace-remotes.mjs).
    const served = Object.fromEntries(
      readdirSync(ROOT)
        .filter((folder) => /^mfe-[a-z0-9-]+$/.test(folder) && existsSync(path.join(ROOT, folder, 'dist/remote.json')))
        .map((folder) => [folder.slice('mfe-'.length), path.join(ROOT, folder, 'dist')]),
    );
    writeFileSync(remotesFile, JSON.stringify({ ...served, stats: path.join(remote, 'dist') }));
    const suites = run(
      [bin('jest/bin/jest.js'), '--config', path.join(ROOT, 'config/jest/e2e.config.js'), '--ci', 'src/remotes.e2e.test.ts'],
      ROOT,
      { E2E_REMOTES_FILE: remotesFile },
      240_000,
    );
    // The scaffold's link is among the links the suite found in the catalog, and its screen opened.
    expect(suites.output).toMatch(/header links signed in, from the catalog: .*\bStats\b/);
    expect(suites.output).toContain('opened /stats (Stats) from its header link');
    expect(suites.output).toMatch(/Tests: +\d+ passed, \d+ total/);
    expect(suites.status).toBe(0);
  }, 260_000);
});
