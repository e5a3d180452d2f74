// One Rspack configuration for the three frontends. Each app passes its name, dev port and federation
// role; everything else (TypeScript via SWC, CSS, HTML, hashing, dev server, React Refresh) is the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import CompressionPlugin from 'compression-webpack-plugin';
import { ReactRefreshRspackPlugin } from '@rspack/plugin-react-refresh';
import budget from './first-load-budget.cjs';
import { sharedModules } from './shared-deps.mjs';
import { devCatalog } from './workspace-remotes.mjs';

/**
 * @typedef {object} AppOptions
 * @property {string} dir          the app's folder
 * @property {string} name         federation name (mfe_auth, mfe_tasks, shell)
 * @property {number} port         dev server port
 * @property {Record<string,string>} [exposes]  page-level modules a remote exposes
 * @property {string[]} [runtimePlugins]         federation runtime plugins (the host's fallback plugin)
 * @property {string} title        page title of the app's own HTML page
 * @property {RemoteBuild} [remote]  a remote's build metadata and standalone settings (remote-preset.mjs)
 * @property {IndexHtmlParts} [html]   what the app writes into its index.html besides its scripts (the shell's loading screen)
 */

/**
 * @typedef {object} IndexHtmlParts
 * @property {string} [head]  HTML at the end of <head> (inline style and script)
 * @property {string} [bodyStart]  HTML at the start of <body>, before the root (what must be in the first paint)
 * @property {string} [root]  HTML inside <div id="root"> until React takes it over
 * @property {string} [body]  HTML after the root
 */

/**
 * @typedef {object} RemoteBuild
 * @property {import('@tm/contracts').RemoteBuildInfo} info  written as dist/remote.json by a production build
 * @property {string} shellUrl   where the shell runs, for the standalone app (env SHELL_URL)
 */

/**
 * What the narrowed shared modules (router-exports.mjs, query-exports.mjs; the apps' libraries, not this
 * package's) import: react-router as the app's react-router-dom depends on it, and the ESM entry of the
 * app's @tanstack/react-query under a name the shared '@tanstack/react-query' does not intercept.
 * @param {string} dir the app's folder
 */
function narrowedImplementations(dir) {
  const fromApp = createRequire(path.join(dir, 'package.json'));
  const dom = fromApp.resolve('react-router-dom/package.json');
  const query = path.dirname(fromApp.resolve('@tanstack/react-query/package.json'));
  return {
    'react-router$': path.dirname(createRequire(dom).resolve('react-router/package.json')),
    '@tm/shared-impl/react-query$': path.join(query, 'build/modern/index.js'),
  };
}

/** Emits `remote.json` (a RemoteBuildInfo, already checked) next to the remote's mf-manifest.json. */
class RemoteInfoPlugin {
  /** @param {import('@tm/contracts').RemoteBuildInfo} info */
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

/** Text files worth compressing: scripts, styles, HTML, JSON (manifests), SVG, source maps excluded. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt)$/;

/** The .br and .gz copies of every compressible asset over 1 KiB that gets at least 10 % smaller. */
function precompressed() {
  const common = { test: COMPRESSIBLE, threshold: 1024, minRatio: 0.9, deleteOriginalAssets: false };
  return [
    new CompressionPlugin({ ...common, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
  ];
}

/** @param {AppOptions} app @returns {(env: unknown, argv: {mode?: string}) => import('@rspack/core').Configuration} */
export function createConfig(app) {
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const pkg = JSON.parse(readFileSync(path.join(app.dir, 'package.json'), 'utf8'));
    const isRemote = Boolean(app.exposes);
    const info = app.remote?.info;
    return {
      mode: production ? 'production' : 'development',
      context: app.dir,
      entry: { main: './src/index.ts' },
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(app.dir, 'dist'),
        // Remotes resolve their chunks relative to wherever their manifest is served from.
        publicPath: isRemote ? 'auto' : '/',
        uniqueName: app.name,
        filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
        chunkFilename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
        cssFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        cssChunkFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
        clean: true,
      },
      resolve: {
        extensions: ['.ts', '.tsx', '.js', '.mjs'],
        // Workspace packages are compiled from source (their package.json "source" field).
        mainFields: ['source', 'browser', 'module', 'main'],
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        alias: narrowedImplementations(app.dir),
      },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            loader: 'builtin:swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production, refresh: !production } },
              },
              env: { targets: 'chrome >= 111, edge >= 111, firefox >= 111, safari >= 16.4' },
            },
            type: 'javascript/auto',
          },
          { test: /\.css$/, type: 'css/auto' },
          { test: /\.(svg|png|mp3)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name: app.name,
          filename: isRemote ? 'remoteEntry.js' : undefined,
          exposes: app.exposes,
          remotes: {},
          shared: sharedModules(pkg.dependencies),
          // version-first would fetch every remote's entry at start-up: one offline remote then breaks the
          // whole app. loaded-first only negotiates with what is actually loaded.
          shareStrategy: 'loaded-first',
          runtimePlugins: app.runtimePlugins,
          dts: false,
          manifest: isRemote
            ? {
                fileName: 'mf-manifest.json',
                // The manifest says which build it is (metaData.buildInfo), as dist/remote.json does.
                additionalData: info
                  ? ({ stats }) => {
                      stats.metaData.buildInfo = { ...stats.metaData.buildInfo, buildVersion: info.version ?? 'dev', buildId: info.buildId };
                      return stats;
                    }
                  : undefined,
              }
            : false,
          // One federation runtime per page: the shell puts its runtime-core on the global
          // object and the remotes' entries use it instead of bundling their own (~20 KiB gzipped each).
          // Production only: a remote's dev server also serves its standalone page, which has no shell.
          experiments: production
            ? { ...(isRemote ? { externalRuntime: true } : { provideExternalRuntime: true }), optimization: { target: 'web' } }
            : { optimization: { target: 'web' } },
        }),
        // One HTML page for all three: the pre-paint theme script must be identical everywhere.
        new rspack.HtmlRspackPlugin({
          template: path.join(import.meta.dirname, 'index.html'),
          title: app.title,
          minify: production,
          templateParameters: { headHtml: app.html?.head ?? '', bodyStartHtml: app.html?.bodyStart ?? '', rootHtml: app.html?.root ?? '', bodyHtml: app.html?.body ?? '' },
        }),
        new rspack.CopyRspackPlugin({
          patterns: [
            {
              from: 'public',
              to: '.',
              noErrorOnMissing: true,
            },
          ],
        }),
        !production && new ReactRefreshRspackPlugin(),
        app.remote && new rspack.DefinePlugin({ __TM_SHELL_URL__: JSON.stringify(app.remote.shellUrl) }),
        // What the gateway makes the remote's catalog entry from (name, version, build id, routes).
        production && info && new RemoteInfoPlugin(info),
        // What the browser downloads is compressed wherever the app is served. Every text file is
        // written beside itself as .br (brotli, quality 11) and .gz (gzip, level 9) once, at build time, so
        // the gateway and nginx send them without compressing per request (@koa/send, gzip_static).
        ...(production ? precompressed() : []),
        // Fails a production build whose first-load JavaScript is over the app's budget.
        production && new budget.FirstLoadBudgetPlugin({ app: path.basename(app.dir), budgetKiB: pkg.budgets?.firstLoadGzipKiB, container: isRemote ? app.name : undefined }),
      ].filter(Boolean),
      optimization: { minimize: production },
      performance: { hints: false },
      devServer: {
        port: app.port,
        hot: true,
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        proxy: [{ context: ['/api'], target: process.env.GATEWAY_URL ?? `http://127.0.0.1:${process.env.PORT || 8080}`, changeOrigin: false }],
        // The shell's dev catalogue is made from the workspace's remotes on every request (a new
        // mfe-* package shows up in `pnpm dev` with nothing to edit); production reads /remotes.json.
        setupMiddlewares: isRemote
          ? undefined
          : (middlewares) => [
              {
                name: 'dev-remote-catalog',
                path: '/remotes.dev.json',
                middleware: (_request, response) => {
                  response.setHeader('Content-Type', 'application/json');
                  response.setHeader('Cache-Control', 'no-cache');
                  response.end(JSON.stringify(devCatalog(path.resolve(app.dir, '..'))));
                },
              },
              ...middlewares,
            ],
      },
    };
  };
}
