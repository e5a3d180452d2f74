import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** Every remote (mfe-*), as the workspace finds them. */
const remotes = readdirSync(ROOT).filter((name) => /^mfe-[a-z0-9-]+$/.test(name) && existsSync(path.join(ROOT, name, 'package.json')));

/**
 * Federated types: `pnpm typecheck` checks each remote's exposed modules against the contract of
 * @tm/remote-kit through its src/expose/exposes.ts. That only holds while the file lists what the remote
 * really exposes: every entry of "exposes" in rspack.config.mjs, with the module it points at.
 */
describe.each(remotes)('%s/src/expose/exposes.ts', (remote) => {
  it('lists every module of rspack.config.mjs "exposes", typed as the file it exposes', () => {
    const config = readFileSync(path.join(ROOT, remote, 'rspack.config.mjs'), 'utf8');
    const exposes = [...config.matchAll(/'(\.\/[A-Za-z0-9]+)':\s*'\.\/src\/expose\/([a-z0-9-]+)\.tsx?'/g)].map(([, key, file]) => ({ key, file }));
    expect(exposes.length).toBeGreaterThan(0);
    const contract = readFileSync(path.join(ROOT, remote, 'src/expose/exposes.ts'), 'utf8');
    const imports = new Map([...contract.matchAll(/import type \* as (\w+) from '\.\/([a-z0-9-]+)'/g)].map(([, name, file]) => [name, file]));
    const listed = [...contract.matchAll(/'(\.\/[A-Za-z0-9]+)': typeof (\w+)/g)].map(([, key, name]) => ({ key, file: imports.get(name ?? '') }));
    expect(listed.sort((a, b) => (a.key ?? '').localeCompare(b.key ?? ''))).toEqual(exposes.sort((a, b) => (a.key ?? '').localeCompare(b.key ?? '')));
  });
});
