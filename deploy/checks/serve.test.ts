// `npm start` ends with the `serve` script: the gateway and both services from their builds, behind
// concurrently, every process seeing the same environment. `PORT` must move the app (the gateway) alone;
// the services listen on USERS_PORT and TODOS_PORT, which the gateway also uses to find them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repo = path.resolve(__dirname, '../..');
const serve = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!;
const built = ['gateway', 'svc-users', 'svc-todos'].every((app) => existsSync(path.join(repo, app, 'dist/server.js')));

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The first answer of `url` within the time limit (connection refused while the processes start; the bound only tells a slow start on a busy CI machine from a hang). */
async function answer(url: string, timeoutMs = 45_000): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer in ${timeoutMs} ms: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

(built ? describe : describe.skip)('npm start (the serve script): PORT is the app, the services have their own ports', () => {
  let child: ChildProcess;
  let output = '';
  let dataDir: string;
  const ports = { app: 0, users: 0, todos: 0 };

  beforeAll(async () => {
    ports.app = await freePort();
    ports.users = await freePort();
    ports.todos = await freePort();
    dataDir = mkdtempSync(path.join(tmpdir(), 'tm-serve-'));
    // Neither the gateway's upstreams nor the log form come from the test's own environment.
    const notInherited = new Set(['USERS_URL', 'TODOS_URL', 'LOG_FORMAT', 'REDIS_URL', 'MONGO_URL']);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !notInherited.has(name)));
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      PATH: `${path.join(repo, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      PORT: String(ports.app),
      USERS_PORT: String(ports.users),
      TODOS_PORT: String(ports.todos),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
    };
    // Its own process group, as a terminal's Ctrl-C reaches every process of `npm start`.
    child = spawn(serve, { cwd: repo, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs `check`; a failure carries what the processes printed. */
  async function withOutput(check: () => Promise<void> | void): Promise<void> {
    try {
      await check();
    } catch (error) {
      if (error instanceof Error) error.message += `\n--- serve printed ---\n${output.slice(-4000)}`;
      throw error;
    }
  }

  it('serves the app and its API on PORT, reaching both services on their own ports', () => withOutput(async () => {
    expect((await answer(`http://127.0.0.1:${ports.app}/healthz`)).status).toBe(200);
    // The gateway's readiness asks both services: they are where USERS_PORT and TODOS_PORT say.
    const deadline = Date.now() + 45_000;
    let ready = await answer(`http://127.0.0.1:${ports.app}/readyz`);
    while (ready.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await answer(`http://127.0.0.1:${ports.app}/readyz`);
    }
    expect(JSON.parse(ready.body)).toMatchObject({ checks: { users: 'up', todos: 'up' } });
    // Through the gateway to svc-users: signed out.
    expect((await answer(`http://127.0.0.1:${ports.app}/api/user/me`)).status).toBe(401);
    for (const port of [ports.users, ports.todos]) expect((await answer(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // With the frontends built (pnpm build), the page itself.
    if (existsSync(path.join(repo, 'shell/dist/index.html'))) {
      const page = await answer(`http://127.0.0.1:${ports.app}/`);
      expect([page.status, page.body]).toEqual([200, expect.stringContaining('<title>Task Manager</title>')]);
    }
  }), 120_000);

  it('logs JSON lines when its output is not a terminal', () => withOutput(() => {
    const listening = output.split('\n').filter((line) => line.includes('"msg":"listening"'));
    const logged = listening.map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { service: string; port: number });
    expect(Object.fromEntries(logged.map(({ service, port }) => [service, port]))).toEqual({
      gateway: ports.app,
      'svc-users': ports.users,
      'svc-todos': ports.todos,
    });
  }));
});

if (!built) {
  describe('npm start (the serve script)', () => {
    it.skip('needs the built processes (pnpm build)', () => undefined); // reason: gateway/svc-*/dist missing
  });
}
