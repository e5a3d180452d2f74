#!/usr/bin/env node
// `pnpm check:changed [--base <rev>] [--dry-run] [--files a,b,…]` (issue #19): a team's short daily loop. It
// runs the checks of what a change touches and of everything that depends on it, instead of the whole
// repository's (`npm test`, which CI keeps running in full):
//   - the workspace packages the changed files belong to, and every package that depends on them
//     (`workspace:` dependencies, followed to the end);
//   - type-check: `tsc -b` of each affected Node package, `tsc -p tsconfig.web.json` once when a frontend is;
//   - lint: eslint over the affected packages' folders;
//   - tests: the affected jest projects (the names jest.config.js gives them);
//   - browser tests: when a frontend is affected, it is built (`pnpm --filter … build`) and the e2e files
//     that name one of its routes or its folder run (a change to the shell or a shared frontend package runs
//     them all);
//   - a remote's package.json (its routes): the deploy checks of what `pnpm deploy:render` makes of them.
// What changed: files changed since `--base` (default: the merge base with origin/main when there is one,
// else HEAD), uncommitted and untracked files included; `--files` names them instead. `--dry-run` prints the
// plan as JSON and runs nothing. A change to the measuring code (perf/, see perf/README.md) lints it and runs
// the deploy checks, which run its soak, scale proof and capacity model. A change outside every package (root
// config, scripts, docs) runs nothing but says so: CI's full run covers it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.join(import.meta.dirname, '..');

/** Frontend packages: type-checked together by tsconfig.web.json, tested in jsdom. */
const WEB = (dir) => dir === 'shell' || dir.startsWith('mfe-') || ['packages/api-client', 'packages/web-platform', 'packages/remote-kit', 'packages/web-test-support', 'packages/design-tokens'].includes(dir);
/**
 * The jest projects, as jest.config.js names them (every remote included, found by its own pattern); e2e has a
 * config of its own. Read from the config itself, so the two never disagree.
 */
function jestProjects(root) {
  const { projects } = createRequire(import.meta.url)(path.join(root, 'jest.config.js'));
  return new Set(projects.map((project) => project.displayName));
}

/** The deploy checks that hold what `pnpm deploy:render` makes of the remotes' declarations. */
const REMOTE_DEPLOY_CHECKS = ['deploy/checks/workspace-remotes.test.ts', 'deploy/checks/compose.test.ts', 'deploy/checks/k8s.test.ts'];

/** Every package of the workspace: its folder, name and `workspace:` dependencies. */
export function workspace(root = ROOT) {
  const dirs = [
    ...readdirSync(path.join(root, 'packages')).map((name) => `packages/${name}`),
    'svc-users',
    'svc-todos',
    'gateway',
    'shell',
    'e2e',
    ...readdirSync(root).filter((name) => /^mfe-[a-z0-9-]+$/.test(name)),
  ].filter((dir) => existsSync(path.join(root, dir, 'package.json')));
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const deps = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })
      .filter(([, version]) => String(version).startsWith('workspace:'))
      .map(([name]) => name);
    return { dir, name: pkg.name, deps, routes: (pkg.remote?.routes ?? []).map((route) => route.path) };
  });
}

/** The plan for these changed files (paths relative to the repository). */
export function plan(files, packages = workspace(), root = ROOT) {
  const owner = (file) => packages.filter((pkg) => file === pkg.dir || file.startsWith(`${pkg.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
  const changed = new Set(files.map(owner).filter(Boolean).map((pkg) => pkg.dir));
  const deployChanged = files.some((file) => file.startsWith('deploy/'));
  // perf/'s scripts are run by deploy/checks (soak, scale proof, capacity): a change there runs those checks.
  const perfChanged = files.some((file) => file.startsWith('perf/'));
  const outside = files.filter((file) => !owner(file) && !file.startsWith('deploy/') && !file.startsWith('perf/'));
  // A remote's package.json declares its routes, which `pnpm deploy:render` turns into the split deployments'
  // catalog, compose service and Kubernetes entries: a change there runs the checks of that output (not the
  // whole deploy project, which also runs the soak and the scale proof).
  const declarationChanged = files.some((file) => /^mfe-[a-z0-9-]+\/package\.json$/.test(file));
  // Dependents, followed to the end.
  const affected = new Set(changed);
  for (let grew = true; grew; ) {
    grew = false;
    for (const pkg of packages) {
      if (affected.has(pkg.dir)) continue;
      if (pkg.deps.some((name) => packages.some((dep) => dep.name === name && affected.has(dep.dir)))) {
        affected.add(pkg.dir);
        grew = true;
      }
    }
  }
  const list = [...affected].sort();
  const web = list.filter(WEB);
  const node = list.filter((dir) => !WEB(dir) && existsSync(path.join(root, dir, 'tsconfig.json')));
  const projects = jestProjects(root);
  const jest = [...list.filter((dir) => projects.has(dir)), ...(deployChanged || perfChanged ? ['deploy'] : [])];
  // Browser tests: the affected frontends' e2e files; the shell or a shared frontend package: all of them.
  const builds = web.filter((dir) => dir === 'shell' || dir.startsWith('mfe-'));
  const e2eDir = path.join(root, 'e2e/src');
  const e2eFiles = existsSync(e2eDir) ? readdirSync(e2eDir).filter((file) => file.endsWith('.e2e.test.ts')).sort() : [];
  // A remote serving `/` (the task list) is in nearly every flow: like the shell, it runs them all.
  const everywhere = web.some((dir) => !dir.startsWith('mfe-')) || builds.some((dir) => packages.find((pkg) => pkg.dir === dir)?.routes.includes('/'));
  const mentions = (text, dir) => {
    const routes = (packages.find((pkg) => pkg.dir === dir)?.routes ?? []).filter((route) => route !== '/');
    return text.includes(dir) || routes.some((route) => text.includes(`'${route}'`) || text.includes(`**${route}`));
  };
  const e2e = everywhere ? e2eFiles : e2eFiles.filter((file) => builds.some((dir) => mentions(readFileSync(path.join(e2eDir, file), 'utf8'), dir)));
  return {
    changed: [...changed].sort(),
    affected: list,
    outside,
    typecheck: { node, web: web.length > 0 },
    lint: [...list, ...(deployChanged ? ['deploy'] : []), ...(perfChanged ? ['perf'] : [])],
    jest: [...new Set(jest)],
    deployChecks: declarationChanged && !jest.includes('deploy') ? REMOTE_DEPLOY_CHECKS : [],
    build: builds,
    e2e,
  };
}

/** Files changed since `base` (committed, uncommitted and untracked), relative to the repository. */
function changedFiles(base) {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  return [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])].sort();
}

function defaultBase() {
  const mergeBase = spawnSync('git', ['merge-base', 'HEAD', 'origin/main'], { cwd: ROOT, encoding: 'utf8' });
  return mergeBase.status === 0 ? mergeBase.stdout.trim() : 'HEAD';
}

function step(label, command, args) {
  const started = Date.now();
  console.log(`\n[check:changed] ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`[check:changed] ${label} failed (${seconds} s)`);
    process.exit(result.status ?? 1);
  }
  console.log(`[check:changed] ${label}: ok (${seconds} s)`);
}

function main() {
  const { values } = parseArgs({ options: { base: { type: 'string' }, files: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
  const files = values.files ? values.files.split(',').filter(Boolean) : changedFiles(values.base ?? defaultBase());
  const p = plan(files);
  if (values['dry-run']) {
    console.log(JSON.stringify(p, null, 2));
    return;
  }
  const started = Date.now();
  console.log(`[check:changed] ${files.length} changed files; packages: ${p.changed.join(', ') || 'none'}; affected: ${p.affected.join(', ') || 'none'}`);
  if (p.outside.length > 0) console.log(`[check:changed] outside every package (CI's full run covers them): ${p.outside.join(', ')}`);
  const bin = (file) => path.join(ROOT, 'node_modules', '.bin', file);
  if (p.typecheck.node.length > 0) step('type-check (Node packages)', bin('tsc'), ['-b', ...p.typecheck.node]);
  if (p.typecheck.web) step('type-check (frontends)', bin('tsc'), ['-p', 'tsconfig.web.json']);
  if (p.lint.length > 0) step('lint', bin('eslint'), p.lint);
  if (p.jest.length > 0) step('tests', bin('jest'), ['--selectProjects', ...p.jest]);
  if (p.deployChecks.length > 0) step('deploy checks of the remotes', bin('jest'), ['--selectProjects', 'deploy', '--testPathPatterns', p.deployChecks.join('|')]);
  if (p.e2e.length > 0) {
    step('build', 'pnpm', ['--silent', ...p.build.flatMap((dir) => ['--filter', `./${dir}`]), 'run', 'build']);
    step('compile the browser tests', bin('tsc'), ['-b', 'e2e']);
    step('browser tests', bin('jest'), ['--config', 'config/jest/e2e.config.js', '--testPathPatterns', p.e2e.map((file) => file.replace(/\.ts$/, '')).join('|')]);
  }
  console.log(`\n[check:changed] all checks of the change passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
