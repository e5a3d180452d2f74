#!/usr/bin/env node
// Measures the server path ("The server path") of one or more builds of this repository in ONE
// run, next to a bare node:http server and a minimal Koa app answering the same bytes from memory:
//
//   node perf/profile/server-path.mjs                          # this checkout's build
//   ROOTS=before=/tmp/baseline,after=. node perf/profile/server-path.mjs   # A/B (builds side by side)
//   PROFILE_DIR=docs/profile/raw node perf/profile/server-path.mjs         # + .cpuprofile of every process
//
// Each ROOT is a checkout with its server side built (`pnpm exec tsc -b`). For each root it starts svc-users,
// svc-todos and the gateway from <root>/*/dist as `startStack()` does, signs up two users (100 and 1 000
// tasks), then runs autocannon against 127.0.0.1 for SECONDS (default 8) per scenario, the roots taking
// turns scenario by scenario (A/B, or A/B/A with REPEAT=aba). Every process it starts it stops by pid.
// Afterwards the add scenario's rows are counted in the SQLite file: each 201 must be a row, none lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startStack } from '@tm/test-support';
import autocannon from 'autocannon';
import { startBaseline as startBenchBaseline } from '../lib/processes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const SECONDS = Number(process.env.SECONDS ?? 8);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const PROFILE_DIR = process.env.PROFILE_DIR ? path.resolve(process.env.PROFILE_DIR) : undefined;
const ONLY = process.env.ONLY ? new Set(process.env.ONLY.split(',')) : undefined;
const ROOTS = (process.env.ROOTS ?? `current=${REPO}`).split(',').map((entry) => {
  const [name, dir] = entry.split('=');
  return { name, dir: path.resolve(dir) };
});
const ORDER = process.env.REPEAT === 'aba' && ROOTS.length === 2 ? [ROOTS[0], ROOTS[1], ROOTS[0]] : ROOTS;
const SECRET = 'profile-internal-secret-0123456789abcdef0123';
const running = new Set();

/** The app of one root as `startStack()` runs it (profiled with PROFILE_DIR), with that root's identity signing. */
async function startRootStack(root) {
  const stack = await startStack({
    root: root.dir,
    env: { INTERNAL_SECRET: SECRET },
    keepLogs: false,
    nodeArgs: (app) => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${root.name}-${app}.cpuprofile`] : []),
  });
  running.add(stack);
  const kit = await import(pathToFileURL(path.join(root.dir, 'packages/service-kit/dist/index.js')).href);
  return Object.assign(stack, { name: root.name, dir: root.dir, signIdentity: kit.signIdentity ?? kit.default.signIdentity });
}

/** A signed-in browser-like client with `count` tasks; the headers replay its cookies and XSRF token. */
async function seedUser(stack, email, count) {
  const { ApiClient } = await import('@tm/test-support');
  const client = new ApiClient(stack.gateway.url);
  await client.get('/api/user/me');
  const signup = await client.post('/api/user/signup', { fullName: 'Profile', email, password: 'profile password 1' });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  for (let i = 0; i < count; i += 1) {
    const added = await client.post('/api/todo/add-todo', { title: `Task number ${i} of ${count}, with a realistic length` });
    if (added.status !== 201) throw new Error(`add failed: ${added.status}`);
  }
  const list = await client.get('/api/todo/fetch-todo');
  const headers = { cookie: client.cookieHeader(), 'x-xsrf-token': client.xsrfToken, 'content-type': 'application/json' };
  return { userId: signup.body.user.id ?? signup.body.user._id, headers, body: list.body };
}

/** autocannon for SECONDS; p95 comes from every response time (autocannon's summary stops at p90/p97.5). */
async function load(url, options = {}) {
  // A short unrecorded warm-up first, so that no figure includes the JIT compiling the hot path.
  const warmup = WARMUP > 0 ? await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, ...options }) : { '2xx': 0 };
  const times = [];
  const instance = autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options });
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await instance;
  times.sort((a, b) => a - b);
  const pct = (p) => Math.round((times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN) * 10) / 10;
  return {
    rps: Math.round(result.requests.total / SECONDS),
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    warmupOk: warmup['2xx'],
  };
}

/** The bench's baseline servers (perf/lib/baseline-server.mjs) in their own process, answering `body`'s bytes from memory. */
async function startBaseline(kind, body) {
  const dir = mkdtempSync(path.join(tmpdir(), `tm-profile-baseline-${kind}-`));
  const baseline = await startBenchBaseline(kind === 'http' ? 'node' : kind, { default: { status: 200, body: JSON.stringify(body) } }, dir);
  return { ...baseline, stop: () => baseline.stop().finally(() => rmSync(dir, { recursive: true, force: true })) };
}

function countRows(dataDir, userId) {
  const require = createRequire(path.join(REPO, 'svc-todos/package.json'));
  const Database = require('better-sqlite3');
  const db = new Database(path.join(dataDir, 'todos.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) AS n FROM todos WHERE user_id = ?').get(userId).n;
  } finally {
    db.close();
  }
}

/**
 * Every 201 must be a row, counted in the SQLite file afterwards (the warm-up's adds included).
 */
function addFigures(figures, added) {
  const acknowledged = figures.ok + figures.warmupOk;
  // None lost: every acknowledged add is a row. Rows beyond that are adds autocannon sent but stopped
  // waiting for when its clock ran out (warm-up and run), committed all the same.
  const lost = Math.max(0, acknowledged - added);
  return { ...figures, rowsAdded: added, lost, note: `rows added ${added} for ${acknowledged} acknowledged (run + warm-up): ${lost === 0 ? `none lost, ${added - acknowledged} answered after the clock stopped` : `${lost} LOST`}` };
}

const results = [];
function record(scenario, root, figures) {
  results.push({ scenario, root, ...figures });
  console.log(`${scenario.padEnd(28)} ${root.padEnd(10)} ${String(figures.rps).padStart(6)} req/s  p50 ${figures.p50} ms  p95 ${figures.p95} ms  p99 ${figures.p99} ms  2xx ${figures.ok}  non-2xx ${figures.non2xx}  errors ${figures.errors}${figures.note ? `  ${figures.note}` : ''}`);
}
const wanted = (name) => !ONLY || ONLY.has(name);

async function main() {
  const stacks = [];
  for (const root of ROOTS) {
    const stack = await startRootStack(root);
    stacks.push(stack);
    stack.small = await seedUser(stack, `small-${root.name}@example.com`, 100);
    stack.large = await seedUser(stack, `large-${root.name}@example.com`, 1000);
    stack.adder = await seedUser(stack, `adder-${root.name}@example.com`, 0);
  }
  const byName = new Map(stacks.map((stack) => [stack.name, stack]));
  const order = ORDER.map((root) => byName.get(root.name));
  const reference = stacks[0];
  const bare = await startBaseline('http', reference.small.body);
  const koa = await startBaseline('koa', reference.small.body);
  try {
    // Same order for every scenario: baselines first, then each root in turn.
    if (wanted('fetch100')) {
      record('bare node:http (100)', '-', await load(bare.url));
      for (const stack of order) record('gateway fetch 100', stack.name, await load(`${stack.gateway.url}/api/todo/fetch-todo`, { headers: stack.small.headers }));
    }
    if (wanted('todos100')) {
      record('minimal Koa (100)', '-', await load(koa.url));
      for (const stack of order) {
        // One signature, valid for the service's 30 s skew window: longer than a run.
        const url = '/todo/fetch-todo';
        const headers = { 'x-request-id': 'profile-request-0001', ...stack.signIdentity(SECRET, { method: 'GET', url, userId: stack.small.userId, requestId: 'profile-request-0001' }) };
        record('svc-todos fetch 100', stack.name, await load(stack.todos.url + url, { headers }));
      }
    }
    if (wanted('fetch1000')) {
      for (const stack of order) record('gateway fetch 1000', stack.name, await load(`${stack.gateway.url}/api/todo/fetch-todo`, { headers: stack.large.headers }));
    }
    if (wanted('todosAdd')) {
      for (const stack of order) {
        const url = '/todo/add-todo';
        const headers = { 'x-request-id': 'profile-request-0002', 'content-type': 'application/json', ...stack.signIdentity(SECRET, { method: 'POST', url, userId: stack.adder.userId, requestId: 'profile-request-0002' }) };
        const before = countRows(stack.dataDir, stack.adder.userId);
        const figures = await load(stack.todos.url + url, { method: 'POST', headers, body: JSON.stringify({ title: 'profiled task' }) });
        record('svc-todos add', stack.name, addFigures(figures, countRows(stack.dataDir, stack.adder.userId) - before));
      }
    }
    if (wanted('add')) {
      for (const stack of order) {
        const before = countRows(stack.dataDir, stack.adder.userId);
        const figures = await load(`${stack.gateway.url}/api/todo/add-todo`, {
          method: 'POST', headers: stack.adder.headers, body: JSON.stringify({ title: 'profiled task' }),
        });
        record('gateway add', stack.name, addFigures(figures, countRows(stack.dataDir, stack.adder.userId) - before));
      }
    }
  } finally {
    await Promise.all([bare.stop(), koa.stop(), ...stacks.map((stack) => stack.stop())]);
  }
  const of = (scenario, root) => results.find((r) => r.scenario === scenario && (root === undefined || r.root === root));
  for (const stack of stacks) {
    const line = [];
    if (of('gateway fetch 100', stack.name) && of('bare node:http (100)')) line.push(`gateway/bare ${(of('gateway fetch 100', stack.name).rps / of('bare node:http (100)').rps).toFixed(2)}x`);
    if (of('svc-todos fetch 100', stack.name) && of('minimal Koa (100)')) line.push(`svc-todos/koa ${(of('svc-todos fetch 100', stack.name).rps / of('minimal Koa (100)').rps).toFixed(2)}x`);
    console.log(`ratios ${stack.name}: ${line.join(', ')}`);
  }
  if (process.env.RESULTS_JSON) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(process.env.RESULTS_JSON, `${JSON.stringify({ seconds: SECONDS, connections: CONNECTIONS, results }, null, 2)}\n`);
  }
}

try {
  await main();
} finally {
  // Stopping a stack twice is harmless: those main() stopped are gone already.
  await Promise.all([...running].map((stack) => stack.stop()));
}
