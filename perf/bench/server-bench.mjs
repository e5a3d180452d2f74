// The server half of `pnpm bench` (must have 1): the authenticated fetch and add measured
// through the gateway, against svc-todos alone, nginx proxying svc-todos, a minimal Koa app and a bare
// node:http server — the last two answering svc-todos's own bytes from memory — in one run, so the ratios
// compare like with like on a noisy machine. Every target is measured once per round, in a rotating order,
// and each figure is the median of the rounds.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { signIdentity } from '@tm/service-kit';
import { REPO_ROOT, signUp, startStack, tempDir } from '@tm/test-support';
import { median, round, runLoad } from './load.mjs';
import { findNginx, startNginxProxy } from './nginx.mjs';
import { cpuMs, rssMiB, startBaseline } from '../lib/processes.mjs';

const SECRET = 'bench-internal-secret-0123456789abcdef0123456789';
export const TARGETS = ['gateway', 'svc', 'nginx', 'koa', 'node'];
const FETCH = '/todo/fetch-todo';
const ADD = '/todo/add-todo';
const ADD_BODY = JSON.stringify({ title: 'bench task' });

/**
 * @typedef {object} ServerBenchOptions
 * @property {number} seconds       per run
 * @property {number} rounds        runs of every target (figures are the medians)
 * @property {number[]} sizes       todos in the list for the fetch matrix
 * @property {number[]} connections
 * @property {number} growthSize    the extra, gateway-only fetch of a long list
 */

/** Headers that vouch for `userId` on `method url`, re-signed every second (the window is 30 s). */
function signer(userId, method, url) {
  let signedAt = 0;
  /** @type {Record<string, string>} */
  let headers = {};
  return () => {
    const now = Date.now();
    if (now - signedAt >= 1000) {
      const requestId = randomUUID();
      headers = { 'x-request-id': requestId, ...signIdentity(SECRET, { method, url, userId, requestId }, now) };
      signedAt = now;
    }
    return headers;
  };
}

/** A signed call to svc-todos, answered as raw bytes (exactly what the baselines will send back). */
async function callService(baseUrl, userId, method, url, body) {
  const headers = { ...signer(userId, method, url)(), ...(body ? { 'content-type': 'application/json' } : {}) };
  const response = await fetch(baseUrl + url, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${bytes.toString()}`);
  return bytes;
}

/** Signs a user up through the gateway: its cookies and XSRF header are what the load sends. */
async function benchUser(gatewayUrl, name) {
  const { client, user } = await signUp(gatewayUrl, { name: `Bench ${name}` });
  const userId = user._id;
  const headers = { cookie: client.cookieHeader(), 'x-xsrf-token': client.xsrfToken ?? '', 'content-type': 'application/json' };
  return { userId, headers };
}

/** Adds `count` todos straight to svc-todos (16 at a time): setting up is not what is measured. */
async function fill(todosUrl, userId, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await callService(todosUrl, userId, 'POST', ADD, JSON.stringify({ title: `Task number ${next} of the benchmark list` }));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** Live rows of a user in svc-todos's SQLite file, read with svc-todos's own driver. */
function countRows(dataDir, userId) {
  const Database = createRequire(path.join(REPO_ROOT, 'svc-todos', 'package.json'))('better-sqlite3');
  const db = new Database(path.join(dataDir, 'todos.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) AS n FROM todos WHERE user_id = ? AND deleted_at IS NULL').get(userId).n;
  } finally {
    db.close();
  }
}

/** Waits (up to 30 s) until every process in `pids` uses under 10 % of a core: the last run's work is done. */
async function settle(pids) {
  const SAMPLE_MS = 250;
  const deadline = Date.now() + 30_000;
  let before = pids.map(cpuMs);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = pids.map(cpuMs);
    const busy = now.some((ms, i) => ms !== undefined && before[i] !== undefined && ms - before[i] > SAMPLE_MS * 0.1);
    if (!busy) return;
    before = now;
  }
  log('servers still busy 30 s after the run: going on');
}

/** The nginx worker (nginx's master only manages it): its CPU is the proxy's. */
function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Runs the whole server matrix.
 * @param {ServerBenchOptions} options
 * @returns {Promise<{ metrics: Record<string, number>, notes: string[] }>}
 */
export async function benchServers(options) {
  const { seconds, rounds, sizes, connections, growthSize } = options;
  const notes = [];
  const scratch = tempDir('tm-bench-');
  const stack = await startStack({ env: { INTERNAL_SECRET: SECRET }, keepLogs: false });
  /** @type {Array<{ stop: () => Promise<void> }>} */
  const extras = [];
  try {
    log(`stack up: gateway ${stack.url}, svc-todos ${stack.todos.url}`);
    const users = {};
    for (const n of [...sizes, growthSize]) users[n] = await benchUser(stack.url, `list-${n}`);
    const adders = { gateway: await benchUser(stack.url, 'adds-gateway'), svc: await benchUser(stack.url, 'adds-direct') };
    for (const n of [...sizes, growthSize]) {
      const started = Date.now();
      await fill(stack.todos.url, users[n].userId, n);
      log(`filled ${n} todos in ${Date.now() - started} ms`);
    }

    // What the baselines answer: svc-todos's own bytes for each list, and for an add.
    /** @type {Record<string, { status: number, body: string }>} */
    const answers = {};
    const payload = {};
    for (const n of sizes) {
      const bytes = await callService(stack.todos.url, users[n].userId, 'GET', FETCH);
      answers[`fetch-${n}`] = { status: 200, body: bytes.toString() };
      payload[n] = bytes.length;
    }
    const added = await callService(stack.todos.url, adders.svc.userId, 'POST', ADD, ADD_BODY);
    answers.add = { status: 201, body: added.toString() };
    payload[growthSize] = (await callService(stack.todos.url, users[growthSize].userId, 'GET', FETCH)).length;

    const koa = await startBaseline('koa', answers, scratch.dir);
    const node = await startBaseline('node', answers, scratch.dir);
    extras.push(koa, node);
    const nginxBinary = findNginx();
    let nginx;
    if ('binary' in nginxBinary) {
      nginx = await startNginxProxy(nginxBinary.binary, path.join(scratch.dir, 'nginx'), stack.todos.port);
      extras.push(nginx);
    } else {
      notes.push(`nginx skipped: ${nginxBinary.skipped}`);
      log(`nginx skipped: ${nginxBinary.skipped}`);
    }
    const targets = TARGETS.filter((t) => t !== 'nginx' || nginx);
    const bases = { gateway: `${stack.url}/api`, svc: stack.todos.url, nginx: nginx?.url, koa: koa.url, node: node.url };
    const pids = { gateway: stack.gateway.child.pid, todos: stack.todos.child.pid, users: stack.users.child.pid, koa: koa.pid, node: node.pid };
    if (nginx) pids.nginx = childPids(nginx.pid)[0] ?? nginx.pid;

    /** One load's request for a target: the gateway gets the browser's cookie + XSRF, the rest a signed identity. */
    const requestFor = (target, kind, n, user) => {
      const url = kind === 'add' ? ADD : FETCH;
      const method = kind === 'add' ? 'POST' : 'GET';
      const body = kind === 'add' ? ADD_BODY : undefined;
      if (target === 'gateway') return { url: bases.gateway + url, method, body, headers: user.headers };
      return {
        url: bases[target] + url, method, body,
        headers: { 'content-type': 'application/json', 'x-bench-answer': kind === 'add' ? 'add' : `fetch-${n}` },
        freshHeaders: signer(user.userId, method, url),
      };
    };

    /** @type {Map<string, { runs: import('./load.mjs').LoadResult[], cpu: Record<string, number> }>} */
    const results = new Map();
    const measure = async (key, request, conns) => {
      const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
      const result = await runLoad({ ...request, connections: conns, seconds });
      // The requests still in flight when the load stopped are still being served (a long list at 100
      // connections can keep svc-todos busy for seconds): wait for that tail before the next run, and count
      // its CPU in this run's.
      await settle(Object.values(pids));
      const entry = results.get(key) ?? { runs: [], cpu: {} };
      for (const [name, pid] of Object.entries(pids)) {
        const after = cpuMs(pid);
        if (after !== undefined && cpuBefore[name] !== undefined) entry.cpu[name] = (entry.cpu[name] ?? 0) + after - cpuBefore[name];
      }
      entry.runs.push(result);
      results.set(key, entry);
      log(`${key.padEnd(24)} ${String(result.rps).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}`);
    };

    // Warm-up, not recorded: each target's JIT and connection pools, once.
    for (const target of targets) await runLoad({ ...requestFor(target, 'fetch', sizes[0], users[sizes[0]]), connections: 10, seconds: 1 });
    for (let round = 0; round < rounds; round += 1) {
      log(`round ${round + 1} of ${rounds}`);
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      for (const n of sizes) {
        for (const conns of connections) {
          for (const target of order) await measure(`fetch.${target}.${n}.c${conns}`, requestFor(target, 'fetch', n, users[n]), conns);
        }
      }
      for (const target of order) {
        await measure(`add.${target}.c10`, requestFor(target, 'add', 0, target === 'gateway' ? adders.gateway : adders.svc), 10);
      }
      // The same fetch through the gateway from a browser that accepts gzip (the gateway compresses
      // JSON over 1 KiB), to show what dynamic compression costs it per request.
      for (const n of COMPRESSED_SIZES.filter((size) => sizes.includes(size))) {
        for (const encoding of ENCODINGS) {
          const request = requestFor('gateway', 'fetch', n, users[n]);
          await measure(`fetch.gateway-${encoding}.${n}.c10`, { ...request, headers: { ...request.headers, 'accept-encoding': encoding } }, 10);
        }
      }
    }
    // The long list last: its 2 MB answers leave the processes the slowest to recover (heap, sockets).
    for (let round = 0; round < rounds; round += 1) {
      await measure(`fetch.gateway.${growthSize}.c10`, requestFor('gateway', 'fetch', growthSize, users[growthSize]), 10);
    }

    const metrics = {};
    for (const [key, { runs }] of results) {
      metrics[`${key}.rps`] = median(runs.map((r) => r.rps));
      metrics[`${key}.p50`] = median(runs.map((r) => r.p50));
      metrics[`${key}.p99`] = median(runs.map((r) => r.p99));
      // Summed, not a median: one run's errors must not disappear behind two clean ones.
      metrics[`${key}.errors`] = runs.reduce((sum, r) => sum + r.errors, 0);
    }
    const p95Key = `fetch.gateway.${sizes.includes(1000) ? 1000 : sizes.at(-1)}.c10`;
    if (results.has(p95Key)) metrics[`${p95Key}.p95`] = median(results.get(p95Key).runs.map((r) => r.p95));

    // Nothing lost: every acknowledged add (2xx) must be a row in the store, counted in the file itself.
    for (const [target, user] of [['gateway', adders.gateway], ['svc', adders.svc]]) {
      const acknowledged = ['gateway', 'svc', 'nginx']
        .filter((t) => (target === 'gateway' ? t === 'gateway' : t !== 'gateway'))
        .flatMap((t) => results.get(`add.${t}.c10`)?.runs ?? [])
        .reduce((sum, r) => sum + r.ok, target === 'svc' ? 1 : 0); // + the add whose answer the baselines send
      const rows = countRows(stack.dataDir, user.userId);
      metrics[`add.${target}.lost`] = Math.max(0, acknowledged - rows);
      metrics[`add.${target}.acknowledged`] = acknowledged;
      log(`adds ${target === 'gateway' ? 'through the gateway' : 'to svc-todos (alone and through nginx)'}: ${acknowledged} acknowledged, ${rows} rows in the store`);
    }

    for (const n of [...sizes, growthSize]) metrics[`payload.${n}.bytes`] = payload[n];
    for (const [name, pid] of Object.entries(pids)) {
      const rss = rssMiB(pid);
      if (rss !== undefined) metrics[`mem.${name}.MiB`] = rss;
    }
    // CPU per request of each process kind at the everyday list (100 todos, 10 connections): what the
    // capacity model turns into requests per second per core.
    const everyday = sizes.includes(100) ? 100 : sizes[0];
    const perRequest = (key, name) => {
      const entry = results.get(key);
      const requests = entry?.runs.reduce((sum, r) => sum + r.requests, 0) ?? 0;
      return entry && requests && entry.cpu[name] !== undefined ? round(entry.cpu[name] / requests, 3) : undefined;
    };
    const cpuFigures = {
      'cpu.gateway.msPerRequest': perRequest(`fetch.gateway.${everyday}.c10`, 'gateway'),
      'cpu.todos.msPerRequest': perRequest(`fetch.svc.${everyday}.c10`, 'todos'),
      'cpu.nginx.msPerRequest': pids.nginx ? perRequest(`fetch.nginx.${everyday}.c10`, 'nginx') : undefined,
      'cpu.gateway.add.msPerRequest': perRequest('add.gateway.c10', 'gateway'),
      'cpu.todos.add.msPerRequest': perRequest('add.svc.c10', 'todos'),
    };
    for (const [name, value] of Object.entries(cpuFigures)) if (value !== undefined) metrics[name] = value;
    // The gateway's CPU per fetch with and without compression, and the bytes of each answer.
    for (const n of COMPRESSED_SIZES.filter((size) => sizes.includes(size))) {
      const plain = perRequest(`fetch.gateway.${n}.c10`, 'gateway');
      if (plain !== undefined) metrics[`cpu.gateway.identity.${n}.msPerRequest`] = plain;
      for (const encoding of ENCODINGS) {
        const value = perRequest(`fetch.gateway-${encoding}.${n}.c10`, 'gateway');
        if (value !== undefined) metrics[`cpu.gateway.${encoding}.${n}.msPerRequest`] = value;
        const bytes = await compressedSize(stack.url, users[n].headers, encoding);
        if (bytes !== undefined) metrics[`payload.${n}.${encoding}.bytes`] = bytes;
      }
    }

    return { metrics, notes };
  } finally {
    for (const extra of extras) await extra.stop();
    await stack.stop();
    scratch.remove();
  }
}

/** List sizes and encodings of the compression runs. */
const COMPRESSED_SIZES = [100, 1000];
const ENCODINGS = ['gzip'];

/** The bytes on the wire of one list answer in `encoding`, read raw (not decoded). */
function compressedSize(baseUrl, headers, encoding) {
  return new Promise((resolve) => {
    httpRequest(`${baseUrl}/api${FETCH}`, { headers: { cookie: headers.cookie, 'accept-encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('end', () => resolve(response.headers['content-encoding'] === encoding ? bytes : undefined));
    })
      .on('error', () => resolve(undefined))
      .end();
  });
}

function log(message) {
  console.log(`[bench] ${message}`);
}
