// docs/BENCHMARKS.md and docs/benchmarks.svg from docs/benchmarks.json: the tables of the server bench
// (built from its metrics), the growth table (server fetch + the list bench's render figures), the issue's
// targets, and every child bench's own sections rendered as they came.
import { barChartSvg } from './chart.mjs';

export const TARGET_NAMES = {
  gateway: 'gateway → svc-todos',
  svc: 'svc-todos alone',
  nginx: 'nginx → svc-todos',
  koa: 'minimal Koa (bytes from memory)',
  node: 'bare node:http (bytes from memory)',
};
const TARGETS = Object.keys(TARGET_NAMES);
const RATIOS = [['gateway', 'node'], ['gateway', 'koa'], ['gateway', 'svc'], ['svc', 'koa'], ['svc', 'node'], ['nginx', 'svc'], ['nginx', 'node'], ['koa', 'node']];

/**
 * @typedef {{ heading: string, text?: string, columns: string[], rows: (string|number)[][] }} Section
 * @typedef {{ script: string, status: string, reason?: string, title?: string, command?: string, sections: Section[], metrics: Record<string, number>, seconds: number }} BenchEntry
 * @typedef {{ sizes: number[], connections: number[], growthSize: number, seconds: number, rounds: number, quick: boolean }} Settings
 * @typedef {{ generatedAt: string, command: string, machine: Record<string, string | number>, settings: Settings, notes: string[], benches: BenchEntry[], metrics: Record<string, number> }} BenchDoc
 */

/** @param {number | undefined} value */
function fmt(value) {
  if (value === undefined || Number.isNaN(value)) return '–';
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(value);
}

/**
 * req/s of target `a` over target `b` for the fetch of `n` todos at `c` connections (2 decimals).
 * @param {Record<string, number>} m @param {string} a @param {string} b @param {number} n @param {number} c
 */
export function ratio(m, a, b, n, c) {
  const top = m[`fetch.${a}.${n}.c${c}.rps`];
  const bottom = m[`fetch.${b}.${n}.c${c}.rps`];
  return top !== undefined && bottom ? Math.round((top / bottom) * 100) / 100 : undefined;
}

/** @param {Section} section */
export function renderSection(section, level = '###') {
  const cell = (/** @type {string | number} */ v) => String(typeof v === 'number' ? fmt(v) : v).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [`${level} ${section.heading}`, ''];
  if (section.text) lines.push(section.text, '');
  if (section.columns?.length) {
    lines.push(`| ${section.columns.map(cell).join(' | ')} |`, `|${section.columns.map(() => '---').join('|')}|`);
    for (const row of section.rows ?? []) lines.push(`| ${row.map(cell).join(' | ')} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * The server bench's tables, from its metrics alone (so they can be rebuilt from the JSON).
 * @param {Record<string, number>} m @param {Settings} settings @returns {Section[]}
 */
export function serverSections(m, settings) {
  const targets = TARGETS.filter((t) => m[`fetch.${t}.${settings.sizes[0]}.c${settings.connections[0]}.rps`] !== undefined);
  const fetchRows = [];
  for (const n of settings.sizes) {
    for (const c of settings.connections) {
      for (const t of targets) {
        const key = `fetch.${t}.${n}.c${c}`;
        fetchRows.push([n, c, TARGET_NAMES[t], m[`${key}.rps`], m[`${key}.p50`], m[`${key}.p99`], m[`${key}.errors`], ratio(m, t, 'node', n, c) ?? '–']);
      }
    }
  }
  const ratioPairs = RATIOS.filter(([a, b]) => targets.includes(a) && targets.includes(b));
  const ratioRows = settings.sizes.flatMap((n) => settings.connections.map((c) => [n, c, ...ratioPairs.map(([a, b]) => `${fmt(ratio(m, a, b, n, c))}×`)]));
  const addRows = targets.map((t) => [TARGET_NAMES[t], m[`add.${t}.c10.rps`], m[`add.${t}.c10.p50`], m[`add.${t}.c10.p99`], m[`add.${t}.c10.errors`]]);
  const processRows = [
    ['gateway', m['mem.gateway.MiB'], m['cpu.gateway.msPerRequest'], perCore(m['cpu.gateway.msPerRequest']), m['cpu.gateway.add.msPerRequest']],
    ['svc-todos', m['mem.todos.MiB'], m['cpu.todos.msPerRequest'], perCore(m['cpu.todos.msPerRequest']), m['cpu.todos.add.msPerRequest']],
    ['svc-users', m['mem.users.MiB'], '–', '–', '–'],
    ['nginx (worker)', m['mem.nginx.MiB'], m['cpu.nginx.msPerRequest'], perCore(m['cpu.nginx.msPerRequest']), '–'],
    ['minimal Koa', m['mem.koa.MiB'], '–', '–', '–'],
    ['bare node:http', m['mem.node.MiB'], '–', '–', '–'],
  ];
  const everyday = settings.sizes.includes(100) ? 100 : settings.sizes[0];
  return [
    {
      heading: 'Authenticated fetch (`GET /api/todo/fetch-todo`)',
      text: `Medians of ${settings.rounds} runs of ${settings.seconds} s each; errors are the total of the runs (non-2xx + socket errors + timeouts). ` +
        '"vs node" is the req/s of the row over the bare node:http server\'s for the same list and connections.',
      columns: ['todos', 'connections', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs node'],
      rows: fetchRows,
    },
    {
      heading: 'Ratios of requests per second (same run)',
      columns: ['todos', 'connections', ...ratioPairs.map(([a, b]) => `${a}/${b}`)],
      rows: ratioRows,
    },
    {
      heading: 'Add (`POST /api/todo/add-todo`), 10 connections',
      text: `Through the gateway on SQLite: ${fmt(m['add.gateway.acknowledged'])} adds acknowledged (201) over the runs, ` +
        `${fmt(m['add.gateway.lost'])} missing from the store when its rows were counted afterwards; to svc-todos alone and through nginx: ` +
        `${fmt(m['add.svc.acknowledged'])} acknowledged, ${fmt(m['add.svc.lost'])} missing. The Koa and node:http rows answer svc-todos's add answer from memory (the floor, no store).`,
      columns: ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      rows: addRows,
    },
    ...compressionSection(m, settings),
    {
      heading: 'Per process: memory after the load, CPU per request',
      text: `Resident memory (VmRSS) after every run; CPU time (user + system, /proc/<pid>/stat) of the process over its fetch runs with ${everyday} todos at 10 connections ` +
        '(and over the add runs), divided by the answers: what one core of that process kind serves, for the capacity model (`pnpm capacity`).',
      columns: ['process', 'RSS MiB', 'CPU ms per fetch', 'fetches/s per core', 'CPU ms per add'],
      rows: processRows,
    },
  ];
}

/**
 * What dynamic compression of JSON costs the gateway (issue #17): the same fetch through the gateway from a
 * client that sends no Accept-Encoding or `gzip`.
 * @param {Record<string, number>} m @param {{ sizes: number[] }} settings
 */
function compressionSection(m, settings) {
  const rows = [];
  for (const n of [100, 1000].filter((size) => settings.sizes.includes(size))) {
    for (const encoding of ['identity', 'gzip']) {
      const key = encoding === 'identity' ? `fetch.gateway.${n}.c10` : `fetch.gateway-${encoding}.${n}.c10`;
      const cpu = m[`cpu.gateway.${encoding}.${n}.msPerRequest`];
      const base = m[`cpu.gateway.identity.${n}.msPerRequest`];
      const bytes = encoding === 'identity' ? m[`payload.${n}.bytes`] : m[`payload.${n}.${encoding}.bytes`];
      if (m[`${key}.rps`] === undefined) continue;
      rows.push([n, encoding, bytes ?? '–', m[`${key}.rps`], m[`${key}.p50`], m[`${key}.p99`], cpu ?? '–', cpu !== undefined && base !== undefined ? `${fmt(Math.round((cpu - base) * 1000) / 1000)}` : '–']);
    }
  }
  if (rows.length === 0) return [];
  return [
    {
      heading: 'Compressed answers through the gateway (issue #17), 10 connections',
      text:
        'The gateway compresses JSON over 1 KiB with gzip level 3 for a browser that accepts it (koa-compress; brotli only for the built files, compressed once at build time). ' +
        'Bytes: one answer on the wire. CPU: the gateway process over the runs, per answer; the last column is what compressing adds to each answer.',
      columns: ['todos', 'encoding', 'bytes', 'req/s', 'p50 ms', 'p99 ms', 'gateway CPU ms per fetch', 'added by compression, ms'],
      rows,
    },
  ];
}

/** @param {number | undefined} ms */
function perCore(ms) {
  return ms ? Math.round(1000 / ms) : '–';
}

/** @param {BenchDoc} doc @returns {Section | undefined} */
function growthSection(doc) {
  const m = doc.metrics;
  const sizes = [...new Set([...doc.settings.sizes, doc.settings.growthSize, 10, 100, 1000, 10000])].sort((a, b) => a - b);
  const rows = sizes
    .map((n) => [n, m[`payload.${n}.bytes`], m[`fetch.gateway.${n}.c10.rps`], m[`fetch.gateway.${n}.c10.p50`], m[`fetch.gateway.${n}.c10.p99`], m[`list.renderMs.${n}`], m[`list.payloadBytes.${n}`]])
    .filter((row) => row.slice(1).some((v) => v !== undefined));
  if (rows.length === 0) return undefined;
  const listBench = doc.benches.find((b) => b.script.endsWith('bench-list.mjs'));
  const listNote = listBench?.status === 'ok' ? `render figures from \`${listBench.command ?? `node ${listBench.script}`}\`` : `render figures: the list bench did not report (${listBench?.status ?? 'not run'}${listBench?.reason ? `: ${listBench.reason}` : ''})`;
  return {
    heading: 'Growth: 10 to 10 000 tasks',
    text: `Fetch through the gateway at 10 connections (one signed-in user with that many tasks); payload = bytes of the JSON answer, uncompressed; ${listNote}.`,
    columns: ['tasks', 'payload bytes', 'fetch req/s', 'fetch p50 ms', 'fetch p99 ms', 'render ms (Chromium)', 'payload bytes (list bench)'],
    rows: rows.map((row) => row.map((v) => v ?? '–')),
  };
}

/** @param {BenchDoc} doc @returns {Section} */
function targetsSection(doc) {
  const m = doc.metrics;
  const r = (a, b) => ratio(m, a, b, 100, 10);
  const signIns = m['signin.perSecPerCore'];
  /** @type {[string, string, number | undefined, (v: number) => boolean][]} */
  const checks = [
    ['fetch of 100 todos, gateway / bare node:http, 10 connections', '≥ 0.15×', r('gateway', 'node'), (v) => v >= 0.15],
    ['fetch of 100 todos, svc-todos alone / minimal Koa, 10 connections', '≥ 0.5×', r('svc', 'koa'), (v) => v >= 0.5],
    ['fetch of 1 000 todos through the gateway, 10 connections, p95', '≤ 20 ms', m['fetch.gateway.1000.c10.p95'], (v) => v <= 20],
    ['acknowledged adds/s through the gateway on SQLite, 10 connections', '≥ 2 000', m['add.gateway.c10.rps'], (v) => v >= 2000],
    ['acknowledged adds missing from the store afterwards', '0', m['add.gateway.lost'], (v) => v === 0],
    ['sign-ins per second on 2 cores', '≥ 40', signIns === undefined ? undefined : Math.round(signIns * 2 * 10) / 10, (v) => v >= 40],
  ];
  return {
    heading: 'Issue #10 targets in this run',
    columns: ['what', 'target', 'this run', 'met'],
    rows: checks.map(([what, target, value, ok]) => [what, target, value === undefined ? 'not measured' : value, value === undefined ? '–' : ok(value) ? 'yes' : 'no']),
  };
}

/** @param {BenchDoc} doc @returns {string} */
export function chartSvg(doc) {
  const m = doc.metrics;
  const targets = TARGETS.filter((t) => doc.settings.sizes.some((n) => m[`fetch.${t}.${n}.c10.rps`] !== undefined));
  const groups = doc.settings.connections.flatMap((c) => doc.settings.sizes.map((n) => ({
    label: `${n} todos, ${c} conn.`,
    values: targets.map((t) => m[`fetch.${t}.${n}.c${c}.rps`]),
  })));
  return barChartSvg({
    title: `GET /api/todo/fetch-todo: requests per second (median of ${doc.settings.rounds}), ${doc.machine.cores} cores, ${doc.generatedAt.slice(0, 10)}`,
    yLabel: 'requests per second',
    groups,
    series: targets.map((t) => TARGET_NAMES[t]),
  });
}

/** @param {BenchDoc} doc @returns {string} */
export function renderMarkdown(doc) {
  const { machine, settings } = doc;
  const server = doc.benches.find((b) => b.script === 'perf/bench/bench.mjs');
  const children = doc.benches.filter((b) => b !== server);
  const out = [
    '# Benchmarks',
    '',
    '<!-- Written by `pnpm bench` (perf/bench/bench.mjs) from docs/benchmarks.json; change the scripts, not this file. -->',
    '',
    `Measured with \`${doc.command}\` on ${doc.generatedAt.slice(0, 16).replace('T', ' ')} UTC: ${machine.cores} cores (${machine.cpuModel}), ` +
      `${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}${settings.quick ? ' — **quick smoke form (BENCH_QUICK=1): one short run each, not for comparison**' : ''}.`,
    '',
    'How: `pnpm bench` builds everything, then `perf/bench/bench.mjs` starts the built gateway, svc-users and svc-todos as separate ' +
      'processes on 127.0.0.1 with SQLite storage (what `npm start` runs), signs one user up per list size through the gateway and ' +
      'fills their lists, and loads five targets with autocannon from the same machine (it competes with the servers for the cores): ' +
      'the gateway (cookie + XSRF header, as a browser), svc-todos alone (the gateway\'s signed identity header, re-signed every second), ' +
      'Debian\'s nginx (one worker) proxying svc-todos, and a minimal Koa app and a bare `node:http` server, each in its own process, ' +
      'answering svc-todos\'s exact bytes for that user from memory. Each round measures every target once, in a rotated order, so ' +
      `noise hits them alike; every figure is the median of ${settings.rounds} rounds of ${settings.seconds} s (\`BENCH_SECONDS\`). ` +
      'Latencies are recorded per answer in microseconds. autocannon runs in the bench\'s own process on the same two cores: at the baselines\' ' +
      'rates it is often the limit itself, so the Koa and node:http figures are lower bounds (and ratios to them flatter the servers); ' +
      'CPU per request, read from /proc, is the steadier figure on a shared machine. Then it runs the other benches (each writes its figures to `BENCH_JSON`) and ' +
      'writes docs/benchmarks.json (every figure), this file and docs/benchmarks.svg. Only compare figures of one run: this machine is shared and noisy.',
    '',
    '| bench | command | status | time |',
    '|---|---|---|---|',
    ...doc.benches.map((b) => `| ${b.title ?? b.script} | \`${b.command ?? `node ${b.script}`}\` | ${b.status}${b.reason ? `: ${b.reason}` : ''} | ${b.seconds} s |`),
    '',
  ];
  for (const note of doc.notes) out.push(`- ${note}`);
  if (doc.notes.length) out.push('');
  out.push(renderSection(targetsSection(doc), '##'));
  if (server) {
    out.push(`## ${server.title}`, '', '![Requests per second of each target, by list size and connections](benchmarks.svg)', '');
    for (const section of server.sections) out.push(renderSection(section));
  }
  const growth = growthSection(doc);
  if (growth) out.push(renderSection(growth, '##'));
  for (const child of children) {
    out.push(`## ${child.title ?? child.script}`, '', `\`${child.command ?? `node ${child.script}`}\` — ${child.status}${child.reason ? `: ${child.reason}` : ''}.`, '');
    for (const section of child.sections) out.push(renderSection(section));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
