// The remotes of this workspace, found by pattern (a new `mfe-*` package is picked up everywhere):
// each `mfe-<key>` folder with a package.json, its federation name and routes ("remote" in package.json)
// and its dev server port (the `port:` of its rspack.config.mjs). The scaffolder uses it to pick a free port
// and route; the shell's dev server makes its dev catalogue from it, so `pnpm dev` loads a new remote with
// no catalogue to edit.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * @typedef {object} WorkspaceRemote
 * @property {string} folder  `mfe-stats`
 * @property {string} [name]  the federation name (`mfe_stats`), when the package declares one
 * @property {number} port    its dev server's port (0 when its config names none)
 * @property {import('@tm/contracts').RemoteRoute[]} routes
 */

/** @returns {WorkspaceRemote[]} */
export function workspaceRemotes(root) {
  return readdirSync(root)
    .filter((folder) => /^mfe-[a-z0-9-]+$/.test(folder) && existsSync(path.join(root, folder, 'package.json')))
    .sort()
    .map((folder) => {
      const pkg = JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8'));
      const configFile = path.join(root, folder, 'rspack.config.mjs');
      const config = existsSync(configFile) ? readFileSync(configFile, 'utf8') : '';
      const port = Number(/port:\s*(\d+)/.exec(config)?.[1] ?? 0);
      return { folder, name: pkg.remote?.name, port, routes: pkg.remote?.routes ?? [] };
    });
}

/**
 * The catalogue the shell's dev server answers at `/remotes.dev.json`: every workspace remote that declares
 * a name, at its dev server (`http://localhost:<port>/mf-manifest.json`).
 * @returns {import('@tm/contracts').RemoteCatalog}
 */
export function devCatalog(root) {
  const remotes = {};
  for (const remote of workspaceRemotes(root)) {
    if (!remote.name || !remote.port) continue;
    remotes[remote.name] = { manifest: `http://localhost:${remote.port}/mf-manifest.json`, version: 'dev', buildId: 'dev', routes: remote.routes };
  }
  return { remotes };
}

/**
 * `REMOTES` for the gateway in all-in-one mode (`npm start`): every workspace remote that has been built
 * (`mfe-<key>/dist/remote.json`), as `key=mfe-<key>/dist`, relative to `root`.
 * @returns {string}
 */
export function builtRemotes(root) {
  return workspaceRemotes(root)
    .filter(({ folder }) => existsSync(path.join(root, folder, 'dist', 'remote.json')))
    .map(({ folder }) => `${folder.slice('mfe-'.length)}=${folder}/dist`)
    .join(',');
}
