import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

interface Plan {
  base: string;
  /** turbo's tasks (`package#task`, `//#task` for the repository's own), those with something to run. */
  tasks: string[];
  frontends: string[];
  e2e: string[];
}

/**
 * What turbo and the script read, as one commit of a repository of its own, with the workspace's node_modules
 * linked in: the workspace's manifests (the root's and every package's package.json, pnpm-workspace.yaml, the
 * lockfile), turbo.json, the script and the browser tests whose text it reads. A change is made there, never
 * in the checkout; a change to any other file is a new file, which turbo places and hashes alike.
 */
function scratchRepository(dir: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  const wanted = /^(package\.json|pnpm-workspace\.yaml|pnpm-lock\.yaml|turbo\.json|\.gitignore|scripts\/check-changed\.mjs|e2e\/src\/[^/]+\.e2e\.test\.ts|(packages\/)?[^/]+\/package\.json)$/;
  for (const file of files.filter((name) => wanted.test(name) && existsSync(path.join(ROOT, name)))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=check', '-c', 'user.email=check@example.test', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'base');
}

/** `pnpm check:changed --dry-run` in `repo` after these changes (`$BEFORE`: the file's text before). */
function planIn(repo: string, changes: Record<string, string>): Promise<Plan> {
  for (const [file, text] of Object.entries(changes)) {
    const target = path.join(repo, file);
    const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text.replace('$BEFORE', before));
  }
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['scripts/check-changed.mjs', '--dry-run'], { cwd: repo, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error || stderr) reject(new Error(`check:changed --dry-run failed: ${stderr || error?.message}`));
      else resolve(JSON.parse(stdout) as Plan);
    });
  });
}

const probe = 'export const probe = 1;\n';
/** The changes whose plans are checked below, each in a copy of its own (planned at once: a dry run mostly waits on git). */
const CHANGES = {
  remote: { 'mfe-insights/src/features/insights/probe.ts': probe },
  declaration: { 'mfe-insights/package.json': '$BEFORE\n' },
  shared: { 'packages/contracts/src/probe.ts': probe },
  service: { 'svc-todos/src/probe.ts': probe },
  deploy: { 'deploy/probe.txt': 'probe\n' },
  docs: { 'docs/probe.txt': 'probe\n' },
  perf: { 'perf/capacity/probe.mjs': probe },
  jestSetup: { 'config/jest/probe.js': 'module.exports = {};\n' },
};
let scratch: string;
let plans: Record<keyof typeof CHANGES, Plan>;
beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'tm-check-changed-'));
  const base = path.join(scratch, 'base');
  mkdirSync(base);
  scratchRepository(base);
  const planned = await Promise.all(
    Object.entries(CHANGES).map(async ([name, changes]) => {
      const repo = path.join(scratch, name);
      cpSync(base, repo, { recursive: true, verbatimSymlinks: true });
      return [name, await planIn(repo, changes)] as const;
    }),
  );
  plans = Object.fromEntries(planned) as typeof plans;
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const ofPackage = (plan: Plan, name: string) => plan.tasks.filter((task) => task.startsWith(`${name}#`)).sort();
const e2eFiles = () => readdirSync(path.join(ROOT, 'e2e/src')).filter((file) => file.endsWith('.e2e.test.ts'));

// A team's short loop checks what its change touches and what depends on it (CI still runs all, `npm test`).
// turbo.json says what each check reads (its inputs) and needs (dependsOn); these are the plans it makes.
describe('pnpm check:changed', () => {
  it('checks a change inside one remote with that remote alone: its build, lint, tests, the frontends type check, and the browser tests that name it', () => {
    const plan = plans.remote;
    expect(ofPackage(plan, 'mfe-insights')).toEqual(['mfe-insights#build', 'mfe-insights#lint', 'mfe-insights#test']);
    expect(plan.tasks).toContain('//#typecheck:web');
    // Nothing of another frontend or service, no deploy check (its declaration did not change).
    for (const name of ['shell', 'mfe-tasks', 'mfe-auth', 'gateway', 'svc-todos', 'svc-users']) expect(ofPackage(plan, name)).toEqual([]);
    expect(plan.tasks.filter((task) => task.startsWith('//#test:deploy'))).toEqual([]);
    expect(plan.frontends).toEqual(['mfe-insights']);
    // The browser tests are those that name the remote (its own, and e.g. the local-remote test that serves
    // a copy of it), not the whole suite.
    const naming = e2eFiles().filter((file) => /mfe-insights|'\/insights'|\*\*\/insights/.test(readFileSync(path.join(ROOT, 'e2e/src', file), 'utf8')));
    expect(plan.e2e.sort()).toEqual(naming.sort());
    expect(plan.e2e).toContain('insights.e2e.test.ts');
    expect(plan.e2e.length).toBeLessThan(e2eFiles().length / 3);
  });

  it("runs the deploy checks of the rendered remotes when a remote's declaration (its package.json) changes", () => {
    const plan = plans.declaration;
    expect(plan.tasks).toContain('//#test:deploy:remotes');
    expect(plan.tasks).not.toContain('//#test:deploy');
    expect(ofPackage(plan, 'mfe-insights')).toEqual(['mfe-insights#build', 'mfe-insights#lint', 'mfe-insights#test']);
  });

  it('splits the deploy project between its two tasks, every check in exactly one (a deploy/ change runs both)', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const pattern = (script: string) => new RegExp(/--testPathPatterns '([^']+)'/.exec(scripts[script]!)![1]!);
    const checks = readdirSync(path.join(ROOT, 'deploy/checks'))
      .filter((file) => file.endsWith('.test.ts') && file !== 'k6-run.test.ts')
      .map((file) => `${ROOT}/deploy/checks/${file}`);
    const remotes = checks.filter((file) => pattern('test:deploy:remotes').test(file));
    const rest = checks.filter((file) => pattern('test:deploy').test(file));
    expect(remotes.map((file) => path.basename(file)).sort()).toEqual(['compose.test.ts', 'k8s.test.ts', 'workspace-remotes.test.ts']);
    expect([...remotes, ...rest].sort()).toEqual(checks.sort());
  });

  it('follows a shared package to everything that depends on it, the services and every frontend', () => {
    const plan = plans.shared;
    for (const name of ['@tm/contracts', 'gateway', 'svc-todos', 'svc-users', '@tm/api-client', '@tm/web-platform', 'shell', 'mfe-tasks', 'mfe-auth', 'mfe-insights']) {
      expect(plan.tasks).toEqual(expect.arrayContaining([`${name}#lint`, `${name}#test`]));
    }
    expect(plan.tasks).toEqual(expect.arrayContaining(['//#typecheck:web', 'e2e#build', 'shell#build', 'gateway#build']));
    expect(plan.e2e).toEqual(e2eFiles().sort());
  });

  it('checks a service alone, with no frontend and no browser test', () => {
    const plan = plans.service;
    expect(ofPackage(plan, 'svc-todos')).toEqual(['svc-todos#build', 'svc-todos#lint', 'svc-todos#test']);
    // Besides: only the builds it depends on, which turbo replays from its cache when they are current.
    expect(plan.tasks.filter((task) => !task.startsWith('svc-todos#')).every((task) => task.endsWith('#build') && !task.startsWith('//'))).toBe(true);
    expect(plan.tasks).not.toContain('gateway#build');
    expect(plan).toMatchObject({ frontends: [], e2e: [] });
  });

  it('runs the deploy checks and lints the code outside the packages for a deploy change; a docs change plans nothing', () => {
    expect(plans.deploy.tasks).toEqual(['//#lint:repo', '//#test:deploy', '//#test:deploy:remotes']);
    expect(plans.docs).toEqual({ base: 'HEAD', tasks: [], frontends: [], e2e: [] });
  });

  it('lints the measuring code and runs the deploy checks that run it (soak, scale proof, capacity) for a perf/ change', () => {
    expect(plans.perf.tasks).toEqual(['//#lint:repo', '//#test:deploy']);
  });

  it('runs every test when the jest setup changes, and lints nothing but the code outside the packages', () => {
    const plan = plans.jestSetup;
    expect(plan.tasks).toEqual(expect.arrayContaining(['gateway#test', 'shell#test', 'mfe-tasks#test', '//#test:deploy', '//#test:deploy:remotes', '//#lint:repo']));
    expect(plan.tasks.filter((task) => task.endsWith('#lint'))).toEqual([]);
  });
});
