#!/usr/bin/env node
// Search with 10 000 tasks (docs/PRODUCT.md §10.22), a child of `pnpm bench`:
//   - the built stack (startStack: gateway, svc-users, svc-todos on SQLite); one user signed up through the
//     gateway, given BENCH_SEARCH_TASKS tasks (10 000) straight at svc-todos with the gateway's signed identity
//     (setting up is not what is measured): titles of 3–6 words, a note of 2 lines (about 30 words) on every
//     second task and 2–4 subtasks on every third, words drawn from a vocabulary of 110 (a few accented), so
//     the full-text index holds about 250 000 words and a common word matches thousands of tasks;
//   - GET /todo/search for each query shape below, BENCH_SEARCH_REQUESTS (100) sequential requests each straight
//     at svc-todos (a freshly signed identity each, as the gateway sends) after a warm-up, and the busiest
//     shape (one letter) through the gateway too (the browser's session cookie); latency from the request sent
//     to the answer's last byte, read whole;
//   - median, p95 and p99 per shape, over all shapes, and what each answered (tasks and `more`).
// Target (docs/PERFORMANCE.md "Targets"): every shape's p95 at svc-todos under 50 ms; above it the script exits 1.
// Run: node perf/bench/bench-search.mjs (after `pnpm build`; BENCH_JSON=<file> also writes the harness's JSON).
// 127.0.0.1 only; every request is bounded in number.
import { writeFileSync } from 'node:fs';
import { signUp, startStack } from '@tm/test-support';
import { BENCH_SECRET, measure, round, seedTasks, signed, summary, WARM_UP } from './service-timing.mjs';

const TASKS = Number(process.env.BENCH_SEARCH_TASKS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 100);
/** The target: each query shape's p95 at svc-todos, in ms. */
const SVC_P95_TARGET_MS = 50;
const COMMAND = 'node perf/bench/bench-search.mjs';
const log = (/** @type {string} */ line) => console.log(`[bench-search] ${line}`);

const WORDS = (
  'milk bread eggs butter cheese apples oranges coffee tea rice pasta beans call email write read review plan book pay send ' +
  'fix clean wash buy order pick drop meet visit check print sign renew cancel report invoice budget taxes slides draft notes ' +
  'meeting project client team manager dentist doctor school teacher garden fence kitchen laundry garage car bike train flight ' +
  'hotel passport gift party birthday wedding dinner lunch recipe groceries pharmacy bank insurance rent lease contract agenda ' +
  'summary backlog release deploy server database backup update install upgrade monday tuesday friday weekend morning evening ' +
  'café résumé crème naïve façade jalapeño über smörgåsbord mum dad sister brother friend neighbour phone charger laptop'
).split(' ');

/** A deterministic word stream (mulberry32), so every run indexes the same text. */
let state = 42;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const nextWord = () => WORDS[Math.floor(random() * WORDS.length)];
const words = (count) => Array.from({ length: count }, nextWord).join(' ');

/** Task `n`'s body: a title, a note on every second task, subtasks on every third. */
function taskBody(n) {
  const title = `${words(3 + (n % 4))}`;
  const body = { title: title.charAt(0).toUpperCase() + title.slice(1) };
  if (n % 2 === 0) body.note = `${words(15)}\n${words(15)}`;
  if (n % 3 === 0) body.subtasks = Array.from({ length: 2 + (n % 3) }, (_, i) => ({ id: `s${n}-${i}`, title: words(3), done: i === 0 }));
  return body;
}

/** The query shapes: a person typing (one letter, two), a common word, two words with the last as a prefix, accents, none, and filters. */
const SHAPES = [
  { name: 'one letter ("m")', params: { q: 'm' } },
  { name: 'two letters ("mi")', params: { q: 'mi' } },
  { name: 'a common word ("milk")', params: { q: 'milk' } },
  { name: 'two words, the last typed ("call dent")', params: { q: 'call dent' } },
  { name: 'accents aside ("cafe creme")', params: { q: 'cafe creme' } },
  { name: 'nothing matches ("zebra")', params: { q: 'zebra' } },
  { name: 'one letter and a filter ("m", open)', params: { q: 'm', status: 'active' } },
  { name: 'a word and filters ("report", open, no date)', params: { q: 'report', status: 'active', due: 'none' } },
];

const stack = await startStack({ env: { INTERNAL_SECRET: BENCH_SECRET }, keepLogs: false });
let failed = false;
try {
  log(`stack up: gateway ${stack.url}, svc-todos ${stack.todos.url}`);
  const { client, user } = await signUp(stack.url, { name: 'Bench Search' });
  const seconds = await seedTasks(stack.todos.url, user._id, TASKS, taskBody);
  log(`seeded ${TASKS} tasks (notes on half, subtasks on a third) in ${round(seconds, 1)} s`);

  const rows = [];
  const metrics = { 'search.tasks': TASKS, 'search.seed.seconds': round(seconds, 1) };
  const all = [];
  for (const [index, shape] of SHAPES.entries()) {
    const path = `/todo/search?${new URLSearchParams(shape.params).toString()}`;
    const { times, last } = await measure(stack.todos.url + path, () => signed(user._id, 'GET', path), REQUESTS);
    const answer = JSON.parse(last);
    const s = summary(times);
    all.push(...times);
    rows.push([shape.name, answer.todos.length + answer.more, s.p50, s.p95, s.p99, s.max]);
    metrics[`search.shape${index + 1}.p50`] = s.p50;
    metrics[`search.shape${index + 1}.p95`] = s.p95;
    log(`${shape.name}: ${answer.todos.length} + ${answer.more} more; p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms, max ${s.max} ms`);
    if (s.p95 > SVC_P95_TARGET_MS) failed = true;
  }
  const overall = summary(all);
  metrics['search.svc.p50'] = overall.p50;
  metrics['search.svc.p95'] = overall.p95;
  metrics['search.svc.p99'] = overall.p99;
  // The target's figure: the slowest shape's p95 (docs/PERFORMANCE.md "Targets").
  metrics['search.svc.worstP95'] = Math.max(...SHAPES.map((_, index) => metrics[`search.shape${index + 1}.p95`]));
  const busiest = `/api/todo/search?q=m`;
  const gateway = summary((await measure(stack.url + busiest, () => ({ cookie: client.cookieHeader() }), REQUESTS)).times);
  metrics['search.gateway.p50'] = gateway.p50;
  metrics['search.gateway.p95'] = gateway.p95;
  log(`all shapes at svc-todos: p50 ${overall.p50} ms, p95 ${overall.p95} ms; "m" through the gateway: p50 ${gateway.p50} ms, p95 ${gateway.p95} ms`);
  log(`target: every shape's p95 at svc-todos < ${SVC_P95_TARGET_MS} ms: ${failed ? 'MISSED' : 'met'}`);

  if (process.env.BENCH_JSON) {
    const report = {
      title: 'Search with 10 000 tasks',
      command: COMMAND,
      sections: [
        {
          heading: `GET /todo/search, ${TASKS.toLocaleString('en-US')} tasks with notes and subtasks, sequential requests`,
          text:
            `One user with ${TASKS} tasks (titles of 3–6 words, a two-line note on every second, 2–4 subtasks on every third, ` +
            `from a vocabulary of ${WORDS.length} words). ${REQUESTS} sequential requests per query shape after ${WARM_UP} of ` +
            `warm-up, from sent to the last byte; an answer holds at most 100 tasks and counts the others. Target: every ` +
            `shape's p95 at svc-todos < ${SVC_P95_TARGET_MS} ms.`,
          columns: ['query at svc-todos', 'matches', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
          rows: [...rows, ['all shapes', '', overall.p50, overall.p95, overall.p99, overall.max], ['"m" through the gateway (session cookie)', '', gateway.p50, gateway.p95, gateway.p99, gateway.max]],
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
