#!/usr/bin/env node
// Import of 10 000 tasks (docs/PRODUCT.md §10.23), a child of `pnpm bench`:
//   - the built stack (startStack: gateway, svc-users, svc-todos on SQLite); a user signed up through the gateway;
//   - a Todoist-shaped CSV of BENCH_IMPORT_TASKS tasks (10 000) over three sections, each task with a label, a
//     priority, a description (its note), every fifth a due date and every tenth two subtasks (INDENT 2 rows) and
//     a note row; sent as the page sends it, POST /api/todo/import through the gateway (session cookie, XSRF
//     header), first as a dry run (the page's preview), then for real; BENCH_IMPORT_ROUNDS (3) fresh users;
//   - the time from the request sent to the answer read, of each, and the tasks the user then has; then the
//     export of those tasks as JSON and as CSV through the gateway (a download, read whole).
// Target (docs/PERFORMANCE.md "Targets"): the import of 10 000 tasks under 10 s; above it the script exits 1.
// Run: node perf/bench/bench-import.mjs (after `pnpm build`; BENCH_JSON=<file> also writes the harness's JSON).
// 127.0.0.1 only; every request is bounded in number.
import { writeFileSync } from 'node:fs';
import { signUp, startStack } from '@tm/test-support';

const TASKS = Number(process.env.BENCH_IMPORT_TASKS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);
/** The target: one import of TASKS tasks through the gateway, in seconds. */
const TARGET_SECONDS = 10;
const COMMAND = 'node perf/bench/bench-import.mjs';
const log = (/** @type {string} */ line) => console.log(`[bench-import] ${line}`);
const round = (/** @type {number} */ value, digits = 0) => Number(value.toFixed(digits));
const median = (/** @type {number[]} */ values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The file: Todoist's columns, TASKS tasks in three sections, as a project's "Export as CSV" writes them. */
function todoistFile() {
  const rows = ['TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG', 'meta,view_style,list,,,,,,,,,,,'];
  for (let n = 1; n <= TASKS; n += 1) {
    if (n % Math.ceil(TASKS / 3) === 1) rows.push(`section,Part ${Math.ceil(n / Math.ceil(TASKS / 3))},,,,,,,,,,,,`);
    const due = n % 5 === 0 ? `2027-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}` : '';
    rows.push(`task,"Task number ${n} of the import bench @label${n % 20}","A description of task ${n}, with a comma",${(n % 4) + 1},1,Bench (1),,${due},en,Europe/Paris,,,,`);
    if (n % 10 === 0) rows.push(`task,First step of ${n},,4,2,Bench (1),,,,,,,,`, `task,Second step of ${n},,4,2,Bench (1),,,,,,,,`, `note,A comment on task ${n},,,,Bench (1),,,,,,,,`);
  }
  return rows.join('\r\n');
}

/** One POST /api/todo/import through the gateway as the page sends it; resolves the seconds and the answer. */
async function importThroughGateway(client, content, dryRun) {
  const started = performance.now();
  const answer = await client.post('/api/todo/import', { fileName: 'Bench project.csv', content, dryRun });
  const seconds = (performance.now() - started) / 1000;
  if (answer.status !== 200) throw new Error(`import answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return { seconds, body: answer.body };
}

const content = todoistFile();
const bytes = Buffer.byteLength(content);
const stack = await startStack({ keepLogs: false });
let failed = false;
try {
  log(`stack up: gateway ${stack.url}; file of ${TASKS} tasks, ${round(bytes / 1024 / 1024, 2)} MiB`);
  const dry = [];
  const real = [];
  /** @type {{ json: { seconds: number; size: number }[]; csv: { seconds: number; size: number }[] }} */
  const exports = { json: [], csv: [] };
  for (let r = 1; r <= ROUNDS; r += 1) {
    const { client } = await signUp(stack.url, { name: `Bench Import ${r}` });
    const preview = await importThroughGateway(client, content, true);
    const done = await importThroughGateway(client, content, false);
    const listed = await client.get('/api/todo/fetch-todo');
    const count = listed.body.todos.length;
    if (count !== TASKS) throw new Error(`the user has ${count} tasks after the import, not ${TASKS}`);
    dry.push(preview.seconds);
    real.push(done.seconds);
    for (const format of ['json', 'csv']) {
      const started = performance.now();
      const file = await fetch(`${stack.url}/api/todo/export?format=${format}`, { headers: { cookie: client.cookieHeader() } });
      const size = (await file.arrayBuffer()).byteLength;
      if (file.status !== 200) throw new Error(`export ${format} answered ${file.status}`);
      exports[format].push({ seconds: (performance.now() - started) / 1000, size });
    }
    log(`round ${r}: dry run ${round(preview.seconds, 2)} s, import ${round(done.seconds, 2)} s (${done.body.message}); ${count} tasks listed; export JSON ${round(exports.json.at(-1).seconds, 2)} s, CSV ${round(exports.csv.at(-1).seconds, 2)} s`);
  }
  const importSeconds = round(median(real), 2);
  const drySeconds = round(median(dry), 2);
  failed = Math.max(...real) >= TARGET_SECONDS;
  log(`median import ${importSeconds} s, slowest ${round(Math.max(...real), 2)} s; target < ${TARGET_SECONDS} s: ${failed ? 'MISSED' : 'met'}`);
  const metrics = {
    'import.tasks': TASKS,
    'import.file.bytes': bytes,
    'import.seconds.median': importSeconds,
    'import.seconds.max': round(Math.max(...real), 2),
    'import.dryRun.seconds.median': drySeconds,
    'export.json.seconds.median': round(median(exports.json.map((e) => e.seconds)), 2),
    'export.csv.seconds.median': round(median(exports.csv.map((e) => e.seconds)), 2),
    'export.json.bytes': exports.json[0]?.size ?? 0,
    'export.csv.bytes': exports.csv[0]?.size ?? 0,
  };
  if (process.env.BENCH_JSON) {
    const report = {
      title: 'Import of 10 000 tasks',
      command: COMMAND,
      sections: [
        {
          heading: `POST /api/todo/import, a Todoist CSV of ${TASKS.toLocaleString('en-US')} tasks, through the gateway`,
          text:
            `A Todoist-shaped CSV of ${TASKS} tasks in three sections (${round(bytes / 1024 / 1024, 2)} MiB): labels, priorities, ` +
            'descriptions, every fifth task dated, every tenth with two subtasks and a note row. Sent as the page sends it ' +
            `(session cookie, XSRF header), a dry run then the import, for ${ROUNDS} fresh users; from sent to the answer read. ` +
            `The import is one transaction with one change event. Target: under ${TARGET_SECONDS} s.`,
          columns: ['call', 'median s', 'slowest s'],
          rows: [
            ['dry run (the preview: read and checked, nothing written)', drySeconds, round(Math.max(...dry), 2)],
            ['import (read, checked and written in one transaction)', importSeconds, round(Math.max(...real), 2)],
            ['export as JSON (GET /api/todo/export?format=json)', metrics['export.json.seconds.median'], round(Math.max(...exports.json.map((e) => e.seconds)), 2)],
            ['export as CSV (GET /api/todo/export?format=csv)', metrics['export.csv.seconds.median'], round(Math.max(...exports.csv.map((e) => e.seconds)), 2)],
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
