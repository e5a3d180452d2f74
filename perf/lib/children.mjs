// The other benches `pnpm bench` runs after its own: each is a plain script that, given BENCH_JSON=<file>,
// writes `{ title, command, sections, metrics }` there (the bench interface, docs/BENCHMARKS.md) and prints
// human-readable lines as it goes. A missing or failing child is recorded as such; the run goes on.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Characters of a child's output kept for the docs when it writes no report. */
const OUTPUT_KEPT = 8000;

/**
 * @typedef {object} ChildResult
 * @property {string} script
 * @property {'ok' | 'failed' | 'missing' | 'no-json' | 'timed-out'} status
 * @property {string} [reason]
 * @property {string} [title]
 * @property {string} [command]
 * @property {Array<{ heading: string, text?: string, columns: string[], rows: (string|number)[][] }>} sections
 * @property {Record<string, number>} metrics
 * @property {number} seconds how long it ran
 */

/**
 * Runs `node <script>` from `root` with BENCH_JSON set, output shown as it comes, stopped (by its pid) after
 * `timeoutMs`.
 * @param {string} root @param {string} script @param {string} jsonFile @param {number} timeoutMs
 * @returns {Promise<ChildResult>}
 */
export async function runChild(root, script, jsonFile, timeoutMs) {
  const empty = { script, sections: [], metrics: {}, seconds: 0 };
  if (!existsSync(path.join(root, script))) {
    return { ...empty, status: 'missing', reason: `${script} does not exist in this checkout` };
  }
  rmSync(jsonFile, { force: true });
  const started = Date.now();
  console.log(`\n[bench] ── node ${script} (BENCH_JSON=${jsonFile})`);
  const child = spawn(process.execPath, [script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_JSON: jsonFile } });
  // Shown as it comes, and the end of it kept: a child without a report still leaves its printed figures.
  let printed = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    printed = (printed + chunk.toString()).slice(-OUTPUT_KEPT);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
  }, timeoutMs);
  const code = await new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? signal)));
  clearTimeout(timer);
  const seconds = Math.round((Date.now() - started) / 1000);
  const written = readReport(jsonFile);
  const base = { ...empty, ...written.report, script, seconds };
  if (timedOut) return { ...base, status: 'timed-out', reason: `stopped after ${Math.round(timeoutMs / 1000)} s` };
  if (written.error) {
    const output = { heading: 'What it printed', text: `\`\`\`\n${printed.trim().split('\n').slice(-60).join('\n')}\n\`\`\``, columns: [], rows: [] };
    return { ...base, sections: printed.trim() ? [output] : [], status: code === 0 ? 'no-json' : 'failed', reason: `${code === 0 ? '' : `exit ${code}; `}${written.error}` };
  }
  if (code !== 0) return { ...base, status: 'failed', reason: `exit ${code} (its figures below are what it wrote before failing)` };
  return { ...base, status: 'ok' };
}

/** @param {string} file */
function readReport(file) {
  if (!existsSync(file)) return { error: 'it wrote no BENCH_JSON report (it may predate the bench interface)', report: {} };
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const sections = Array.isArray(report.sections) ? report.sections : [];
    const metrics = Object.fromEntries(Object.entries(report.metrics ?? {}).filter(([, v]) => typeof v === 'number' && Number.isFinite(v)));
    return { report: { title: report.title, command: report.command, sections, metrics } };
  } catch (error) {
    return { error: `its BENCH_JSON report is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, report: {} };
  }
}
