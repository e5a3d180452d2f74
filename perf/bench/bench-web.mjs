#!/usr/bin/env node
// First-load JavaScript of the login screen and of the task list, as Chromium loads them from the built
// app (`pnpm build` first): every script response of a cold load, measured raw and gzipped (level 6, as
// nginx and koa-compress send them). Run: node perf/bench/bench-web.mjs
// A child of `pnpm bench`: with BENCH_JSON set it writes its title, tables and metrics there. It exits
// non-zero when a screen is over its budget (after writing them). The build checks each app's
// share of these loads (budgets.firstLoadGzipKiB in each app's package.json).
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startStack } from '@tm/test-support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** gzipped first-load JavaScript of each screen, in KiB. */
const SCREENS = [
  { key: 'login', name: 'login screen', path: '/login (signed out)', budgetKiB: 150 },
  { key: 'tasks', name: 'task list', path: '/ (signed in)', budgetKiB: 200 },
];
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function measure(page, action) {
  const scripts = [];
  const onResponse = async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script') return;
    try {
      const body = await response.body();
      scripts.push({ url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
    } catch {
      // A response without a body (redirect) carries no script.
    }
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const sum = (key) => scripts.reduce((total, s) => total + s[key], 0);
  return { files: scripts.length, rawKiB: +(sum('raw') / 1024).toFixed(1), gzipKiB: +(sum('gzip') / 1024).toFixed(1), scripts };
}

const app = await startStack({ web: true });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
try {
  const context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  const login = await measure(page, async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
  });
  await page.getByRole('link', { name: 'Create one' }).click();
  await page.getByLabel('Full Name').fill('Size Probe');
  await page.getByLabel('Email').fill(`size-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
  // A cold load of the task list in a fresh page of the same (signed-in) profile, with the cache off.
  const fresh = await context.newPage();
  await fresh.route('**/*', (route) => route.continue({ headers: { ...route.request().headers(), 'cache-control': 'no-cache' } }));
  const tasks = await measure(fresh, async () => {
    await fresh.goto('/');
    await fresh.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
  });
  report({ login, tasks });
} finally {
  await browser.close();
  await app.stop();
}

/** Prints the figures, writes them for `pnpm bench` when asked, and fails when a screen is over budget. */
function report(results) {
  const screens = SCREENS.map((screen) => ({ ...screen, ...results[screen.key] }));
  for (const s of screens) {
    const verdict = s.gzipKiB <= s.budgetKiB ? 'within' : 'OVER';
    console.log(`first-load JS, ${s.name}: ${s.files} files, ${s.rawKiB} KiB raw, ${s.gzipKiB} KiB gzipped (budget ${s.budgetKiB} KiB: ${verdict})`);
    for (const f of s.scripts) console.log(`  ${f.url}  ${(f.raw / 1024).toFixed(1)} KiB raw, ${(f.gzip / 1024).toFixed(1)} KiB gz`);
  }
  const over = screens.filter((s) => s.gzipKiB > s.budgetKiB);
  if (process.env.BENCH_JSON) {
    const kib = (bytes) => +(bytes / 1024).toFixed(1);
    writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify(
        {
          title: 'First-load JavaScript (Chromium, cold load, gzip level 6)',
          command: 'node perf/bench/bench-web.mjs',
          sections: [
            {
              heading: 'First load per screen',
              text: 'Every script Chromium fetches on a cold load of the built app, gzipped at level 6 as nginx and koa-compress send it. Budgets: docs/PERFORMANCE.md "First-load budgets"; the build checks each app\'s share (budgets.firstLoadGzipKiB in its package.json).',
              columns: ['screen', 'scripts', 'raw KiB', 'gzip KiB', 'budget KiB', 'within budget'],
              rows: screens.map((s) => [s.path, s.files, s.rawKiB, s.gzipKiB, s.budgetKiB, s.gzipKiB <= s.budgetKiB ? 'yes' : 'no']),
            },
            ...screens.map((s) => ({
              heading: `Scripts of ${s.path}`,
              columns: ['script', 'raw KiB', 'gzip KiB'],
              rows: [...s.scripts].sort((a, b) => b.gzip - a.gzip).map((f) => [f.url.replace(/\.[0-9a-f]{10}\.js$/, '.js'), kib(f.raw), kib(f.gzip)]),
            })),
          ],
          metrics: Object.fromEntries(screens.flatMap((s) => [[`web.${s.key}.gzipKiB`, s.gzipKiB], [`web.${s.key}.files`, s.files]])),
        },
        null,
        2,
      ),
    );
  }
  if (over.length) {
    console.error(`over budget: ${over.map((s) => `${s.name} ${s.gzipKiB} KiB > ${s.budgetKiB} KiB`).join('; ')}`);
    process.exitCode = 1;
  }
}
