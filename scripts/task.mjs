#!/usr/bin/env node
// Entry point of the README's two commands (`npm start`, `npm test`): they must work on a fresh machine
// with only Node and npm, so this script installs the workspace with pnpm (fetched through npx when it is
// not installed) before handing over to the workspace's own scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '10.34.9';

const TASKS = {
  // Build everything, then serve the app (gateway + services + built frontends) until Ctrl-C. The last
  // step runs without pnpm in between, so Ctrl-C ends with the processes' own clean exit, not an error.
  start: [['run', 'build'], ['script', 'serve']],
  // Build (type-checks the Node code), type-check the frontends, lint, every jest suite, the k6 runs alone
  // (latency thresholds: nothing else runs beside them), then the browser tests (they, and the k6 runs, say
  // clearly when no Chromium or no k6 is installed and they were skipped).
  test: [['run', 'build'], ['exec', 'tsc', '-p', 'tsconfig.web.json'], ['run', 'lint'], ['run', 'test:jest'], ['run', 'test:k6'], ['run', 'test:e2e']],
  dev: [['run', 'build'], ['run', 'dev:watch']],
  bench: [['run', 'build'], ['run', 'bench:run']],
};

// The processes log JSON lines unless their stdout is a terminal; behind the supervisor (`serve`) or
// concurrently (`dev:watch`) it never is, so the tasks that run the app for a person in a terminal ask for
// readable lines themselves.
const READABLE_LOGS = new Set(['start', 'dev']);

function hasPnpm() {
  return spawnSync('pnpm', ['--version'], { stdio: 'ignore', shell: process.platform === 'win32' }).status === 0;
}

const pnpm = hasPnpm() ? ['pnpm'] : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];

/** Runs a package.json script directly in a shell, with the workspace's binaries on the PATH. */
function runScript(name) {
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
  const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` };
  const result = spawnSync(scripts[name], { cwd: root, stdio: 'inherit', shell: true, env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function run(args) {
  if (args[0] === 'script') return runScript(args[1]);
  const [command, ...rest] = [...pnpm, ...args];
  // Ctrl-C reaches the whole foreground process group; let the children stop gracefully, then exit with them.
  const result = spawnSync(command, rest, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installIsCurrent() {
  const marker = path.join(root, 'node_modules', '.pnpm', 'lock.yaml');
  const lockfile = path.join(root, 'pnpm-lock.yaml');
  return existsSync(marker) && statSync(marker).mtimeMs >= statSync(lockfile).mtimeMs;
}

const [task, ...extra] = process.argv.slice(2);
const steps = TASKS[task];
if (!steps) {
  console.error(`usage: node scripts/task.mjs <${Object.keys(TASKS).join('|')}> [args for the last step]`);
  process.exit(2);
}
if (READABLE_LOGS.has(task) && process.stdout.isTTY && !process.env.LOG_FORMAT) process.env.LOG_FORMAT = 'pretty';
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
if (!installIsCurrent()) {
  const status = run(['install', '--frozen-lockfile']);
  if (status !== 0) process.exit(status);
}
for (const [index, step] of steps.entries()) {
  const args = index === steps.length - 1 ? [...step, ...extra] : step;
  const status = run(args);
  if (status !== 0) process.exit(status);
}
