// docs/BENCHMARKS.md and docs/benchmarks.svg from docs/benchmarks.json: the tables of the server bench
// (built from its metrics), the payload growth table, the server, sign-in, agenda, search and import targets of docs/PERFORMANCE.md
// "Targets", and every child bench's own tables. Figures and commands only: how each bench works is
// docs/PERFORMANCE.md "How to measure", so a child section keeps only the first sentence of its text.
import { barChartSvg } from './chart.mjs';

export const TARGET_NAMES = {
  gateway: 'gateway → svc-todos',
  svc: 'svc-todos alone',
  nginx: 'nginx → svc-todos',
  koa: 'minimal Koa (bytes from memory)',
  node: 'bare node:http (bytes from memory)',
};
const TARGETS = Object.keys(TARGET_NAMES);

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
      text: `Medians of ${settings.rounds} rounds of ${settings.seconds} s; errors summed over the rounds. "vs node": req/s over the bare node:http server's.`,
      columns: ['todos', 'connections', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs node'],
      rows: fetchRows,
    },
    {
      heading: 'Add (`POST /api/todo/add-todo`), 10 connections',
      text: `Acknowledged (201) through the gateway on SQLite: ${fmt(m['add.gateway.acknowledged'])}, ${fmt(m['add.gateway.lost'])} missing from the store afterwards; ` +
        `to svc-todos alone and through nginx: ${fmt(m['add.svc.acknowledged'])}, ${fmt(m['add.svc.lost'])} missing.`,
      columns: ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      rows: addRows,
    },
    ...compressionSection(m, settings),
    {
      heading: 'Per process: memory after the load, CPU per request',
      text: `RSS after the runs; CPU (user + system, /proc) per answer over the ${everyday}-todo fetch runs at 10 connections and over the add runs.`,
      columns: ['process', 'RSS MiB', 'CPU ms per fetch', 'fetches/s per core', 'CPU ms per add'],
      rows: processRows,
    },
  ];
}

/**
 * What dynamic compression of JSON costs the gateway (docs/ARCHITECTURE.md "Delivery to the browser"): the
 * same fetch through the gateway from a client that sends no Accept-Encoding or `gzip`.
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
      heading: 'Compressed answers through the gateway, 10 connections',
      text: 'JSON over 1 KiB, gzip level 3. Bytes: one answer on the wire; CPU: the gateway\'s, per answer.',
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
    .map((n) => [n, m[`payload.${n}.bytes`], m[`fetch.gateway.${n}.c10.rps`], m[`fetch.gateway.${n}.c10.p50`], m[`fetch.gateway.${n}.c10.p99`]])
    .filter((row) => row.slice(1).some((v) => v !== undefined));
  if (rows.length === 0) return undefined;
  return {
    heading: 'Growth: 10 to 10 000 tasks',
    text: 'Fetch through the gateway, 10 connections; payload: the JSON answer, uncompressed. In Chromium: "Long task lists in Chromium".',
    columns: ['tasks', 'payload bytes', 'fetch req/s', 'fetch p50 ms', 'fetch p99 ms'],
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
    ['Today (`GET /todo/agenda`) with 10 000 tasks at svc-todos, p95 of 200 sequential', '< 50 ms', m['agenda.svc.p95'], (v) => v < 50],
    ['Search (`GET /todo/search`) with 10 000 tasks at svc-todos, p95 of the slowest query shape', '< 50 ms', m['search.svc.worstP95'], (v) => v < 50],
    ['Import of a Todoist CSV of 10 000 tasks (`POST /api/todo/import`) through the gateway, slowest of 3, s', '< 10 s', m['import.seconds.max'], (v) => v < 10],
  ];
  return {
    heading: 'Server, sign-in, agenda, search and import targets in this run',
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

/** The first sentence of a section's text (up to a full stop followed by a space), or undefined. @param {string | undefined} text */
export function firstSentence(text) {
  if (!text) return undefined;
  const match = /^.*?[.!?](?=\s|$)/s.exec(text.trim());
  return (match ? match[0] : text).trim();
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
    'How each bench works: docs/PERFORMANCE.md "How to measure". Compare figures within one run only: this machine is shared and noisy.',
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
  // A child's sections as it wrote them, each text cut to its first sentence and never said twice in a row
  // (the waterfalls share one); the command and status are in the table at the top.
  // One waterfall (the first: a cold sign-in page) stands for them all, and the per-screen first-load table for
  // the script lists; the others stay in benchmarks.json.
  let previous;
  let waterfalls = 0;
  for (const child of children) {
    out.push(`## ${child.title ?? child.script}`, '');
    for (const section of child.sections) {
      if (/^Scripts of /.test(section.heading ?? '')) continue;
      if (/^Waterfall/.test(section.heading ?? '') && (waterfalls += 1) > 1) continue;
      const text = firstSentence(section.text);
      out.push(renderSection({ ...section, text: text === previous ? undefined : text }));
      previous = text;
    }
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
