#!/usr/bin/env node
// The cost of tracing, a child of `pnpm bench`: the same loads through the gateway with
// OpenTelemetry off (no OTEL_EXPORTER_OTLP_ENDPOINT: the SDK is not started) and on (every request traced,
// the default always-on sampler, spans sent over OTLP/HTTP to a receiver on 127.0.0.1), in one run:
//   - three built stacks side by side (startStack: gateway, svc-users, svc-todos on SQLite): off, on, and on
//     with the always_off sampler (the SDK's context without spans recorded or sent); the receiver is a small
//     HTTP server in this process that counts the spans and drops them (a collector's work is not the app's);
//   - per round, each stack in turn (the order rotates) takes the add (POST /api/todo/add-todo) and the
//     fetch of a 100-task list (GET /api/todo/fetch-todo), autocannon for BENCH_SECONDS at
//     BENCH_TRACING_CONNECTIONS connections; figures are the medians of the rounds;
//   - besides requests/s and latency, the CPU the gateway and svc-todos used per request (/proc), which is
//     what tracing costs on dedicated cores however busy this machine is.
// Options: BENCH_SECONDS (default 5), BENCH_ROUNDS (default 3), BENCH_TRACING_CONNECTIONS (default 10),
// BENCH_QUICK=1 (1 s, one round). With BENCH_JSON=<file>, also writes the figures there for the harness.
// 127.0.0.1 only; every load is bounded in time.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { nameServerSpan, traceFields, tracingEnabled, withSpan } from '@tm/service-kit';
import { signUp, startStack } from '@tm/test-support';
import { median, round, runLoad } from './load.mjs';
import { cpuMs } from '../lib/processes.mjs';

const quick = process.env.BENCH_QUICK === '1';
const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 1 : 5));
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
const connections = Number(process.env.BENCH_TRACING_CONNECTIONS ?? 10);
const LIST_SIZE = 100;
/**
 * off: no endpoint; on: every request traced and exported; unsampled: an endpoint but the `always_off`
 * sampler, so the SDK runs (context carried through every promise, spans created unrecorded) and nothing is
 * exported: what is left of the cost when sampling drops a request.
 */
const MODES = ['off', 'on', 'unsampled'];
const MODE_LABELS = { off: 'off', on: 'on (all exported)', unsampled: 'on, not sampled' };
/** Longer than the SDK's default batch delay (OTEL_BSP_SCHEDULE_DELAY, 5 s): every span queued has left. */
const FLUSH_WAIT_MS = 6000;
const log = (/** @type {string} */ line) => console.log(`[bench-tracing] ${line}`);

/** An OTLP/HTTP receiver that counts spans (occurrences of `"spanId"` in the JSON) and keeps nothing. */
async function startReceiver() {
  const counts = { spans: 0, bytes: 0, exports: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counts.bytes += body.length;
      counts.exports += 1;
      counts.spans += body.toString('latin1').split('"spanId"').length - 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, counts, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A signed-in user of `stack` with `tasks` tasks: the headers the load sends. */
async function benchUser(stack, name, tasks) {
  const { client } = await signUp(stack.url, { name: `Bench tracing ${name}` });
  for (let i = 0; i < tasks; i += 1) {
    const added = await client.post('/api/todo/add-todo', { title: `Task ${i} of the tracing bench` });
    if (added.status !== 201) throw new Error(`setting up: add answered ${added.status}`);
  }
  return { cookie: client.cookieHeader(), 'x-xsrf-token': client.xsrfToken ?? '', 'content-type': 'application/json' };
}

/** One load against `stack`, with the CPU its gateway and svc-todos used per request answered. */
async function measure(stack, headers, scenario) {
  const pids = [stack.gateway.child.pid, stack.todos.child.pid];
  const cpuBefore = pids.map((pid) => cpuMs(pid) ?? NaN);
  const load =
    scenario === 'add'
      ? { url: `${stack.url}/api/todo/add-todo`, method: 'POST', body: JSON.stringify({ title: 'bench task' }) }
      : { url: `${stack.url}/api/todo/fetch-todo`, method: 'GET' };
  const result = await runLoad({ ...load, headers, connections, seconds });
  const cpu = pids.map((pid, i) => (cpuMs(pid) ?? NaN) - cpuBefore[i]).reduce((a, b) => a + b, 0);
  return { ...result, cpuPerRequestMs: result.requests ? cpu / result.requests : NaN };
}

/**
 * What tracing off adds to one request of the gateway, in ns: the calls its code makes then (the session
 * look-up, XSRF and limit checks through withSpan, the upstream call's flag check, the span naming and the
 * log line's mixin), timed in this process, where tracing is never started, after a warm-up.
 */
function offPathNsPerRequest() {
  const ctx = { req: {}, method: 'POST' };
  const work = () => 1;
  let sink = 0;
  const oneRequest = () => {
    sink += withSpan('session.lookup', work) + withSpan('xsrf.check', work) + withSpan('rate-limit.check', work);
    sink += tracingEnabled() ? 1 : 0;
    nameServerSpan(ctx, '/api/todo/add-todo');
    sink += Object.keys(traceFields()).length + Object.keys(traceFields()).length;
  };
  const count = 2_000_000;
  for (let i = 0; i < count / 10; i += 1) oneRequest();
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) oneRequest();
  const ns = Number(process.hrtime.bigint() - started) / count;
  if (sink < 0) console.log(sink);
  return ns;
}

const offPathNs = offPathNsPerRequest();
log(`tracing off: its calls cost ${round(offPathNs, 0)} ns per request in this process`);
const receiver = await startReceiver();
log(`OTLP receiver on ${receiver.url}; ${rounds} round(s) of ${seconds} s per scenario and mode, ${connections} connections`);
/** @type {Record<string, Awaited<ReturnType<typeof startStack>>>} */
const stacks = {};
const results = { add: { off: [], on: [], unsampled: [] }, fetch: { off: [], on: [], unsampled: [] } };
let spansPerRequest = NaN;
try {
  // Only the endpoint differs; the stack's defaults (sign-in limits off) apply to both.
  stacks.off = await startStack({ keepLogs: false });
  stacks.on = await startStack({ keepLogs: false, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  stacks.unsampled = await startStack({ keepLogs: false, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_off' } });
  // One user adds (its list grows), another's list of LIST_SIZE is fetched, in each stack.
  const headers = {};
  for (const mode of MODES) headers[mode] = { add: await benchUser(stacks[mode], `${mode} add`, 0), fetch: await benchUser(stacks[mode], `${mode} fetch`, LIST_SIZE) };
  // The set-up's spans leave within the batch delay (5 s by default): counted apart from the measured ones.
  await new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS));
  const setUpSpans = receiver.counts.spans;
  for (let r = 0; r < rounds; r += 1) {
    // The order rotates, so no mode always runs first (or last) on a machine whose load drifts.
    const order = MODES.map((_, i) => MODES[(i + r) % MODES.length]);
    for (const scenario of ['add', 'fetch']) {
      for (const mode of order) {
        const result = await measure(stacks[mode], headers[mode][scenario], scenario);
        results[scenario][mode].push(result);
        log(`round ${r + 1} ${scenario} tracing ${mode}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, CPU ${round(result.cpuPerRequestMs, 3)} ms/req, errors ${result.errors}`);
      }
    }
  }
  // The spans of the last runs leave within the batch delay too; then they are counted per request.
  await new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS));
  const measuredSpans = receiver.counts.spans - setUpSpans;
  const tracedRequests = Object.values(results).reduce((sum, byMode) => sum + byMode.on.reduce((s, run) => s + run.requests, 0), 0);
  spansPerRequest = tracedRequests ? measuredSpans / tracedRequests : NaN;
  log(`spans received while measuring: ${measuredSpans} for ${tracedRequests} traced requests (${round(spansPerRequest, 2)} per request); ${receiver.counts.exports} exports, ${round(receiver.counts.bytes / 2 ** 20, 1)} MiB in all`);
} finally {
  await Promise.all(Object.values(stacks).map((stack) => stack.stop()));
  await receiver.close();
}

const summary = (runs) => ({
  rps: median(runs.map((run) => run.rps)),
  p50: median(runs.map((run) => run.p50)),
  p99: median(runs.map((run) => run.p99)),
  cpu: round(median(runs.map((run) => run.cpuPerRequestMs)), 3),
  errors: runs.reduce((sum, run) => sum + run.errors, 0),
});
const percent = (on, off) => (off ? `${on >= off ? '+' : ''}${round(((on - off) / off) * 100, 1)} %` : '');
/** @type {Record<string, number>} */
const metrics = {};
const rows = [];
for (const scenario of ['add', 'fetch']) {
  const off = summary(results[scenario].off);
  const label = scenario === 'add' ? 'add (POST /api/todo/add-todo)' : `fetch of ${LIST_SIZE} (GET /api/todo/fetch-todo)`;
  const parts = [];
  for (const mode of MODES) {
    const s = summary(results[scenario][mode]);
    metrics[`tracing.${scenario}.${mode}.rps`] = s.rps;
    metrics[`tracing.${scenario}.${mode}.p99`] = s.p99;
    metrics[`tracing.${scenario}.${mode}.cpuMsPerRequest`] = s.cpu;
    metrics[`tracing.${scenario}.${mode}.errors`] = s.errors;
    const against = mode === 'off' ? '' : `${percent(s.rps, off.rps)} req/s, ${percent(s.p99, off.p99)} p99, ${percent(s.cpu, off.cpu)} CPU`;
    rows.push([label, MODE_LABELS[mode], s.rps, s.p50, s.p99, s.cpu, against, s.errors]);
    parts.push(`${mode} ${s.rps} req/s p99 ${s.p99} ms CPU ${s.cpu} ms/req${against ? ` (${against})` : ''}`);
  }
  log(`${scenario}: ${parts.join('; ')}`);
}
metrics['tracing.spansPerRequest'] = round(spansPerRequest, 2);
metrics['tracing.offPathNsPerRequest'] = round(offPathNs, 0);

const report = {
  title: 'Tracing: its cost through the gateway, off and on',
  command: 'node perf/bench/bench-tracing.mjs',
  sections: [
    {
      heading: 'Requests through the gateway with tracing off and on',
      text:
        `Three built stacks side by side, identical but for their tracing settings: off (no ` +
        `OTEL_EXPORTER_OTLP_ENDPOINT: the SDK is not started, docs/OPERATIONS.md "Traces"); on, every request ` +
        `traced (always-on sampling, the worst case) and its spans sent over OTLP/HTTP (JSON, 5 s batches) to a ` +
        `receiver on 127.0.0.1 that counts and drops them; on but not sampled (OTEL_TRACES_SAMPLER=always_off: ` +
        `the SDK and its context run, nothing is recorded or sent), what sampling leaves of the cost. ` +
        `autocannon, ${connections} connections, ${seconds} s per run, ${rounds} round(s) alternating the order, ` +
        `medians. CPU: the gateway's and svc-todos' CPU time (/proc) per answer. ` +
        `Spans received per traced request: ${round(spansPerRequest, 2)} (an add or a fetch is about 6: the gateway's ` +
        `request, session look-up, XSRF check and upstream call, svc-todos' route and store call; fewer means the ` +
        `SDK's batch queue was full and dropped some, see OTEL_BSP_MAX_QUEUE_SIZE in docs/OPERATIONS.md).`,
      columns: ['request', 'tracing', 'req/s', 'p50 (ms)', 'p99 (ms)', 'CPU per request (ms)', 'on vs off', 'errors'],
      rows,
    },
    {
      heading: 'Tracing off: what is left in the code path',
      text:
        `With no endpoint the SDK never starts; the code still calls the helpers (withSpan around the session ` +
        `look-up and the checks, the flag check before an upstream call, the span naming, the log line's mixin). ` +
        `Timed together in a loop of 2 000 000 after a warm-up: ${round(offPathNs, 0)} ns per request, against ` +
        `${metrics['tracing.add.off.cpuMsPerRequest']} ms of CPU per add in the gateway and svc-todos above.`,
      columns: ['what', 'ns per request'],
      rows: [['helpers called with tracing off', round(offPathNs, 0)]],
    },
  ],
  metrics,
};
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(report, null, 2)}\n`);
const failed = Object.entries(metrics).some(([key, value]) => key.endsWith('.errors') && value > 0);
process.exit(failed ? 1 : 0);
