// The whole build of a remote that lives outside the Task Manager repository (docs/ADDING_A_REMOTE.md "A remote
// in its own repository"). It cannot use the workspace's @tm/build-config, so it says here, in one page, what
// that preset does for the workspace's remotes and what the shell relies on:
// - a Module Federation container (`remoteEntry.js`) with an `mf-manifest.json`, chunks resolved relative to
//   wherever the manifest is served from (publicPath 'auto'), hashed names that may be cached for a year;
// - React shared as a singleton of the shell's major version, strictly: the page runs on the shell's React;
// - the federation runtime taken from the shell (externalRuntime), not bundled a second time;
// - `dist/remote.json`: the federation name, version, build id and routes declared in package.json "remote",
//   checked with the catalog's own rules (`checkRemoteBuildInfo` of @tm/remote-contract), which the gateway
//   turns into this remote's entry in /remotes.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { checkRemoteBuildInfo } from '@tm/remote-contract/catalog';

const dir = import.meta.dirname;
const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));

/** Exposed module → source. Keep src/expose/exposes.ts in step: it checks each one against the contract. */
const exposes = { './ExternalPage': './src/expose/external-page.tsx' };

/**
 * The package.json "remote" declaration with this build's version and id (env BUILD_ID, else "dev"), checked
 * as the gateway and the shell will check it: a bad declaration fails the build, every problem listed.
 * @returns {import('@tm/remote-contract/catalog').RemoteBuildInfo}
 */
function remoteBuildInfo() {
  const declared = pkg.remote ?? {};
  const check = checkRemoteBuildInfo({ name: declared.name, version: pkg.version, buildId: process.env.BUILD_ID || 'dev', routes: declared.routes });
  const problems = check.ok ? [] : [...check.problems];
  for (const route of Array.isArray(declared.routes) ? declared.routes : []) {
    if (route && typeof route.module === 'string' && !(route.module in exposes)) problems.push(`${route.module} is not exposed (exposes: ${Object.keys(exposes).join(', ')})`);
  }
  if (!check.ok || problems.length > 0) {
    throw new Error(`the "remote" declaration in package.json is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return check.info;
}

/**
 * A shared singleton as the shell provides it: the major of this package's exact version (`19.3.1` gives
 * `^19.0.0`), strictly, so another major fails to load with a clear message instead of running two Reacts.
 * @param {string} name
 */
function singleton(name) {
  const major = /^(\d+)\./.exec(pkg.dependencies[name] ?? '')?.[1];
  if (!major) throw new Error(`${name} must be a dependency with an exact version: the shell shares it`);
  return { singleton: true, requiredVersion: `^${major}.0.0`, strictVersion: true };
}

/** Writes dist/remote.json next to mf-manifest.json. */
class RemoteInfoPlugin {
  /** @param {import('@tm/remote-contract/catalog').RemoteBuildInfo} info */
  constructor(info) {
    this.info = info;
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RemoteInfoPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'RemoteInfoPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset('remote.json', new compiler.webpack.sources.RawSource(`${JSON.stringify(this.info, null, 2)}\n`));
      });
    });
  }
}

const info = remoteBuildInfo();

/** @type {import('@rspack/core').Configuration} */
export default {
  mode: 'production',
  context: dir,
  // No page of its own: the container entry (remoteEntry.js) is all the shell loads.
  entry: {},
  devtool: 'source-map',
  output: {
    path: path.join(dir, 'dist'),
    publicPath: 'auto',
    uniqueName: info.name,
    filename: 'assets/[name].[contenthash:10].js',
    chunkFilename: 'assets/[name].[contenthash:10].js',
    clean: true,
  },
  resolve: { extensions: ['.ts', '.tsx', '.js'] },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: {
          jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
          env: { targets: 'chrome >= 111, edge >= 111, firefox >= 111, safari >= 16.4' },
        },
        type: 'javascript/auto',
      },
    ],
  },
  plugins: [
    new ModuleFederationPlugin({
      name: info.name,
      filename: 'remoteEntry.js',
      exposes,
      shared: { react: singleton('react'), 'react-dom': singleton('react-dom') },
      shareStrategy: 'loaded-first',
      // The contract's types come from @tm/remote-contract, not from types generated by the federation plugin.
      dts: false,
      manifest: {
        fileName: 'mf-manifest.json',
        // The About dialog shows each remote's version and build id from its manifest.
        additionalData: ({ stats }) => {
          stats.metaData.buildInfo = { ...stats.metaData.buildInfo, buildVersion: info.version ?? 'dev', buildId: info.buildId };
          return stats;
        },
      },
      experiments: { externalRuntime: true, optimization: { target: 'web' } },
    }),
    new RemoteInfoPlugin(info),
  ],
  optimization: { minimize: true },
  performance: { hints: false },
};
