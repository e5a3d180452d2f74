import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkRemoteBuildInfo } from '@tm/contracts';

const ROOT = path.resolve(__dirname, '../../..');
// The workspace's own Rspack CLI (a root dev dependency; its package exports do not list the bin file).
const RSPACK_CLI = path.join(ROOT, 'node_modules/@rspack/cli/bin/rspack.js');
// Inside the repository (git ignores .test-data), so that the root's node_modules are found by walking up.
const SCRATCH = path.join(__dirname, '..', '.test-data');

const ROUTE = { path: '/probe', module: './ProbePage', guard: 'signed-in', title: 'Probe', name: 'probe screen', headerLink: { label: 'Probe' } };

/**
 * A tiny remote (one exposed page) whose rspack.config.mjs is the preset, built with `rspack build --mode
 * production` as `pnpm build` runs it. Its dependencies are mfe-tasks' (node_modules links to them).
 */
function buildRemote(remote: unknown, env: Record<string, string> = {}): { status: number | null; output: string; dist: string; cleanUp: () => void } {
  mkdirSync(SCRATCH, { recursive: true });
  const dir = path.join(mkdtempSync(path.join(SCRATCH, 'remote-preset-')), 'mfe-probe');
  const cleanUp = () => rmSync(path.dirname(dir), { recursive: true, force: true });
  mkdirSync(path.join(dir, 'src/expose'), { recursive: true });
  symlinkSync(path.join(ROOT, 'mfe-tasks/node_modules'), path.join(dir, 'node_modules'));
  const template = JSON.parse(readFileSync(path.join(ROOT, 'mfe-tasks/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'mfe-probe', version: '1.2.3', private: true, budgets: { firstLoadGzipKiB: 30 }, remote, dependencies: template.dependencies }),
  );
  writeFileSync(path.join(dir, 'src/index.ts'), "void import('./expose/probe-page');\n");
  writeFileSync(path.join(dir, 'src/expose/probe-page.tsx'), 'export default function ProbePage() {\n  return <h1>Probe</h1>;\n}\n');
  writeFileSync(
    path.join(dir, 'rspack.config.mjs'),
    [
      "import { createRemoteConfig } from '@tm/build-config/remote';",
      "export default createRemoteConfig({ dir: import.meta.dirname, port: 3999, title: 'Probe', exposes: { './ProbePage': './src/expose/probe-page.tsx' } });",
    ].join('\n'),
  );
  const run = spawnSync(process.execPath, [RSPACK_CLI, 'build', '--mode', 'production', '-c', path.join(dir, 'rspack.config.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, dist: path.join(dir, 'dist'), cleanUp };
}

describe('the remote preset of the build (createRemoteConfig)', () => {
  it('writes dist/remote.json (name, version, build id, routes) and the build into the manifest', () => {
    const build = buildRemote({ name: 'mfe_probe', routes: [ROUTE] }, { BUILD_ID: 'ci-4711' });
    try {
      expect(build.output).toContain('compiled successfully');
      expect(build.status).toBe(0);
      const info: unknown = JSON.parse(readFileSync(path.join(build.dist, 'remote.json'), 'utf8'));
      expect(info).toEqual({ name: 'mfe_probe', version: '1.2.3', buildId: 'ci-4711', routes: [ROUTE] });
      expect(checkRemoteBuildInfo(info)).toEqual({ ok: true, info });
      const manifest = JSON.parse(readFileSync(path.join(build.dist, 'mf-manifest.json'), 'utf8')) as { name: string; metaData: { buildInfo: unknown } };
      expect(manifest.name).toBe('mfe_probe');
      expect(manifest.metaData.buildInfo).toEqual({ buildVersion: '1.2.3', buildName: 'mfe-probe', buildId: 'ci-4711' });
    } finally {
      build.cleanUp();
    }
  }, 60_000);

  it('fails the build on a bad route declaration, saying what is wrong and where', () => {
    const build = buildRemote({ name: 'mfe_probe', routes: [{ ...ROUTE, path: 'probe', guard: 'admins', module: './MissingPage' }] });
    try {
      expect(build.status).not.toBe(0);
      expect(build.output).toContain('mfe-probe: the "remote" declaration in');
      expect(build.output).toContain('routes[0].path must be an absolute path such as /stats');
      expect(build.output).toContain('routes[0].guard must be one of signed-in, signed-out, public');
      expect(build.output).toContain('routes[0].module ./MissingPage is not exposed (exposes: ./ProbePage)');
    } finally {
      build.cleanUp();
    }
  }, 60_000);

  it('fails the build of a remote that declares no federation name', () => {
    const build = buildRemote({ routes: [ROUTE] });
    try {
      expect(build.status).not.toBe(0);
      expect(build.output).toContain('"remote": { "name": … } is missing: the federation name, such as mfe_stats');
    } finally {
      build.cleanUp();
    }
  }, 60_000);
});
