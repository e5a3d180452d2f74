#!/usr/bin/env node
// `pnpm bench` (after the build): every benchmark of the project in one run, written to docs/.
//   1. the server bench (perf/bench/server-bench.mjs): fetch of 10, 100 and 1 000 todos and add, through
//      the gateway, svc-todos alone, nginx → svc-todos, a minimal Koa app and a bare node:http server, at 10
//      and 100 connections; adds counted in the store; a 10 000-todo fetch; memory and CPU per process;
//   2. the other benches, each given BENCH_JSON=<file> (the harness's bench interface): password hashing,
//      the cost of tracing, first-load JavaScript, long lists, a phone and a slow network, offline-first tasks,
//      Today and Upcoming with 10 000 tasks, search with 10 000 tasks (PRODUCT §10.22), reminder lateness (PRODUCT §10.17),
//      the import of 10 000 tasks (PRODUCT §10.23).
//      A missing or failing one is recorded and the run goes on;
//   3. docs/benchmarks.json (machine facts, every section and metric), docs/BENCHMARKS.md, docs/benchmarks.svg,
//      and docs/CAPACITY.md's tables (perf/capacity/capacity.mjs) from them.
// Options (environment): BENCH_SECONDS per run (default 3), BENCH_ROUNDS (default 3), BENCH_QUICK=1 for a
// smoke form (1 s runs, one round, no 100-connection runs, figures not worth comparing).
// `node perf/bench/bench.mjs --render` only rewrites BENCHMARKS.md and the chart from docs/benchmarks.json.
// 127.0.0.1 only; every load is bounded in time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from '../lib/children.mjs';
import { ensureDebianProgram } from '../lib/debian-package.mjs';
import { chartSvg, ratio, renderMarkdown, serverSections } from './report.mjs';
import { benchServers } from './server-bench.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILDREN = ['perf/bench/bench-hash.mjs', 'perf/bench/bench-tracing.mjs', 'perf/bench/bench-web.mjs', 'perf/bench/bench-list.mjs', 'perf/bench/bench-mobile.mjs', 'perf/bench/bench-offline.mjs', 'perf/bench/bench-agenda.mjs', 'perf/bench/bench-search.mjs', 'perf/bench/bench-reminders.mjs', 'perf/bench/bench-import.mjs'];
const CHILD_TIMEOUT_MS = 10 * 60_000;
const quick = process.env.BENCH_QUICK === '1';
const settings = {
  quick,
  seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 1 : 3)),
  rounds: Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3)),
  sizes: [10, 100, 1000],
  connections: quick ? [10] : [10, 100],
  growthSize: 10_000,
};

const JSON_FILE = path.join(ROOT, 'docs/benchmarks.json');

/** BENCHMARKS.md and the chart from a run's document (the server tables rebuilt from its metrics). */
function writeDocs(doc) {
  const server = doc.benches.find((b) => b.script === 'perf/bench/bench.mjs');
  if (server) server.sections = serverSections(server.metrics, doc.settings);
  writeFileSync(JSON_FILE, `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(path.join(ROOT, 'docs/BENCHMARKS.md'), renderMarkdown(doc));
  writeFileSync(path.join(ROOT, 'docs/benchmarks.svg'), chartSvg(doc));
}

if (process.argv.includes('--render')) {
  writeDocs(JSON.parse(readFileSync(JSON_FILE, 'utf8')));
  console.log('[bench] rewrote docs/BENCHMARKS.md and docs/benchmarks.svg from docs/benchmarks.json');
  process.exit(0);
}

const started = Date.now();
const machine = {
  cores: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.versions.node,
  os: `${process.platform} ${release()}`,
};
console.log(`[bench] ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}; ${settings.rounds} round(s) of ${settings.seconds} s per target`);

const server = await benchServers(settings);
const benches = [{
  script: 'perf/bench/bench.mjs',
  status: 'ok',
  title: 'Server: authenticated fetch and add',
  command: 'pnpm bench',
  sections: [],
  metrics: server.metrics,
  seconds: Math.round((Date.now() - started) / 1000),
}];
printRatios(server.metrics);

// The first-load and long-list benches drive Debian's Chromium (never a downloaded browser).
const chromium = ensureDebianProgram(process.env.CHROMIUM_PATH ?? 'chromium', '/usr/bin/chromium', 'chromium');
if ('skipped' in chromium) console.log(`[bench] ${chromium.skipped}: the browser benches will say they failed`);

const scratch = mkdtempSync(path.join(tmpdir(), 'tm-bench-json-'));
try {
  for (const [i, script] of CHILDREN.entries()) {
    const result = await runChild(ROOT, script, path.join(scratch, `child-${i}.json`), CHILD_TIMEOUT_MS);
    console.log(`[bench] ${script}: ${result.status}${result.reason ? ` (${result.reason})` : ''}`);
    benches.push(result);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const doc = {
  generatedAt: new Date().toISOString(),
  command: 'pnpm bench',
  machine,
  settings,
  notes: server.notes,
  benches,
  metrics: Object.assign({}, ...benches.map((b) => b.metrics)),
};
writeDocs(doc);
console.log(`[bench] wrote docs/benchmarks.json, docs/BENCHMARKS.md, docs/benchmarks.svg in ${Math.round((Date.now() - started) / 1000)} s`);
// The capacity model follows the new figures (`pnpm capacity` alone does the same from the JSON).
const capacity = spawnSync(process.execPath, [path.join(ROOT, 'perf/capacity/capacity.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (capacity.status !== 0) console.log('[bench] pnpm capacity failed: docs/CAPACITY.md was not updated');
const unhealthy = benches.filter((b) => b.status !== 'ok').map((b) => `${b.script}: ${b.status}`);
if (unhealthy.length) console.log(`[bench] not measured or failed: ${unhealthy.join('; ')}`);
// The run fails only when the server bench saw errors or lost an acknowledged write; children report themselves.
const errors = Object.entries(server.metrics).filter(([key, value]) => (key.endsWith('.errors') || key.endsWith('.lost')) && value > 0);
if (errors.length) {
  console.log(`[bench] errors: ${errors.map(([key, value]) => `${key}=${value}`).join(', ')}`);
  process.exitCode = 1;
}

/** The ratios the issue asks for, printed as soon as the server bench ends. @param {Record<string, number>} m */
function printRatios(m) {
  const pairs = [['gateway', 'node'], ['gateway', 'koa'], ['svc', 'koa'], ['svc', 'node'], ['nginx', 'svc'], ['gateway', 'svc']];
  for (const n of settings.sizes) {
    for (const c of settings.connections) {
      const parts = pairs.map(([a, b]) => [a, b, ratio(m, a, b, n, c)]).filter(([, , r]) => r !== undefined).map(([a, b, r]) => `${a}/${b} ${r}×`);
      console.log(`[bench] ratios, ${n} todos, ${c} connections: ${parts.join(', ')}`);
    }
  }
}
