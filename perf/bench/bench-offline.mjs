#!/usr/bin/env node
// Offline-first tasks on a phone (docs/PRODUCT.md §10.4), on the built app as `npm start` serves it
// (`pnpm build` first), in Debian's Chromium with the app's service worker allowed. The phone profile: CPU 4×
// slower (CDP Emulation.setCPUThrottlingRate 4), 390 × 844 touch, and Lighthouse's slow 4G as DevTools applies
// it (CDP Network.emulateNetworkConditions: 562.5 ms latency, 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, on the
// page and on its service worker).
//   1. Return visit: a user with 300 tasks who has been here before (the service worker in control, the list
//      kept on the device in IndexedDB `tm-sync-user-<id>`, `tm.device-user` in localStorage) opens `/` again:
//      from the first paint to the list on screen (its first screen of rows and the sync line in the page: the
//      kept screen painted by the HTML, or the app's own; on screen as Element Timing reports the 8th row's
//      title presented). Online on the slow network, and offline. Median of BENCH_OFFLINE_RUNS loads (5).
//   2. Sync after reconnecting: with the page open, offline, BENCH_OFFLINE_CHANGES (500) ticks and unticks by
//      clicks on the rows' checkboxes (made at full CPU speed: only the sync is measured); then the network
//      comes back (the slow profile kept) and the clock runs until the sync line says "All changes synced.";
//      the server's change feed and list are then checked for every change. Median of BENCH_OFFLINE_SYNC_RUNS
//      runs (3), with the /api/todo/sync calls the page made.
// Writes its figures to BENCH_JSON for `pnpm bench` (docs/BENCHMARKS.md) and prints them as it goes.
// Run: pnpm build && node perf/bench/bench-offline.mjs   (BENCH_OFFLINE_PARTS=return or =sync for one part;
// BENCH_QUICK=1: one run of each). To see where the time goes: BENCH_OFFLINE_WATERFALL=1 prints each load's
// requests and long tasks and each sync's calls; BENCH_OFFLINE_CPU=1 runs without the CPU slowdown;
// BENCH_OFFLINE_STREAM=off syncs with the page's live stream cut.
// 127.0.0.1 only; every wait is bounded in time.
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { addTodos, signUp, startStack } from '@tm/test-support';
import { emulateEverywhere } from './slow-network.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const QUICK = process.env.BENCH_QUICK === '1';
const RETURN_RUNS = Number(process.env.BENCH_OFFLINE_RUNS ?? (QUICK ? 1 : 5));
const SYNC_RUNS = Number(process.env.BENCH_OFFLINE_SYNC_RUNS ?? (QUICK ? 1 : 3));
const CHANGES = Number(process.env.BENCH_OFFLINE_CHANGES ?? 500);
const PARTS = new Set((process.env.BENCH_OFFLINE_PARTS ?? 'return,sync').split(','));
const COMMAND = 'pnpm build && node perf/bench/bench-offline.mjs';
const TASKS = 300;
const SEED_CONCURRENCY = 16;
/** The phone (as bench-list.mjs's): 390 × 844, touch, device scale 2. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
/** BENCH_OFFLINE_CPU=1 measures without the slowdown (to see what the slowdown costs). */
const CPU_SLOWDOWN = Number(process.env.BENCH_OFFLINE_CPU ?? 4);
/**
 * Lighthouse 12's mobile preset network ("slow 4G": 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up) in the form
 * Lighthouse applies it through DevTools (its `devtools` throttling: latency × 3.75, throughput × 0.9), in
 * bytes per second.
 */
const SLOW_4G = { latency: 150 * 3.75, downloadThroughput: Math.round((1.6 * 1024 * 0.9 * 1024) / 8), uploadThroughput: Math.round((750 * 0.9 * 1024) / 8) };
/** Targets (docs/PRODUCT.md §10.4). */
const RETURN_TARGET_MS = 300;
const SYNC_TARGET_MS = 5000;
const LOAD_TIMEOUT_MS = 45_000;
const SYNC_TIMEOUT_MS = 120_000;
const LIST_PATH = '/api/todo/fetch-todo';
const SYNC_PATH = '/api/todo/sync';

const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : undefined;
};
const round = (value, digits = 0) => (value === undefined ? undefined : Math.round(value * 10 ** digits) / 10 ** digits);
const ms = (value) => (value === undefined ? '–' : `${Math.round(value)} ms`);

/** The API client's session cookies, for a browser profile on the same origin. */
const cookiesFor = (api, url) => [...api.cookies].map(([name, value]) => ({ name, value, url }));

/** A GET on the gateway with the browser profile's own cookies (its session as the page has it now). */
async function getWithPageCookies(context, baseUrl, path) {
  const cookie = (await context.cookies(baseUrl)).map(({ name, value }) => `${name}=${value}`).join('; ');
  const answer = await fetch(baseUrl + path, { headers: { cookie } });
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
  return answer.json();
}

/**
 * Installed in every document before its own scripts: notes (ms since navigation start) the first paint, the
 * first contentful paint, the task rows in the page, the sync line, and the list shown (both, at least
 * `expectedRows` rows or 8), then the frame that paints it (the next requestAnimationFrame), the first row
 * usable (entered: opaque, not inert) and the sync line saying the list is the server's. Runs through the
 * DevTools protocol, so the app's CSP does not apply to it.
 */
function observer(expectedRows) {
  /* global document, getComputedStyle, IDBFactory, indexedDB, MutationObserver, requestAnimationFrame, window -- runs in the page */
  const seen = {};
  const mark = (key) => {
    if (seen[key] === undefined) seen[key] = performance.now();
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-paint') seen.firstPaint ??= entry.startTime;
      if (entry.name === 'first-contentful-paint') seen.fcp ??= entry.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
  // When the page asks IndexedDB for the device's copy (the user's database), and when it is open.
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, ...rest) {
    const request = open.call(this, name, ...rest);
    if (String(name).startsWith('tm-sync-user-')) {
      mark('deviceCopyAsked');
      request.addEventListener('success', () => mark('deviceCopyOpen'));
    }
    return request;
  };
  const check = () => {
    if (!document.body) return;
    if (document.querySelector('.tasks-page')) mark('taskScreen');
    // The kept screen's rows (index.html paints them from the device) or the app's own.
    const kept = document.querySelector('.kept-screen');
    if (kept) mark('keptScreen');
    const liveRows = document.querySelectorAll('li[data-todo-id]');
    const rows = kept ? kept.querySelectorAll('li') : liveRows;
    if (rows.length > 0) mark('rows');
    if (!kept && liveRows.length > 0) mark('liveRows');
    const summary = document.querySelector('.tasks-sync__summary');
    if (summary) {
      mark('summary');
      if (/^(All changes synced|\d+ changes? waiting)/.test(summary.textContent ?? '')) mark('fresh');
    }
    if (seen.list === undefined && summary && rows.length >= Math.min(expectedRows, 8)) {
      mark('list');
      seen.listText = summary.textContent;
      requestAnimationFrame(() => mark('listFrame'));
      // When the list's last row of the first screen is really on screen (Element Timing: the frame's
      // presentation, after style, layout and paint on the slow CPU), set before that frame is painted.
      const title = rows[Math.min(expectedRows, 8) - 1].querySelector('.tasks-item__title') ?? rows[Math.min(expectedRows, 8) - 1];
      title.setAttribute('elementtiming', 'list');
    }
    const first = liveRows[0];
    if (seen.list !== undefined && !kept && first && !first.closest('[inert]') && getComputedStyle(first).opacity === '1') mark('listUsable');
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  setInterval(check, 50);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.identifier === 'list' && seen.listPainted === undefined) seen.listPainted = entry.renderTime || entry.loadTime;
  }).observe({ type: 'element', buffered: true });
  window.__tmSeen = seen;
  window.__tmLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__tmLongTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * The phone's CPU on `page` (a session kept until the page closes: detaching it would end the slowdown).
 * @param {import('playwright-core').BrowserContext} context @param {import('playwright-core').Page} page
 */
async function slowCpu(context, page) {
  const session = await context.newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return session;
}

/** First visit, then a reload with the service worker in control: the app's files and the list kept on the device. */
async function firstVisit(context) {
  const page = await context.newPage();
  await page.goto('/');
  await page.locator('li[data-todo-id]').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  await page.reload();
  await page.locator('li[data-todo-id]').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
  await page.locator('.tasks-sync__summary').filter({ hasText: 'All changes synced.' }).waitFor({ timeout: LOAD_TIMEOUT_MS });
  const kept = await page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map((db) => db.name).filter((name) => name?.startsWith('tm-sync-user-')),
    user: localStorage.getItem('tm.device-user'),
    controlled: navigator.serviceWorker.controller !== null,
  }));
  if (kept.databases.length !== 1 || !kept.user || !kept.controlled) throw new Error(`the first visit left no device copy: ${JSON.stringify(kept)}`);
  // A moment for the service worker to finish caching what the reload fetched.
  await page.waitForTimeout(1500);
  await page.close();
  return kept;
}

/** One return visit to `/` on the phone profile, online on the slow network or offline. */
async function returnVisit(context, { offline }) {
  if (offline) await context.setOffline(true);
  const page = await context.newPage();
  const sessions = [];
  let emulation;
  try {
    await page.addInitScript(observer, TASKS);
    sessions.push(await slowCpu(context, page));
    // Offline, nothing reaches the network (Playwright's offline covers the service worker from its start).
    if (!offline) emulation = await emulateEverywhere(context, page, SLOW_4G);
    const workersThrottled = emulation?.workers;
    let listFetches = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === LIST_PATH) listFetches += 1;
    });
    await page.goto('/', { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await page.waitForFunction(() => window.__tmSeen?.listPainted !== undefined, undefined, { timeout: LOAD_TIMEOUT_MS, polling: 50 });
    // Settled: the first row entered (and, online, the list confirmed by the server), or 10 s.
    await page
      .waitForFunction((online) => window.__tmSeen.listUsable !== undefined && (!online || window.__tmSeen.fresh !== undefined), !offline, { timeout: 10_000, polling: 100 })
      .catch(() => undefined);
    const seen = await page.evaluate(() => window.__tmSeen);
    if (process.env.BENCH_OFFLINE_WATERFALL === '1') await printWaterfall(page, seen.listFrame);
    const paint = seen.firstPaint ?? seen.fcp;
    return {
      offline,
      ...seen,
      paint,
      afterPaint: seen.listPainted - paint,
      listFetches,
      workersThrottled,
      controlled: await page.evaluate(() => navigator.serviceWorker.controller !== null),
    };
  } finally {
    await emulation?.off();
    for (const session of sessions) await session.detach().catch(() => undefined);
    await page.close();
    if (offline) await context.setOffline(false);
  }
}

/** Every script, style and call until `until` and the long tasks (with BENCH_OFFLINE_WATERFALL=1: where the time goes). */
async function printWaterfall(page, until) {
  const { entries, longTasks, marks } = await page.evaluate(() => ({
    entries: [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => ({
      path: new URL(e.name).pathname,
      start: Math.round(e.startTime),
      end: Math.round(e.responseEnd),
      worker: Math.round(e.workerStart ?? 0),
      bytes: e.transferSize,
    })),
    longTasks: window.__tmLongTasks ?? [],
    marks: performance.getEntriesByType('mark').map((m) => `${m.name}@${Math.round(m.startTime)}`),
  }));
  for (const e of entries.sort((a, b) => a.start - b.start)) if (e.start <= until) console.log(`[offline]   ${String(e.start).padStart(6)}–${String(e.end).padEnd(6)} ${e.bytes} B ${e.path}`);
  console.log(`[offline]   long tasks: ${longTasks.map(([s, d]) => `${Math.round(s)}+${Math.round(d)}`).join(', ')}`);
  console.log(`[offline]   marks: ${marks.join(', ')}`);
}

async function returnPart(browser, baseUrl, api) {
  const context = await browser.newContext({ baseURL: baseUrl, ...PHONE, serviceWorkers: 'allow' });
  await context.addCookies(cookiesFor(api, baseUrl));
  try {
    const kept = await firstVisit(context);
    console.log(`[offline] first visit done: ${kept.databases[0]} kept, service worker in control`);
    const runs = { online: [], offline: [] };
    for (const offline of [false, true]) {
      for (let run = 1; run <= RETURN_RUNS; run += 1) {
        const r = await returnVisit(context, { offline });
        runs[offline ? 'offline' : 'online'].push(r);
        console.log(
          `[offline] return visit ${offline ? 'offline' : 'slow 4G'} #${run}: first paint ${ms(r.firstPaint)}, FCP ${ms(r.fcp)}, task screen ${ms(r.taskScreen)}, device copy asked ${ms(r.deviceCopyAsked)} and open ${ms(r.deviceCopyOpen)}, rows ${ms(r.rows)}, sync line ${ms(r.summary)}, ` +
            `list painted ${ms(r.listPainted)} (${ms(r.afterPaint)} after first paint${r.keptScreen === undefined ? ', NO kept screen' : ', the kept screen'}), app's own rows ${ms(r.liveRows)}, first row usable ${ms(r.listUsable)}, server-confirmed ${ms(r.fresh)}; ` +
            `"${r.listText}"; ${r.listFetches} whole-list fetches; service worker ${r.controlled ? 'in control' : 'NOT in control'}${r.workersThrottled === undefined ? '' : `, ${r.workersThrottled} throttled`}`,
        );
      }
    }
    const pick = (list) => ({
      paint: median(list.map((r) => r.paint)),
      fcp: median(list.map((r) => r.fcp)),
      taskScreen: median(list.map((r) => r.taskScreen)),
      deviceCopyAsked: median(list.map((r) => r.deviceCopyAsked)),
      deviceCopyOpen: median(list.map((r) => r.deviceCopyOpen)),
      listFrame: median(list.map((r) => r.listFrame)),
      listPainted: median(list.map((r) => r.listPainted)),
      afterPaint: median(list.map((r) => r.afterPaint)),
      listUsable: median(list.map((r) => r.listUsable)),
      fresh: median(list.map((r) => r.fresh)),
      all: list.map((r) => round(r.afterPaint)),
    });
    return { online: pick(runs.online), offline: pick(runs.offline) };
  } finally {
    await context.close();
  }
}

// ── Sync after reconnecting ─────────────────────────────────────────────────────────────────────────

/** Every change event of the feed after `after`, page by page. */
async function feedAfter(context, baseUrl, after) {
  const events = [];
  let cursor = after;
  for (;;) {
    const page = await getWithPageCookies(context, baseUrl, `/api/todo/changes?after=${cursor}`);
    if (page.reset) throw new Error(`the change feed was reset after ${cursor}`);
    events.push(...page.changes);
    cursor = page.cursor;
    if (!page.more) return events;
  }
}

/**
 * One run: a fresh page of the remembered user, the network cut (CDP, on the page and its service worker, the
 * slow profile's figures kept), `CHANGES` ticks and unticks by clicks on the checkboxes of the rows on the
 * first screen, then the network back and the clock until "All changes synced."; the server then checked.
 */
async function syncRun(context, baseUrl) {
  const page = await context.newPage();
  const sessions = [];
  let emulation;
  try {
    // A diagnosis only (BENCH_OFFLINE_STREAM=off): the page without its live stream (PRODUCT §10.11.5).
    if (process.env.BENCH_OFFLINE_STREAM === 'off') await page.route('**/api/todo/events**', (route) => route.abort());
    await page.goto('/');
    await page.locator('li[data-todo-id]').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    const syncLine = page.locator('.tasks-sync__summary');
    await syncLine.filter({ hasText: 'All changes synced.' }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    // What a first touch fetches (sounds, editors: PRODUCT §10.5.2) is fetched before the network goes.
    await page.getByRole('heading', { level: 1 }).click();
    await page.waitForLoadState('networkidle');
    const before = await getWithPageCookies(context, baseUrl, LIST_PATH);
    const initial = new Map(before.todos.map((todo) => [todo._id, todo.completed]));

    emulation = await emulateEverywhere(context, page, SLOW_4G);
    const network = await context.newCDPSession(page);
    sessions.push(network);
    await network.send('Network.enable');
    const setOffline = (offline) => network.send('Network.emulateNetworkConditions', { offline, ...SLOW_4G });
    await setOffline(true);
    await syncLine.filter({ hasText: "You're offline" }).or(page.getByRole('status').filter({ hasText: "You're offline." })).first().waitFor({ timeout: 10_000 });

    // The rows on the first screen, each ticked or unticked in turn until CHANGES clicks are made.
    const ids = await page.evaluate(() =>
      Array.from(document.querySelectorAll('li[data-todo-id]'))
        .filter((row) => {
          const box = row.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        })
        .map((row) => row.getAttribute('data-todo-id')),
    );
    if (ids.length === 0) throw new Error('no task row on the first screen');
    const toggles = new Map();
    const making = performance.now();
    // Clicks in the page (a click event on the checkbox, as a tap makes, handled by the app's own code), each
    // once the box shows the previous one: a person's pace, at full speed.
    const clicked = await page.evaluate(
      async ([rowIds, count]) => {
        const made = {};
        const box = (id) => document.querySelector(`li[data-todo-id="${id}"] input[type="checkbox"]`);
        for (let change = 0; change < count; change += 1) {
          const id = rowIds[change % rowIds.length];
          const before = box(id)?.checked;
          box(id)?.click();
          const deadline = performance.now() + 10_000;
          while (box(id)?.checked === before && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
          if (box(id)?.checked === before) throw new Error(`the checkbox of ${id} did not change after click ${change + 1}`);
          made[id] = (made[id] ?? 0) + 1;
        }
        return made;
      },
      [ids, CHANGES],
    );
    for (const [id, count] of Object.entries(clicked)) toggles.set(id, count);
    const madeMs = performance.now() - making;
    const waiting = await syncLine.filter({ hasText: new RegExp(`^${CHANGES} changes waiting to sync`) }).waitFor({ timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    const waitingText = await syncLine.textContent();
    if (!waiting) throw new Error(`after ${CHANGES} clicks offline the sync line says: ${waitingText}`);

    const cpu = await slowCpu(context, page);
    sessions.push(cpu);
    await page.waitForTimeout(500);
    const calls = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) calls.push({ path: url.pathname, request, at: Date.now() });
    });
    await page.evaluate(() => {
      const state = { synced: undefined, online: undefined };
      window.addEventListener('online', () => (state.online ??= performance.timeOrigin + performance.now()));
      const check = () => {
        const text = document.querySelector('.tasks-sync__summary')?.textContent ?? '';
        if (state.synced === undefined && text.startsWith('All changes synced.')) state.synced = performance.timeOrigin + performance.now();
      };
      new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
      window.__tmSync = state;
    });
    // The live stream's messages (docs/PRODUCT.md §10.11.5) while it syncs: the server's own change events.
    const streamed = [];
    network.on('Network.eventSourceMessageReceived', (event) => streamed.push({ at: Date.now(), name: event.eventName }));
    const started = Date.now();
    await setOffline(false);
    await page.waitForFunction(() => window.__tmSync.synced !== undefined, undefined, { timeout: SYNC_TIMEOUT_MS, polling: 50 });
    const { synced: syncedAt, online: onlineAt } = await page.evaluate(() => window.__tmSync);
    const timeline = await Promise.all(
      calls.map(async (call) => {
        const answer = await call.request.response();
        const timing = call.request.timing();
        return { path: call.path, sent: call.at - started, answered: answer ? timing.startTime + timing.responseEnd - started : undefined, status: answer?.status() ?? 'no answer' };
      }),
    );
    if (process.env.BENCH_OFFLINE_WATERFALL === '1') {
      console.log(`[offline]   'online' event at ${onlineAt === undefined ? '–' : Math.round(onlineAt - started)} ms; live stream messages ${streamed.length}, first at ${streamed[0] ? streamed[0].at - started : '–'} ms, last at ${streamed.at(-1) ? streamed.at(-1).at - started : '–'} ms`);
      for (const t of timeline) console.log(`[offline]   ${t.path} sent at ${t.sent} ms, answered ${t.status} at ${ms(t.answered)}`);
    }
    const syncMs = syncedAt - started;
    // The pull that follows the last send, if any, is let finish before the page goes.
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);

    // The server has every change: one feed event per click, each task as its clicks left it.
    const events = await feedAfter(context, baseUrl, before.cursor);
    const after = await getWithPageCookies(context, baseUrl, LIST_PATH);
    const now = new Map(after.todos.map((todo) => [todo._id, todo.completed]));
    const wrong = [...toggles].filter(([id, count]) => now.get(id) !== (count % 2 === 1 ? !initial.get(id) : initial.get(id)));
    const untouchedChanged = [...initial].filter(([id, completed]) => !toggles.has(id) && now.get(id) !== completed).length;
    const syncCalls = calls.filter((call) => call.path === SYNC_PATH);
    const syncAnswers = timeline.filter((t) => t.path === SYNC_PATH && t.answered !== undefined && t.answered <= syncMs);
    const statuses = timeline.filter((t) => t.path === SYNC_PATH).map((t) => t.status);
    const bytes = await Promise.all(syncCalls.map(async (call) => (await call.request.sizes().catch(() => undefined))?.requestBodySize ?? 0));
    const others = {};
    for (const call of calls) if (call.path !== SYNC_PATH) others[call.path] = (others[call.path] ?? 0) + 1;
    return {
      rows: ids.length,
      madeMs,
      syncMs,
      syncCalls: syncCalls.length,
      statuses,
      sentKiB: bytes.reduce((sum, b) => sum + b, 0) / 1024,
      others,
      feedEvents: events.length,
      wrongTasks: wrong.length,
      untouchedChanged,
      workersThrottled: emulation.workers,
      waitingText,
      // When the last sync call before the sync line's word was answered: the network's share of the time.
      lastAnswerMs: syncAnswers.length ? Math.max(...syncAnswers.map((t) => t.answered)) : undefined,
      streamed: streamed.filter((m) => m.at - started <= syncMs).length,
    };
  } finally {
    await emulation?.off();
    for (const session of sessions) await session.detach().catch(() => undefined);
    await page.close();
  }
}

async function syncPart(browser, baseUrl, api) {
  const context = await browser.newContext({ baseURL: baseUrl, ...PHONE, serviceWorkers: 'allow' });
  await context.addCookies(cookiesFor(api, baseUrl));
  try {
    await firstVisit(context);
    const runs = [];
    for (let run = 1; run <= SYNC_RUNS; run += 1) {
      const r = await syncRun(context, baseUrl);
      runs.push(r);
      const others = Object.entries(r.others).map(([p, n]) => `${p} ×${n}`).join(', ');
      console.log(
        `[offline] sync #${run}: ${CHANGES} clicks on ${r.rows} rows offline in ${(r.madeMs / 1000).toFixed(1)} s ("${r.waitingText.slice(0, 60)}…"); back online: "All changes synced." after ${ms(r.syncMs)}, ` +
          `${r.syncCalls} sync calls (${r.statuses.join(', ')}; ${round(r.sentKiB, 1)} KiB sent), other API calls: ${others || 'none'}; server: ${r.feedEvents} feed events, ${r.wrongTasks} tasks wrong, ` +
          `${r.untouchedChanged} untouched tasks changed; last sync call answered at ${ms(r.lastAnswerMs)}, ${r.streamed} live-stream messages received meanwhile; ${r.workersThrottled} service worker(s) throttled`,
      );
    }
    return {
      syncMs: median(runs.map((r) => r.syncMs)),
      syncCalls: median(runs.map((r) => r.syncCalls)),
      sentKiB: median(runs.map((r) => r.sentKiB)),
      madeMs: median(runs.map((r) => r.madeMs)),
      lastAnswerMs: median(runs.map((r) => r.lastAnswerMs)),
      streamed: median(runs.map((r) => r.streamed)),
      rows: runs[0].rows,
      all: runs.map((r) => round(r.syncMs)),
      // Every run must have left the server with every change.
      complete: runs.every((r) => r.feedEvents === CHANGES && r.wrongTasks === 0 && r.untouchedChanged === 0),
      feedEvents: runs.map((r) => r.feedEvents),
    };
  } finally {
    await context.close();
  }
}

// ── Report ──────────────────────────────────────────────────────────────────────────────────────────

function report(visits, sync) {
  const metrics = {};
  const rows = [];
  const add = (what, target, value, met) => rows.push([what, target, value, value === '–' ? '–' : met ? 'yes' : 'no']);
  if (visits) {
    const { online, offline } = visits;
    add(`return visit, ${TASKS} tasks, slow 4G: list on screen after the first paint`, `≤ ${RETURN_TARGET_MS} ms`, ms(online.afterPaint), online.afterPaint <= RETURN_TARGET_MS);
    add(`return visit, ${TASKS} tasks, offline: list on screen after the first paint`, `≤ ${RETURN_TARGET_MS} ms`, ms(offline.afterPaint), offline.afterPaint <= RETURN_TARGET_MS);
    for (const [kind, f] of Object.entries(visits)) {
      for (const key of ['paint', 'fcp', 'taskScreen', 'deviceCopyAsked', 'deviceCopyOpen', 'listFrame', 'listPainted', 'afterPaint', 'listUsable', 'fresh']) if (f[key] !== undefined) metrics[`offline.return.${kind}.${key}Ms`] = round(f[key]);
    }
  }
  if (sync) {
    add(`${CHANGES} changes made offline: synced after reconnecting (slow 4G)`, `< ${SYNC_TARGET_MS} ms`, ms(sync.syncMs), sync.syncMs < SYNC_TARGET_MS && sync.complete);
    metrics['offline.sync.ms'] = round(sync.syncMs);
    if (sync.lastAnswerMs !== undefined) metrics['offline.sync.lastAnswerMs'] = round(sync.lastAnswerMs);
    metrics['offline.sync.streamedEvents'] = sync.streamed;
    metrics['offline.sync.calls'] = sync.syncCalls;
    metrics['offline.sync.changes'] = CHANGES;
    metrics['offline.sync.complete'] = sync.complete ? 1 : 0;
  }
  const sections = [
    {
      heading: 'Offline-first targets in this run',
      text:
        `Phone profile: CPU ${CPU_SLOWDOWN}× slower, ${PHONE.viewport.width} × ${PHONE.viewport.height} touch, slow 4G (${SLOW_4G.latency} ms latency, ` +
        `${round((SLOW_4G.downloadThroughput * 8) / 1024)} kbit/s down, ${round((SLOW_4G.uploadThroughput * 8) / 1024)} kbit/s up, CDP). Medians: ${RETURN_RUNS} return visits, ${SYNC_RUNS} sync run(s).`,
      columns: ['what', 'target', 'this run', 'met'],
      rows,
    },
  ];
  if (visits) {
    sections.push({
      heading: `Return visit to \`/\` with ${TASKS} tasks kept on the device`,
      text:
        'Ms from navigation start, read in the page (medians): first paint (the HTML\'s kept screen, or its loading screen), first contentful paint, the task screen in the page, the device\'s copy asked of IndexedDB and open, ' +
        'the list on screen (its first rows and the sync line, the kept screen\'s or the app\'s; Element Timing of the 8th row\'s title) and that time after the first paint, the first row usable (entered), the list confirmed by the server (the sync line\'s "All changes synced."). ' +
        'The service worker in control; the list read from IndexedDB.',
      columns: ['network', 'first paint', 'FCP', 'task screen', 'device copy asked', 'device copy open', 'list painted', 'after first paint', 'each run, after first paint', 'first row usable', 'confirmed by the server'],
      rows: Object.entries(visits).map(([kind, f]) => [
        kind === 'online' ? 'slow 4G' : 'offline',
        round(f.paint) ?? '–',
        round(f.fcp) ?? '–',
        round(f.taskScreen) ?? '–',
        round(f.deviceCopyAsked) ?? '–',
        round(f.deviceCopyOpen) ?? '–',
        round(f.listPainted) ?? '–',
        round(f.afterPaint) ?? '–',
        f.all.join(' / '),
        round(f.listUsable) ?? '–',
        kind === 'online' ? (round(f.fresh) ?? '–') : '–',
      ]),
    });
  }
  if (sync) {
    sections.push({
      heading: `${CHANGES} changes made offline, synced after reconnecting`,
      text:
        `Ms from the network coming back (CDP, slow 4G, CPU ${CPU_SLOWDOWN}× slower) to the sync line saying "All changes synced.", after ${CHANGES} ticks and unticks made offline by clicks on the checkboxes of the ${sync.rows} rows of the first screen (at full CPU speed). ` +
        'The server\'s change feed then holds one event per change and its list every task as its clicks left it. ' +
        'Last sync call answered: when the network had done its part; the live stream (PRODUCT §10.11.5) meanwhile delivers the server\'s event of each change to the page.',
      columns: ['changes', 'synced after (ms)', 'each run (ms)', '/api/todo/sync calls', 'KiB sent', 'last sync call answered (ms)', 'live-stream events received meanwhile', 'server has every change', 'making them offline (s)'],
      rows: [
        [
          CHANGES,
          round(sync.syncMs),
          sync.all.join(' / '),
          sync.syncCalls,
          round(sync.sentKiB, 1),
          round(sync.lastAnswerMs) ?? '–',
          sync.streamed,
          sync.complete ? 'yes' : `no (feed events: ${sync.feedEvents.join(', ')})`,
          round(sync.madeMs / 1000, 1),
        ],
      ],
    });
  }
  for (const [what, target, value, met] of rows) console.log(`[offline] target ${what}: ${value} (target ${target}) ${met === 'yes' ? 'met' : 'NOT met'}`);
  if (process.env.BENCH_JSON) {
    writeFileSync(process.env.BENCH_JSON, JSON.stringify({ title: 'Offline-first tasks on a phone', command: COMMAND, sections, metrics }, null, 2));
  }
}

const started = Date.now();
const app = await startStack({ web: true, keepLogs: false });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
let visits;
let sync;
try {
  const { client: api } = await signUp(app.url, { name: 'Offline Phone', attempts: 3 });
  await addTodos(api, TASKS, { concurrency: SEED_CONCURRENCY, title: (n) => `Task number ${n} of ${TASKS}: something to do today` });
  console.log(`[offline] ${TASKS} tasks seeded`);
  if (PARTS.has('return')) visits = await returnPart(browser, app.url, api);
  if (PARTS.has('sync')) sync = await syncPart(browser, app.url, api);
} finally {
  await browser.close();
  await app.stop();
}
report(visits, sync);
console.log(`[offline] done in ${Math.round((Date.now() - started) / 1000)} s`);
// A sync that lost or mangled a change is a failure, whatever the time.
if (sync && !sync.complete) process.exitCode = 1;
