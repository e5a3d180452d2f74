#!/usr/bin/env node
// `pnpm check:changed [--base <rev>] [--dry-run]`: a team's short daily loop. It runs the checks of what a
// change touches and of everything that depends on it, instead of the whole repository's (`npm test`, which
// CI keeps running in full). Turborepo plans them and caches them (turbo.json: each package's build, lint and
// jest project, the frontends' type check, the lint of the code outside the packages, the deploy checks;
// their inputs and dependencies), with `--affected`; a task whose inputs have not changed since it last
// passed is replayed from the local cache (.turbo/) instead of run. What stays here is what a task runner
// does not do:
//   - the base: the merge base with origin/main when there is one, else HEAD; uncommitted and untracked files
//     count either way. `--base <rev>` chooses another;
//   - the order: builds, lint and type checks two at a time, then the jest suites one at a time (each uses
//     two workers and starts real processes, like the single jest run of `npm test`);
//   - the browser tests (e2e/, one jest run over the built app): which of them a change reaches is read from
//     the tests themselves, not from a package graph. Those that name an affected remote's folder or one of
//     its routes run; all of them when the shell (so any shared frontend package) or the remote serving `/`
//     (the task list, in nearly every flow) is affected.
// `--dry-run` prints the plan as JSON (the base, turbo's tasks, the browser test files) and runs nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.join(import.meta.dirname, '..');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

/** turbo's tasks, in two runs: those that may share the two cores, then the jest suites one at a time. */
const CHECKS = ['build', 'lint', 'typecheck:web', 'lint:repo'];
const TESTS = ['test', 'test:deploy:remotes', 'test:deploy'];

/** turbo sends usage data and looks for updates unless told not to: the checks send nothing anywhere. */
const QUIET = { TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', TURBO_NO_UPDATE_NOTIFIER: '1' };

function defaultBase() {
  const mergeBase = spawnSync('git', ['merge-base', 'HEAD', 'origin/main'], { cwd: ROOT, encoding: 'utf8' });
  return mergeBase.status === 0 ? mergeBase.stdout.trim() : 'HEAD';
}

/** turbo's answer as JSON (its first lines may be a banner). */
function turboJson(env, ...args) {
  const out = execFileSync(bin('turbo'), args, { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.slice(out.indexOf('{')));
}

/** The browser test files that the affected frontends (`shell`, `mfe-*` folders) reach. */
export function browserTests(frontends, root = ROOT) {
  const dir = path.join(root, 'e2e/src');
  const files = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.e2e.test.ts')).sort() : [];
  const routes = (folder) => (JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')).remote?.routes ?? []).map((route) => route.path);
  if (frontends.some((folder) => folder === 'shell' || routes(folder).includes('/'))) return files;
  const mentions = (text, folder) => text.includes(folder) || routes(folder).some((route) => text.includes(`'${route}'`) || text.includes(`**${route}`));
  return files.filter((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    return frontends.some((folder) => mentions(text, folder));
  });
}

function step(label, command, args, env) {
  const started = Date.now();
  console.log(`\n[check:changed] ${label}: ${path.relative(ROOT, command) || command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`[check:changed] ${label} failed (${seconds} s)`);
    process.exit(result.status ?? 1);
  }
  console.log(`[check:changed] ${label}: ok (${seconds} s)`);
}

function main() {
  const { values } = parseArgs({ options: { base: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
  const base = values.base ?? defaultBase();
  const env = { ...process.env, ...QUIET, TURBO_SCM_BASE: base };
  // turbo's plan: its tasks, and the packages they are of (those changed, and those that depend on them).
  const { tasks, packages } = turboJson(env, 'run', ...CHECKS, ...TESTS, '--affected', '--dry=json');
  const folders = new Map(tasks.map((task) => [task.package, task.directory]));
  const frontends = packages.map((name) => folders.get(name)).filter((folder) => folder === 'shell' || /^mfe-[a-z0-9-]+$/.test(folder ?? ''));
  const e2e = browserTests(frontends);
  if (values['dry-run']) {
    console.log(JSON.stringify({ base, tasks: tasks.filter((task) => task.command !== '<NONEXISTENT>').map((task) => task.taskId).sort(), frontends, e2e }, null, 2));
    return;
  }
  const started = Date.now();
  console.log(`[check:changed] changes since ${base}; affected: ${packages.join(', ') || 'nothing'}`);
  step('build, lint, type-check', bin('turbo'), ['run', ...CHECKS, '--affected', '--concurrency=2'], env);
  step('tests', bin('turbo'), ['run', ...TESTS, '--affected', '--concurrency=1'], env);
  if (e2e.length > 0) {
    step('compile the browser tests', bin('tsc'), ['-b', 'e2e'], env);
    step('browser tests', bin('jest'), ['--config', 'config/jest/e2e.config.js', '--testPathPatterns', e2e.map((file) => file.replace(/\.ts$/, '')).join('|')], env);
  }
  console.log(`\n[check:changed] all checks of the change passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
