#!/usr/bin/env node
// Multi-instance proof on loopback: two gateways and two svc-todos instances behind nginx
// (Debian's, installed here if missing), one svc-users, sessions in the real Redis, one shared todos store
// (a SQLite file in WAL mode used by both svc-todos processes). A bounded autocannon load runs while one
// gateway and one svc-todos instance are restarted with SIGTERM; then every acknowledged add must be in the
// final fetch and every session must still be valid.
//
// Live sync: a few users also hold an event stream open through gateway #1 directly, while the
// writes go through nginx to both gateways and both svc-todos (which share changes through Redis pub/sub).
// Every acknowledged add of a subscribed user must arrive as a change event on that stream, also across the
// restarts (the stream resumes from its last event id); the report counts events delivered, late (> 1 s after
// the add was acknowledged) and missing.
//
//   node perf/scale-proof/scale-proof.mjs [--seconds 60] [--rate 300] [--users 16] [--json]
//
// Exit code 0 only when: lost acknowledged writes = 0, invalid sessions = 0, error rate < 0.1 %, missing events = 0.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';
import { freePort, openEventStream, signUp, startProcess, tempDir } from '@tm/test-support';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '300' },
    users: { type: 'string', default: '16' },
    subscribers: { type: 'string', default: '4' },
    json: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const USERS = Number(args.users);
const SUBSCRIBERS = Math.min(Number(args.subscribers), USERS);
const LATE_MS = 1000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (...parts) => console.error('[scale-proof]', ...parts);

function ensureNginx() {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'], { encoding: 'utf8' });
  if (found.status === 0) return found.stdout.trim().split('\n')[0];
  log('nginx not found: installing Debian\'s nginx');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return '/usr/sbin/nginx';
}

function nginxConfig(dir, ports) {
  const upstream = (name, list) => `
  upstream ${name} {
${list.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
    # Idle upstream connections are closed by nginx before an instance ends its drain
    # (SHUTDOWN_DRAIN_MS 1500 > 1 s), so none is left for the instance to close under a request.
    keepalive_timeout 1s;
  }`;
  const proxy = (name) => `
    location / {
      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Retry on another instance when one is down; nginx retries POST only if it was never sent.
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
    }`;
  return `user root;
worker_processes 2;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${upstream('gateways', ports.gateways)}
${upstream('todos', ports.todos)}
  # The load's client connections are long-lived: do not recycle them every 1000 requests.
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${ports.front};
${proxy('gateways')}
  }
  server {
    listen 127.0.0.1:${ports.todosLb};
${proxy('todos')}
  }
}
`;
}

async function startNginx(binary, dir, ports) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, nginxConfig(dir, ports));
  execFileSync(binary, ['-t', '-q', '-p', dir, '-c', file], { stdio: 'inherit' });
  const child = spawn(binary, ['-p', dir, '-c', file], { stdio: 'inherit' });
  for (let i = 0; i < 50; i += 1) {
    if (await fetch(`http://127.0.0.1:${ports.front}/healthz`).then(() => true, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { stop: async () => { child.kill('SIGQUIT'); await once(child, 'exit'); } };
}

const latencies = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000, numberOfSignificantValueDigits: 3 });
latencies.destroy = () => undefined; // autocannon destroys its histograms; keep ours for p95.

async function main() {
  const nginxBinary = ensureNginx();
  const data = tempDir('tm-scale-');
  const ports = {
    front: await freePort(), todosLb: await freePort(),
    gateways: [await freePort(), await freePort()], todos: [await freePort(), await freePort()], users: await freePort(),
  };
  const secrets = {
    INTERNAL_SECRET: 'scale-proof-internal-secret-0123456789abcdef',
    SESSION_KEYS: 'scale-proof-session-key-0123456789abcdef0123',
    DATA_DIR: data.dir,
    SHUTDOWN_DRAIN_MS: '1500',
    LOG_LEVEL: 'warn',
  };
  const startTodos = (port) => startProcess('svc-todos', { ...secrets, TODOS_PORT: String(port), LOG_LEVEL: 'info', REDIS_URL });
  const gatewayEnv = (port) => ({
    ...secrets, PORT: String(port), LOG_LEVEL: 'info', REDIS_URL, TRUST_PROXY: 'true', AUTH_RATE_LIMIT: '0',
    USERS_URL: `http://127.0.0.1:${ports.users}`, TODOS_URL: `http://127.0.0.1:${ports.todosLb}`,
  });
  const startGateway = (port) => startProcess('gateway', gatewayEnv(port));
  const running = {
    users: await startProcess('svc-users', { ...secrets, USERS_PORT: String(ports.users), LOG_LEVEL: 'info' }),
    todos: [await startTodos(ports.todos[0]), await startTodos(ports.todos[1])],
    gateways: [await startGateway(ports.gateways[0]), await startGateway(ports.gateways[1])],
  };
  const nginx = await startNginx(nginxBinary, path.join(data.dir, 'nginx'), ports);
  const base = `http://127.0.0.1:${ports.front}`;
  try {
    return await prove(base, running, { startGateway, startTodos, ports });
  } finally {
    await nginx.stop();
    await Promise.all([running.users, ...running.todos, ...running.gateways].map((p) => p.stop()));
    data.remove();
  }
}

async function signUpUsers(base) {
  const users = [];
  for (let i = 0; i < USERS; i += 4) {
    const batch = Array.from({ length: Math.min(4, USERS - i) }, async (_, j) => {
      const { client } = await signUp(base, { name: `Scale ${i + j}` });
      return { client, acked: new Set(), ackedAt: new Map(), added: 0 };
    });
    users.push(...(await Promise.all(batch)));
  }
  return users;
}

async function restart(label, stopAndStart) {
  const started = Date.now();
  const code = await stopAndStart();
  log(`${label}: exited with ${code}, back in ${Date.now() - started} ms`);
  return { label, exitCode: code, ms: Date.now() - started };
}

async function prove(base, running, { startGateway, startTodos, ports }) {
  log(`${USERS} users signing up through nginx`);
  const users = await signUpUsers(base);
  const statuses = {};
  const headersOf = (user) => ({ cookie: user.client.cookieHeader(), 'x-xsrf-token': user.client.xsrfToken, 'content-type': 'application/json' });
  const failures = [];
  const unreadable = [];
  let duplicateIds = 0;
  const count = (status, body) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 400 && failures.length < 20) failures.push({ at: Date.now(), status, body: String(body).slice(0, 160) });
  };
  // One autocannon instance per user (one connection each): every request of a connection is that
  // user's, so each acknowledged add is recorded against the right account.
  const requestsFor = (user) => [
    {
      method: 'POST', path: '/api/todo/add-todo',
      setupRequest: (req) => {
        user.added += 1;
        return { ...req, headers: headersOf(user), body: JSON.stringify({ title: `task ${user.added}` }) };
      },
      onResponse: (status, body, context) => {
        count(status, body);
        if (status === 201) {
          let id;
          try {
            id = JSON.parse(body).todo._id;
          } catch {
            unreadable.push(String(body).slice(0, 200));
            return;
          }
          if (user.acked.has(id)) duplicateIds += 1;
          user.acked.add(id);
          user.ackedAt.set(id, Date.now());
          context.lastId = id;
        }
      },
    },
    {
      method: 'GET', path: '/api/todo/fetch-todo',
      setupRequest: (req) => ({ ...req, headers: headersOf(user) }),
      onResponse: (status, body) => count(status, body),
    },
    {
      method: 'PUT',
      // Completes this loop's task, or (when that add failed) the user's latest acknowledged one.
      setupRequest: (req, context) => {
        const id = context.lastId ?? [...user.acked].at(-1);
        if (!id) return { ...req, method: 'GET', path: '/api/todo/fetch-todo', headers: headersOf(user) };
        return { ...req, path: `/api/todo/update-todo/${id}`, headers: headersOf(user), body: JSON.stringify({ updateData: { completed: true } }) };
      },
      onResponse: (status, body) => count(status, body),
    },
  ];
  const sync = await subscribe(users.slice(0, SUBSCRIBERS), `http://127.0.0.1:${ports.gateways[0]}`);
  log(`load: ${RATE} req/s for ${SECONDS} s, restarting gateway #1 at ${Math.round(SECONDS * 0.3)} s and svc-todos #1 at ${Math.round(SECONDS * 0.6)} s`);
  const load = Promise.all(
    users.map((user) =>
      autocannon({ url: base, connections: 1, overallRate: RATE / users.length, duration: SECONDS, requests: requestsFor(user), histograms: { latencies } }),
    ),
  ).then((results) => ({
    requests: { total: results.reduce((n, r) => n + r.requests.total, 0) },
    errors: results.reduce((n, r) => n + r.errors, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
  }));
  const restarts = [];
  const plan = (async () => {
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 300));
    restarts.push(await restart('gateway #1', async () => {
      const code = await running.gateways[0].stop('SIGTERM');
      running.gateways[0] = await startGateway(ports.gateways[0]);
      return code;
    }));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SECONDS * 600 - SECONDS * 300 - restarts[0].ms)));
    restarts.push(await restart('svc-todos #1', async () => {
      const code = await running.todos[0].stop('SIGTERM');
      running.todos[0] = await startTodos(ports.todos[0]);
      return code;
    }));
  })();
  const [result] = await Promise.all([load, plan]);
  const syncReport = await sync.finish();

  let lost = 0;
  let invalidSessions = 0;
  let acked = 0;
  for (const user of users) {
    const me = await user.client.get('/api/user/me');
    if (me.status !== 200) invalidSessions += 1;
    const list = await user.client.get('/api/todo/fetch-todo');
    const present = new Set((list.body?.todos ?? []).map((t) => t._id));
    acked += user.acked.size;
    for (const id of user.acked) if (!present.has(id)) lost += 1;
  }
  const total = result.requests.total;
  const errors = result.errors + result.timeouts + Object.entries(statuses).filter(([s]) => Number(s) >= 400).reduce((n, [, c]) => n + c, 0);
  const unauthorised = (statuses[401] ?? 0) + (statuses[403] ?? 0);
  const startedAt = Date.now() - SECONDS * 1000;
  const report = {
    failures: failures.map((f) => ({ ...f, at: `${((f.at - startedAt) / 1000).toFixed(1)} s` })),
    seconds: SECONDS, targetRate: RATE, users: USERS,
    requests: total, errors, errorRate: total ? errors / total : 0, statuses,
    connectionErrors: result.errors, timeouts: result.timeouts,
    latencyMs: { p50: latencies.getValueAtPercentile(50), p95: latencies.getValueAtPercentile(95), p99: latencies.getValueAtPercentile(99), max: latencies.maxValue },
    restarts, acknowledgedAdds: acked, lostAcknowledgedWrites: lost,
    sessionsRejectedDuringLoad: unauthorised, invalidSessionsAfter: invalidSessions,
  };
  // Every 201 the load saw must have been recorded as an acknowledged add of its user.
  report.accountingConsistent = (statuses[201] ?? 0) === acked;
  report.unreadable201 = unreadable.length;
  report.unreadableSamples = unreadable.slice(0, 3);
  report.duplicateIds = duplicateIds;
  report.sync = syncReport;
  report.ok = syncReport.missing === 0 && syncReport.watched > 0 && report.accountingConsistent && lost === 0 && invalidSessions === 0 && unauthorised === 0 && report.errorRate < 0.001 && restarts.every((r) => r.exitCode === 0);
  return report;
}

/**
 * Opens one event stream per subscriber on gateway #1 (not through nginx), starting after the list's cursor,
 * and at the end matches every acknowledged add of those users against the change events received.
 */
async function subscribe(subscribers, gatewayA) {
  const streams = [];
  for (const user of subscribers) {
    const list = await user.client.get('/api/todo/fetch-todo');
    if (list.status !== 200) throw new Error(`fetch before subscribing failed: ${list.status}`);
    const stream = openEventStream(`${gatewayA}/api/todo/events?after=${list.body.cursor}`, {
      headers: () => ({ cookie: user.client.cookieHeader() }),
      types: ['change', 'ready', 'reset'],
      reopenAfterMs: 500,
    });
    await stream.waitFor((e) => e.type === 'ready', 5000);
    streams.push({ user, stream });
  }
  return {
    async finish() {
      const seenAt = new Map();
      const collect = () => {
        for (const { stream } of streams) {
          for (const event of stream.events) {
            if (event.type !== 'change') continue;
            for (const todo of JSON.parse(event.data).saved) if (!seenAt.has(todo._id)) seenAt.set(todo._id, event.at);
          }
        }
      };
      const missingIds = () => streams.flatMap(({ user }) => [...user.acked].filter((id) => !seenAt.has(id)));
      // Give the last writes a moment to arrive, then count.
      for (let waited = 0; waited < 5000; waited += 250) {
        collect();
        if (missingIds().length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      collect();
      const delays = streams.flatMap(({ user }) => [...user.ackedAt].filter(([id]) => seenAt.has(id)).map(([id, at]) => Math.max(0, seenAt.get(id) - at)));
      delays.sort((a, b) => a - b);
      const report = {
        subscribers: streams.length,
        watched: streams.reduce((n, { user }) => n + user.acked.size, 0),
        eventsDelivered: streams.reduce((n, { stream }) => n + stream.events.filter((e) => e.type === 'change').length, 0),
        late: delays.filter((d) => d > LATE_MS).length,
        missing: missingIds().length,
        resets: streams.reduce((n, { stream }) => n + stream.events.filter((e) => e.type === 'reset').length, 0),
        streamOpens: streams.reduce((n, { stream }) => n + stream.opens, 0),
        delayMs: { p50: delays[Math.floor(delays.length * 0.5)] ?? 0, p95: delays[Math.floor(delays.length * 0.95)] ?? 0, max: delays.at(-1) ?? 0 },
      };
      for (const { stream } of streams) stream.close();
      return report;
    },
  };
}

const report = await main();
if (args.json) console.log(JSON.stringify(report));
else {
  console.log(`requests ${report.requests} in ${report.seconds} s (target ${report.targetRate}/s), errors ${report.errors} (${(report.errorRate * 100).toFixed(3)} %)`);
  console.log(`latency p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`);
  console.log(`restarts: ${report.restarts.map((r) => `${r.label} exit ${r.exitCode} (${r.ms} ms)`).join(', ')}`);
  console.log(`sessions rejected during load ${report.sessionsRejectedDuringLoad}, invalid after ${report.invalidSessionsAfter}`);
  console.log(`acknowledged adds ${report.acknowledgedAdds}, lost ${report.lostAcknowledgedWrites}; statuses ${JSON.stringify(report.statuses)}`);
  const { sync } = report;
  console.log(`live sync: ${sync.subscribers} streams on gateway #1, ${sync.eventsDelivered} change events, ${sync.watched} acknowledged adds watched, late (> 1 s) ${sync.late}, missing ${sync.missing}, resets ${sync.resets}, stream opens ${sync.streamOpens}; delay p50 ${sync.delayMs.p50} ms, p95 ${sync.delayMs.p95} ms, max ${sync.delayMs.max} ms`);
  for (const f of report.failures) console.log(`  failure at ${f.at}: ${f.status} ${f.body}`);
  console.log(report.ok ? 'PROOF OK' : 'PROOF FAILED');
}
process.exit(report.ok ? 0 : 1);
