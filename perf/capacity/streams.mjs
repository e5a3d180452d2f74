#!/usr/bin/env node
// Open live streams, measured (part 5): how many idle `GET /api/todo/events` streams one gateway
// and one svc-todos hold, and what each costs them: resident memory and V8 heap per stream, and the CPU of
// idle streams (svc-todos' `: ping` every TODO_EVENTS_HEARTBEAT_MS, which also re-reads the user's feed; the
// gateway relaying it, and looking each stream's session up every LIVE_STREAMS.sessionCheckMs of gateway/src/config.ts). From those
// figures and the deployment's budget per pod (deploy/k8s: 384 MiB, one core) it derives the caps
// EVENTS_MAX_STREAMS and TODO_EVENTS_MAX_STREAMS, and writes it all to perf/capacity/streams.json, which
// `pnpm capacity` reads (docs/CAPACITY.md "Open streams, measured").
//
//   pnpm exec tsc -b && node perf/capacity/streams.mjs [--steps 1000,2500,5000,7500,10000,15000,20000]
//        [--per-session 5] [--window 30] [--settle 5] [--redis] [--out perf/capacity/streams.json] [--json]
//
//   1. The app's three built processes as `npm start` runs them (startStack: SQLite stores; sessions in
//      SQLite, or in the real Redis with --redis), the two stream caps and the gateway's MAX_CONNECTIONS
//      raised above the largest step (they are what this sizes); the per-session and per-address caps stay.
//   2. Users sign up through the gateway, one session each (a real sign-up, Argon2id, per session): one
//      session per `--per-session` streams (default 5 = the gateway's LIVE_STREAMS.maxPerSession: a person with five tabs).
//   3. At each step, streams are opened up to that count by bounded client processes (stream-client.mjs,
//      5 000 streams each at most, 32 opening at once each), each from one of the loopback addresses
//      127.1.x.y (100 streams per address = the gateway's LIVE_STREAMS.maxPerAddress), each counted once its `ready` event
//      arrived. After `--settle` s, for `--window` s (two heartbeats by default): the CPU time of each process
//      (/proc/<pid>/stat); then its resident memory (/proc/<pid>/status) and V8 heap in use (its /metrics),
//      medians of 3 samples; the pings the clients received and the streams that closed.
//   4. The gateway holds 2 open files per stream (client and upstream), svc-todos 1. Steps the gateway
//      cannot hold under the open-files limit (`ulimit -n`; the script raises it when it may) are opened on
//      svc-todos directly, on top of the relayed ones, signed as the gateway signs (TEST_SECRET): the same
//      stream to svc-todos, which is measured on to the largest step; the gateway's figures stop where it did.
//   5. Per stream: the least-squares slope of each figure over the steps; the caps from them (`cap()`).
//
// Every process it starts it stops by pid; everything is on 127.0.0.1.
import { fork, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signUp, startStack, TEST_SECRET } from '@tm/test-support';
import { cpuMs } from '../lib/processes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const { values: args } = parseArgs({
  options: {
    steps: { type: 'string', default: '1000,2500,5000,7500,10000,15000,20000' },
    'per-session': { type: 'string', default: '5' },
    window: { type: 'string', default: '30' },
    settle: { type: 'string', default: '5' },
    redis: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(ROOT, 'perf/capacity/streams.json') },
    json: { type: 'boolean', default: false },
  },
});
const PER_SESSION = Number(args['per-session']);
const WINDOW_S = Number(args.window);
const SETTLE_S = Number(args.settle);
const REQUESTED = args.steps.split(',').map(Number).sort((a, b) => a - b);
for (const [name, value] of Object.entries({ PER_SESSION, WINDOW_S, SETTLE_S, steps: Math.min(...REQUESTED) })) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`bad option ${name}: ${value}`);
}
/** Streams per client address: the gateway's LIVE_STREAMS.maxPerAddress (gateway/src/config.ts). */
const PER_ADDRESS = 100;
/** Streams per client process, and how many each opens at once. */
const PER_CLIENT = 5000;
const OPENING_AT_ONCE = 32;
/** What the deployment gives each gateway and svc-todos pod (deploy/k8s/gateway.yaml, svc-todos.yaml: limits). */
const POD = { memoryMiB: 384, cores: 1 };
/**
 * The share of the pod's memory the streams may take (the other half: the process at rest, ~110 MiB, its
 * request work and GC's headroom), and the share of a core their idle work may take: the capacity model
 * plans request work at 60 % of a core (capacity-model.mjs `cpuTarget`), so idle streams at the cap leave it.
 */
const BUDGET = { memoryShare: 0.5, cpuShare: 0.25 };
/** The gateway's client connections: MAX_CONNECTIONS's default, a tenth of it kept for ordinary requests. */
const GATEWAY_CONNECTIONS = 10_000 * 0.9;
const T0 = Date.now();
const log = (...parts) => console.error(`[streams +${((Date.now() - T0) / 1000).toFixed(1)} s]`, ...parts);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

// -- open files -----------------------------------------------------------------------------------------------
const nofile = () => Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()) || 1024;
const WANTED_FILES = REQUESTED.at(-1) * 2 + 4096;
if (nofile() < WANTED_FILES && !process.env.TM_STREAMS_ULIMIT) {
  // The shell raises the limit when it may (root with CAP_SYS_RESOURCE), then becomes this script again.
  const run = spawnSync('sh', ['-c', `ulimit -n ${WANTED_FILES} 2>/dev/null; exec "$0" "$@"`, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, TM_STREAMS_ULIMIT: '1' },
  });
  process.exit(run.status ?? 1);
}
const FILES = nofile();
const step500 = (n) => Math.floor(n / 500) * 500;
/** Streams each process can hold under the open-files limit (room left for the rest of what it opens). */
const FITS = { gateway: step500((FILES - 1024) / 2), todos: step500(FILES - 512) };
/** The steps: through the gateway while it can hold them, then on svc-todos directly. */
const STEPS = [...new Set(REQUESTED.map((n) => Math.min(n, FITS.todos)))];
const GATEWAY_MAX = Math.min(STEPS.at(-1), FITS.gateway);
if (STEPS.at(-1) > GATEWAY_MAX && !STEPS.includes(GATEWAY_MAX)) STEPS.push(GATEWAY_MAX);
STEPS.sort((a, b) => a - b);
const MAX = STEPS.at(-1);
if (MAX < REQUESTED.at(-1) || GATEWAY_MAX < MAX) {
  log(`open-files limit ${FILES}: the gateway holds up to ${GATEWAY_MAX} streams (2 files each), svc-todos up to ${MAX} (the rest opened on it directly)`);
}

// -- the app --------------------------------------------------------------------------------------------------
const env = {
  EVENTS_MAX_STREAMS: String(GATEWAY_MAX + 100),
  TODO_EVENTS_MAX_STREAMS: String(MAX + 100),
  MAX_CONNECTIONS: String(GATEWAY_MAX + 1000),
  ...(args.redis ? { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } : {}),
};
log(`starting the app (steps ${STEPS.join(', ')}; sessions in ${args.redis ? 'Redis' : 'SQLite'})`);
const stack = await startStack({ env, keepLogs: false });
const pids = { gateway: stack.gateway.child.pid, todos: stack.todos.child.pid };
const metricsUrl = { gateway: `${stack.gateway.opsUrl ?? stack.url}/metrics`, todos: `${stack.todos.url}/metrics` };
const ports = { gateway: Number(new URL(stack.url).port), todos: stack.todos.port };

/** The client processes, one per PER_CLIENT streams, forked when first needed. */
const clients = [];
async function client(index) {
  while (clients.length <= index) {
    const child = fork(path.join(HERE, 'stream-client.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = once(child, 'message');
    clients.push({ child, ready });
  }
  await clients[index].ready;
  return clients[index].child;
}
/** Sends a message to a client and waits for its answer. */
async function ask(child, message) {
  const answer = once(child, 'message');
  child.send(message);
  return (await answer)[0];
}
async function stopAll() {
  for (const { child } of clients) if (child.exitCode === null) child.send({ cmd: 'close' });
  await Promise.all(clients.map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  await stack.gateway.stop();
  await stack.stop();
}
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  // -- sessions ---------------------------------------------------------------------------------------------
  const sessionCount = Math.ceil(GATEWAY_MAX / PER_SESSION);
  log(`signing up ${sessionCount} users (one session each, ${PER_SESSION} streams per session)`);
  /** @type {{ cookie: string, userId: string }[]} */
  const sessions = [];
  const signUpStarted = Date.now();
  let claimed = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (claimed < sessionCount) {
        const index = claimed++;
        const { client: api, user } = await signUp(stack.url, { name: `Streams ${index}` });
        sessions[index] = { cookie: api.cookieHeader(), userId: user._id };
        if ((index + 1) % 500 === 0) log(`${index + 1} signed up`);
      }
    }),
  );
  log(`signed up ${sessionCount} in ${round((Date.now() - signUpStarted) / 1000)} s`);

  /** What stream `i` is: through the gateway with a session cookie, or on svc-todos with a signed identity. */
  function spec(i) {
    const address = Math.floor(i / PER_ADDRESS);
    const localAddress = `127.1.${Math.floor(address / 250)}.${(address % 250) + 1}`;
    const session = sessions[Math.floor(i / PER_SESSION) % sessions.length];
    if (i < GATEWAY_MAX) return { port: ports.gateway, path: '/api/todo/events', headers: { cookie: session.cookie }, localAddress };
    return { port: ports.todos, path: '/todo/events', identity: { userId: session.userId, secret: TEST_SECRET }, localAddress };
  }

  // -- what a process uses --------------------------------------------------------------------------------------
  async function metric(url, name) {
    const text = await (await fetch(url)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    return line ? Number(line.split(' ').at(-1)) : undefined;
  }
  const rssBytes = (pid) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
  async function memory(kind) {
    const samples = [];
    for (let i = 0; i < 3; i += 1) {
      samples.push({ rss: rssBytes(pids[kind]), heap: (await metric(metricsUrl[kind], 'nodejs_heap_size_used_bytes')) ?? NaN });
      await sleep(1000);
    }
    return { rssMiB: round(median(samples.map((s) => s.rss)) / 2 ** 20, 2), heapUsedMiB: round(median(samples.map((s) => s.heap)) / 2 ** 20, 2) };
  }
  async function clientStats() {
    const all = await Promise.all(clients.map(({ child }) => ask(child, { cmd: 'stats' })));
    return all.reduce((sum, s) => ({ open: sum.open + s.open, closed: sum.closed + s.closed, pings: sum.pings + s.pings }), { open: 0, closed: 0, pings: 0 });
  }
  const clientCpu = () => clients.reduce((sum, { child }) => sum + (cpuMs(child.pid) ?? 0), 0);

  /** One step: idle for the window, then what each process used. */
  async function measure(count) {
    await sleep(SETTLE_S * 1000);
    const before = { stats: await clientStats(), gateway: cpuMs(pids.gateway), todos: cpuMs(pids.todos), client: clientCpu() };
    const started = Date.now();
    await sleep(WINDOW_S * 1000);
    const seconds = (Date.now() - started) / 1000;
    const cpu = {
      gateway: (cpuMs(pids.gateway) - before.gateway) / seconds,
      todos: (cpuMs(pids.todos) - before.todos) / seconds,
      client: (clientCpu() - before.client) / seconds,
    };
    const after = await clientStats();
    const [gateway, todos] = [await memory('gateway'), await memory('todos')];
    const step = {
      streams: count,
      throughGateway: Math.min(count, GATEWAY_MAX),
      held: { gateway: await metric(metricsUrl.gateway, 'gateway_live_streams'), todos: await metric(metricsUrl.todos, 'todo_live_streams') },
      closedInWindow: after.closed - before.stats.closed,
      pingsPerS: round((after.pings - before.stats.pings) / seconds, 1),
      gateway: { ...gateway, cpuMsPerS: round(cpu.gateway, 2) },
      todos: { ...todos, cpuMsPerS: round(cpu.todos, 2) },
      clients: { processes: clients.length, cpuMsPerS: round(cpu.client, 2) },
      loadAverage: round(os.loadavg()[0], 2),
    };
    log(JSON.stringify(step));
    return step;
  }

  // -- the steps ------------------------------------------------------------------------------------------------
  const results = [];
  const refused = {};
  let opened = 0;
  log('at rest (no stream)');
  results.push(await measure(0));
  for (const target of STEPS) {
    const openStarted = Date.now();
    // The streams of this step, by client process.
    const batches = new Map();
    for (let i = opened; i < target; i += 1) {
      const index = Math.floor(i / PER_CLIENT);
      if (!batches.has(index)) batches.set(index, []);
      batches.get(index).push(spec(i));
    }
    const answers = await Promise.all([...batches].map(async ([index, streams]) => ask(await client(index), { cmd: 'open', streams, atOnce: OPENING_AT_ONCE })));
    for (const answer of answers) {
      opened += answer.opened;
      for (const [why, n] of Object.entries(answer.refused)) refused[why] = (refused[why] ?? 0) + n;
    }
    const openSeconds = round((Date.now() - openStarted) / 1000);
    log(`${opened} streams open (refused or failed: ${JSON.stringify(refused)}) in ${openSeconds} s; measuring`);
    results.push({ ...(await measure(opened)), openSeconds });
    if (opened < target) break;
  }

  // -- per stream, and the caps ---------------------------------------------------------------------------------
  /** Least-squares slope of y over x. */
  const slope = (points) => {
    const n = points.length;
    const mx = points.reduce((s, [x]) => s + x, 0) / n;
    const my = points.reduce((s, [, y]) => s + y, 0) / n;
    const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
    return sxx === 0 ? NaN : points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  };
  /** A process's figures per stream, over the steps where it held them (the gateway: up to GATEWAY_MAX). */
  const perStream = (kind) => {
    const steps = kind === 'gateway' ? results.filter((r, i) => i === 0 || r.streams <= GATEWAY_MAX) : results;
    const x = (r) => (kind === 'gateway' ? r.throughGateway : r.streams);
    return {
      overSteps: steps.map(x),
      rssKiB: round(slope(steps.map((r) => [x(r), r[kind].rssMiB])) * 1024, 2),
      heapKiB: round(slope(steps.map((r) => [x(r), r[kind].heapUsedMiB])) * 1024, 2),
      cpuMsPerSPer1000: round(slope(steps.map((r) => [x(r), r[kind].cpuMsPerS])) * 1000, 2),
      atRest: { rssMiB: results[0][kind].rssMiB, heapUsedMiB: results[0][kind].heapUsedMiB, cpuMsPerS: results[0][kind].cpuMsPerS },
    };
  };
  const per = { gateway: perStream('gateway'), todos: perStream('todos') };
  const held = { gateway: Math.max(...results.map((r) => r.held.gateway ?? 0)), todos: Math.max(...results.map((r) => r.held.todos ?? 0)) };

  /**
   * The cap of one process: the fewest streams that exhaust one of its budgets, never above what this run
   * saw it hold, rounded down to a multiple of 500. Memory: BUDGET.memoryShare of the pod's limit over the
   * larger of resident memory and heap per stream; CPU: the idle streams' work at BUDGET.cpuShare of a core;
   * the gateway's client connections: GATEWAY_CONNECTIONS.
   */
  function cap(kind) {
    const figures = per[kind];
    const bounds = {
      memory: (POD.memoryMiB * BUDGET.memoryShare * 1024) / Math.max(figures.rssKiB, figures.heapKiB, 1e-9),
      cpu: (BUDGET.cpuShare * POD.cores * 1000 * 1000) / Math.max(figures.cpuMsPerSPer1000, 1e-9),
      measured: held[kind],
      ...(kind === 'gateway' ? { connections: GATEWAY_CONNECTIONS } : {}),
    };
    const [limitedBy, value] = Object.entries(bounds).sort((a, b) => a[1] - b[1])[0];
    return { value: step500(value), limitedBy, bounds: Object.fromEntries(Object.entries(bounds).map(([k, v]) => [k, Math.floor(v)])) };
  }
  const caps = { gateway: cap('gateway'), todos: cap('todos') };

  const report = {
    generatedAt: new Date().toISOString(),
    command: `node perf/capacity/streams.mjs --steps ${REQUESTED.join(',')} --per-session ${PER_SESSION} --window ${WINDOW_S}${args.redis ? ' --redis' : ''}`,
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? '?', node: process.version },
    setup: {
      sessionStore: args.redis ? 'redis' : 'sqlite',
      streamsPerSession: PER_SESSION,
      sessions: sessionCount,
      streamsPerAddress: PER_ADDRESS,
      clientProcesses: clients.length,
      windowSeconds: WINDOW_S,
      heartbeatMs: 15_000,
      sessionCheckMs: 15_000,
      openFilesLimit: FILES,
      throughGatewayUpTo: GATEWAY_MAX,
    },
    opened,
    held,
    refused,
    steps: results,
    perStream: per,
    budget: { pod: POD, ...BUDGET, gatewayConnections: GATEWAY_CONNECTIONS },
    caps,
  };
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${path.relative(ROOT, args.out)}`);
  const row = (r) =>
    `| ${r.streams} | ${r.throughGateway} | ${r.gateway.rssMiB} | ${r.gateway.heapUsedMiB} | ${r.gateway.cpuMsPerS} | ${r.todos.rssMiB} | ${r.todos.heapUsedMiB} | ${r.todos.cpuMsPerS} | ${r.pingsPerS} | ${r.closedInWindow} |`;
  console.error(
    [
      '| streams | of which through the gateway | gateway RSS MiB | gateway heap MiB | gateway CPU ms/s | svc-todos RSS MiB | svc-todos heap MiB | svc-todos CPU ms/s | pings/s | closed |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(row),
      '',
      `per stream: gateway ${per.gateway.rssKiB} KiB RSS, ${per.gateway.heapKiB} KiB heap, ${per.gateway.cpuMsPerSPer1000} ms/s per 1 000; ` +
        `svc-todos ${per.todos.rssKiB} KiB RSS, ${per.todos.heapKiB} KiB heap, ${per.todos.cpuMsPerSPer1000} ms/s per 1 000`,
      `caps: EVENTS_MAX_STREAMS ${caps.gateway.value} (by ${caps.gateway.limitedBy}), TODO_EVENTS_MAX_STREAMS ${caps.todos.value} (by ${caps.todos.limitedBy})`,
    ].join('\n'),
  );
  if (args.json) console.log(JSON.stringify(report));
} finally {
  await stopAll();
}
