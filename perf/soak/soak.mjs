#!/usr/bin/env node
// Soak (issue "Soak"): the app as `npm start` runs it — svc-users, svc-todos and the gateway as three built
// processes, embedded SQLite stores, sessions in SQLite (or in Redis with --redis) — loaded through the
// gateway at about 70 % of its measured peak for a bounded time, on 127.0.0.1 only.
//
//   node perf/soak/soak.mjs [--seconds 300] [--peak-seconds 10] [--connections 32] [--users 16] [--cap 50]
//                         [--fraction 0.7] [--max-growth 10] [--redis] [--json]
//
//   1. N users sign up through the gateway; each is filled to `--cap` tasks (acknowledged adds, tracked).
//   2. Peak: a closed-loop autocannon burst (`--connections` in all, `--peak-seconds`) of the realistic mix;
//      its responses/s is the peak. It is also the warm-up (JIT, pools, heaps grown to their working size).
//   3. Idle pause, then the resident memory of each process (median of 3 samples), and what each process holds
//      after a full garbage collection: every process is started with a probe (gc-probe.cjs, `--expose-gc`)
//      that collects on SIGUSR2 and writes its V8 heap in use per space and its memory outside the heap. What
//      it holds is the heap's data (old and large-object spaces) plus the memory outside the heap; compiled
//      code is left out (it grows as more of the program is optimised, up to the program's size).
//   4. Soak: the same mix at `--fraction` × peak (autocannon overallRate per user) for `--seconds`. Every 10 s
//      (every seconds/10 on short runs) each process's VmRSS (/proc/<pid>/status) and, from its /metrics,
//      the size of V8's young generation and the heap in use: reported.
//   5. Idle pause, memory again. The growth the exit code looks at: what each process holds after a full GC,
//      after the soak vs before it. A leak (objects kept alive, buffers never freed) grows it with every
//      request; load alone does not, since the garbage is gone. RSS is reported beside it (first 3 vs last 3
//      samples under load, raw and less the young generation's growth), not gated: V8 sizes its young
//      generation (1 → 32 MiB) to the allocation rate and collects the old one when it sees fit, which moves
//      an 85 MiB process by up to 35 % within 20 s without any leak.
//   6. Afterwards every user's list is fetched: each add answered 201 must be in it, unless the soak
//      deleted it on purpose (tracked): `lost` must be 0.
//
// The mix, per connection, loops over 10 requests: 7 × GET fetch-todo, 1 × POST add-todo, 1 × PUT
// update-todo (the task this loop added), 1 × DELETE delete-todo of the user's oldest task when the user has
// more than `--cap` tasks (else one more GET). Adds and deletes balance, so every list stays at about `cap`
// tasks for the whole run: the soak measures leaks, not the cost of ever-growing lists.
//
// Exit code 0 only when: error rate < 0.1 % (peak and soak), lost acknowledged writes = 0, every 201 was
// accounted for, and what each process holds after a full GC grew by < --max-growth % (default 10).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';
import { signUp, startStack } from '@tm/test-support';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    'peak-seconds': { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    users: { type: 'string', default: '16' },
    cap: { type: 'string', default: '50' },
    fraction: { type: 'string', default: '0.7' },
    'max-growth': { type: 'string', default: '10' },
    redis: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const PEAK_SECONDS = Number(args['peak-seconds']);
const CONNECTIONS = Number(args.connections);
const USERS = Number(args.users);
const CAP = Number(args.cap);
const FRACTION = Number(args.fraction);
const MAX_GROWTH_PCT = Number(args['max-growth']);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// One sample every 10 s (every tenth of the run when it is shorter than 100 s), at least 1 s apart.
const SAMPLE_MS = Math.max(1000, Math.min(10_000, Math.round((SECONDS * 1000) / 10)));
// In-flight work settles before the idle samples (3 s; 2 s on runs under 30 s, which have their own bound).
const IDLE_PAUSE_MS = SECONDS < 30 ? 2000 : 3000;
const PROCESSES = ['gateway', 'svc-users', 'svc-todos'];
// The memory probe each process is started with (gc-probe.cjs): a full GC on SIGUSR2, then what it still holds.
const PROBE = fileURLToPath(new URL('./gc-probe.cjs', import.meta.url));
const T0 = Date.now();
const log = (...parts) => console.error(`[soak +${((Date.now() - T0) / 1000).toFixed(1)} s]`, ...parts);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

for (const [name, value] of Object.entries({ SECONDS, PEAK_SECONDS, CONNECTIONS, USERS, CAP, FRACTION, MAX_GROWTH_PCT })) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`bad option ${name}: ${value}`);
}

/** Resident memory of a process in KiB (Linux: VmRSS of /proc/<pid>/status). */
function rssKiB(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

function newHistogram() {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000, numberOfSignificantValueDigits: 3 });
  histogram.destroy = () => undefined; // autocannon destroys its histograms; keep ours for the percentiles.
  return histogram;
}

/** Total bytes of the data folder's files (SQLite databases and their WAL files). */
function dataBytes(dir) {
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.sqlite') || f.endsWith('-wal')).map((f) => [f, statSync(path.join(dir, f)).size]));
}

const headersOf = (user) => ({ cookie: user.client.cookieHeader(), 'x-xsrf-token': user.client.xsrfToken, 'content-type': 'application/json' });

async function signUpUsers(base) {
  const users = [];
  for (let i = 0; i < USERS; i += 4) {
    const batch = Array.from({ length: Math.min(4, USERS - i) }, async (_, j) => {
      const index = i + j;
      const { client } = await signUp(base, { name: `Soak ${index}` });
      // acked: every id answered 201; live: acked ids not chosen for deletion, oldest first.
      return { index, client, acked: new Set(), live: [], deleteSent: new Set(), deleted: new Set(), added: 0 };
    });
    users.push(...(await Promise.all(batch)));
  }
  return users;
}

/** Fills each user's list to the cap before any measurement, so every phase sees lists of the same size. */
async function fillToCap(users) {
  await Promise.all(users.map(async (user) => {
    while (user.live.length < CAP) {
      user.added += 1;
      const res = await user.client.post('/api/todo/add-todo', { title: `soak u${user.index} #${user.added}` });
      if (res.status !== 201) throw new Error(`prefill add failed: ${res.status} ${JSON.stringify(res.body)}`);
      user.acked.add(res.body.todo._id);
      user.live.push(res.body.todo._id);
    }
  }));
}

/** Counters of one phase (peak or soak). */
function newPhase(name) {
  return { name, statuses: {}, failures: [], unreadable: [], duplicateIds: 0, acks: 0, latencies: newHistogram() };
}

function count(phase, status, body) {
  phase.statuses[status] = (phase.statuses[status] ?? 0) + 1;
  if ((status < 200 || status >= 300) && phase.failures.length < 20) phase.failures.push({ at: Date.now(), status, body: String(body).slice(0, 160) });
}

/** The loop of 10 requests one connection of `user` repeats (see the header). */
function requestsFor(user, phase) {
  const fetchTodos = {
    method: 'GET', path: '/api/todo/fetch-todo',
    setupRequest: (req) => ({ ...req, headers: headersOf(user) }),
    onResponse: (status, body) => count(phase, status, body),
  };
  const add = {
    method: 'POST', path: '/api/todo/add-todo',
    setupRequest: (req) => {
      user.added += 1;
      return { ...req, headers: headersOf(user), body: JSON.stringify({ title: `soak u${user.index} #${user.added}` }) };
    },
    onResponse: (status, body, context) => {
      count(phase, status, body);
      if (status !== 201) return;
      let id;
      try {
        id = JSON.parse(body).todo._id;
      } catch {
        phase.unreadable.push(String(body).slice(0, 200));
        return;
      }
      phase.acks += 1;
      if (user.acked.has(id)) phase.duplicateIds += 1;
      user.acked.add(id);
      user.live.push(id);
      context.lastId = id;
    },
  };
  const update = {
    method: 'PUT',
    // This loop's task (or, when that add failed, the user's newest); completed flips every other time.
    setupRequest: (req, context) => {
      const id = context.lastId ?? user.live.at(-1);
      if (!id) return { ...req, method: 'GET', path: '/api/todo/fetch-todo', headers: headersOf(user) };
      return { ...req, path: `/api/todo/update-todo/${id}`, headers: headersOf(user), body: JSON.stringify({ updateData: { completed: user.added % 2 === 0 } }) };
    },
    onResponse: (status, body) => count(phase, status, body),
  };
  const trim = {
    method: 'DELETE',
    // The user's oldest task once the list is over the cap: it leaves `live` before the call, so no other
    // connection of this user picks it, and it is excused from the lost-writes count whatever the answer.
    setupRequest: (req, context) => {
      context.deleting = undefined;
      if (user.live.length <= CAP) return { ...req, method: 'GET', path: '/api/todo/fetch-todo', headers: headersOf(user) };
      const id = user.live.shift();
      user.deleteSent.add(id);
      context.deleting = id;
      return { ...req, path: `/api/todo/delete-todo/${id}`, headers: headersOf(user) };
    },
    onResponse: (status, body, context) => {
      count(phase, status, body);
      if (context.deleting && status === 200) user.deleted.add(context.deleting);
    },
  };
  return [add, fetchTodos, fetchTodos, update, fetchTodos, fetchTodos, trim, fetchTodos, fetchTodos, fetchTodos];
}

/**
 * One autocannon instance per user (its connections carry only that user's cookies, so each acknowledged
 * add is recorded against the right account). `rate` undefined: closed loop; else requests/s in all.
 */
async function runPhase(base, users, phase, seconds, rate) {
  const perUser = Math.max(1, Math.ceil(CONNECTIONS / users.length));
  const started = Date.now();
  const results = await Promise.all(users.map(async (user, i) => {
    const options = {
      url: base, connections: perUser, duration: seconds, requests: requestsFor(user, phase), histograms: { latencies: phase.latencies },
    };
    if (rate !== undefined) {
      // Whole requests/s per user (autocannon's rate is per connection per second), spread so they sum to rate.
      options.overallRate = Math.max(1, Math.floor(rate / users.length) + (i < rate % users.length ? 1 : 0));
      // With a rate, autocannon "corrects" latencies with an expected interval of ceil(1/rate) = 1 ms, which
      // records 20, 19, …, 1 ms for one 20 ms answer: record what was measured instead.
      options.ignoreCoordinatedOmission = true;
      // Each connection sends its quota at the start of its own second: stagger the users over one second so
      // the gateway sees an even load, not one burst per second.
      await sleep(Math.round((i * 1000) / users.length));
    }
    return autocannon(options);
  }));
  const elapsed = (Date.now() - started) / 1000;
  const responses = Object.values(phase.statuses).reduce((n, c) => n + c, 0);
  const connectionErrors = results.reduce((n, r) => n + r.errors - r.timeouts, 0);
  const timeouts = results.reduce((n, r) => n + r.timeouts, 0);
  const non2xx = Object.entries(phase.statuses).filter(([s]) => Number(s) < 200 || Number(s) >= 300).reduce((n, [, c]) => n + c, 0);
  const errors = non2xx + connectionErrors + timeouts;
  const attempts = responses + connectionErrors + timeouts;
  const h = phase.latencies;
  return {
    seconds, elapsedSeconds: round(elapsed), connections: perUser * users.length,
    targetRate: rate ?? null, requests: responses, rps: round(responses / seconds),
    errors, non2xx, connectionErrors, timeouts, errorRate: attempts ? errors / attempts : 0, statuses: phase.statuses,
    latencyMs: { p50: h.getValueAtPercentile(50), p95: h.getValueAtPercentile(95), p99: h.getValueAtPercentile(99), max: round(h.maxValue) },
    acknowledgedAdds: phase.acks, duplicateIds: phase.duplicateIds, unreadable201: phase.unreadable.length,
    failures: phase.failures.map((f) => ({ ...f, at: `${((f.at - started) / 1000).toFixed(1)} s` })),
  };
}

/** The V8 figures of each process's /metrics (prom-client's default metrics), in KiB; null when unreadable. */
async function v8Figures(url) {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const read = (pattern) => {
      const match = pattern.exec(text);
      return match ? Math.round(Number(match[1]) / 1024) : null;
    };
    return {
      // The young generation (new space): committed by V8 in steps up to 2 × 16 MiB as the allocation rate
      // asks for it, and never more; it holds only short-lived objects, so it cannot leak.
      young: read(/^nodejs_heap_space_size_total_bytes\{[^}]*space="new"[^}]*\} (\d+(?:\.\d+)?)$/m),
      heapUsed: read(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?)$/m),
    };
  } catch {
    return { young: null, heapUsed: null };
  }
}

/** One memory sample of each process: VmRSS (KiB) read right after its V8 figures. */
async function sampleMemory(pids, urls) {
  const v8 = await Promise.all(PROCESSES.map((name) => v8Figures(urls[name])));
  return Object.fromEntries(PROCESSES.map((name, i) => [name, { rss: rssKiB(pids[name]), ...v8[i] }]));
}

/**
 * What each process holds after a full garbage collection (gc-probe.cjs), in KiB: the probe is asked with
 * SIGUSR2 and its numbered answer awaited. The processes are asked one after the other, so no two collect
 * at once on a 2-core machine.
 */
async function retainedMemory(pids, probeDir) {
  const result = {};
  for (const name of PROCESSES) {
    const file = path.join(probeDir, `${pids[name]}.json`);
    const read = () => {
      try {
        return JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        return null;
      }
    };
    const before = read()?.seq ?? 0;
    process.kill(pids[name], 'SIGUSR2');
    const deadline = Date.now() + 10_000;
    let answer = read();
    while (!answer || answer.seq === before) {
      if (Date.now() > deadline) throw new Error(`${name} (pid ${pids[name]}) did not answer the memory probe`);
      await sleep(50);
      answer = read();
    }
    const kib = (bytes) => Math.round(bytes / 1024);
    // Kept: the heap's data (old and large-object spaces) and memory outside the heap. Compiled code (code
    // space) is left out: it grows as more of the program gets optimised, up to the program's size.
    const kept = answer.spaces.old_space + answer.spaces.large_object_space + answer.external;
    result[name] = { rss: kib(answer.rss), heapUsed: kib(answer.heapUsed), external: kib(answer.external), retained: kib(kept), spaces: answer.spaces };
  }
  return result;
}

/** Waits for in-flight work to settle, then 3 samples 1 s apart. */
async function idleSamples(pids, urls) {
  await sleep(IDLE_PAUSE_MS);
  const samples = [];
  for (let i = 0; i < 3; i += 1) {
    if (i > 0) await sleep(1000);
    samples.push(await sampleMemory(pids, urls));
  }
  return samples;
}

/** The processes' stdout log lines are kept by startProcess: count the errors, then let the lines go. */
function drainLogs(stack, logErrors) {
  for (const [name, proc] of Object.entries({ gateway: stack.gateway, 'svc-users': stack.users, 'svc-todos': stack.todos })) {
    for (const entry of proc.logs) {
      if (typeof entry.level === 'number' && entry.level >= 50) {
        logErrors[name].count += 1;
        if (logErrors[name].samples.length < 5) logErrors[name].samples.push(String(entry.msg ?? entry.err?.message ?? '').slice(0, 200));
      }
    }
    proc.logs.length = 0;
  }
}

async function main() {
  const probeDir = mkdtempSync(path.join(tmpdir(), 'tm-soak-probe-'));
  const env = { LOG_LEVEL: 'info', TM_SOAK_PROBE_DIR: probeDir, ...(args.redis ? { REDIS_URL } : {}) };
  const stack = await startStack({ env, nodeArgs: () => ['--expose-gc', '--require', PROBE] });
  const pids = { gateway: stack.gateway.child.pid, 'svc-users': stack.users.child.pid, 'svc-todos': stack.todos.child.pid };
  // The gateway serves /metrics on its ops port, the services on their own.
  const urls = { gateway: stack.gateway.opsUrl ?? stack.gateway.url, 'svc-users': stack.users.url, 'svc-todos': stack.todos.url };
  const logErrors = Object.fromEntries(PROCESSES.map((name) => [name, { count: 0, samples: [] }]));
  try {
    return await soak(stack, pids, urls, probeDir, logErrors);
  } finally {
    await stack.stop();
    rmSync(probeDir, { recursive: true, force: true });
  }
}

async function soak(stack, pids, urls, probeDir, logErrors) {
  const base = stack.url;
  log(`${USERS} users signing up through the gateway (sessions in ${args.redis ? 'Redis' : 'SQLite'}), each filled to ${CAP} tasks`);
  const users = await signUpUsers(base);
  await fillToCap(users);
  const prefilled = users.reduce((n, u) => n + u.acked.size, 0);
  drainLogs(stack, logErrors);

  log(`peak: closed loop, ${CONNECTIONS} connections, ${PEAK_SECONDS} s`);
  const peak = await runPhase(base, users, newPhase('peak'), PEAK_SECONDS);
  drainLogs(stack, logErrors);
  const soakRate = Math.max(1, Math.round(peak.rps * FRACTION));
  log(`peak ${peak.rps} req/s (p50 ${peak.latencyMs.p50} ms, p99 ${peak.latencyMs.p99} ms); idle pause, then start RSS`);
  const idleStart = await idleSamples(pids, urls);
  const retainedStart = await retainedMemory(pids, probeDir);
  const dataStart = dataBytes(stack.dataDir);

  log(`soak: ${soakRate} req/s (${FRACTION * 100} % of peak) for ${SECONDS} s, RSS every ${SAMPLE_MS / 1000} s`);
  const soakStarted = Date.now();
  const samples = [];
  const soakPhase = newPhase('soak');
  let lastCount = 0;
  const takeSample = async () => {
    const t = round((Date.now() - soakStarted) / 1000);
    const sample = { t, ...(await sampleMemory(pids, urls)) };
    samples.push(sample);
    drainLogs(stack, logErrors);
    const done = Object.values(soakPhase.statuses).reduce((n, c) => n + c, 0);
    const mib = (kib) => (kib === null ? '?' : round(kib / 1024));
    log(`t=${t} s  ${round((done - lastCount) / (SAMPLE_MS / 1000))} req/s  RSS (young gen) MiB: ${PROCESSES.map((p) => `${p} ${mib(sample[p].rss)} (${mib(sample[p].young)})`).join(', ')}`);
    lastCount = done;
  };
  const soakRun = runPhase(base, users, soakPhase, SECONDS, soakRate);
  await takeSample();
  const sampler = setInterval(() => void takeSample(), SAMPLE_MS);
  let soakResult;
  try {
    soakResult = await soakRun;
  } finally {
    clearInterval(sampler);
  }
  log('idle pause, then end RSS');
  const idleEnd = await idleSamples(pids, urls);
  const retainedEnd = await retainedMemory(pids, probeDir);
  const dataEnd = dataBytes(stack.dataDir);

  // Counted afterwards: every add answered 201 must be in its user's list unless the soak deleted it.
  let lost = 0;
  let acked = 0;
  let deletedOnPurpose = 0;
  let deleteUnconfirmed = 0;
  let presentAfterDelete = 0;
  let fetchFailures = 0;
  const listSizes = [];
  const lostSamples = [];
  for (const user of users) {
    const list = await user.client.get('/api/todo/fetch-todo');
    if (list.status !== 200) fetchFailures += 1;
    const present = new Set((list.body?.todos ?? []).map((t) => t._id));
    listSizes.push(present.size);
    acked += user.acked.size;
    deletedOnPurpose += user.deleted.size;
    deleteUnconfirmed += user.deleteSent.size - user.deleted.size;
    for (const id of user.acked) {
      if (user.deleteSent.has(id)) {
        if (user.deleted.has(id) && present.has(id)) presentAfterDelete += 1;
        continue;
      }
      if (!present.has(id)) {
        lost += 1;
        if (lostSamples.length < 5) lostSamples.push({ user: user.index, id });
      }
    }
  }
  drainLogs(stack, logErrors);

  // Gated figure (see the header): growth of what each process holds after a full GC. Reported beside it: RSS
  // growth under load, first 3 vs last 3 samples, raw and less the young generation's growth (only when it
  // grew: when V8 shrinks it, RSS keeps the drop and nothing is added back).
  const youngKnown = samples.every((sample) => PROCESSES.every((name) => sample[name].young !== null));
  const memory = {};
  const mib = (kib) => round(kib / 1024);
  const pctOf = (delta, base) => round((delta / base) * 100, 2);
  for (const name of PROCESSES) {
    const series = (field) => samples.map((sample) => sample[name][field]);
    const first = (field) => median(series(field).slice(0, 3));
    const last = (field) => median(series(field).slice(-3));
    const rss = series('rss');
    const youngGrowth = youngKnown ? Math.max(0, last('young') - first('young')) : 0;
    const idle = (list) => median(list.map((sample) => sample[name].rss));
    const heap = (values) => (values.every((v) => v !== null) ? mib(median(values)) : null);
    const kept = (list) => list[name].retained;
    memory[name] = {
      pid: pids[name],
      // Gated: what the process holds after a full GC (the heap's data and memory outside the heap), before and
      // after the soak, each after the idle pause (gc-probe.cjs).
      retainedMiB: { start: mib(kept(retainedStart)), end: mib(kept(retainedEnd)) },
      retainedBytesPerRequest: Math.round(((kept(retainedEnd) - kept(retainedStart)) * 1024) / Math.max(1, soakResult.requests)),
      // The same after the full GC, per V8 heap space (bytes in use), and memory outside the heap (KiB).
      spacesBytes: { start: retainedStart[name].spaces, end: retainedEnd[name].spaces },
      externalKiB: { start: retainedStart[name].external, end: retainedEnd[name].external },
      growthPct: pctOf(kept(retainedEnd) - kept(retainedStart), kept(retainedStart)),
      // Reported: RSS under load, first 3 vs last 3 samples, raw and less the young generation's growth.
      startMiB: mib(first('rss')), endMiB: mib(last('rss')),
      rssGrowthPct: pctOf(last('rss') - first('rss'), first('rss')),
      rssLessYoungGrowthPct: pctOf(last('rss') - first('rss') - youngGrowth, first('rss')),
      youngGenMiB: youngKnown ? { start: mib(first('young')), end: mib(last('young')) } : null,
      minMiB: mib(Math.min(...rss)), maxMiB: mib(Math.max(...rss)),
      // After a short idle pause, before and after the soak (the start one follows the peak burst).
      idle: { startMiB: mib(idle(idleStart)), endMiB: mib(idle(idleEnd)), growthPct: pctOf(idle(idleEnd) - idle(idleStart), idle(idleStart)) },
      // RSS right after the full GC of the probe, before and after the soak.
      afterGcRssMiB: { start: mib(retainedStart[name].rss), end: mib(retainedEnd[name].rss) },
      // V8 heap in use under load, garbage included.
      heapUsedMiB: { start: heap(series('heapUsed').slice(0, 3)), end: heap(series('heapUsed').slice(-3)) },
    };
  }
  const writes = {
    prefilled, acknowledgedAdds: acked, deletedOnPurpose, deleteUnconfirmed, lostAcknowledgedWrites: lost, lostSamples,
    presentAfterDelete, fetchFailures, finalListSize: { min: Math.min(...listSizes), max: Math.max(...listSizes) },
  };
  // Every 201 the load saw must have been recorded as an acknowledged add of its user.
  const all201 = (peak.statuses[201] ?? 0) + (soakResult.statuses[201] ?? 0);
  writes.accountingConsistent = all201 === peak.acknowledgedAdds + soakResult.acknowledgedAdds && acked === prefilled + all201;
  const report = {
    seconds: SECONDS, peakSeconds: PEAK_SECONDS, users: USERS, cap: CAP, fraction: FRACTION, sessions: args.redis ? 'redis' : 'sqlite',
    peak, soak: { ...soakResult, rateAchieved: round(soakResult.rps / soakRate, 3) },
    memory, memoryGate: 'retained-after-full-gc', maxGrowthPct: MAX_GROWTH_PCT,
    memorySamples: { everySeconds: SAMPLE_MS / 1000, kib: samples },
    writes, dataFileBytes: { start: dataStart, end: dataEnd }, logErrors,
  };
  report.checks = {
    errorRate: peak.errorRate < 0.001 && soakResult.errorRate < 0.001,
    lost: lost === 0 && fetchFailures === 0 && presentAfterDelete === 0,
    accounting: writes.accountingConsistent && peak.unreadable201 + soakResult.unreadable201 === 0,
    memory: PROCESSES.every((name) => memory[name].growthPct < MAX_GROWTH_PCT),
  };
  report.ok = Object.values(report.checks).every(Boolean);
  return report;
}

const report = await main();
if (args.json) console.log(JSON.stringify(report));
else {
  const { peak, soak, writes } = report;
  const pct = (rate) => `${(rate * 100).toFixed(3)} %`;
  console.log(`sessions in ${report.sessions}, ${report.users} users, lists capped at ${report.cap} tasks`);
  console.log('phase  seconds  req/s (target)   requests  errors  error rate  p50 ms  p95 ms  p99 ms  max ms');
  for (const [label, p] of [['peak', peak], ['soak', soak]]) {
    console.log(`${label.padEnd(5)}  ${String(p.seconds).padStart(7)}  ${`${p.rps} (${p.targetRate ?? 'closed loop'})`.padEnd(15)}  ${String(p.requests).padStart(8)}  ${String(p.errors).padStart(6)}  ${pct(p.errorRate).padStart(10)}  ${String(p.latencyMs.p50).padStart(6)}  ${String(p.latencyMs.p95).padStart(6)}  ${String(p.latencyMs.p99).padStart(6)}  ${String(p.latencyMs.max).padStart(6)}`);
  }
  console.log(`\nmemory (MiB): kept = the heap's data plus memory outside the heap after a full GC, before and after the soak; growth = its growth, must be < ${report.maxGrowthPct} %;` +
    ` RSS = medians of the first 3 vs the last 3 samples of the soak (every ${report.memorySamples.everySeconds} s, under load), raw and less young-generation growth;` +
    ` idle = median of 3 after a ${IDLE_PAUSE_MS / 1000} s pause, before and after the soak`);
  console.log('process     kept start→end   growth  per request  RSS start→end    (raw)   (less young)  young gen  RSS min–max    RSS idle start→end     heap used');
  for (const [name, m] of Object.entries(report.memory)) {
    console.log(`${name.padEnd(10)}  ${`${m.retainedMiB.start}→${m.retainedMiB.end}`.padEnd(15)}  ${`${m.growthPct} %`.padStart(7)}  ${`${m.retainedBytesPerRequest} B`.padStart(11)}  ${`${m.startMiB}→${m.endMiB}`.padEnd(15)}  ` +
      `${`${m.rssGrowthPct} %`.padStart(8)}  ${`${m.rssLessYoungGrowthPct} %`.padStart(11)}  ` +
      `${`${m.youngGenMiB?.start ?? '?'}→${m.youngGenMiB?.end ?? '?'}`.padEnd(9)}  ${`${m.minMiB}–${m.maxMiB}`.padEnd(13)}  ` +
      `${`${m.idle.startMiB}→${m.idle.endMiB} (${m.idle.growthPct} %)`.padEnd(21)}  ${m.heapUsedMiB.start}→${m.heapUsedMiB.end}`);
  }
  console.log(`\nwrites: ${writes.acknowledgedAdds} acknowledged adds (${writes.prefilled} prefill), ${writes.deletedOnPurpose} deleted on purpose` +
    ` (${writes.deleteUnconfirmed} deletes unanswered at the end of a phase or not 200), lost ${writes.lostAcknowledgedWrites}, present after delete ${writes.presentAfterDelete},` +
    ` final lists ${writes.finalListSize.min}–${writes.finalListSize.max} tasks, accounting ${writes.accountingConsistent ? 'consistent' : 'INCONSISTENT'}`);
  console.log(`statuses: peak ${JSON.stringify(peak.statuses)}, soak ${JSON.stringify(soak.statuses)}; soak rate achieved ${soak.rateAchieved} of target`);
  console.log(`error-level log lines: ${Object.entries(report.logErrors).map(([n, e]) => `${n} ${e.count}`).join(', ')}`);
  for (const f of [...peak.failures, ...soak.failures]) console.log(`  failure at ${f.at}: ${f.status} ${f.body}`);
  console.log(`checks: ${JSON.stringify(report.checks)}`);
  console.log(report.ok ? 'SOAK OK' : 'SOAK FAILED');
}
process.exit(report.ok ? 0 : 1);
