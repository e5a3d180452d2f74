import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/check-changed.mjs');

interface Plan {
  changed: string[];
  affected: string[];
  outside: string[];
  typecheck: { node: string[]; web: boolean };
  lint: string[];
  jest: string[];
  deployChecks: string[];
  build: string[];
  e2e: string[];
}

/** `pnpm check:changed --dry-run --files …`: the plan it would run for these changed files. */
function planFor(...files: string[]): Plan {
  const run = spawnSync(process.execPath, [SCRIPT, '--dry-run', '--files', files.join(',')], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Plan;
}

// Issue #19: a team's short loop checks what its change touches and what depends on it (CI still runs all).
describe('pnpm check:changed', () => {
  it('checks a change inside one remote with that remote alone: its tests, its build and the browser tests that name it', () => {
    const plan = planFor('mfe-insights/src/features/insights/insights.ts');
    expect(plan).toEqual({
      changed: ['mfe-insights'],
      affected: ['mfe-insights'],
      outside: [],
      typecheck: { node: [], web: true },
      lint: ['mfe-insights'],
      jest: ['mfe-insights'],
      deployChecks: [],
      build: ['mfe-insights'],
      e2e: expect.arrayContaining(['insights.e2e.test.ts']) as string[],
    });
    // The browser tests are those that name the remote (its own, and e.g. the local-remote test that serves
    // a copy of it), not the whole suite.
    const naming = readdirSync(path.join(ROOT, 'e2e/src')).filter((file) => file.endsWith('.e2e.test.ts') && /mfe-insights|'\/insights'|\*\*\/insights/.test(readFileSync(path.join(ROOT, 'e2e/src', file), 'utf8')));
    expect(plan.e2e.sort()).toEqual(naming.sort());
    expect(plan.e2e.length).toBeLessThan(readdirSync(path.join(ROOT, 'e2e/src')).filter((file) => file.endsWith('.e2e.test.ts')).length / 3);
  });

  it("runs the deploy checks of the rendered remotes when a remote's declaration (its package.json) changes", () => {
    const plan = planFor('mfe-insights/package.json');
    expect(plan).toMatchObject({ jest: ['mfe-insights'], build: ['mfe-insights'] });
    expect(plan.deployChecks).toEqual(['deploy/checks/workspace-remotes.test.ts', 'deploy/checks/compose.test.ts', 'deploy/checks/k8s.test.ts']);
    for (const file of plan.deployChecks) expect(readdirSync(path.join(ROOT, 'deploy/checks'))).toContain(path.basename(file));
    // With the whole deploy project already chosen (a deploy/ change), not again.
    expect(planFor('mfe-insights/package.json', 'deploy/compose.yaml')).toMatchObject({ jest: ['mfe-insights', 'deploy'], deployChecks: [] });
  });

  it('follows a shared package to everything that depends on it, the services and every frontend', () => {
    const plan = planFor('packages/contracts/src/todos.ts');
    expect(plan.changed).toEqual(['packages/contracts']);
    expect(plan.affected).toEqual(expect.arrayContaining(['gateway', 'svc-todos', 'svc-users', 'packages/api-client', 'packages/web-platform', 'shell', 'mfe-tasks', 'mfe-auth', 'mfe-insights']));
    expect(plan.typecheck.node).toEqual(expect.arrayContaining(['packages/contracts', 'gateway', 'svc-todos']));
    expect(plan.jest).toEqual(expect.arrayContaining(['packages/contracts', 'gateway', 'svc-todos', 'shell', 'mfe-insights']));
    expect(plan.e2e.length).toBeGreaterThan(10);
  });

  it('checks a service alone, with no frontend and no browser test', () => {
    const plan = planFor('svc-todos/src/todos.routes.ts');
    expect(plan.affected).toEqual(['svc-todos']);
    expect(plan).toMatchObject({ typecheck: { node: ['svc-todos'], web: false }, jest: ['svc-todos'], build: [], e2e: [] });
  });

  it('runs the deploy checks for a deploy change, and names what lies outside every package', () => {
    expect(planFor('deploy/compose.yaml')).toMatchObject({ affected: [], jest: ['deploy'], lint: ['deploy'], e2e: [] });
    expect(planFor('docs/PRODUCT.md').outside).toEqual(['docs/PRODUCT.md']);
  });

  it('lints the measuring code and runs the deploy checks that run it (soak, scale proof, capacity) for a perf/ change', () => {
    const plan = planFor('perf/capacity/capacity.mjs');
    expect(plan).toMatchObject({ affected: [], outside: [], jest: ['deploy'], lint: ['perf'], e2e: [] });
  });
});
