#!/usr/bin/env node
// Long task lists in Chromium: for 10, 100, 300, 1 000 and 10 000 tasks, a fresh user's `/` is
// loaded from the built app (`pnpm build` first) and the page's own performance marks are read:
// - render: `tm:list-render`, from the list's answer arriving to the first frame painted with its rows;
// - complete: from that answer to the frame where every row in the page has entered and can be used;
// - tick: `tm:tick`, from the click on the first row's checkbox to the frame painted with the new state (the
//   median of 3 ticks per load: tick, untick, tick, each once the server answered the previous one and its
//   confetti is over);
// - the list call: its JSON size, bytes on the wire and latency (request sent to last byte), and how many
//   times the page fetched the list again because of the tick (must be 0: the answer updates the cache).
// Each figure is the median of 3 loads. Tasks are seeded through the API (the gateway, as the app adds them),
// 16 requests at a time, a third of them with a due date (its words on the row, PRODUCT §10.14) and a tenth
// repeating (§10.16).
// On a phone (docs/PERFORMANCE.md "Smooth on a phone"): 300 tasks at 390 × 844 with touch, the CPU 4× slower
// (CDP Emulation.setCPUThrottlingRate 4), scrolled from the top to the end and back by touch gestures
// of a thumb: the frame times (requestAnimationFrame deltas) and the long tasks
// (PerformanceObserver `longtask`) while it scrolls; then one task ticked, and the frames of its confetti
// (3 s, 800 pieces on a desktop, PRODUCT §9). Median of 3 runs. The touches are CDP Input.dispatchTouchEvent
// (Input.synthesizeScrollGesture's touch gestures do not scroll this headless Chromium).
// Frame times on a loaded machine vary a lot from minute to minute: BENCH_LIST_COMPARE=<another build's
// mfe-tasks/dist> measures that build and this one in turns, run by run, in the same stack (the gateway's
// REMOTES_FILE, re-read when it changes, switches the task screen between them), so the two are compared
// under the same load; both are reported.
// Another whole build against this one: BENCH_LIST_ROOT=<another checkout, built> measures that checkout's app
// (its services, gateway and frontends) with this script, and BENCH_LIST_PLAIN=1 seeds tasks without dates,
// repeats or lists, for a build that knows none. Run both in turns on a quiet machine to compare. Otherwise
// the tasks are spread over 50 lists and the Inbox (PRODUCT §10.19).
// Run: node perf/bench/bench-list.mjs (BENCH_JSON=<file> also writes the harness's JSON; BENCH_LIST_SIZES=10,100
// narrows the sizes; BENCH_LIST_PARTS=growth or =phone runs one part).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { addLists, addTodos, builtRemotes, signUp, startStack } from '@tm/test-support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SIZES = (process.env.BENCH_LIST_SIZES ?? '10,100,300,1000,10000').split(',').map(Number);
const LOADS = 3;
const SEED_CONCURRENCY = 16;
const LIST_PATH = '/api/todo/fetch-todo';
const TICK_SETTLE_MS = 1500;
const TICKS = 3;
const COMMAND = 'pnpm build && node perf/bench/bench-list.mjs';
const PARTS = new Set((process.env.BENCH_LIST_PARTS ?? 'growth,phone').split(','));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const THIS_BUILD = path.join(ROOT, 'mfe-tasks/dist');
/** The checkout whose app is measured (see the header): this one unless BENCH_LIST_ROOT names another. */
const APP_ROOT = process.env.BENCH_LIST_ROOT ? path.resolve(process.env.BENCH_LIST_ROOT) : ROOT;
const PLAIN = process.env.BENCH_LIST_PLAIN === '1';
/** Another build of the task screen, measured in turns with this one (see the header). */
const COMPARE = process.env.BENCH_LIST_COMPARE ? path.resolve(process.env.BENCH_LIST_COMPARE) : undefined;
/** The phone of 390 × 844, touch, and a CPU 4× slower than this machine's. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const PHONE_TASKS = 300;
const CPU_SLOWDOWN = 4;
const PHONE_RUNS = 3;
/** A thumb's stroke: 600 px up (or down) the screen, from 120 px below its top, in touch moves of 40 px. */
const STROKE_PX = 600;
const STROKE_FROM_Y = 120;
const STROKE_STEPS = 15;
/** Frame target on the slow phone: the 95th percentile of frame times while scrolling. */
const FRAME_P95_TARGET_MS = 50;
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A third of the tasks are dated (PRODUCT §10.14): every third day of the months around now, one in two with a time. */
function dueOf(n) {
  if (n % 3 !== 0) return undefined;
  const day = new Date();
  day.setDate(day.getDate() + (n % 90) - 30);
  const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  return n % 2 === 0 ? `${date}T${String(n % 24).padStart(2, '0')}:30` : date;
}

/** A tenth of the tasks repeat (PRODUCT §10.16): dated ones, weekly, monthly on the last day or every 3 days. */
function repeatOf(n) {
  // Three in every thirty, all among the dated ones (n % 3 === 0).
  return ['FREQ=WEEKLY;BYDAY=MO,TH', 'FREQ=MONTHLY;BYMONTHDAY=-1', 'FREQ=DAILY;INTERVAL=3'][(n % 30) / 3];
}

/** Lists the tasks are spread over (PRODUCT §10.19), the Inbox being one more; none with BENCH_LIST_PLAIN. */
const LISTS = PLAIN ? 0 : 50;

/**
 * Adds `count` tasks, a third of them dated and a tenth repeating, over LISTS lists and the Inbox in turn,
 * `SEED_CONCURRENCY` requests at a time; returns how long it took.
 */
async function seed(api, count) {
  const started = performance.now();
  if (PLAIN) {
    await addTodos(api, count, { concurrency: SEED_CONCURRENCY });
  } else {
    const lists = await addLists(api, LISTS);
    await addTodos(api, count, { concurrency: SEED_CONCURRENCY, due: dueOf, repeat: repeatOf, listId: (n) => lists[n % (LISTS + 1)] });
  }
  return performance.now() - started;
}

/** The API client's session cookies, for a browser profile on the same origin. */
const cookiesFor = (api, url) => [...api.cookies].map(([name, value]) => ({ name, value, url }));

/** The durations of the page's measures called `name`, once there are at least `count` of them. */
const readMeasures = (page, name, count = 1) =>
  page
    .waitForFunction(
      ([measure, atLeast]) => {
        const entries = performance.getEntriesByName(measure, 'measure');
        return entries.length >= atLeast && entries.map((entry) => entry.duration);
      },
      [name, count],
      { timeout: 120_000, polling: 50 },
    )
    .then((handle) => handle.jsonValue());

/** One cold load of `/` and `TICKS` ticks of the first row. */
async function loadOnce(context) {
  const page = await context.newPage();
  let listFetches = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === LIST_PATH) listFetches += 1;
  });
  const listAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === LIST_PATH, { timeout: 120_000 });
  await page.goto('/');
  const response = await listAnswer;
  const body = await response.body();
  const sizes = await response.request().sizes();
  const latencyMs = response.request().timing().responseEnd;
  const [renderMs] = await readMeasures(page, 'tm:list-render');

  // Complete: every row in the page has entered (opaque, not inert), read at the frame it happened, from the
  // list's last byte (PRODUCT §10.5.2: the 300-task screen complete and usable within 3 s).
  // A function, not a string: Playwright evaluates a string predicate with eval in the page when it polls,
  // which the app's Content Security Policy refuses (no 'unsafe-eval').
  /* global document, getComputedStyle -- runs in the page (performance is a global in Node too) */
  const allRowsEntered = () => {
    const rows = Array.from(document.querySelectorAll('li[data-todo-id]'));
    const done = rows.length > 0 && rows.every((row) => !row.inert && getComputedStyle(row).opacity === '1');
    return done && performance.timeOrigin + performance.now();
  };
  const completeAt = await page
    .waitForFunction(allRowsEntered, null, { timeout: 30_000, polling: 'raf' })
    .then((handle) => handle.jsonValue())
    .catch(async (error) => {
      // What the rows were when they did not all enter: how many, how many inert, their opacities.
      const rows = await page.evaluate(() =>
        Array.from(document.querySelectorAll('li[data-todo-id]'), (row) => `${row.inert ? 'inert ' : ''}${getComputedStyle(row).opacity} ${row.className}`),
      );
      throw new Error(`the rows did not all enter in 30 s: ${rows.length} rows: ${rows.join('; ')} (${error.message})`);
    });
  const timing = response.request().timing();
  const completeMs = completeAt - (timing.startTime + timing.responseEnd);
  // A task that does not repeat: ticking a repeating one moves it to its next date instead (PRODUCT §10.16).
  const first = page.locator('li[data-todo-id]').filter({ hasNot: page.locator('.tasks-item__plan') }).first();
  const fetchesBefore = listFetches;
  let ticks = [];
  for (let tick = 1; tick <= TICKS; tick += 1) {
    // Sent through the device's sync engine (POST /todo/sync, PRODUCT §10.4), or on its own where there is none.
    const updated = page.waitForResponse((answer) => /^\/api\/todo\/(update-todo\/|sync$)/.test(new URL(answer.url()).pathname));
    await first.locator('input[type="checkbox"]').click();
    ticks = await readMeasures(page, 'tm:tick', tick);
    await updated;
    // The confetti of a completion (800 pieces drawn for 3 s, PRODUCT §9) is over before the next tick: the
    // figure is the list's own cost, not a canvas animation's that happens to be running.
    await page.locator('canvas').waitFor({ state: 'detached', timeout: 10_000 });
  }
  const tickMs = median(ticks);
  await page.waitForTimeout(TICK_SETTLE_MS); // a refetch after the answer would have started by now
  const refetches = listFetches - fetchesBefore;
  const rowsInDom = await page.locator('li[data-todo-id]').count();
  await page.close();
  return { renderMs, completeMs, tickMs, payloadBytes: body.length, wireBytes: sizes.responseBodySize, latencyMs, refetches, rowsInDom };
}

/**
 * Installed before the page's own scripts: records, while `window.__tmFrames.on` is true, every frame's time
 * since the previous one (requestAnimationFrame) and every long task (> 50 ms) the browser reports.
 */
function frameRecorder() {
  /* global window, requestAnimationFrame -- runs in the page */
  const record = { on: false, frames: [], longTasks: [] };
  let last;
  const tick = (now) => {
    if (record.on && last !== undefined) record.frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => {
      if (record.on) for (const entry of list.getEntries()) record.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  } catch {
    // No long-task timing in this browser: the frames still tell.
  }
  window.__tmFrames = record;
}

/** Frame and long-task figures of one recording. */
function frameFigures({ frames, longTasks }) {
  return {
    frames: frames.length,
    p50: round(percentile(frames, 50)),
    p95: round(percentile(frames, 95)),
    max: round(Math.max(0, ...frames)),
    longTasks: longTasks.length,
    longTaskMs: round(longTasks.reduce((sum, duration) => sum + duration, 0)),
    longestTaskMs: round(Math.max(0, ...longTasks)),
  };
}

const startRecording = (page) => page.evaluate(() => Object.assign(window.__tmFrames, { on: true, frames: [], longTasks: [] }));
const stopRecording = (page) =>
  page.evaluate(() => {
    window.__tmFrames.on = false;
    return { frames: window.__tmFrames.frames, longTasks: window.__tmFrames.longTasks };
  });

/**
 * One run on the slow phone: load `/` (300 tasks), wait for every row to have entered, slow the CPU down,
 * scroll to the end of the list and back with touch gestures while recording the frames, then tick the first
 * task and record the frames of its celebration.
 */
async function phoneRun(browser, baseUrl, api) {
  const context = await browser.newContext({ baseURL: baseUrl, ...PHONE });
  await context.addCookies(cookiesFor(api, baseUrl));
  const page = await context.newPage();
  await page.addInitScript(frameRecorder);
  await page.goto('/');
  await page.locator('li[data-todo-id]').first().waitFor({ timeout: 60_000 });
  const allRowsEntered = () => {
    const rows = Array.from(document.querySelectorAll('li[data-todo-id]'));
    return rows.length > 0 && rows.every((row) => !row.inert && getComputedStyle(row).opacity === '1');
  };
  await page.waitForFunction(allRowsEntered, null, { timeout: 30_000, polling: 'raf' });
  // A first touch on the page fetches what only follows an action (the sounds, the title editor, the
  // confetti: PRODUCT §10.5.2, docs/ARCHITECTURE.md "Delivery to the browser"); it is made before the figures, so they are scrolling's own.
  await page.getByRole('heading', { level: 1 }).tap();
  await page.waitForTimeout(2_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  try {
    // The end of the page, read again at each stroke: the windowed list's height follows the rows measured on the
    // way (an estimate at first), so the end can move while the thumb gets there.
    const endOfPage = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    const distance = await endOfPage();
    const scrollY = () => page.evaluate(() => window.scrollY);
    /** One stroke of a thumb: down on the screen, a drag of STROKE_PX in steps, and up (the page may fling on). */
    const stroke = async (towardsEnd) => {
      const [from, to] = towardsEnd ? [STROKE_FROM_Y + STROKE_PX, STROKE_FROM_Y] : [STROKE_FROM_Y, STROKE_FROM_Y + STROKE_PX];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 195, y: from }] });
      for (let step = 1; step <= STROKE_STEPS; step += 1) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 195, y: from + ((to - from) * step) / STROKE_STEPS }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    const maxStrokes = Math.ceil(distance / STROKE_PX) * 3;
    await startRecording(page);
    // Down to the end of the list and back up, stroke after stroke, as a thumb does.
    let strokes = 0;
    while ((await scrollY()) < (await endOfPage()) - 2 && strokes < maxStrokes) {
      await stroke(true);
      strokes += 1;
    }
    const reachedEnd = await scrollY();
    const end = await endOfPage();
    while ((await scrollY()) > 0 && strokes < 2 * maxStrokes) {
      await stroke(false);
      strokes += 1;
    }
    const scroll = { ...frameFigures(await stopRecording(page)), strokes };
    if (reachedEnd < end - 2) throw new Error(`the list did not scroll to its end: ${reachedEnd} of ${end} px after ${strokes} strokes`);
    // The celebration: tick the first open task (sound and confetti once the server confirmed it).
    const checkbox = page.locator('li[data-todo-id] input[type="checkbox"]:not(:checked)').first();
    await startRecording(page);
    await checkbox.tap();
    await page.locator('.tasks-confetti canvas').waitFor({ timeout: 20_000 });
    await page.locator('.tasks-confetti canvas').waitFor({ state: 'detached', timeout: 30_000 });
    const confetti = frameFigures(await stopRecording(page));
    return { scroll, confetti, distance: end, reachedEnd };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 }).catch(() => undefined);
    await context.close();
  }
}

/**
 * With BENCH_LIST_COMPARE, the stack serves its remotes from a REMOTES_FILE: every built remote, the task
 * screen from whichever build `serveTasks` last chose.
 */
const remotesDir = COMPARE ? mkdtempSync(path.join(tmpdir(), 'tm-bench-remotes-')) : undefined;
const remotesFile = remotesDir && path.join(remotesDir, 'remotes.json');
function writeRemotes(tasksBuild) {
  const list = Object.fromEntries(builtRemotes(ROOT).split(',').map((item) => item.split('=')));
  writeFileSync(remotesFile, JSON.stringify({ ...list, tasks: tasksBuild }));
}
if (remotesFile) writeRemotes(THIS_BUILD);

/** Serves the task screen from `build` (a dist folder), and waits until the gateway does. */
async function serveTasks(baseUrl, build) {
  writeRemotes(build);
  const manifest = readFileSync(path.join(build, 'mf-manifest.json'), 'utf8');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const served = await fetch(`${baseUrl}/remotes/tasks/mf-manifest.json`, { headers: { 'Cache-Control': 'no-cache' } }).then((r) => r.text(), () => '');
    if (served === manifest) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the gateway did not switch the task screen to ${build}`);
}

/** Median figures of phone runs. */
function phoneMedians(runs) {
  const pick = (part, key) => round(median(runs.map((r) => r[part][key])));
  return Object.fromEntries(['scroll', 'confetti'].map((part) => [part, Object.fromEntries(Object.keys(runs[0][part]).map((key) => [key, pick(part, key)]))]));
}

const app = await startStack({ web: true, root: APP_ROOT, ...(remotesFile ? { env: { REMOTES_FILE: remotesFile } } : {}) });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
const results = [];
let phone;
let compared;
try {
  if (PARTS.has('phone')) {
    const { client: api } = await signUp(app.url, { name: 'Phone', attempts: 3 });
    await seed(api, PHONE_TASKS);
    const runs = { this: [], compared: [] };
    for (let run = 1; run <= PHONE_RUNS; run += 1) {
      for (const which of COMPARE ? ['compared', 'this'] : ['this']) {
        if (COMPARE) await serveTasks(app.url, which === 'this' ? THIS_BUILD : COMPARE);
        const figures = await phoneRun(browser, app.url, api);
        runs[which].push(figures);
        const { scroll, confetti } = figures;
        console.log(
          `phone run ${run}${COMPARE ? ` (${which === 'this' ? 'this build' : COMPARE})` : ''}: scrolling ${PHONE_TASKS} tasks (${figures.distance} px down and back, ${CPU_SLOWDOWN}× slower CPU): ${scroll.frames} frames, p50 ${scroll.p50} ms, p95 ${scroll.p95} ms, max ${scroll.max} ms, ` +
            `${scroll.longTasks} long tasks (${scroll.longTaskMs} ms, longest ${scroll.longestTaskMs} ms); confetti: ${confetti.frames} frames, p95 ${confetti.p95} ms, max ${confetti.max} ms, ${confetti.longTasks} long tasks (longest ${confetti.longestTaskMs} ms)`,
        );
      }
    }
    phone = phoneMedians(runs.this);
    if (COMPARE) compared = phoneMedians(runs.compared);
    console.log(`phone (medians of ${PHONE_RUNS} runs): scroll frame p95 ${phone.scroll.p95} ms (target ≤ ${FRAME_P95_TARGET_MS} ms), ${phone.scroll.longTasks} long tasks; confetti frame p95 ${phone.confetti.p95} ms, max ${phone.confetti.max} ms`);
    if (compared) console.log(`compared build (same runs, in turns): scroll frame p95 ${compared.scroll.p95} ms, ${compared.scroll.longTasks} long tasks; confetti frame p95 ${compared.confetti.p95} ms, max ${compared.confetti.max} ms`);
  }
  for (const size of PARTS.has('growth') ? SIZES : []) {
    // A password hash takes a while on a busy machine: a sign-up that timed out at the gateway is tried again.
    const { client: api } = await signUp(app.url, { name: `List ${size}`, attempts: 3 });
    const seedMs = await seed(api, size);
    console.log(`seeded ${size} tasks through the API in ${Math.round(seedMs)} ms`);
    // Each load cold, in a context of its own: a page that finds the list kept on the device (PRODUCT §10.4)
    // asks only for what changed since, and would not read the list at all.
    const loads = [];
    for (let load = 0; load < LOADS; load += 1) {
      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
      await context.addCookies(cookiesFor(api, app.url));
      loads.push(await loadOnce(context));
      await context.close();
    }
    const pick = (key) => median(loads.map((l) => l[key]));
    const result = {
      size,
      renderMs: round(pick('renderMs')),
      completeMs: round(pick('completeMs')),
      tickMs: round(pick('tickMs')),
      payloadBytes: pick('payloadBytes'),
      wireBytes: pick('wireBytes'),
      latencyMs: round(pick('latencyMs')),
      refetches: Math.max(...loads.map((l) => l.refetches)),
      rowsInDom: pick('rowsInDom'),
    };
    results.push(result);
    console.log(
      `${size} tasks: render ${result.renderMs} ms, complete ${result.completeMs} ms, tick ${result.tickMs} ms, list ${result.payloadBytes} B JSON (${result.wireBytes} B on the wire) in ${result.latencyMs} ms, ` +
        `${result.rowsInDom} rows in the DOM, ${result.refetches} list refetches after a tick (medians of ${LOADS} loads; renders ${loads.map((l) => round(l.renderMs)).join(' / ')}, ticks ${loads.map((l) => round(l.tickMs)).join(' / ')})`,
    );
  }
} finally {
  await browser.close();
  await app.stop();
  if (remotesDir) rmSync(remotesDir, { recursive: true, force: true });
}

const metrics = {};
for (const r of results) {
  metrics[`list.renderMs.${r.size}`] = r.renderMs;
  metrics[`list.completeMs.${r.size}`] = r.completeMs;
  metrics[`list.tickMs.${r.size}`] = r.tickMs;
  metrics[`list.payloadBytes.${r.size}`] = r.payloadBytes;
}
if (results.length > 0) {
  metrics['list.refetchesPerTick'] = results.reduce((worst, r) => Math.max(worst, r.refetches), 0);
  console.log(`list refetches per tick (worst of all loads): ${metrics['list.refetchesPerTick']}`);
}
if (phone) {
  for (const [part, figures] of Object.entries(phone)) for (const [key, value] of Object.entries(figures)) metrics[`list.phone.${part}.${key}`] = value;
}
if (compared) {
  for (const [part, figures] of Object.entries(compared)) for (const [key, value] of Object.entries(figures)) metrics[`list.phone.compared.${part}.${key}`] = value;
}

const sections = [];
if (results.length > 0) {
  sections.push({
    heading: 'Growth of the task list (Chromium, 1280 × 800, built app)',
    text:
      `A fresh user per size, tasks seeded through the API; each figure the median of ${LOADS} cold loads of \`/\`. Render: the page's ` +
      '`tm:list-render` mark, from the list answer arriving to the first frame painted with its rows (the entrance animation then plays). ' +
      'Complete: from the list answer to the frame where every row in the page has entered and can be used. ' +
      'Tick: `tm:tick`, from the click on the first row to the frame painted with the new state. Latency: the list request, sent to last byte. ' +
      'The list is windowed: only the rows near the window are in the DOM. Targets: 1 000 tasks render ≤ 1 000 ms, a tick ≤ 100 ms, no list refetch after a tick; (PRODUCT §10.5.2) the 300-task screen complete ≤ 3 000 ms.',
    columns: ['tasks', 'list latency (ms)', 'JSON (bytes)', 'on the wire (bytes)', 'render (ms)', 'complete (ms)', 'tick (ms)', 'rows in DOM', 'list refetches after a tick'],
    rows: results.map((r) => [r.size, r.latencyMs, r.payloadBytes, r.wireBytes, r.renderMs, r.completeMs, r.tickMs, r.rowsInDom, r.refetches]),
  });
}
if (phone) {
  sections.push({
    heading: `On a slow phone: ${PHONE_TASKS} tasks scrolled, and the confetti (${PHONE.viewport.width} × ${PHONE.viewport.height}, touch, CPU ${CPU_SLOWDOWN}× slower)`,
    text:
      `Chromium with CDP \`Emulation.setCPUThrottlingRate\` ${CPU_SLOWDOWN}, a mobile touch profile at device scale ${PHONE.deviceScaleFactor}; every row entered before the slowdown starts. ` +
      `Scroll: strokes of a thumb (CDP \`Input.dispatchTouchEvent\`: a touch, a ${STROKE_PX} px drag in ${STROKE_STEPS} moves, a lift; the page flings on until the next touch) to the end of the list and back; frames are the page's requestAnimationFrame deltas, ` +
      'long tasks its PerformanceObserver `longtask` entries. Confetti: from the tap on the first checkbox until the celebration is removed (3 s, 800 pieces on a normal desktop, PRODUCT §9). ' +
      `Medians of ${PHONE_RUNS} runs. Target: frame p95 while scrolling ≤ ${FRAME_P95_TARGET_MS} ms.`,
    columns: ['what', 'frames', 'frame p50 (ms)', 'frame p95 (ms)', 'longest frame (ms)', 'long tasks', 'long tasks total (ms)', 'longest task (ms)'],
    rows: [['this build', phone], ...(compared ? [[`compared: ${COMPARE}`, compared]] : [])].flatMap(([build, figures]) =>
      ['scroll', 'confetti'].map((part) => {
        const f = figures[part];
        const what = part === 'scroll' ? `scrolling ${PHONE_TASKS} tasks` : 'the confetti of a tick';
        return [compared ? `${what} (${build})` : what, f.frames, f.p50, f.p95, f.max, f.longTasks, f.longTaskMs, f.longestTaskMs];
      }),
    ),
  });
}

if (process.env.BENCH_JSON) {
  writeFileSync(process.env.BENCH_JSON, JSON.stringify({ title: 'Long task lists in Chromium', command: COMMAND, sections, metrics }, null, 2));
}
