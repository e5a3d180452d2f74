#!/usr/bin/env node
// First-load JavaScript of the login screen and of the task list, as Chromium loads them from the built
// app (`pnpm build` first): every script response of a cold load, measured raw and gzipped (level 6, as
// nginx and koa-compress send them). Run: node scripts/bench-web.mjs
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startStack } from '@tm/test-support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
  for (const [name, result] of [['login screen', login], ['task list', tasks]]) {
    console.log(`first-load JS, ${name}: ${result.files} files, ${result.rawKiB} KiB raw, ${result.gzipKiB} KiB gzipped`);
    for (const s of result.scripts) console.log(`  ${s.url}  ${(s.raw / 1024).toFixed(1)} KiB raw, ${(s.gzip / 1024).toFixed(1)} KiB gz`);
  }
} finally {
  await browser.close();
  await app.stop();
}
