import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Runs one of the repository's load scripts (`perf/<part>/<script>.mjs … --json`) to completion and returns the JSON
 * report it prints as its last line, with its exit status; a script that printed none fails the test with its
 * whole output. The caller names the report's shape (T): JSON.parse cannot check it.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function runScriptReport<T>(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs: number }): { report: T; status: number | null } {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, env: options.env ?? process.env, encoding: 'utf8', timeout: options.timeoutMs });
  const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return { report: JSON.parse(lastLine) as T, status: run.status };
  } catch {
    throw new Error(`no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
}
