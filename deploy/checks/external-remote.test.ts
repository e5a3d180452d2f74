/**
 * A remote in a repository of its own (docs/ADDING_A_REMOTE.md "A remote in its own repository"):
 * examples/external-remote, copied to a folder outside the repository and installed there with pnpm (offline,
 * from the store), gets the shell's contract from the packed @tm/remote-contract: its type-check passes, a page
 * that breaks the contract fails it with the reason, and its own Rspack build writes what the catalog is made
 * from. e2e/src/external-remote.e2e.test.ts then has the shell load it through the catalog in Chromium.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { externalRemoteUnavailable, prepareExternalRemote, REPO_ROOT, runCommand, type CommandResult, type ExternalRemote } from '@tm/test-support';

const TEMPLATE = path.join(REPO_ROOT, 'examples/external-remote');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

describe('examples/external-remote, as it is in the repository', () => {
  it('is no workspace package, and depends on the exact versions the workspace uses', async () => {
    const unavailable = externalRemoteUnavailable();
    if (unavailable) {
      console.warn(`workspace listing skipped: ${unavailable}`);
    } else {
      const listed = await runCommand('pnpm', ['ls', '-r', '--depth', '-1', '--json'], REPO_ROOT, { ...process.env, NO_COLOR: '1' });
      expect(listed.status).toBe(0);
      const folders = (JSON.parse(listed.output) as { path: string }[]).map((pkg) => path.relative(REPO_ROOT, pkg.path));
      expect(folders).toContain('packages/remote-contract');
      expect(folders.filter((folder) => folder.startsWith('examples'))).toEqual([]);
    }
    const template = readJson(path.join(TEMPLATE, 'package.json')) as Manifest;
    // React as the shell has it (a shared singleton); the tools as the workspace's root has them.
    const shell = readJson(path.join(REPO_ROOT, 'shell/package.json')) as Manifest;
    const root = readJson(path.join(REPO_ROOT, 'package.json')) as Manifest;
    const workspace: Record<string, string | undefined> = { ...root.devDependencies, ...shell.dependencies };
    const registry = Object.entries({ ...template.dependencies, ...template.devDependencies }).filter(([, version]) => !version.startsWith('file:'));
    expect(registry.length).toBeGreaterThan(0);
    for (const [name, version] of registry) expect([name, version]).toEqual([name, workspace[name]]);
  });
});

const unavailable = externalRemoteUnavailable();
if (unavailable) console.warn(`External remote checks skipped: ${unavailable}`);
(unavailable ? describe.skip : describe)('a remote outside the repository (examples/external-remote, installed offline)', () => {
  let remote: ExternalRemote;
  const started = Date.now();

  beforeAll(async () => {
    remote = await prepareExternalRemote();
    console.info(`external remote: pack ${remote.timings.pack} ms, offline install ${remote.timings.install} ms, in ${remote.dir}`);
  }, 180_000);

  afterAll(() => {
    remote?.remove();
    console.info(`external remote checks: ${Date.now() - started} ms in all`);
  });

  it('gets the contract from the packed @tm/remote-contract, installed outside the repository, and type-checks', async () => {
    const installed = realpathSync(path.join(remote.dir, 'node_modules/@tm/remote-contract'));
    expect(path.relative(REPO_ROOT, installed).startsWith('..')).toBe(true);
    expect(existsSync(path.join(installed, 'dist/remote-contract/src/index.d.ts'))).toBe(true);
    expect((readJson(path.join(installed, 'package.json')) as { version: string }).version).toBe((readJson(path.join(REPO_ROOT, 'packages/remote-contract/package.json')) as { version: string }).version);

    const typecheck = await remote.run('typecheck');
    console.info(`tsc --noEmit: ${typecheck.ms} ms`);
    expect(typecheck.output).not.toContain('error TS');
    expect(typecheck.status).toBe(0);
  }, 60_000);

  describe('a page that breaks the contract', () => {
    // Three ways to break it, type-checked in one run (each error names its own file and line): the exposed
    // page itself made to require a prop, and two more exposed modules listed in exposes.ts as a team would.
    const BROKEN: Record<string, string> = {
      'src/expose/external-page.tsx': `export default function ExternalPage({ title }: { title: string }) {\n  return <h1>{title}</h1>;\n}\n`,
      'src/expose/named-page.tsx': `import { exposePage } from '@tm/remote-contract';\nimport { ExternalScreen } from '../features/external/external-screen';\n\nexport const NamedPage = exposePage(ExternalScreen);\n`,
      'src/expose/titled-page.tsx': `import { exposePage } from '@tm/remote-contract';\n\nfunction TitledScreen({ title }: { title: string }) {\n  return <h1>{title}</h1>;\n}\n\nexport default exposePage(TitledScreen);\n`,
      'src/expose/exposes.ts': [
        `import type { ExposedModules } from '@tm/remote-contract';`,
        `import type * as ExternalPage from './external-page';`,
        `import type * as NamedPage from './named-page';`,
        `import type * as TitledPage from './titled-page';`,
        ``,
        `export type Exposes = ExposedModules<{ './ExternalPage': typeof ExternalPage }>;`,
        `export type NamedExposes = ExposedModules<{ './NamedPage': typeof NamedPage }>;`,
        `export type TitledExposes = ExposedModules<{ './TitledPage': typeof TitledPage }>;`,
        ``,
      ].join('\n'),
    };
    let typecheck: CommandResult;

    beforeAll(async () => {
      const restore = Object.entries(BROKEN).map(([file, text]) => remote.replaceFile(file, text));
      try {
        typecheck = await remote.run('typecheck');
        console.info(`tsc --noEmit of the broken pages: ${typecheck.ms} ms`);
      } finally {
        for (const undo of restore.reverse()) undo();
      }
    }, 60_000);

    it('fails the type-check', () => {
      expect(typecheck.status).not.toBe(0);
    });

    it.each([
      {
        breaks: 'a page that requires a prop (the shell renders <Page /> with none)',
        error: "src/expose/exposes.ts(6,38): error TS2344: Type '{ './ExternalPage':",
        reason: "Property 'title' is missing in type 'Record<string, never>' but required in type '{ title: string; }'.",
      },
      {
        breaks: 'an exposed module without a default export',
        error: "src/expose/exposes.ts(7,43): error TS2344: Type '{ './NamedPage':",
        reason: "Property 'default' is missing in type 'typeof import(",
      },
      {
        breaks: 'exposePage around a screen that needs more than its heading id',
        error: "src/expose/titled-page.tsx(7,27): error TS2345: Argument of type '({ title }: { title: string; }) => Element' is not assignable to parameter of type 'PageScreen'.",
        reason: "Property 'title' is missing in type '{ headingId: string; }' but required in type '{ title: string; }'.",
      },
    ])('refuses $breaks, saying why', ({ error, reason }) => {
      const at = typecheck.output.indexOf(error);
      expect(typecheck.output).toContain(error);
      // The reason is in the lines of that error (before the next error starts).
      const next = typecheck.output.indexOf('error TS', at + error.length);
      expect(typecheck.output.slice(at, next === -1 ? undefined : next)).toContain(reason);
    });
  });

  it('refuses a route declaration the catalog would refuse, listing every problem, and builds with what the catalog is made from', async () => {
    const pkg = readJson(path.join(remote.dir, 'package.json')) as { remote: { routes: Record<string, unknown>[] } };
    const route = pkg.remote.routes[0]!;
    const restore = remote.replaceFile('package.json', JSON.stringify({ ...pkg, remote: { ...pkg.remote, routes: [{ ...route, guard: 'admins', module: './Missing' }] } }, null, 2));
    try {
      const refused = await remote.run('build');
      expect(refused.output).toContain('the "remote" declaration in package.json is invalid');
      expect(refused.output).toContain('guard must be one of signed-in, signed-out, public');
      expect(refused.output).toContain('./Missing is not exposed (exposes: ./ExternalPage)');
      expect(refused.status).not.toBe(0);
    } finally {
      restore();
    }

    const build = await remote.run('build', { BUILD_ID: 'external-1' });
    console.info(`rspack build: ${build.ms} ms`);
    expect(build.output).toContain('compiled successfully');
    expect(build.status).toBe(0);
    const dist = path.join(remote.dir, 'dist');
    expect(existsSync(path.join(dist, 'remoteEntry.js'))).toBe(true);
    expect(readJson(path.join(dist, 'remote.json'))).toEqual({
      name: 'external_remote',
      version: '0.1.0',
      buildId: 'external-1',
      routes: [{ path: '/external', module: './ExternalPage', guard: 'signed-in', title: 'External', name: 'external screen', headerLink: { label: 'External', order: 30 } }],
    });
    const manifest = readJson(path.join(dist, 'mf-manifest.json')) as { name: string; exposes: { name: string }[]; shared: unknown[]; metaData: { buildInfo: unknown } };
    expect(manifest).toMatchObject({ name: 'external_remote', exposes: [{ name: 'ExternalPage' }], metaData: { buildInfo: { buildVersion: '0.1.0', buildId: 'external-1' } } });
    // The page runs on the shell's React: shared, one copy, the shell's major version.
    expect(manifest.shared).toContainEqual(expect.objectContaining({ name: 'react', singleton: true, requiredVersion: '^19.0.0' }));
  }, 90_000);
});
