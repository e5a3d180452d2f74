#!/usr/bin/env node
// What a person on a phone or a slow network feels, on the built app as `npm start` serves it
// (`pnpm build` first): the gateway, svc-users and svc-todos as separate processes, SQLite storage.
//   1. Lighthouse 12 (the npm package, Debian's Chromium), mobile preset (simulated slow 4G, 4× CPU
//      slowdown): `/login` signed out, `/` signed in with 30 and with 1 000 tasks, each cold (storage and
//      cache cleared) and repeat (the same profile again: HTTP cache and service worker warm). Median of
//      `BENCH_LH_RUNS` runs (default 3; 1 with BENCH_QUICK=1).
//   2. The slow profile: 400 ms latency, 50 KB/s each way (CDP network emulation, on the page and on its
//      service worker), 412 × 823, no CPU slowdown: when something is painted, when the sign-in form is
//      there, when the list of 30 is there (cold and repeat), and 10 000 tasks; what the page shows at each
//      second (a filmstrip) and the waterfall of requests of each load.
// Writes its figures to BENCH_JSON for `pnpm bench` (docs/BENCHMARKS.md), prints them as it goes, and saves
// screenshots of every second of the slow loads under .test-data/bench-mobile/ when BENCH_SCREENSHOTS=1.
// Run: pnpm build && node perf/bench/bench-mobile.mjs   (BENCH_MOBILE_PARTS=lighthouse or =slow for one part)
// 127.0.0.1 only; every load is bounded in time.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { addTodos, signUp, startStack } from '@tm/test-support';
import { emulateEverywhere } from './slow-network.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const QUICK = process.env.BENCH_QUICK === '1';
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? (QUICK ? 1 : 3));
const PARTS = new Set((process.env.BENCH_MOBILE_PARTS ?? 'lighthouse,slow').split(','));
/** Lighthouse screens to run (all by default): login, tasks30, tasks1000. */
const LH_SCREENS = new Set((process.env.BENCH_LH_SCREENS ?? 'login,tasks30,tasks1000').split(','));
const SCREENSHOTS = process.env.BENCH_SCREENSHOTS === '1' ? path.join(ROOT, '.test-data', 'bench-mobile') : undefined;
/** The slow profile: a phone on a slow network (docs/PERFORMANCE.md "Delivery on a phone and a slow network"). */
export const SLOW = { latency: 400, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };
const PHONE = { width: 412, height: 823 };
const SEED_CONCURRENCY = 16;
const LOAD_TIMEOUT_MS = 45_000;

const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : undefined;
};
const round = (value, digits = 0) => (value === undefined ? undefined : Math.round(value * 10 ** digits) / 10 ** digits);
const seconds = (ms) => (ms === undefined ? '–' : (ms / 1000).toFixed(1));

/** A new user with `count` tasks, signed in through the API (a sign-up that timed out on a busy machine is tried again). */
async function userWithTasks(baseUrl, label, count) {
  const { client } = await signUp(baseUrl, { name: `Mobile ${label}`, attempts: 3 });
  await addTodos(client, count, { concurrency: SEED_CONCURRENCY, title: (n) => `Task number ${n} of ${count}: something to do today` });
  return client;
}

const cookiesFor = (api, url) => [...api.cookies].map(([name, value]) => ({ name, value, url }));

// ── Lighthouse ──────────────────────────────────────────────────────────────────────────────────────

/** A Chromium profile Lighthouse drives through its DevTools port, with the user's cookies when signed in. */
async function lighthouseBrowser(baseUrl, api) {
  const profile = mkdtempSync(path.join(tmpdir(), 'tm-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, '--remote-debugging-port=0'],
  });
  if (api) await context.addCookies(cookiesFor(api, baseUrl));
  const [portLine] = readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n');
  return {
    context,
    port: Number(portLine),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Loads `url` once in the profile and waits for its service worker (if any) to have taken over and cached. */
async function warm(context, url, ready) {
  const page = await context.newPage();
  await page.goto(url);
  await ready(page);
  await page.evaluate(async () => {
    if (!('serviceWorker' in navigator)) return;
    const registration = await Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (registration) await new Promise((resolve) => setTimeout(resolve, 1500));
  });
  await page.close();
}

const LH_AUDITS = {
  score: (lhr) => Math.round((lhr.categories.performance.score ?? 0) * 100),
  fcpMs: (lhr) => lhr.audits['first-contentful-paint']?.numericValue,
  lcpMs: (lhr) => lhr.audits['largest-contentful-paint']?.numericValue,
  tbtMs: (lhr) => lhr.audits['total-blocking-time']?.numericValue,
  ttiMs: (lhr) => lhr.audits.interactive?.numericValue,
  cls: (lhr) => lhr.audits['cumulative-layout-shift']?.numericValue,
  transferKiB: (lhr) => (lhr.audits['total-byte-weight']?.numericValue ?? 0) / 1024,
  mainThreadMs: (lhr) => lhr.audits['mainthread-work-breakdown']?.numericValue,
  bootupMs: (lhr) => lhr.audits['bootup-time']?.numericValue,
  unusedJsKiB: (lhr) => (lhr.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0) / 1024,
  requests: (lhr) => lhr.audits['network-requests']?.details?.items?.length,
};

/** One Lighthouse run; a run whose trace it could not record (NO_NAVSTART and the like) is tried again, twice. */
async function runLighthouse(port, url, repeat) {
  const { default: lighthouse } = await import('lighthouse');
  let lhr;
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: repeat });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    lhr = result.lhr;
    if (!lhr.runtimeError) break;
    if (attempt === 3) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    console.log(`[mobile] Lighthouse ${lhr.runtimeError.code} on ${url}: trying again`);
  }
  const figures = Object.fromEntries(Object.entries(LH_AUDITS).map(([key, read]) => [key, read(lhr)]));
  const mainThread = lhr.audits['mainthread-work-breakdown']?.details?.items ?? [];
  figures.topWork = mainThread.slice(0, 4).map((item) => `${item.groupLabel ?? item.group} ${Math.round(item.duration)} ms`).join(', ');
  figures.lcpElement = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '';
  const origin = new URL(url).origin;
  figures.longTasks = (lhr.audits['long-tasks']?.details?.items ?? [])
    .slice(0, 6)
    .map((task) => `${String(task.url ?? '').replace(origin, '').replace(/\.[0-9a-f]{10}\.js$/, '.js') || 'page'} ${Math.round(task.duration)} ms at ${Math.round(task.startTime)}`)
    .join(', ');
  return figures;
}

async function lighthouseScreen(baseUrl, screen) {
  const runs = { cold: [], repeat: [] };
  for (let run = 0; run < LH_RUNS; run += 1) {
    const browser = await lighthouseBrowser(baseUrl, screen.api);
    try {
      runs.cold.push(await runLighthouse(browser.port, baseUrl + screen.path, false));
      await warm(browser.context, baseUrl + screen.path, screen.ready);
      runs.repeat.push(await runLighthouse(browser.port, baseUrl + screen.path, true));
    } finally {
      await browser.close();
    }
    for (const kind of ['cold', 'repeat']) {
      const f = runs[kind].at(-1);
      console.log(
        `[mobile] Lighthouse ${screen.label} ${kind} #${run + 1}: performance ${f.score}, FCP ${seconds(f.fcpMs)} s, LCP ${seconds(f.lcpMs)} s, TBT ${round(f.tbtMs)} ms, ` +
          `TTI ${seconds(f.ttiMs)} s, ${round(f.transferKiB)} KiB, main thread ${seconds(f.mainThreadMs)} s (${f.topWork}), unused JS ${round(f.unusedJsKiB)} KiB, LCP element ${f.lcpElement.slice(0, 80)}; long tasks: ${f.longTasks}`,
      );
    }
  }
  const pick = (kind) => Object.fromEntries(Object.keys(LH_AUDITS).map((key) => [key, median(runs[kind].map((r) => r[key]))]));
  return { cold: pick('cold'), repeat: pick('repeat'), topWork: runs.cold.at(-1)?.topWork, lcpElement: runs.cold.at(-1)?.lcpElement, longTasks: runs.cold.at(-1)?.longTasks };
}

// ── The slow profile ────────────────────────────────────────────────────────────────────────────────

/**
 * Installed in every document before its own scripts: notes (ms since navigation start) when the page first
 * painted, showed the loading screen, the sign-in form, the task rows and usable rows, and what it showed at
 * each 100 ms. Runs through the DevTools protocol, so the app's CSP does not apply to it.
 */
function observer(expectedRows) {
  /* global document, getComputedStyle, MutationObserver, window -- runs in the page */
  const seen = {};
  const states = [];
  const mark = (key) => {
    if (seen[key] === undefined) seen[key] = Math.round(performance.now());
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') seen.fcp = Math.round(entry.startTime);
  }).observe({ type: 'paint', buffered: true });
  const visible = (element) => !!element && element.getBoundingClientRect().height > 0 && getComputedStyle(element).visibility !== 'hidden';
  const check = () => {
    if (!document.body) return;
    let state = 'blank';
    if (visible(document.querySelector('.loading-screen'))) {
      mark('loadingScreen');
      state = 'loading screen';
    }
    const signIn = [...document.querySelectorAll('button')].find((button) => button.textContent.trim() === 'Sign In');
    if (visible(signIn) && document.querySelector('input[type="email"]')) {
      mark('form');
      state = 'sign-in form';
    }
    if (document.querySelector('.remote-loading')) state = 'header, page loading';
    if (document.querySelector('.tasks-page')) state = 'task page, no list yet';
    const rows = [...document.querySelectorAll('li[data-todo-id]')];
    if (expectedRows > 0 && rows.length >= Math.min(expectedRows, 8)) {
      mark('list');
      state = 'task list';
      const first = rows[0];
      if (!first.inert && getComputedStyle(first).opacity === '1') mark('listUsable');
    }
    if (document.querySelector('.tasks-page__error')) {
      mark('listError');
      state = 'list error';
    }
    if (seen.fcp === undefined && state === 'blank') state = 'blank (nothing painted)';
    states.push([Math.round(performance.now()), state]);
  };
  setInterval(check, 100);
  // Also at every change of the page, so the first time each thing is there is read to the millisecond.
  new MutationObserver(() => {
    const [time] = states.at(-1) ?? [0];
    const before = states.length;
    check();
    // Only the 100 ms samples make the filmstrip: drop the extra one unless it is a new state.
    if (states.length > before && states.at(-2)?.[1] === states.at(-1)?.[1] && time) states.pop();
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', check);
  window.__tmSeen = seen;
  window.__tmStates = states;
}

/** What the page showed at each whole second: "0 s blank, 1 s loading screen, …". */
function filmstrip(states, untilMs) {
  const frames = [];
  for (let second = 0; second * 1000 <= untilMs + 999; second += 1) {
    const at = second * 1000;
    let shown = 'blank (nothing painted)';
    for (const [time, state] of states) if (time <= at) shown = state;
    frames.push(`${second} s ${shown}`);
  }
  // Runs of the same state are told once: "0–3 s blank".
  const runs = [];
  for (const frame of frames) {
    const [second, , ...rest] = frame.split(' ');
    const state = rest.join(' ');
    const last = runs.at(-1);
    if (last && last.state === state) last.to = second;
    else runs.push({ from: second, to: second, state });
  }
  return runs.map((r) => `${r.from === r.to ? r.from : `${r.from}–${r.to}`} s: ${r.state}`).join('; ');
}

async function waterfallOf(page) {
  return page.evaluate(() => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    return entries
      .map((e) => ({
        path: new URL(e.name).pathname.replace(/\.[0-9a-f]{10}\.(js|css)$/, '.$1'),
        type: e.initiatorType,
        start: Math.round(e.startTime),
        end: Math.round(e.responseEnd),
        bytes: e.transferSize,
        fromCache: e.transferSize === 0 && e.decodedBodySize > 0,
      }))
      .sort((a, b) => a.start - b.start);
  });
}

/**
 * One load of `path` on the slow profile in `context`; resolves when `goal` (a key of the observer) is seen
 * or after LOAD_TIMEOUT_MS.
 */
async function slowLoad(context, { label, path: url, goal, expectedRows = 0 }) {
  const page = await context.newPage();
  await page.addInitScript(observer, expectedRows);
  const emulation = await emulateEverywhere(context, page, SLOW);
  let done = false;
  const shots = (async () => {
    if (!SCREENSHOTS) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (let second = 0; !done && second <= LOAD_TIMEOUT_MS / 1000; second += 1) {
      const started = Date.now();
      await page.screenshot({ path: path.join(SCREENSHOTS, `${label.replace(/\W+/g, '-')}-${String(second).padStart(2, '0')}s.png`) }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - started))));
    }
  })();
  try {
    await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await page
      .waitForFunction((key) => window.__tmSeen && (window.__tmSeen[key] !== undefined || window.__tmSeen.listError !== undefined), goal, { timeout: LOAD_TIMEOUT_MS, polling: 100 })
      .catch(() => undefined);
    done = true;
    await shots;
    const seen = await page.evaluate(() => {
      const marks = {};
      for (const entry of performance.getEntriesByType('mark')) marks[entry.name] ??= Math.round(entry.startTime);
      return { ...window.__tmSeen, listDataMark: marks['tm:list-data'] };
    });
    const states = await page.evaluate(() => window.__tmStates);
    await emulation.off();
    const waterfall = await waterfallOf(page);
    const reached = seen[goal];
    const result = { label, seen, reached, strip: filmstrip(states, reached ?? LOAD_TIMEOUT_MS), waterfall, serviceWorkerThrottled: emulation.workers };
    console.log(
      `[mobile] slow ${label}: painted ${seconds(seen.fcp)} s, loading screen ${seconds(seen.loadingScreen)} s, form ${seconds(seen.form)} s, list data ${seen.listDataMark ?? '–'} ms, list ${seen.list ?? '–'} ms, usable ${seconds(seen.listUsable)} s${seen.listError !== undefined ? `, LIST ERROR at ${seconds(seen.listError)} s` : ''}`,
    );
    console.log(`[mobile]   ${result.strip}`);
    for (const w of waterfall) console.log(`[mobile]   ${String(w.start).padStart(6)}–${String(w.end).padEnd(6)} ms ${w.fromCache ? '(cache) ' : ''}${w.bytes} B ${w.type} ${w.path}`);
    return result;
  } finally {
    done = true;
    await shots;
    await page.close();
  }
}

async function slowProfile(browser, baseUrl, users) {
  const results = [];
  const fresh = async (api) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: PHONE });
    if (api) await context.addCookies(cookiesFor(api, baseUrl));
    return context;
  };
  let context = await fresh();
  results.push(await slowLoad(context, { label: '/login signed out, cold', path: '/login', goal: 'form' }));
  await context.close();
  context = await fresh(users.thirty);
  results.push(await slowLoad(context, { label: '/ 30 tasks, cold', path: '/', goal: 'list', expectedRows: 30 }));
  // The same profile again: HTTP cache and service worker as the first visit left them.
  await warm(context, `${baseUrl}/`, (page) => page.locator('li[data-todo-id]').first().waitFor());
  results.push(await slowLoad(context, { label: '/ 30 tasks, repeat', path: '/', goal: 'list', expectedRows: 30 }));
  await context.close();
  context = await fresh(users.tenThousand);
  results.push(await slowLoad(context, { label: '/ 10 000 tasks, cold', path: '/', goal: 'listUsable', expectedRows: 10_000 }));
  await context.close();
  return results;
}

// ── Report ──────────────────────────────────────────────────────────────────────────────────────────

/** The delivery targets, each read from this run's figures. */
function targets(lh, slow) {
  const bySlow = (label) => slow?.find((s) => s.label === label);
  const rows = [];
  const add = (what, target, value, met) => rows.push([what, target, value ?? '–', value === undefined ? '–' : met ? 'yes' : 'no']);
  if (lh?.login) {
    const login = lh.login.cold;
    add('Lighthouse `/login` cold: performance', '≥ 95', login.score, login.score >= 95);
    add('Lighthouse `/login` cold: LCP', '≤ 2.0 s', `${seconds(login.lcpMs)} s`, login.lcpMs <= 2000);
    add('Lighthouse `/login` cold: TBT', '≤ 150 ms', `${round(login.tbtMs)} ms`, login.tbtMs <= 150);
  }
  if (lh?.tasks30) {
    const tasks = lh.tasks30.cold;
    add('Lighthouse `/` 30 tasks cold: performance', '≥ 90 (aim 95)', tasks.score, tasks.score >= 90);
    add('Lighthouse `/` 30 tasks cold: LCP', '≤ 2.5 s', `${seconds(tasks.lcpMs)} s`, tasks.lcpMs <= 2500);
    add('Lighthouse `/` 30 tasks cold: TBT', '≤ 200 ms', `${round(tasks.tbtMs)} ms`, tasks.tbtMs <= 200);
    add('Lighthouse `/` 30 tasks cold: transferred', '≤ 250 KiB', `${round(tasks.transferKiB)} KiB`, tasks.transferKiB <= 250);
  }
  if (slow) {
    const login = bySlow('/login signed out, cold');
    if (login) {
      add('slow profile, `/login` cold: something painted', '≤ 1.5 s', `${seconds(login.seen.fcp)} s`, login.seen.fcp <= 1500);
      add('slow profile, `/login` cold: the form', '≤ 6 s', `${seconds(login.seen.form)} s`, login.seen.form <= 6000);
    }
    const tasks = bySlow('/ 30 tasks, cold');
    if (tasks) add('slow profile, `/` cold: the list of 30', '≤ 8 s', `${seconds(tasks.seen.list)} s`, tasks.seen.list <= 8000);
    const repeat = bySlow('/ 30 tasks, repeat');
    if (repeat) add('slow profile, `/` repeat visit: the list of 30', '≤ 1 s', `${seconds(repeat.seen.list)} s`, repeat.seen.list <= 1000);
    const big = bySlow('/ 10 000 tasks, cold');
    if (big) add('slow profile, `/` 10 000 tasks: the list usable', '≤ 10 s', `${seconds(big.seen.listUsable)} s`, big.seen.listUsable <= 10_000);
  }
  return rows;
}

function report(lh, slow) {
  const sections = [];
  const rows = targets(lh, slow);
  sections.push({
    heading: 'Delivery targets in this run',
    text: 'Lighthouse figures are medians of the runs; the slow profile is one load each (ms from navigation start, read in the page).',
    columns: ['what', 'target', 'this run', 'met'],
    rows,
  });
  const metrics = {};
  if (lh) {
    const screens = [['login', '`/login` signed out'], ['tasks30', '`/` 30 tasks'], ['tasks1000', '`/` 1 000 tasks']].filter(([key]) => lh[key]);
    sections.push({
      heading: 'Lighthouse 12, mobile preset',
      text:
        `\`node perf/bench/bench-mobile.mjs\`: Lighthouse's default (mobile) configuration: simulated slow 4G (150 ms RTT, 1.6 Mbit/s), 4× CPU slowdown, 412 × 823; Debian's Chromium, headless. ` +
        `Cold: storage and HTTP cache cleared first. Repeat: the same profile right after a load, with its HTTP cache and service worker. Median of ${LH_RUNS} run(s).`,
      columns: ['screen', 'visit', 'performance', 'FCP s', 'LCP s', 'TBT ms', 'TTI s', 'CLS', 'transferred KiB', 'requests', 'main thread s', 'unused JS KiB'],
      rows: screens.flatMap(([key, name]) =>
        ['cold', 'repeat'].map((kind) => {
          const f = lh[key][kind];
          for (const [metric, value] of Object.entries(f)) if (typeof value === 'number') metrics[`mobile.lh.${key}.${kind}.${metric}`] = round(value, 2);
          return [name, kind, f.score, seconds(f.fcpMs), seconds(f.lcpMs), round(f.tbtMs), seconds(f.ttiMs), round(f.cls, 3), round(f.transferKiB), f.requests, seconds(f.mainThreadMs), round(f.unusedJsKiB)];
        }),
      ),
    });
    sections.push({
      heading: 'Where the main thread goes (Lighthouse, cold, last run)',
      text: 'Long tasks: the script they are attributed to, their length with the 4× slowdown, and when they started (ms).',
      columns: ['screen', 'main-thread work by kind', 'long tasks', 'LCP element'],
      rows: screens.map(([key, name]) => [name, lh[key].topWork ?? '', lh[key].longTasks ?? '', `\`${(lh[key].lcpElement ?? '').replace(/`/g, "'").slice(0, 90)}\``]),
    });
  }
  if (slow) {
    sections.push({
      heading: 'The slow profile: 400 ms latency, 50 KB/s (CDP), 412 × 823',
      text:
        'Seconds from navigation start, read in the page every 100 ms: first contentful paint, the loading screen shown, the sign-in form, ' +
        'the task rows in the page, the first row usable (entered, not inert). The network conditions apply to the page and to its service worker.',
      columns: ['load', 'painted', 'loading screen', 'form', 'list', 'first row usable', 'what the page showed, second by second'],
      rows: slow.map((s) => [s.label, seconds(s.seen.fcp), seconds(s.seen.loadingScreen), seconds(s.seen.form), seconds(s.seen.list), seconds(s.seen.listUsable), s.strip]),
    });
    for (const s of slow) {
      const key = s.label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase();
      for (const [name, value] of Object.entries(s.seen)) metrics[`mobile.slow.${key}.${name}Ms`] = value;
      sections.push({
        heading: `Waterfall: ${s.label}`,
        text: 'Every request of the load until its goal, from the page\'s resource timing (ms from navigation start; bytes on the wire, 0 when served by the HTTP cache or the service worker).',
        columns: ['start ms', 'end ms', 'bytes', 'kind', 'path'],
        rows: s.waterfall.map((w) => [w.start, w.end, w.bytes, w.type, w.path]),
      });
    }
  }
  for (const [what, target, value, met] of rows) console.log(`[mobile] target ${what}: ${value} (target ${target}) ${met === 'yes' ? 'met' : 'NOT met'}`);
  if (process.env.BENCH_JSON) {
    writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify({ title: 'On a phone and a slow network (Lighthouse, throttled Chromium)', command: 'pnpm build && node perf/bench/bench-mobile.mjs', sections, metrics }, null, 2),
    );
  }
}

const app = await startStack({ web: true, keepLogs: false });
try {
  const thirty = await userWithTasks(app.url, 'thirty', 30);
  const thousand = PARTS.has('lighthouse') ? await userWithTasks(app.url, 'thousand', 1000) : undefined;
  const tenThousand = PARTS.has('slow') ? await userWithTasks(app.url, 'ten-thousand', 10_000) : undefined;
  console.log('[mobile] users seeded: 30, 1 000 and 10 000 tasks');

  let lh;
  if (PARTS.has('lighthouse')) {
    const rows = (page) => page.locator('li[data-todo-id]').first().waitFor({ timeout: 30_000 });
    const screens = {
      login: { label: '/login', path: '/login', ready: (page) => page.getByRole('button', { name: 'Sign In' }).waitFor() },
      tasks30: { label: '/ (30 tasks)', path: '/', api: thirty, ready: rows },
      tasks1000: { label: '/ (1 000 tasks)', path: '/', api: thousand, ready: rows },
    };
    lh = {};
    for (const [key, screen] of Object.entries(screens)) if (LH_SCREENS.has(key)) lh[key] = await lighthouseScreen(app.url, screen);
  }
  let slow;
  if (PARTS.has('slow')) {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    try {
      slow = await slowProfile(browser, app.url, { thirty, tenThousand });
    } finally {
      await browser.close();
    }
  }
  report(lh, slow);
} finally {
  await app.stop();
}
