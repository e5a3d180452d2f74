#!/usr/bin/env node
// The supervisor of the all-in-one mode (`npm start` ends with the `serve` script, which runs this): svc-users,
// svc-todos and the gateway from their builds, each line of their output prefixed with its name.
//
// - A process that exits for any reason other than a stop asked for here (a crash, kill -9, an exit 0, an
//   out-of-memory kill) is started again, after 250 ms, doubling at each exit in a row up to 30 s; the
//   delay starts again from 250 ms once the process has stayed up 60 s. Each exit and restart is logged.
// - SIGINT, SIGTERM or SIGHUP to the supervisor stops everything in order: the gateway first (SIGTERM, then
//   wait: it closes its listener and serves the requests it accepted, for SHUTDOWN_DRAIN_MS), then both
//   services (SIGTERM, then wait), then exit 0. A process still running 12 s after its SIGTERM gets SIGKILL,
//   and the supervisor then exits 1.
//
// The `serve` script is `exec node scripts/serve.mjs`: no shell stays in between (scripts/task.mjs runs it
// through one), so a Ctrl-C of `npm start` ends with the supervisor's own exit status, 0 after a clean stop.
//
// No library: concurrently (what `serve` used before) can restart with back-off, but stops every process at
// once and lets the terminal's Ctrl-C reach them all; pm2 and the like bring a daemon of their own. What is
// needed here is a short state machine over child_process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Releases, releasesDir } from './releases.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Restart delays. 250 ms: a process that crashed once is back before most clients retry (a service's routes
 * answer 503 meanwhile; the gateway's port refuses connections). Doubling: a process that cannot start
 * (port taken, bad configuration, full disk) costs little CPU and log, and is retried about 8 times in its
 * first minute. 30 s at most: once the cause is gone, it is back within 30 s without anyone. Reset after
 * 60 s up: a process that crashes now and then is always back within 250 ms, while one that crashes a few
 * seconds after each start keeps backing off.
 */
const RESTART = { firstDelayMs: 250, maxDelayMs: 30_000, stableAfterMs: 60_000 };
/** How long a process may take to stop after its SIGTERM: the runner's own limit is 10 s (9 s plus exit). */
const STOP_GRACE_MS = 12_000;
/** After a process exited, how long its last output lines may take to arrive (they are printed before the next line of ours). */
const OUTPUT_FLUSH_MS = 1_000;

const tty = Boolean(process.stdout.isTTY);
// The processes' own rule (LOG_FORMAT, else JSON unless the output is a terminal) also decides the form of
// the supervisor's lines, so that behind a pipe every line, once its `[name] ` prefix is cut, is one JSON object.
const logJson = process.env.LOG_FORMAT === 'json' || (process.env.LOG_FORMAT !== 'pretty' && !tty);
// A process's stdout is a pipe here, never a terminal: in a terminal it is asked for readable lines, as it
// would choose itself if it ran alone (scripts/task.mjs does the same for `npm start`).
const childLogFormat = process.env.LOG_FORMAT || (tty ? 'pretty' : undefined);

const SPECS = [
  { name: 'users', script: 'svc-users/dist/server.js', color: 34, env: {} },
  { name: 'todos', script: 'svc-todos/dist/server.js', color: 32, env: {} },
  {
    name: 'gateway',
    script: 'gateway/dist/server.js',
    color: 35,
    // The built frontends (pnpm build): the shell, and the remotes the REMOTES or REMOTES_FILE given
    // says, else every built workspace remote, released by this supervisor (scripts/releases.mjs): a remote
    // built after the start is served from the next page load, and the build before stays for open pages
    // and for a one-step rollback.
    env: { SHELL_DIST: 'shell/dist' },
  },
];

/** The releases this supervisor keeps, unless the remotes are configured (REMOTES or REMOTES_FILE). */
// REMOTES_ROOT: the folder whose mfe-* remotes are released (this workspace by default; the tests use a copy).
const releases =
  process.env.REMOTES || process.env.REMOTES_FILE
    ? undefined
    : new Releases({ root: path.resolve(root, process.env.REMOTES_ROOT || '.'), dir: releasesDir(root), log: (level, msg, fields) => log(level, msg, fields) });
if (releases) SPECS[2].env.REMOTES_FILE = releases.file;

const GUARD = pathToFileURL(path.join(root, 'scripts/serve-guard.mjs')).href;

// Output that can no longer be written (the terminal closed, `| head` ended) is dropped, not a crash.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

function prefix(name, color) {
  return tty ? `\x1b[${color}m[${name}]\x1b[39m ` : `[${name}] `;
}

const OWN_PREFIX = prefix('serve', 33);
const LEVELS = { info: 30, warn: 40, error: 50 };

/** `13:48:29.002`, local time, as the processes' readable lines show it. */
function clock(date) {
  const two = (n) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** One line of the supervisor's own: a pino-like JSON object, or a readable line like the processes' own. */
function log(level, msg, fields = {}) {
  const now = new Date();
  const line = logJson
    ? JSON.stringify({ level: LEVELS[level], time: now.toISOString(), service: 'serve', ...fields, msg })
    : `[${clock(now)}] ${level.toUpperCase()} (serve): ${msg}`;
  (level === 'info' ? process.stdout : process.stderr).write(`${OWN_PREFIX}${line}\n`);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const how = ({ code, signal }) => (signal ? `signal ${signal}` : `code ${code}`);

class Supervised {
  /** @param {{ name: string, script: string, color: number, env: Record<string, string> }} spec */
  constructor(spec) {
    this.spec = spec;
    this.prefix = prefix(spec.name, spec.color);
    /** Exits in a row without 60 s up in between: the next delay is 250 ms × 2^failures. */
    this.failures = 0;
    this.restarts = 0;
    /** The running process: `{ child, exited, outputDone }`; undefined while none runs. */
    this.current = undefined;
    this.restartTimer = undefined;
    this.stopping = false;
  }

  start() {
    const { name, script, env } = this.spec;
    const child = spawn(process.execPath, ['--import', GUARD, script], {
      cwd: root,
      env: { ...process.env, ...(childLogFormat ? { LOG_FORMAT: childLogFormat } : {}), ...env },
      // stdin: the supervisor's liveness pipe, never written to (scripts/serve-guard.mjs).
      stdio: ['pipe', 'pipe', 'pipe'],
      // Each process in a session (so a process group) of its own. A terminal's Ctrl-C is a SIGINT to every
      // process of the foreground group: in the supervisor's group the services would get it too and stop at
      // once, while the gateway still drains (its requests would then find them gone: 503/502). Their runner
      // acts on the first signal only (server-runner.ts), which keeps a second Ctrl-C from cutting a process's
      // own stop short, but cannot put the services' stop after the gateway's. Out of that group only the
      // supervisor hears Ctrl-C, however many times, and it signals each process once, in order. The price:
      // were the supervisor to die, nothing would stop them, hence the stdin guard.
      // On Windows there are no process groups to leave, and `detached` would open a console per process.
      detached: process.platform !== 'win32',
    });
    child.stdin?.on('error', () => undefined);
    const startedAt = Date.now();
    const exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      // Not started at all (no pid): there will be no 'exit'. (A failed kill is an 'error' too: nothing to do.)
      child.on('error', (error) => {
        if (child.pid === undefined) {
          log('error', `${name} could not be started: ${error.message}`, { process: name, err: error.message });
          resolve({ code: null, signal: null });
        }
      });
    });
    const outputDone = Promise.all([this.relay(child.stdout, process.stdout), this.relay(child.stderr, process.stderr)]);
    this.current = { child, exited, outputDone };
    void exited.then((result) => this.onExit(result, { child, startedAt, outputDone }));
    return child.pid;
  }

  /** Copies `from` line by line, each line prefixed with the process's name; resolves at its end. */
  relay(from, to) {
    if (!from) return Promise.resolve();
    return new Promise((resolve) => {
      const lines = createInterface({ input: from, crlfDelay: Infinity });
      lines.on('line', (line) => to.write(`${this.prefix}${line}\n`));
      lines.once('close', resolve);
    });
  }

  /** Called at every exit; restarts unless the exit was asked for. */
  async onExit(result, { child, startedAt, outputDone }) {
    const { pid } = child;
    this.current = undefined;
    child.stdin?.destroy();
    if (this.stopping) return;
    // Its last lines first (a crash's stack trace), then ours.
    await Promise.race([outputDone, delay(OUTPUT_FLUSH_MS)]);
    if (this.stopping) return;
    const upMs = Date.now() - startedAt;
    if (upMs >= RESTART.stableAfterMs) this.failures = 0;
    const waitMs = Math.min(RESTART.firstDelayMs * 2 ** this.failures, RESTART.maxDelayMs);
    this.failures += 1;
    const { name } = this.spec;
    log('warn', `${name} (pid ${pid}) exited with ${how(result)} after ${seconds(upMs)}; restarting in ${waitMs} ms`, {
      process: name,
      pid,
      code: result.code,
      signal: result.signal,
      upMs,
      restartInMs: waitMs,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.restarts += 1;
      const newPid = this.start();
      log('info', `${name} restarted (pid ${newPid}, restart ${this.restarts})`, { process: name, pid: newPid, restarts: this.restarts });
    }, waitMs);
  }

  /**
   * Stops the process for good: SIGTERM, then SIGKILL after the grace period. Resolves true when it stopped
   * by itself, in time and cleanly (exit 0, or ended by the SIGTERM before its handler was installed).
   */
  async stop() {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const running = this.current;
    if (!running) return true;
    const { name } = this.spec;
    const { child, exited, outputDone } = running;
    const since = Date.now();
    log('info', `stopping ${name} (SIGTERM to pid ${child.pid})`, { process: name, pid: child.pid });
    child.kill('SIGTERM');
    let result = await Promise.race([exited, delay(STOP_GRACE_MS).then(() => undefined)]);
    let ok = true;
    if (!result) {
      log('error', `${name} (pid ${child.pid}) did not stop within ${seconds(STOP_GRACE_MS)}: SIGKILL`, { process: name, pid: child.pid });
      child.kill('SIGKILL');
      result = await exited;
      ok = false;
    } else if (!(result.code === 0 || result.signal === 'SIGTERM')) {
      ok = false;
    }
    await Promise.race([outputDone, delay(OUTPUT_FLUSH_MS)]);
    log(ok ? 'info' : 'error', `${name} stopped (${how(result)}) in ${seconds(Date.now() - since)}`, {
      process: name,
      pid: child.pid,
      code: result.code,
      signal: result.signal,
      stopMs: Date.now() - since,
    });
    return ok;
  }
}

const missing = SPECS.filter(({ script }) => !existsSync(path.join(root, script))).map(({ script }) => script);
if (missing.length > 0) {
  log('error', `${missing.join(', ')} missing: run \`pnpm build\` first (npm start does)`, { missing });
  process.exit(1);
}

const [users, todos, gateway] = SPECS.map((spec) => new Supervised(spec));
let stopSignal;

async function stopInOrder() {
  releases?.stop();
  log('info', `${stopSignal}: stopping the gateway first, then the services`, { signal: stopSignal });
  // No restart from here on, whatever exits: a service must not come back while the gateway drains.
  for (const supervised of [users, todos, gateway]) {
    supervised.stopping = true;
    clearTimeout(supervised.restartTimer);
  }
  // The services keep answering while the gateway finishes the requests it accepted.
  const gatewayOk = await gateway.stop();
  const servicesOk = await Promise.all([users.stop(), todos.stop()]);
  const ok = gatewayOk && servicesOk.every(Boolean);
  log(ok ? 'info' : 'error', ok ? 'all stopped' : 'stopped, not all cleanly', { ok });
  return ok ? 0 : 1;
}

// Installed before any process starts: a signal that comes early still stops them in order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // A second Ctrl-C (or a launcher forwarding the terminal's) must not cut the ordered stop short: it is
    // bounded anyway, by the grace periods (at most 2 × 12 s).
    if (stopSignal) {
      log('info', `${signal} again: already stopping in order (at most ${seconds(2 * STOP_GRACE_MS)})`, { signal });
      return;
    }
    stopSignal = signal;
    void stopInOrder().then(
      (code) => process.exit(code),
      (error) => {
        log('error', `stop failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  });
}

if (releases) {
  try {
    const served = releases.sync({ now: true });
    log('info', `remotes served from ${path.relative(root, releases.file)}: ${Object.entries(served).map(([key, name]) => `${key} ${name}`).join(', ') || 'none built yet'}`, { remotes: served });
  } catch (error) {
    log('error', `the built remotes could not be released: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  releases.watch();
}

// The services may start together, and the gateway with them: until a service listens, its routes answer
// 503 (the gateway maps a refused connection to UPSTREAM.UNAVAILABLE) and its readiness says which one is down.
for (const supervised of [users, todos, gateway]) {
  const pid = supervised.start();
  log('info', `started ${supervised.spec.name} (pid ${pid})`, { process: supervised.spec.name, pid });
}
