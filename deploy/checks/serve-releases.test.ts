// `npm start` releases the workspace remotes itself (scripts/releases.mjs, docs/ADDING_A_REMOTE.md "Releasing
// and rolling back under npm start"): a remote built after the start is served from the next load, a rebuilt
// remote's previous build keeps answering the hashed files open pages ask for, and a rollback is one command.
// The supervisor runs for real (scripts/serve.mjs, the three processes) on a copy of the built remotes
// (REMOTES_ROOT), so that the workspace's own dist folders are never rebuilt under the other suites.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@tm/test-support';

const repo = path.resolve(__dirname, '../..');
const REMOTES = ['auth', 'tasks', 'insights'];
const built = ['gateway', 'svc-users', 'svc-todos'].every((app) => existsSync(path.join(repo, app, 'dist/server.js'))) && REMOTES.every((key) => existsSync(path.join(repo, `mfe-${key}/dist/remote.json`)));


async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = ` (last: ${(error as Error).message})`;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A remote's package.json and a copy of its build, in `root`, as `pnpm --filter <remote> build` leaves it. */
function placeRemote(root: string, key: string, edit?: (dist: string) => void): void {
  const folder = path.join(root, `mfe-${key}`);
  mkdirSync(folder, { recursive: true });
  cpSync(path.join(repo, `mfe-${key}/package.json`), path.join(folder, 'package.json'));
  // A build writes into an emptied dist/: the copy is made beside it and renamed in, then edited in place.
  const staging = path.join(root, `.staging-${key}`);
  cpSync(path.join(repo, `mfe-${key}/dist`), staging, { recursive: true });
  edit?.(staging);
  rmSync(path.join(folder, 'dist'), { recursive: true, force: true });
  renameSync(staging, path.join(folder, 'dist'));
}

type Catalog = { remotes: Record<string, { version: string; manifest: string }> };

/** `node scripts/releases.mjs …` with DATA_DIR `data`: its status and output. */
function releasesCli(args: string[], data: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, ['scripts/releases.mjs', ...args], { cwd: repo, env: { ...process.env, DATA_DIR: data }, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

(built ? describe : describe.skip)('scripts/releases.mjs on real build folders', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'tm-releases-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('releases a build once, keeps the last releases, and rolls back one step', () => {
    const root = path.join(scratch, 'workspace');
    const data = path.join(scratch, 'data');
    const dir = path.join(data, 'releases');
    const served = () => JSON.parse(readFileSync(path.join(dir, 'remotes.json'), 'utf8')) as Record<string, string>;
    mkdirSync(root);
    expect(releasesCli(['release', '--root', root], data).status).toBe(0);
    expect(served()).toEqual({});

    placeRemote(root, 'insights');
    const first = releasesCli(['release', '--root', root, '--kept', '2'], data);
    expect(first.output).toMatch(/^released mfe-insights as 0001-[0-9a-f]{12}\n$/);
    const firstName = served().insights!.split('/')[1]!;
    expect(readdirSync(path.join(dir, 'insights', firstName)).sort()).toEqual(readdirSync(path.join(root, 'mfe-insights/dist')).sort());
    // The same build again: nothing new, nothing copied.
    expect(releasesCli(['release', '--root', root, '--kept', '2'], data).output).toBe('');
    expect(readdirSync(path.join(dir, 'insights'))).toEqual([firstName]);

    // Three more builds, each different: the oldest go, two stay (--kept 2).
    const names = [firstName];
    for (const version of ['0.2.0', '0.3.0', '0.4.0']) {
      placeRemote(root, 'insights', (staging) => {
        const info = JSON.parse(readFileSync(path.join(staging, 'remote.json'), 'utf8')) as { version: string };
        writeFileSync(path.join(staging, 'remote.json'), JSON.stringify({ ...info, version }));
      });
      const released = releasesCli(['release', '--root', root, '--kept', '2'], data);
      names.push(served().insights!.split('/')[1]!);
      expect(released.output).toContain(`released mfe-insights as ${names.at(-1)} (was ${names.at(-2)}; to roll back: pnpm remotes:rollback insights)`);
    }
    expect(names.map((name) => name.slice(0, 4))).toEqual(['0001', '0002', '0003', '0004']);
    expect(readdirSync(path.join(dir, 'insights')).sort()).toEqual(names.slice(2));

    const back = releasesCli(['rollback', 'insights'], data);
    expect(back).toEqual({ status: 0, output: expect.stringContaining(`insights: ${names[3]} → ${names[2]}.`) });
    expect(served()).toEqual({ insights: `insights/${names[2]}` });
    expect(releasesCli(['list', '--root', root], data).output).toBe(`insights: [${names[2]}] ${names[3]}\n`);
    // A rollback holds until the next build; there is nothing older to go to; an unknown remote is said so.
    expect(releasesCli(['release', '--root', root, '--kept', '2'], data).output).toBe('');
    expect(served()).toEqual({ insights: `insights/${names[2]}` });
    expect(releasesCli(['rollback', 'insights'], data)).toEqual({ status: 1, output: expect.stringContaining('is the oldest release kept; nothing to roll back to') });
    expect(releasesCli(['rollback', 'tasks'], data)).toEqual({ status: 1, output: expect.stringContaining('tasks has no current release') });
    expect(releasesCli(['rollback'], data).status).toBe(2);
  });

  it('does not release a build whose remote.json or manifest is not written yet', () => {
    const root = path.join(scratch, 'workspace');
    const data = path.join(scratch, 'data');
    placeRemote(root, 'insights', (staging) => rmSync(path.join(staging, 'remote.json')));
    expect(releasesCli(['release', '--root', root], data)).toEqual({ status: 0, output: '' });
    expect(existsSync(path.join(data, 'releases/insights'))).toBe(false);
  });
});

(built ? describe : describe.skip)('npm start serves a remote built after it began and keeps the build before (scripts/serve.mjs)', () => {
  let scratch: string;
  let child: ChildProcess;
  let output = '';
  let url: string;
  let dataDir: string;

  const catalog = async (): Promise<Catalog> => (await (await fetch(`${url}/remotes.json`)).json()) as Catalog;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'tm-serve-releases-'));
    dataDir = path.join(scratch, 'data');
    placeRemote(scratch, 'auth');
    placeRemote(scratch, 'tasks');
    const [app, users, todos, ops] = [await freePort(), await freePort(), await freePort(), await freePort()];
    url = `http://127.0.0.1:${app}`;
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['USERS_URL', 'TODOS_URL', 'LOG_FORMAT', 'REDIS_URL', 'MONGO_URL', 'HOST', 'REMOTES', 'REMOTES_FILE'].includes(name)));
    child = spawn(process.execPath, ['scripts/serve.mjs'], {
      cwd: repo,
      env: { ...inherited, PORT: String(app), USERS_PORT: String(users), TODOS_PORT: String(todos), OPS_PORT: String(ops), DATA_DIR: dataDir, REMOTES_ROOT: scratch, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(async () => ((await catalog()).remotes.mfe_tasks ? true : undefined), 'the app serving the remotes built before the start', 60_000);
  }, 90_000);

  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 45_000);

  /** Runs `check`; a failure carries what the supervisor printed. */
  async function explained(check: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      if (error instanceof Error) error.message += `\n--- serve printed ---\n${output.slice(-5000)}`;
      throw error;
    }
  }

  it('serves a remote built after the start from the next load, with no restart', () =>
    explained(async () => {
      expect(Object.keys((await catalog()).remotes).sort()).toEqual(['mfe_auth', 'mfe_tasks']);
      placeRemote(scratch, 'insights');
      const served = await eventually(async () => (await catalog()).remotes.mfe_insights, 'mfe_insights in /remotes.json');
      expect(served.manifest).toBe('/remotes/insights/mf-manifest.json');
      expect((await fetch(`${url}/remotes/insights/remoteEntry.js`)).status).toBe(200);
      expect(output).toMatch(/released mfe-insights as 0001-[0-9a-f]{12}/);
    }), 60_000);

  it('keeps answering the previous build’s hashed files after a rebuild, and rolls back in one command', () =>
    explained(async () => {
      const before = await catalog();
      const oldAsset = readdirSync(path.join(scratch, 'mfe-tasks/dist/assets')).find((name) => /\.[0-9a-f]{10}\.js$/.test(name))!;
      expect((await fetch(`${url}/remotes/tasks/assets/${oldAsset}`)).status).toBe(200);
      // The rebuild: a new version, and the chunk an open page may still ask for is gone from dist/.
      placeRemote(scratch, 'tasks', (staging) => {
        const info = JSON.parse(readFileSync(path.join(staging, 'remote.json'), 'utf8')) as { version: string };
        writeFileSync(path.join(staging, 'remote.json'), JSON.stringify({ ...info, version: '9.9.9' }));
        rmSync(path.join(staging, 'assets', oldAsset));
      });
      await eventually(async () => ((await catalog()).remotes.mfe_tasks?.version === '9.9.9' ? true : undefined), 'the rebuilt mfe-tasks served');
      // A page opened on the build before still gets its chunk (the gateway's previous folders).
      expect((await fetch(`${url}/remotes/tasks/assets/${oldAsset}`)).status).toBe(200);

      const rollback = execFileSync(process.execPath, ['scripts/releases.mjs', 'rollback', 'tasks'], { cwd: repo, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
      expect(rollback).toMatch(/^tasks: 0002-[0-9a-f]{12} → 0001-[0-9a-f]{12}\./);
      await eventually(async () => ((await catalog()).remotes.mfe_tasks?.version === before.remotes.mfe_tasks!.version ? true : undefined), 'mfe-tasks rolled back');
      // The supervisor does not release the rolled-back-from build again.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await catalog()).remotes.mfe_tasks!.version).toBe(before.remotes.mfe_tasks!.version);
    }), 60_000);
});
