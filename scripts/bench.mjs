#!/usr/bin/env node
// `pnpm bench`: the figures the docs quote, measured on this machine from the built processes.
//   (password hashing and sign-ins: scripts/bench-hash.mjs)
//   1. GET /api/todo/fetch-todo of 100 todos through the gateway (autocannon, 127.0.0.1 only, bounded);
//   2. POST /api/todo/add-todo through the gateway;
//   3. resident memory of each process after the load.
// Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10).
import autocannon from 'autocannon';
import { ApiClient, startStack } from '@tm/test-support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

function round(value) {
  return Math.round(value * 10) / 10;
}

async function load(title, options) {
  const result = await autocannon({ connections, duration: seconds, ...options });
  return {
    title,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    reqPerSec: round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  };
}

async function rssOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = /process_resident_memory_bytes\{[^}]*\} (\d+)/.exec(text);
  return match ? `${Math.round(Number(match[1]) / 1024 / 1024)} MiB` : 'n/a';
}

async function benchGateway() {
  const stack = await startStack();
  const { gateway, users, todos } = stack;
  try {
    const client = new ApiClient(gateway.url);
    await client.get('/api/user/me');
    const signup = await client.post('/api/user/signup', { fullName: 'Bench', email: 'bench@example.com', password: 'bench password' });
    if (signup.status !== 201) throw new Error(`signup failed: ${signup.status}`);
    for (let i = 0; i < 100; i += 1) {
      const added = await client.post('/api/todo/add-todo', { title: `Task number ${i}` });
      if (added.status !== 201) throw new Error(`add failed: ${added.status}`);
    }
    const list = await client.get('/api/todo/fetch-todo');
    const bytes = JSON.stringify(list.body).length;
    const headers = { cookie: client.cookieHeader(), 'x-xsrf-token': client.xsrfToken, 'content-type': 'application/json' };
    const fetchResult = await load('GET /api/todo/fetch-todo (100 todos)', { url: `${gateway.url}/api/todo/fetch-todo`, headers });
    const addResult = await load('POST /api/todo/add-todo', {
      url: `${gateway.url}/api/todo/add-todo`, method: 'POST', headers, body: JSON.stringify({ title: 'bench task' }),
    });
    const memory = { gateway: await rssOf(gateway.url), 'svc-users': await rssOf(users.url), 'svc-todos': await rssOf(todos.url) };
    return { responseBytes: bytes, results: [fetchResult, addResult], memory };
  } finally {
    await stack.stop();
  }
}

const gatewayFigures = await benchGateway();
console.log(`fetch response size: ${gatewayFigures.responseBytes} bytes`);
for (const r of gatewayFigures.results) {
  console.log(`${r.title}: ${r.requests} requests in ${seconds}s with ${connections} connections, ${r.reqPerSec} req/s, ` +
    `latency p50 ${r.latencyMs.p50} ms, p90 ${r.latencyMs.p90} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms; ` +
    `non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`);
}
console.log(`resident memory after load: ${JSON.stringify(gatewayFigures.memory)}`);
const failed = gatewayFigures.results.some((r) => r.non2xx > 0 || r.errors > 0);
process.exit(failed ? 1 : 0);
