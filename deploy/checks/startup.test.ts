/**
 * Start-up that explains itself (docs/OPERATIONS.md "Logs"), with the real built processes: a service or
 * the gateway that cannot open its store or bind its port within its bound (STARTUP_STORE_TIMEOUT_MS, and
 * the fixed LISTEN_TIMEOUT_MS; service-kit startup.ts) logs one line naming the step, what it was waiting on
 * and the bound's setting, and exits non-zero, instead of waiting silently ("opening store", then nothing).
 * The causes are real: an SQLite file locked by another process's connection, a port another process
 * listens on, a Redis that refuses connections; and, for the watchdog thread, a process whose main thread is stuck in a
 * synchronous call.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, startProcess, tempDir, TEST_SECRET } from '@tm/test-support';

const REPO = path.resolve(__dirname, '../..');
const built = ['gateway', 'svc-users', 'svc-todos'].every((app) => existsSync(path.join(REPO, app, 'dist/server.js')));

type App = 'svc-users' | 'svc-todos' | 'gateway';

/** Each process's SQLite file under DATA_DIR, and the variable of its public port. */
const STORES: Record<App, { file: string; portVariable: string }> = {
  'svc-users': { file: 'users.sqlite', portVariable: 'USERS_PORT' },
  'svc-todos': { file: 'todos.sqlite', portVariable: 'TODOS_PORT' },
  gateway: { file: 'sessions.sqlite', portVariable: 'PORT' },
};
const APPS = Object.keys(STORES) as App[];

interface LogLine {
  level: number;
  msg: string;
  step?: string;
  waitingOn?: string;
  timeoutMs?: number;
  setting?: string;
  code?: string;
  variable?: string;
  stuck?: boolean;
  [field: string]: unknown;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: LogLine[];
  stderr: string;
}

function parse(line: string): LogLine | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `node <script>` until it exits (killed after `limitMs`: a start-up that hangs fails the test, not the run). */
function runToExit(args: string[], env: NodeJS.ProcessEnv, limitMs = 30_000): Promise<Ended> {
  const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: LogLine[] = [];
  let stderr = '';
  createInterface({ input: child.stdout }).on('line', (line) => {
    const entry = parse(line);
    if (entry) lines.push(entry);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, lines, stderr });
    });
  });
}

/** The environment of one of the app's processes on its own data folder: every port 0, JSON logs, no Redis or MongoDB from the test's own environment. */
function appEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    INTERNAL_SECRET: TEST_SECRET,
    SESSION_KEYS: 'startup-test-session-key-0123456789abcdef',
    PORT: '0',
    USERS_PORT: '0',
    TODOS_PORT: '0',
    OPS_PORT: '0',
    HOST: '127.0.0.1',
    USERS_URL: 'http://127.0.0.1:9',
    TODOS_URL: 'http://127.0.0.1:9',
    REDIS_URL: '',
    MONGO_URL: '',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    ...extra,
  };
}

const serverScript = (app: App) => path.join(REPO, app, 'dist/server.js');

/** The one fatal line a failed start-up logs (and that there is only one). */
function fatalLine(ended: Ended): LogLine {
  const fatal = ended.lines.filter((line) => line.level === 60);
  expect(fatal).toHaveLength(1);
  return fatal[0]!;
}

/**
 * Another process with a connection to an SQLite file, holding a lock on it until told to let go: `write`, the
 * write lock of a WAL file (another instance creating or migrating the schema); `exclusive`, an exclusive lock
 * on a rollback-journal file (nothing else can even switch it to WAL). better-sqlite3 is the services' own.
 */
async function holdLock(file: string, mode: 'write' | 'exclusive'): Promise<{ release: () => Promise<void>; stop: () => void }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    if (process.argv[2] === 'write') { db.pragma('journal_mode = WAL'); db.exec('BEGIN IMMEDIATE'); }
    else { db.exec('BEGIN EXCLUSIVE'); db.exec('CREATE TABLE IF NOT EXISTS held (id INTEGER)'); }
    process.stdout.write('held\\n');
    process.stdin.on('data', () => { db.exec('COMMIT'); process.stdout.write('released\\n'); });
    process.stdin.on('end', () => process.exit(0));
  `;
  // From svc-todos' folder, whose dependencies include better-sqlite3.
  const child: ChildProcess = spawn(process.execPath, ['-e', script, file, mode], { cwd: path.join(REPO, 'svc-todos'), stdio: ['pipe', 'pipe', 'inherit'] });
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        if (line === word) {
          lines.close();
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before saying "${word}"`)));
    });
  await said('held');
  return {
    release: async () => {
      const released = said('released');
      child.stdin!.write('release\n');
      await released;
    },
    stop: () => {
      child.stdin!.end();
      child.kill();
    },
  };
}

/** A port another process (here: this one) listens on. */
async function occupiedPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

(built ? describe : describe.skip)('start-up that explains itself: a bounded store opening and port binding', () => {
  describe('a store that does not open in time', () => {
    it.each(APPS)('%s: its SQLite file write-locked by another connection past STARTUP_STORE_TIMEOUT_MS: one line says the step, the file and the lock; exit 1', async (app) => {
      const data = tempDir('tm-startup-');
      const file = path.join(data.dir, STORES[app].file);
      const lock = await holdLock(file, 'write');
      try {
        const ended = await runToExit([serverScript(app)], appEnv(data.dir, { STARTUP_STORE_TIMEOUT_MS: '1500' }));
        expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 1, signal: null });
        const line = fatalLine(ended);
        expect(line).toMatchObject({ step: 'open store', timeoutMs: 1500, setting: 'STARTUP_STORE_TIMEOUT_MS', code: 'SQLITE_BUSY' });
        expect(line.waitingOn).toBe(`the write lock of ${file} held by another connection (to create or migrate its schema)`);
        expect(line.msg).toBe(`start-up stopped: opening the store did not finish within 1500 ms (STARTUP_STORE_TIMEOUT_MS); it was waiting on ${line.waitingOn}`);
        // Said once, in the log: not again on stderr.
        expect(ended.stderr).toBe('');
        expect(ended.lines.some((entry) => entry.msg === 'listening')).toBe(false);
      } finally {
        lock.stop();
        data.remove();
      }
    });

    it('svc-todos: a file under an exclusive lock (rollback journal) cannot even be switched to WAL: the line says so', async () => {
      const data = tempDir('tm-startup-');
      const file = path.join(data.dir, 'todos.sqlite');
      const lock = await holdLock(file, 'exclusive');
      try {
        const ended = await runToExit([serverScript('svc-todos')], appEnv(data.dir, { STARTUP_STORE_TIMEOUT_MS: '1200' }));
        expect(ended.code).toBe(1);
        expect(fatalLine(ended)).toMatchObject({
          step: 'open store',
          code: 'SQLITE_BUSY',
          waitingOn: `a lock on ${file} held by another connection (to switch it to WAL)`,
        });
      } finally {
        lock.stop();
        data.remove();
      }
    });

    it('svc-todos: a lock let go within the bound (another instance done migrating) is waited for, past the 5 s busy timeout, and it starts', async () => {
      const data = tempDir('tm-startup-');
      const lock = await holdLock(path.join(data.dir, 'todos.sqlite'), 'write');
      const releasing = new Promise<void>((resolve) => setTimeout(resolve, 6_000)).then(() => lock.release());
      try {
        // startProcess resolves once it listens; it rejects if the process exits first.
        const todos = await startProcess('svc-todos', appEnv(data.dir, { STARTUP_STORE_TIMEOUT_MS: '30000' }), 40_000);
        try {
          await releasing;
          expect((await fetch(`${todos.url}/readyz`)).status).toBe(200);
          expect(todos.logs.filter((line) => line.level === 60)).toEqual([]);
        } finally {
          await todos.stop();
        }
      } finally {
        lock.stop();
        data.remove();
      }
    }, 60_000);

    it('gateway: a Redis that refuses connections (its client retries for ever) ends at the bound, naming Redis, never the URL\'s password', async () => {
      const data = tempDir('tm-startup-');
      const port = await freePort();
      try {
        const ended = await runToExit([serverScript('gateway')], appEnv(data.dir, { STARTUP_STORE_TIMEOUT_MS: '1500', REDIS_URL: `redis://probe:not-a-real-password@127.0.0.1:${port}` }));
        expect(ended.code).toBe(1);
        expect(fatalLine(ended)).toMatchObject({
          step: 'open store',
          setting: 'STARTUP_STORE_TIMEOUT_MS',
          waitingOn: `Redis at 127.0.0.1:${port} (the session store; its client retries until Redis answers)`,
        });
        expect(JSON.stringify(ended.lines)).not.toContain('not-a-real-password');
      } finally {
        data.remove();
      }
    });
  });

  describe('a port already in use', () => {
    const cases: [App, string][] = [
      ['svc-users', 'USERS_PORT'],
      ['svc-todos', 'TODOS_PORT'],
      ['gateway', 'PORT'],
      ['gateway', 'OPS_PORT'],
    ];
    it.each(cases)('%s with %s taken by another process: says so and exits 1', async (app, variable) => {
      const data = tempDir('tm-startup-');
      const taken = await occupiedPort();
      try {
        const ended = await runToExit([serverScript(app)], appEnv(data.dir, { [variable]: String(taken.port) }));
        expect(ended.code).toBe(1);
        const line = fatalLine(ended);
        expect(line).toMatchObject({ step: 'bind port', code: 'EADDRINUSE', variable, port: taken.port, host: '127.0.0.1' });
        expect(line.msg).toBe(
          `start-up stopped: port ${taken.port} on 127.0.0.1 (${variable}) is already in use: another process listens there; stop it or set ${variable} to a free port`,
        );
        expect(ended.stderr).toBe('');
      } finally {
        await taken.close();
        data.remove();
      }
    });
  });

  it('a main thread stuck in a synchronous call past its bound: the watchdog thread logs the step and kills the process', async () => {
    // The kit's own StartupWatch in a process of its own, opening a "store" that blocks its main thread (as a
    // file-system call that does not return would): no timer of that thread can fire any more.
    const script = `
      const { StartupWatch, createLogger } = require(${JSON.stringify(path.join(REPO, 'packages/service-kit/dist/index.js'))});
      const logger = createLogger('stuck', 'info', 'json');
      const watch = new StartupWatch({ name: 'stuck', logger, bounds: { storeTimeoutMs: 800, listenTimeoutMs: 800 }, graceMs: 700 });
      void watch.openStore('the disk', (opening) => {
        opening.waitingOn('an fsync of /data/todos.sqlite');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);
      });
    `;
    const ended = await runToExit(['-e', script], { ...process.env, LOG_FORMAT: 'json' });
    expect({ code: ended.code, signal: ended.signal }).toEqual({ code: null, signal: 'SIGKILL' });
    expect(fatalLine(ended)).toMatchObject({
      service: 'stuck',
      step: 'open store',
      waitingOn: 'an fsync of /data/todos.sqlite',
      timeoutMs: 800,
      setting: 'STARTUP_STORE_TIMEOUT_MS',
      stuck: true,
      msg: 'start-up stopped: opening the store did not finish within 800 ms (STARTUP_STORE_TIMEOUT_MS); it was waiting on an fsync of /data/todos.sqlite; the process is stuck in a synchronous call (the main thread cannot act), so it is killed',
    });
  });
});

if (!built) {
  describe('start-up that explains itself', () => {
    it.skip('needs the built processes (pnpm build)', () => undefined); // reason: gateway/svc-*/dist missing
  });
}
