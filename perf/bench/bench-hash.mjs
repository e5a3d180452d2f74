#!/usr/bin/env node
// Sign-in capacity, a child of `pnpm bench`: scrypt (before) against Argon2id (after), one run.
//   1. one hash of each, svc-users' own hashers from the build (median of 5, after a warm-up);
//   2. hashes/s of each on this machine's cores, kept busy through libuv's thread pool as svc-users does;
//   3. sign-ins/s end to end: the built stack (startStack: gateway, svc-users, svc-todos, SQLite, login
//      throttles off), autocannon on 127.0.0.1 for a bounded time, each sign-in a fresh visit
//      (GET /api/user/me → session and XSRF cookies) then POST /api/user/login, as a browser does:
//      - accounts with an Argon2id hash (signed up through the API);
//      - scrypt-era accounts (a stored scrypt N=2^17 hash, each account signed in once, so every login is
//        the first one since the move: the scrypt check plus the upgrade to Argon2id);
//   4. the login scenario of deploy/k6/load.js at its default rate (K6_LOGIN_RATE sign-ins/s, each a visit,
//      login, me and logout, started on a fixed schedule like k6's constant-arrival-rate): login latency,
//      the figure behind that script's AUTH_P95_MS.
// Options: BENCH_SECONDS (default 10, each end-to-end run), BENCH_HASH_SECONDS (default 5, each hash rate),
// BENCH_SIGNIN_CONNECTIONS (default 8). With BENCH_JSON=<file>, also writes the figures there for the harness.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { ApiClient, startStack } from '@tm/test-support';
import { Argon2idPasswordHasher } from '../../svc-users/dist/argon2id-password.hasher.js';
import { ScryptPasswordHasher } from '../../svc-users/dist/scrypt-password.hasher.js';
import { SqliteUsersStore } from '../../svc-users/dist/sqlite-users.store.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const hashSeconds = Number(process.env.BENCH_HASH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_SIGNIN_CONNECTIONS ?? 8);
const cores = availableParallelism();
const pool = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
const PASSWORD = 'bench sign-in password';
const ARGON2ID_ACCOUNTS = 20;
const MIN_SIGNINS = 30;
const MAX_RUN_SECONDS = 120;
/** More than the scrypt-era run can sign in (~5/s on 2 cores), so none is signed in twice. */
const SCRYPT_ACCOUNTS = Math.max(400, seconds * 40);
const TARGET_PER_SEC = 40;
/** deploy/k6/load.js: LOGIN_RATE's default (sign-ins per second). */
const K6_LOGIN_RATE = 10;
/** deploy/k6/load.js: STREAM_VUS's default (pages that each sign up when the run starts). */
const K6_STREAM_VUS = 20;

const hashers = {
  scrypt: { label: 'scrypt', params: 'N=2^17, r=8, p=1 (128 MiB)', hasher: new ScryptPasswordHasher() },
  argon2id: { label: 'Argon2id', params: 'm=19 MiB, t=2, p=1', hasher: new Argon2idPasswordHasher() },
};

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Median of 5 single hashes, one after the other, after a warm-up (the first call allocates the work area). */
async function oneHashMs(hasher) {
  await hasher.hash('warm-up password');
  const times = [];
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    await hasher.hash(`password number ${i}`);
    times.push(performance.now() - start);
  }
  return { medianMs: round(median(times)), minMs: round(Math.min(...times)), maxMs: round(Math.max(...times)) };
}

/** Hashes/s with as many in flight as libuv's pool has threads (what concurrent sign-ins do), for `hashSeconds`. */
async function hashesPerSecond(hasher) {
  const start = performance.now();
  const end = start + hashSeconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await hasher.hash(`password number ${done}`);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: pool }, worker));
  return done / ((performance.now() - start) / 1000);
}

/** `name=value` of each Set-Cookie header line (autocannon hands over raw header names). */
function cookiesFrom(headers) {
  const lines = Object.entries(headers)
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]));
  return new Map(lines.map((line) => line.split(';')[0].split('=')).map(([name, ...value]) => [name.trim(), value.join('=')]));
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU milliseconds the processes `pids` have used so far (user + system, every thread: libuv's pool too),
 * from /proc (Linux); NaN elsewhere. What a sign-in costs in CPU does not depend on how busy the machine is,
 * unlike its wall-clock rate: the capacity of dedicated cores follows from it.
 */
function cpuMs(pids) {
  try {
    return pids.reduce((sum, pid) => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    }, 0);
  } catch {
    return NaN;
  }
}

/**
 * Sign-ins through the gateway for `duration` seconds: every connection repeats "visit, then log in" with the
 * accounts `nextEmail()` hands out. The rate is of the logins answered 200 between the first answer and
 * the last, so neither the ramp-up (one sign-in's latency, seconds for scrypt) nor the sign-ins still in
 * flight when autocannon stops count against it.
 */
async function signIns(url, pids, nextEmail, duration) {
  const cpuBefore = cpuMs(pids);
  const latencies = [];
  const answeredAt = [];
  const statuses = new Map();
  const result = await autocannon({
    url,
    connections,
    duration,
    timeout: 60,
    requests: [
      {
        method: 'GET',
        path: '/api/user/me',
        onResponse: (_status, _body, context, headers) => {
          context.cookies = cookiesFrom(headers);
        },
      },
      {
        method: 'POST',
        path: '/api/user/login',
        setupRequest: (request, context) => {
          const cookies = context.cookies ?? new Map();
          context.startedAt = performance.now();
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
              'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '',
            },
            body: JSON.stringify({ email: nextEmail(), password: PASSWORD }),
          };
        },
        onResponse: (status, _body, context) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 200) return;
          answeredAt.push(performance.now());
          latencies.push(answeredAt.at(-1) - context.startedAt);
        },
      },
    ],
  });
  const ok = statuses.get(200) ?? 0;
  const others = [...statuses].filter(([status]) => status !== 200);
  const failed = others.reduce((sum, [, count]) => sum + count, 0);
  if (failed > 0) console.error(`logins not answered 200: ${others.map(([status, count]) => `${count} × ${status}`).join(', ')}`);
  // Every sign-in started, answered or still in flight at the stop, used CPU: dividing by the answered ones
  // errs on the expensive side.
  const cpuPerSignin = (cpuMs(pids) - cpuBefore) / ok;
  const spanSeconds = ok > 1 ? (answeredAt.at(-1) - answeredAt[0]) / 1000 : NaN;
  return {
    seconds: duration,
    cpuMs: round(cpuPerSignin),
    perCoreFromCpu: 1000 / cpuPerSignin,
    perSec: ok > 1 ? (ok - 1) / spanSeconds : 0,
    ok,
    failed,
    errors: result.errors + result.timeouts,
    p50: round(percentile(latencies, 50), 0),
    p95: round(percentile(latencies, 95), 0),
    p99: round(percentile(latencies, 99), 0),
  };
}

/**
 * How long a closed-loop run lasts: BENCH_SECONDS, or longer when the measured hash rate says fewer than
 * MIN_SIGNINS sign-ins would fit (scrypt on a busy machine), never over MAX_RUN_SECONDS.
 */
function runSeconds(hashesPerSec) {
  return Math.min(MAX_RUN_SECONDS, Math.max(seconds, Math.ceil(MIN_SIGNINS / hashesPerSec)));
}

/** One sign-in as load.js's login scenario does it: visit, login (timed), me, logout, on a fresh session. */
async function timedSignIn(url, email) {
  const client = new ApiClient(url);
  const expect = async (call, status, what) => {
    const answer = await call();
    if (answer.status !== status) throw new Error(`${what} answered ${answer.status}`);
  };
  await expect(() => client.get('/api/user/me'), 401, 'visit');
  const start = performance.now();
  await expect(() => client.post('/api/user/login', { email, password: PASSWORD }), 200, 'login');
  const ms = performance.now() - start;
  await expect(() => client.get('/api/user/me'), 200, 'me');
  await expect(() => client.post('/api/user/logout'), 200, 'logout');
  return ms;
}

/** `perSec` sign-ins started each second on a fixed schedule for `seconds`, whatever the answers take (open loop). */
async function pacedSignIns(url, emails, perSec) {
  const latencies = [];
  let failed = 0;
  const runs = [];
  const start = performance.now();
  for (let i = 0; i < perSec * seconds; i += 1) {
    const wait = start + (i * 1000) / perSec - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    runs.push(timedSignIn(url, emails[i % emails.length]).then((ms) => latencies.push(ms), () => (failed += 1)));
  }
  await Promise.all(runs);
  return {
    perSec,
    ok: latencies.length,
    failed,
    p50: round(percentile(latencies, 50), 0),
    p95: round(percentile(latencies, 95), 0),
    p99: round(percentile(latencies, 99), 0),
  };
}

/**
 * `count` sign-ups at the same moment, as load.js's `streams` VUs (STREAM_VUS, 20) all sign up when the run
 * starts; each also pays the password-strength check. Sign-up latency (the same AUTH_P95_MS applies).
 */
async function signupBurst(url, count) {
  const latencies = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const client = new ApiClient(url);
      await client.get('/api/user/me');
      const start = performance.now();
      const signup = await client.post('/api/user/signup', { fullName: 'Bench', email: `bench-burst-${i}@example.com`, password: PASSWORD });
      if (signup.status !== 201) throw new Error(`signup failed: ${signup.status}`);
      return performance.now() - start;
    }),
  );
  return { count, p50: round(percentile(latencies, 50), 0), p95: round(percentile(latencies, 95), 0), max: round(Math.max(...latencies), 0) };
}

/** Both end-to-end runs on one stack (SQLite: the scrypt-era accounts are written into svc-users' file). */
async function endToEnd() {
  const stack = await startStack({ env: { MONGO_URL: '' } });
  try {
    const argonEmails = [];
    for (let i = 0; i < ARGON2ID_ACCOUNTS; i += 1) {
      const client = new ApiClient(stack.url);
      await client.get('/api/user/me');
      const email = `bench-argon2id-${i}@example.com`;
      const signup = await client.post('/api/user/signup', { fullName: 'Bench', email, password: PASSWORD });
      if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
      argonEmails.push(email);
    }
    // One real scrypt hash of the password at the old production cost, stored for every scrypt-era account:
    // each check costs what it did before the move; the salt being shared changes nothing in that cost.
    const scryptHash = await hashers.scrypt.hasher.hash(PASSWORD);
    const store = SqliteUsersStore.open({ dataDir: stack.dataDir });
    const scryptEmails = [];
    for (let i = 0; i < SCRYPT_ACCOUNTS; i += 1) {
      const email = `bench-scrypt-${i}@example.com`;
      await store.create({ fullName: 'Bench', email, passwordHash: scryptHash });
      scryptEmails.push(email);
    }
    await store.close();

    const pids = [stack.gateway, stack.users, stack.todos].map((process) => process.child.pid);
    let a = 0;
    const argon2id = await signIns(stack.url, pids, () => argonEmails[(a += 1) % argonEmails.length], runSeconds(rate.argon2id));
    const paced = await pacedSignIns(stack.url, argonEmails, K6_LOGIN_RATE);
    const burst = await signupBurst(stack.url, K6_STREAM_VUS);
    let s = 0;
    const scrypt = await signIns(stack.url, pids, () => scryptEmails[(s += 1) % scryptEmails.length], runSeconds(rate.scrypt));
    // Every scrypt-era login must have been that account's first: otherwise some were Argon2id checks.
    if (s >= scryptEmails.length) throw new Error(`only ${SCRYPT_ACCOUNTS} scrypt-era accounts for ${s} logins: raise SCRYPT_ACCOUNTS`);
    return { runs: { argon2id, scrypt }, paced, burst };
  } finally {
    await stack.stop();
  }
}

const single = {};
const rate = {};
for (const [name, { hasher }] of Object.entries(hashers)) {
  single[name] = await oneHashMs(hasher);
  rate[name] = await hashesPerSecond(hasher);
  console.log(
    `${hashers[name].label} (${hashers[name].params}): one hash median ${single[name].medianMs} ms ` +
      `(min ${single[name].minMs}, max ${single[name].maxMs}, 5 runs); ${round(rate[name])} hashes/s on ${cores} cores ` +
      `with ${pool} in flight`,
  );
}
const { runs: e2e, paced, burst } = await endToEnd();
for (const [name, run] of Object.entries(e2e)) {
  console.log(
    `sign-ins through the gateway, ${name} accounts: ${round(run.perSec)}/s (${round(run.perSec / cores)}/s per core), ` +
      `login p50 ${run.p50} ms, p95 ${run.p95} ms, p99 ${run.p99} ms; ${run.ok} ok, ${run.failed} not 200, ${run.errors} errors/timeouts; ` +
      `${run.cpuMs} ms of CPU per sign-in (gateway + services), so ${round(run.perCoreFromCpu)}/s per dedicated core ` +
      `(${connections} connections, ${run.seconds} s)`,
  );
}
console.log(
  `load.js login scenario at ${paced.perSec} sign-ins/s (visit, login, me, logout) for ${seconds} s: login p50 ${paced.p50} ms, ` +
    `p95 ${paced.p95} ms, p99 ${paced.p99} ms; ${paced.ok} ok, ${paced.failed} failed`,
);
console.log(`${burst.count} sign-ups at once (load.js's stream VUs starting): p50 ${burst.p50} ms, p95 ${burst.p95} ms, max ${burst.max} ms`);
const signinPerSec = e2e.argon2id.perSec;
const speedup = rate.argon2id / rate.scrypt;
console.log(
  `sign-ins/s per core: before (scrypt) ${round(e2e.scrypt.perSec / cores)}, after (Argon2id) ${round(signinPerSec / cores)}; ` +
    `per dedicated core from CPU time: before ${round(e2e.scrypt.perCoreFromCpu)}, after ${round(e2e.argon2id.perCoreFromCpu)}`,
);
console.log(
  `Argon2id vs scrypt: ${round(speedup)}x the hash rate, ${round(signinPerSec / e2e.scrypt.perSec)}x the sign-ins; ` +
    `target ≥ ${TARGET_PER_SEC} sign-ins/s on 2 cores: measured ${round(signinPerSec)} (${signinPerSec >= TARGET_PER_SEC ? 'met' : 'NOT met'}), ` +
    `${round(e2e.argon2id.perCoreFromCpu * 2)} from CPU time on 2 dedicated cores`,
);

const metrics = {
  'hash.scrypt.ms': single.scrypt.medianMs,
  'hash.argon2id.ms': single.argon2id.medianMs,
  'hash.scrypt.perSec': round(rate.scrypt),
  'hash.argon2id.perSec': round(rate.argon2id),
  'signin.perSec': round(signinPerSec),
  'signin.perSecPerCore': round(signinPerSec / cores),
};
const hashRow = (name) => [
  hashers[name].label,
  hashers[name].params,
  single[name].medianMs,
  round(rate[name]),
  round(rate[name] / cores),
];
const signinRow = (label, run) => [
  label,
  round(run.perSec),
  round(run.perSec / cores),
  run.cpuMs,
  round(run.perCoreFromCpu),
  round(run.perCoreFromCpu * 2),
  run.p50,
  run.p95,
  run.p99,
  run.failed,
  run.errors,
];
const report = {
  title: 'Sign-in capacity: scrypt and Argon2id',
  command: 'node perf/bench/bench-hash.mjs',
  sections: [
    {
      heading: 'Password hashing (svc-users’ hashers)',
      text:
        `One hash: median of 5 after a warm-up. Hash rate: ${pool} hashes in flight (libuv's thread pool, as ` +
        `concurrent sign-ins run them) for ${hashSeconds} s on ${cores} cores.`,
      columns: ['algorithm', 'parameters', 'one hash (ms)', 'hashes/s', 'hashes/s per core'],
      rows: [hashRow('scrypt'), hashRow('argon2id')],
    },
    {
      heading: 'Sign-ins through the gateway',
      text:
        `POST /api/user/login after a fresh visit (GET /api/user/me for the session and XSRF cookies), ` +
        `autocannon, ${connections} connections, ${e2e.argon2id.seconds} s (Argon2id) and ${e2e.scrypt.seconds} s ` +
        `(scrypt: long enough for ${MIN_SIGNINS} sign-ins at the measured hash rate), rates between the first and ` +
        `the last answer, the built stack on SQLite with the sign-in ` +
        `throttles off. Scrypt-era accounts hold a scrypt N=2^17 hash and each signs in once: the scrypt check ` +
        `plus its upgrade to Argon2id, what every sign-in cost before the move (plus one Argon2id hash). ` +
        `Argon2id vs scrypt: ${round(speedup)}× the hash rate, ${round(signinPerSec / e2e.scrypt.perSec)}× the ` +
        `sign-ins. “From CPU”: the CPU time the gateway and both services used (every thread, /proc) per ` +
        `sign-in answered, so what dedicated cores would do, however busy this machine was with other work. ` +
        `Target: ≥ ${TARGET_PER_SEC} sign-ins/s on 2 cores.`,
      columns: [
        'accounts',
        'sign-ins/s',
        'per core',
        'CPU per sign-in (ms)',
        'per dedicated core (from CPU)',
        'on 2 dedicated cores (from CPU)',
        'p50 (ms)',
        'p95 (ms)',
        'p99 (ms)',
        'not 200',
        'errors',
      ],
      rows: [signinRow('scrypt-era (before)', e2e.scrypt), signinRow('Argon2id (after)', e2e.argon2id)],
    },
    {
      heading: 'The k6 login scenario’s rate',
      text:
        `deploy/k6/load.js's login scenario at its default rate: ${paced.perSec} sign-ins started each second on a ` +
        `fixed schedule (visit, login, me, logout on a fresh session) for ${seconds} s, Argon2id accounts, nothing ` +
        `else running; then ${burst.count} sign-ups at the same moment, as its stream VUs do when the run starts. ` +
        `Their p95 figures are what that script's AUTH_P95_MS (login) and SIGNUP_P95_MS thresholds are set against.`,
      columns: ['what', 'share of capacity', 'p50 (ms)', 'p95 (ms)', 'p99 / max (ms)', 'ok', 'failed'],
      rows: [
        [`${paced.perSec} logins/s`, `${Math.round((paced.perSec / signinPerSec) * 100)} %`, paced.p50, paced.p95, paced.p99, paced.ok, paced.failed],
        [`${burst.count} sign-ups at once`, '', burst.p50, burst.p95, burst.max, burst.count, 0],
      ],
    },
  ],
  metrics,
};
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(report, null, 2)}\n`);
const failed = paced.failed > 0 || Object.values(e2e).some((run) => run.failed > 0 || run.errors > 0);
process.exit(failed ? 1 : 0);
