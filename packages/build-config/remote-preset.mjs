// The Rspack configuration of a remote: `export default createRemoteConfig({ dir, exposes, port, title })`
// is a remote's whole rspack.config.mjs. Its federation name and routes are declared once, in the remote's
// package.json ("remote": { "name": "mfe_stats", "routes": [...] }); a production build writes them with
// the version and the build id to dist/remote.json, next to mf-manifest.json (whose metaData.buildInfo
// carries the same version and build id). A bad declaration fails the build (and the dev server) at once.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { createConfig } from './rspack.config.mjs';

/**
 * The catalog's own checks (packages/contracts, TypeScript source: no build of contracts needed first).
 * @type {typeof import('@tm/contracts').checkRemoteBuildInfo}
 */
const { checkRemoteBuildInfo } = await tsImport('@tm/contracts/src/remote-catalog.ts', import.meta.url);

/**
 * @typedef {object} RemoteOptions
 * @property {string} dir     the remote's folder (import.meta.dirname)
 * @property {Record<string,string>} exposes  exposed module → source file (`./StatsPage`: `./src/expose/stats-page.tsx`)
 * @property {number} port    its dev server port unless env REMOTE_PORT says otherwise (PORT is the gateway's,
 *   which every dev server forwards /api to, as `pnpm dev` documents)
 * @property {string} title   page title of its standalone page
 */

/** The build id: env BUILD_ID (set by CI), else the commit's short hash, else 'dev'. @param {string} dir */
export function buildId(dir) {
  if (process.env.BUILD_ID) return process.env.BUILD_ID;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'dev';
  } catch {
    return 'dev';
  }
}

/**
 * Reads and checks a remote's declaration (package.json "remote") against its exposes: the RemoteBuildInfo
 * its build writes. Throws one error listing every problem.
 * @param {string} dir @param {Record<string,string>} exposes
 * @returns {import('@tm/contracts').RemoteBuildInfo}
 */
export function remoteBuildInfo(dir, exposes) {
  const file = path.join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const declared = pkg.remote ?? {};
  const problems = [];
  if (typeof declared.name !== 'string') problems.push('"remote": { "name": … } is missing: the federation name, such as mfe_stats');
  const check = checkRemoteBuildInfo({ name: declared.name, version: pkg.version, buildId: buildId(dir), routes: declared.routes });
  if (!check.ok && typeof declared.name === 'string') problems.push(...check.problems);
  for (const [index, route] of (Array.isArray(declared.routes) ? declared.routes : []).entries()) {
    if (route && typeof route.module === 'string' && !(route.module in exposes)) {
      problems.push(`routes[${index}].module ${route.module} is not exposed (exposes: ${Object.keys(exposes).join(', ') || 'none'})`);
    }
  }
  if (problems.length > 0 || !check.ok) {
    throw new Error(
      `${path.basename(dir)}: the "remote" declaration in ${file} is invalid (docs/ADDING_A_REMOTE.md):\n` +
        problems.map((problem) => `  - ${problem.replace(/^remotes\.[^.]*\./, '')}`).join('\n'),
    );
  }
  return check.info;
}

/** @param {RemoteOptions} options */
export function createRemoteConfig({ dir, exposes, port, title }) {
  const info = remoteBuildInfo(dir, exposes);
  return createConfig({
    dir,
    name: info.name,
    port: Number(process.env.REMOTE_PORT) || port,
    title,
    exposes,
    remote: { info, shellUrl: process.env.SHELL_URL || 'http://localhost:3000' },
  });
}
