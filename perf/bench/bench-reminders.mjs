#!/usr/bin/env node
// Reminder lateness (docs/PRODUCT.md §10.17), a child of `pnpm bench`:
//   - the built svc-todos process on a fresh data folder with its embedded scheduler (a 1 s timer over
//     reminders.sqlite), pushing over HTTPS to a local push service (@tm/test-support startPushReceiver, which
//     checks each VAPID signature and decrypts each message; NODE_EXTRA_CA_CERTS trusts its certificate);
//   - BENCH_REMINDERS (1 000) reminders of BENCH_REMINDER_USERS (50) people, each with one browser subscribed:
//     tasks added through svc-todos' own calls with `due` on the next two whole minutes at least 20 s away and
//     `reminders: [0]`, so they come in two bursts of 500 at the same instant;
//   - lateness of each: the time the push service received it less the reminder's time; p50, p95, max.
// Target (docs/PERFORMANCE.md "Targets"): p95 lateness under 60 s; above it the script exits 1.
// Run: node perf/bench/bench-reminders.mjs (after `pnpm build`; BENCH_JSON=<file> also writes the harness's JSON).
// 127.0.0.1 only; the number of requests and the wait are bounded.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { signedCall, startProcess, startPushReceiver, tempDir } from '@tm/test-support';

const SECRET = 'bench-internal-secret-0123456789abcdef0123456789';
const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 1_000);
const USERS = Number(process.env.BENCH_REMINDER_USERS ?? 50);
const TARGET_P95_S = 60;
const COMMAND = 'node perf/bench/bench-reminders.mjs';
const MINUTE = 60_000;
const log = (/** @type {string} */ line) => console.log(`[bench-reminders] ${line}`);
const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
/** A UTC instant as a floating due time in UTC (the zone the bench's people keep). */
const dueOf = (at) => new Date(at).toISOString().slice(0, 16);

const receiver = await startPushReceiver();
const data = tempDir('tm-bench-reminders-');
const service = await startProcess('svc-todos', { DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, NODE_EXTRA_CA_CERTS: receiver.certFile, REMINDER_SCHEDULER: 'embedded', REDIS_URL: '' }, 15_000, { keepLogs: false });
let failed = false;
try {
  const call = (userId, method, path, body) => signedCall(service.url, { method, path, userId, body, secret: SECRET });
  const users = Array.from({ length: USERS }, () => randomBytes(12).toString('hex'));
  for (const userId of users) {
    const browser = receiver.subscribe();
    const kept = await call(userId, 'PUT', '/internal/reminders/subscription', {
      subscription: { endpoint: browser.endpoint, keys: browser.keys },
      timeZone: 'UTC',
      session: `bench-session-${userId}`,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    if (kept.status !== 200) throw new Error(`subscription answered ${kept.status}: ${JSON.stringify(kept.body)}`);
  }
  const first = Math.ceil((Date.now() + 20_000) / MINUTE) * MINUTE;
  const fireAt = new Map();
  const adds = Array.from({ length: REMINDERS }, (_, n) => ({ userId: users[n % USERS], at: first + (n % 2) * MINUTE, n }));
  const started = Date.now();
  for (let i = 0; i < adds.length; i += 25) {
    await Promise.all(
      adds.slice(i, i + 25).map(async ({ userId, at, n }) => {
        const due = dueOf(at);
        const added = await call(userId, 'POST', '/todo/add-todo', { title: `Bench reminder ${n}`, due, reminders: [0] });
        if (added.status !== 201) throw new Error(`add-todo answered ${added.status}: ${JSON.stringify(added.body)}`);
        fireAt.set(`${added.body.todo._id}.${due}.0`, at);
      }),
    );
  }
  log(`${REMINDERS} reminders of ${USERS} people added in ${round((Date.now() - started) / 1000, 1)} s, due ${dueOf(first)} and ${dueOf(first + MINUTE)} UTC`);
  const received = await receiver.waitFor(REMINDERS, first + MINUTE - Date.now() + 120_000);
  if (receiver.rejected.length > 0) throw new Error(`the push receiver refused ${receiver.rejected.length} messages: ${receiver.rejected[0]}`);
  const tags = received.map((message) => JSON.parse(message.payload).tag);
  const lateness = received.map((message, i) => (message.receivedAt - fireAt.get(tags[i])) / 1000);
  const duplicates = tags.length - new Set(tags).size;
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const extra = receiver.received.length - REMINDERS;
  const figures = { p50: round(percentile(lateness, 50)), p95: round(percentile(lateness, 95)), max: round(Math.max(...lateness)), min: round(Math.min(...lateness)) };
  log(`lateness: p50 ${figures.p50} s, p95 ${figures.p95} s, max ${figures.max} s, min ${figures.min} s; duplicates ${duplicates + Math.max(0, extra)}`);
  failed = figures.p95 >= TARGET_P95_S || figures.min < 0 || duplicates > 0 || extra > 0;
  log(`target: p95 lateness < ${TARGET_P95_S} s, none early, none twice: ${failed ? 'MISSED' : 'met'}`);
  if (process.env.BENCH_JSON) {
    const report = {
      title: 'Reminder lateness',
      command: COMMAND,
      sections: [
        {
          heading: `${REMINDERS.toLocaleString('en-US')} reminders through the embedded scheduler to a local push service`,
          text:
            `svc-todos (built) with its 1 s timer over reminders.sqlite; ${USERS} people with one subscribed browser each; ` +
            `two bursts of ${REMINDERS / 2} reminders at the same minute. Lateness: received by the push service less the ` +
            `reminder's time (web-push encryption and VAPID signing included). Target: p95 < ${TARGET_P95_S} s.`,
          columns: ['reminders', 'p50 s', 'p95 s', 'max s', 'duplicates'],
          rows: [[REMINDERS, figures.p50, figures.p95, figures.max, duplicates + Math.max(0, extra)]],
        },
      ],
      metrics: { 'reminders.count': REMINDERS, 'reminders.lateness.p50': figures.p50, 'reminders.lateness.p95': figures.p95, 'reminders.lateness.max': figures.max },
    };
    writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await service.stop();
  await receiver.close();
  data.remove();
}
process.exit(failed ? 1 : 0);
