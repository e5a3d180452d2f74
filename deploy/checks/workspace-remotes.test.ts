// Issue #19: a remote of the workspace cannot merge without being deployed. Every `mfe-*` package that
// declares a remote ("remote" in its package.json) must be in deploy/remotes-catalog.json with exactly the
// routes it declares; the compose, Kubernetes, image and nginx checks then hold it to its service, manifests,
// Ingress path and image (they iterate over that catalog, deployed-remotes.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { remotesCatalog } from './deployed-remotes';

const ROOT = path.resolve(__dirname, '../..');

interface DeclaredRemote {
  folder: string;
  name: string;
  routes: unknown[];
}

/** The remotes the workspace declares, by the pattern every tool uses (mfe-<key> folders with a package.json). */
function declaredRemotes(): DeclaredRemote[] {
  return readdirSync(ROOT)
    .filter((folder) => /^mfe-[a-z0-9-]+$/.test(folder) && existsSync(path.join(ROOT, folder, 'package.json')))
    .sort()
    .flatMap((folder) => {
      const { remote } = JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { remote?: { name: string; routes: unknown[] } };
      return remote ? [{ folder, name: remote.name, routes: remote.routes }] : [];
    });
}

describe('the deploy catalog holds every remote of the workspace', () => {
  it('finds the remotes of the workspace (the check would pass on nothing otherwise)', () => {
    expect(declaredRemotes().map((remote) => remote.folder)).toEqual(expect.arrayContaining(['mfe-auth', 'mfe-tasks']));
  });

  it.each(declaredRemotes().map((remote) => [remote.folder, remote] as const))('%s is in deploy/remotes-catalog.json, at /remotes/<key>/, with the routes it declares', (folder, remote) => {
    const deployed = remotesCatalog().remotes[remote.name] as { manifest: string; routes: unknown[] } | undefined;
    if (!deployed) throw new Error(`${folder} (${remote.name}) is missing from deploy/remotes-catalog.json: add it as its scaffold printed (docs/ADDING_A_REMOTE.md)`);
    expect(deployed.manifest).toBe(`/remotes/${folder.slice('mfe-'.length)}/mf-manifest.json`);
    expect(deployed.routes).toEqual(remote.routes);
  });
});
