/**
 * What the Node images compile (`pnpm exec tsc -b <app>` in deploy/docker/<app>.Dockerfile): the app's
 * tsconfig.json and the projects it references. Tests and test helpers never go into dist/ or an image,
 * and nothing of @tm/test-support is built for one; each package's tsconfig.test.json type-checks exactly
 * what its production build leaves out (docs/ARCHITECTURE.md, "Testing"). Every import of a server package
 * is declared by that package: production code by its dependencies (a type-only import may come from a
 * devDependency: nothing of it runs), tests also by its devDependencies.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const repo = path.resolve(__dirname, '../..');
const APPS = ['gateway', 'svc-users', 'svc-todos'];
const SERVER_PACKAGES = [...APPS, 'packages/service-kit', 'packages/test-support', 'packages/contracts', 'packages/password-policy'];
const TEST_SOURCE = /\.test(-helpers)?\.ts$/;

const rel = (file: string) => path.relative(repo, file).split(path.sep).join('/');

function parse(configPath: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  return parsed;
}

/** The folders of a project and of every project it references, transitively. */
function buildGraph(dir: string, seen = new Set<string>()): string[] {
  if (seen.has(dir)) return [];
  seen.add(dir);
  const references = parse(path.join(dir, 'tsconfig.json')).projectReferences ?? [];
  return [dir, ...references.flatMap((reference) => buildGraph(reference.path.replace(/[\\/]tsconfig\.json$/, ''), seen))];
}

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? walk(file) : [file];
  });

describe.each(APPS)('%s production build', (app) => {
  const graph = buildGraph(path.join(repo, app));

  it('references no test-only project', () => {
    expect(graph.map(rel)).not.toContain('packages/test-support');
  });

  it('compiles no test and no test helper, in the app or in a package it references', () => {
    for (const dir of graph) {
      const compiled = parse(path.join(dir, 'tsconfig.json')).fileNames.map(rel);
      expect(compiled.length).toBeGreaterThan(0);
      expect(compiled.filter((file) => TEST_SOURCE.test(file))).toEqual([]);
    }
  });
});

describe.each(SERVER_PACKAGES.filter((dir) => dir !== 'packages/test-support'))('%s tests', (dir) => {
  it('are type-checked by tsconfig.test.json, which `tsc -b` at the root builds', () => {
    const tests = walk(path.join(repo, dir, 'src')).filter((file) => TEST_SOURCE.test(file)).map(rel).sort();
    expect(parse(path.join(repo, dir, 'tsconfig.test.json')).fileNames.map(rel).sort()).toEqual(tests);
    const root = parse(path.join(repo, 'tsconfig.json')).projectReferences ?? [];
    expect(root.map((reference) => rel(reference.path))).toContain(`${dir}/tsconfig.test.json`);
  });
});

describe.each(SERVER_PACKAGES)('%s imports', (dir) => {
  it('are all declared by the package (production code: by its dependencies or peer dependencies, types aside)', () => {
    const manifest = JSON.parse(readFileSync(path.join(repo, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const production = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const development = new Set(Object.keys(manifest.devDependencies ?? {}));
    const undeclared: string[] = [];
    for (const file of walk(path.join(repo, dir, 'src')).filter((name) => name.endsWith('.ts'))) {
      // The whole of @tm/test-support is test code.
      const testCode = TEST_SOURCE.test(file) || dir === 'packages/test-support';
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\('([^']+)'\)/gm)].map((match) => ({
        specifier: match[1] ?? match[2] ?? match[3] ?? '',
        typeOnly: /^\s*(?:import|export) type\b/.test(match[0]),
      }));
      for (const { specifier, typeOnly } of imports) {
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!production.has(name) && !((testCode || typeOnly) && development.has(name))) undeclared.push(`${rel(file)}: ${name}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
