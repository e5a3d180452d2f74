// What the service benches share (bench-agenda.mjs, bench-search.mjs): a request signed as the gateway signs
// it, sequential timed GETs after a warm-up, and percentiles. 127.0.0.1 only.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { signIdentity } from '@tm/service-kit';

/** The internal secret the benches start their stack with (startStack's INTERNAL_SECRET). */
export const BENCH_SECRET = 'bench-internal-secret-0123456789abcdef0123456789';
/** Requests sent first and not kept. */
export const WARM_UP = 20;

export const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The value at or below which `p` % of `values` lie (nearest rank). */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

export const summary = (times) => ({ p50: round(percentile(times, 50), 2), p95: round(percentile(times, 95), 2), p99: round(percentile(times, 99), 2), max: round(Math.max(...times), 2) });

/** Headers that vouch for `userId` on `method url`, signed at the call (the gateway's signed identity). */
export function signed(userId, method, url) {
  const requestId = randomUUID();
  return { 'x-request-id': requestId, ...signIdentity(BENCH_SECRET, { method, url, userId, requestId }) };
}

/**
 * `count` sequential GETs of `url` (each answer read whole and required to be 200), after WARM_UP not kept;
 * resolves each request's milliseconds and the last answer.
 */
export async function measure(url, headersFor, count) {
  const times = [];
  let last = '';
  for (let i = 0; i < WARM_UP + count; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: headersFor() });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    if (i >= WARM_UP) times.push(ms);
    last = text;
  }
  return { times, last };
}

/**
 * Adds `count` tasks straight at svc-todos as `userId`, `concurrency` at a time, task n's body being `bodyOf(n)`
 * (1-based); resolves the seconds it took (setting up is not what a bench measures).
 */
export async function seedTasks(todosUrl, userId, count, bodyOf, concurrency = 32) {
  const add = '/todo/add-todo';
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const body = JSON.stringify(bodyOf(next));
      const response = await fetch(todosUrl + add, { method: 'POST', headers: { ...signed(userId, 'POST', add), 'content-type': 'application/json' }, body });
      if (response.status !== 201) throw new Error(`add-todo answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}
