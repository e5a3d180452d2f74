#!/usr/bin/env node
// Today and Upcoming with 10 000 tasks (docs/PRODUCT.md §10.15), a child of `pnpm bench`:
//   - the built stack (startStack: gateway, svc-users, svc-todos on SQLite); one user signed up through the
//     gateway, given BENCH_AGENDA_TASKS tasks (10 000) straight at svc-todos with the gateway's signed identity,
//     SEED_CONCURRENCY at a time (setting up is not what is measured): a third dated, spread over the 121 days
//     from 60 days before today to 60 after, a tenth of those with a time of day;
//   - GET /todo/agenda?today=<this machine's day> (the default 7 days), BENCH_AGENDA_REQUESTS (200) sequential
//     requests straight at svc-todos (a freshly signed identity each, as the gateway sends) and as many through
//     the gateway (the browser's session cookie), after a warm-up of each; latency from the request sent to the
//     answer's last byte, read whole;
//   - median, p95 and p99 of each, the answer's size and what it held.
// Target (docs/PERFORMANCE.md "Targets"): the p95 at svc-todos under 50 ms; above it the script exits 1.
// Run: node perf/bench/bench-agenda.mjs (after `pnpm build`; BENCH_JSON=<file> also writes the harness's JSON).
// 127.0.0.1 only; every request is bounded in number.
import { writeFileSync } from 'node:fs';
import { signUp, startStack } from '@tm/test-support';
import { BENCH_SECRET as SECRET, measure, round, seedTasks, signed, summary, WARM_UP } from './service-timing.mjs';

const TASKS = Number(process.env.BENCH_AGENDA_TASKS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_AGENDA_REQUESTS ?? 200);
/** The target: the agenda's p95 at svc-todos, in ms. */
const SVC_P95_TARGET_MS = 50;
const COMMAND = 'node perf/bench/bench-agenda.mjs';
const log = (/** @type {string} */ line) => console.log(`[bench-agenda] ${line}`);

/** A day as the person's calendar writes it (`YYYY-MM-DD`), on this machine's clock. */
function dayOf(date) {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The day `offset` days after today, by the calendar. */
function dayAfter(offset) {
  const day = new Date();
  day.setHours(12, 0, 0, 0);
  day.setDate(day.getDate() + offset);
  return dayOf(day);
}

/**
 * Task `n`'s due date (1-based): every third task is dated, the k-th of them on a day from 60 before today to 60
 * after (spread by a step coprime with 121, so every day gets its share), every tenth of them with a time.
 */
function dueOf(n) {
  if (n % 3 !== 0) return undefined;
  const k = n / 3;
  const day = dayAfter(((k * 37) % 121) - 60);
  return k % 10 === 0 ? `${day}T${String(k % 24).padStart(2, '0')}:${String((k * 7) % 60).padStart(2, '0')}` : day;
}

/** Task `n`'s body: its title, and its due date when it has one. */
function taskBody(n) {
  const due = dueOf(n);
  return due === undefined ? { title: `Task number ${n} of the agenda bench` } : { title: `Task number ${n} of the agenda bench`, due };
}

const stack = await startStack({ env: { INTERNAL_SECRET: SECRET }, keepLogs: false });
let failed = false;
try {
  log(`stack up: gateway ${stack.url}, svc-todos ${stack.todos.url}`);
  const { client, user } = await signUp(stack.url, { name: 'Bench Agenda' });
  const seconds = await seedTasks(stack.todos.url, user._id, TASKS, taskBody);
  log(`seeded ${TASKS} tasks (${Math.floor(TASKS / 3)} dated) in ${round(seconds, 1)} s`);

  const today = dayOf(new Date());
  const path = `/todo/agenda?today=${today}`;
  const svc = await measure(stack.todos.url + path, () => signed(user._id, 'GET', path), REQUESTS);
  const gateway = await measure(`${stack.url}/api${path}`, () => ({ cookie: client.cookieHeader() }), REQUESTS);

  const answer = JSON.parse(svc.last);
  const held = answer.overdue.length + answer.days.reduce((sum, day) => sum + day.todos.length, 0);
  const bytes = Buffer.byteLength(svc.last);
  const s = summary(svc.times);
  const g = summary(gateway.times);
  log(`today ${today}: ${answer.overdue.length} overdue, ${held - answer.overdue.length} in ${answer.days.length} days, ${bytes} bytes`);
  log(`svc-todos alone: p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms, max ${s.max} ms (${REQUESTS} sequential)`);
  log(`through the gateway: p50 ${g.p50} ms, p95 ${g.p95} ms, p99 ${g.p99} ms, max ${g.max} ms (${REQUESTS} sequential)`);
  failed = s.p95 > SVC_P95_TARGET_MS;
  log(`target: p95 at svc-todos < ${SVC_P95_TARGET_MS} ms: ${failed ? 'MISSED' : 'met'}`);

  const metrics = {
    'agenda.tasks': TASKS,
    'agenda.held': held,
    'agenda.answer.bytes': bytes,
    'agenda.seed.seconds': round(seconds, 1),
    'agenda.svc.p50': s.p50,
    'agenda.svc.p95': s.p95,
    'agenda.svc.p99': s.p99,
    'agenda.gateway.p50': g.p50,
    'agenda.gateway.p95': g.p95,
    'agenda.gateway.p99': g.p99,
  };
  if (process.env.BENCH_JSON) {
    const report = {
      title: 'Today and Upcoming with 10 000 tasks',
      command: COMMAND,
      sections: [
        {
          heading: `GET /todo/agenda, ${TASKS.toLocaleString('en-US')} tasks, sequential requests`,
          text:
            `One user with ${TASKS} tasks, a third dated over the 121 days around today, a tenth of those with a time; the ` +
            `agenda of this machine's day (7 days): ${answer.overdue.length} overdue and ${held - answer.overdue.length} ` +
            `in ${answer.days.length} days, ${bytes} bytes. ${REQUESTS} sequential requests after ${WARM_UP} of warm-up, ` +
            `from sent to the last byte. Target: p95 at svc-todos < ${SVC_P95_TARGET_MS} ms.`,
          columns: ['target', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
          rows: [
            ['svc-todos alone (signed identity)', s.p50, s.p95, s.p99, s.max],
            ['gateway → svc-todos (session cookie)', g.p50, g.p95, g.p99, g.max],
          ],
        },
      ],
      metrics,
    };
    writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);
