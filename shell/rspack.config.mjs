import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { createConfig } from '@tm/build-config';
import { ServiceWorkerPlugin } from './build/service-worker.mjs';

const dir = import.meta.dirname;

/** Our own CSS, inlined: comments and indentation dropped (the page is sent compressed anyway). */
function compactCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .trim();
}

/** What the page's HTML starts before any bundle (src/app/early-requests.ts); the bundles take the answers. */
const EARLY = JSON.parse(readFileSync(createRequire(path.join(dir, 'package.json')).resolve('@tm/api-client/early-options.json'), 'utf8'));

/**
 * A file of src/app as an inline script (early-requests.ts in the head, kept-screen-early.ts first in the body):
 * compiled and minified with Rspack's SWC, its function run at once with its options. Each imports types
 * only, so the module's code is the function alone.
 */
function inlineScript(file, call) {
  const source = readFileSync(path.join(dir, 'src/app', file), 'utf8');
  const { code } = rspack.experiments.swc.transformSync(source, {
    filename: file,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2020', minify: { compress: true, mangle: true } },
    module: { type: 'commonjs' },
    minify: true,
  });
  return `(function(exports){${code}exports.${call}})({})`;
}

/** How long the kept screen may stand at most before the app's own screen is shown, ready or not (ms). */
const KEPT_SCREEN_MAX_MS = 10_000;

/**
 * What index.html carries besides the scripts: the design tokens and the loading screen's CSS
 * inline, the loading screen itself as static HTML (rendered from the React component by
 * src/app/prerender.tsx, run with tsx), so the first paint needs no JavaScript and no other request; and the
 * early requests.
 */
function indexHtml() {
  const parts = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "const m = await import('./src/app/prerender.tsx'); process.stdout.write(JSON.stringify((m.indexHtmlParts ? m : m.default).indexHtmlParts()));"], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(dir, '../tsconfig.web.json') },
    }),
  );
  const tokens = readFileSync(createRequire(path.join(dir, 'package.json')).resolve('@tm/design-tokens/tokens.css'), 'utf8');
  const loading = readFileSync(path.join(dir, 'src/features/loading/loading-screen.css'), 'utf8');
  const kept = readFileSync(path.join(dir, 'src/features/loading/kept-screen.css'), 'utf8');
  return {
    head: `<link rel="icon" href="/favicon.svg" type="image/svg+xml">${parts.appHead}<style>${compactCss(tokens + loading + kept)}</style><script>${inlineScript('early-requests.ts', `startEarlyRequests(window,${JSON.stringify(EARLY)})`)}</script>`,
    root: parts.loadingScreen,
    bodyStart: `<script>${inlineScript('kept-screen-early.ts', `showKeptScreen(window,${KEPT_SCREEN_MAX_MS})`)}</script>`,
  };
}

const base = createConfig({
  dir,
  name: 'shell',
  port: 3000,
  title: 'Task Manager',
  runtimePlugins: [path.join(dir, 'src/features/remotes/offline-remote.plugin.ts'), path.join(dir, 'src/features/remotes/early-manifest.plugin.ts')],
  html: indexHtml(),
});

/** The build id the About dialog shows: env BUILD_ID (CI), else the git commit, else `dev`. */
function buildId() {
  if (process.env.BUILD_ID) return process.env.BUILD_ID;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'dev';
  } catch {
    return 'dev';
  }
}

/** The shared configuration, plus the shell's version and build id written into its code (src/features/about/shell-build.ts). */
export default (env, argv) => {
  const config = base(env, argv);
  const { version } = JSON.parse(readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8'));
  const production = argv.mode !== 'development';
  config.plugins.push(
    new rspack.DefinePlugin({
      'process.env.SHELL_VERSION': JSON.stringify(version),
      'process.env.SHELL_BUILD_ID': JSON.stringify(production ? buildId() : 'dev'),
      // The share of page loads that report their Core Web Vitals (src/features/vitals/sampling.ts; empty: its default).
      'process.env.RUM_SAMPLE_RATE': JSON.stringify(process.env.RUM_SAMPLE_RATE ?? ''),
    }),
  );
  // Repeat visits from cache (build/service-worker.mjs); production only.
  if (production) config.plugins.push(new ServiceWorkerPlugin());
  return config;
};
