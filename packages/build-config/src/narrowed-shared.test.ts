import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const HERE = path.join(__dirname, '..');
const ROOT = path.join(HERE, '..', '..');
// What goes into the browser bundles of the shell and the remotes (tests and test helpers do not).
const REMOTES = readdirSync(ROOT).filter((name) => /^mfe-[a-z0-9-]+$/.test(name) && existsSync(path.join(ROOT, name, 'src')));
const SOURCE_DIRS = ['shell/src', ...REMOTES.map((remote) => `${remote}/src`), 'packages/web-platform/src', 'packages/api-client/src', 'packages/remote-kit/src'];

/** The narrowed shared modules as shared-deps.mjs declares them: package name → its narrowed module. */
function narrowed(): Map<string, string> {
  const text = readFileSync(path.join(HERE, 'shared-deps.mjs'), 'utf8');
  const pairs = [...text.matchAll(/'([^']+)': fileURLToPath\(new URL\('\.\/([^']+)'/g)].map(([, name, file]) => [name as string, file as string] as const);
  return new Map(pairs);
}

/** The names a narrowed module re-exports. */
function exported(file: string): Set<string> {
  const text = readFileSync(path.join(HERE, file), 'utf8');
  const list = /export \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return new Set(list.split(',').map((name) => name.trim()).filter(Boolean));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every value (not type-only) name an app's bundle imports from `pkg`, with the file that imports it. */
function importedNames(pkg: string): { name: string; file: string }[] {
  const pattern = new RegExp(`import\\s+\\{([^}]*)\\}\\s+from\\s+'${pkg.replace(/[/.]/g, '\\$&')}'`, 'g');
  return SOURCE_DIRS.flatMap((dir) => sources(path.join(ROOT, dir))).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(pattern)].flatMap(([, list]) =>
      (list ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith('type '))
        .map((name) => ({ name: name.split(/\s+as\s+/)[0] as string, file: path.relative(ROOT, file) })),
    ),
  );
}

describe('the narrowed shared modules', () => {
  const modules = [...narrowed()];

  it('are declared for the router and the data library', () => {
    expect(modules.map(([name]) => name).sort()).toEqual(['@tanstack/react-query', 'react-router-dom']);
  });

  it.each(modules)('%s: its narrowed module exports everything the apps import from it', (pkg, file) => {
    const names = exported(file);
    const imports = importedNames(pkg);
    // The scan must find the apps' imports at all, or the check below would pass on nothing.
    expect(imports.length).toBeGreaterThan(5);
    expect(imports.filter(({ name }) => !names.has(name))).toEqual([]);
  });
});
