// Starts the built app once for the browser tests, unless no Chromium is installed (then the suites
// print that they were skipped). The URL reaches the test files through the environment.
const { existsSync, readdirSync } = require('node:fs');
const path = require('node:path');

module.exports = async function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    process.env.E2E_SKIP = `no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
    return;
  }
  const root = path.join(__dirname, '..');
  const remotes = readdirSync(root).filter((name) => /^mfe-[a-z0-9-]+$/.test(name) && existsSync(path.join(root, name, 'package.json')));
  for (const app of ['shell', ...remotes]) {
    if (!existsSync(path.join(__dirname, '..', app, 'dist', 'index.html'))) {
      throw new Error(`${app}/dist is missing: run \`pnpm build\` first (pnpm test does).`);
    }
  }
  const { startStack } = require('../packages/test-support/dist/index.js');
  // E2E_REMOTES_FILE: the remotes come from that REMOTES_FILE instead of every built mfe-*/dist; the
  // new-remote test runs the catalog suites with a freshly scaffolded remote in it.
  const remotesFile = process.env.E2E_REMOTES_FILE;
  const app = await startStack({ web: true, ...(remotesFile ? { env: { REMOTES_FILE: remotesFile } } : {}) });
  process.env.E2E_BASE_URL = app.url;
  globalThis.__TM_E2E_APP__ = app;
};
