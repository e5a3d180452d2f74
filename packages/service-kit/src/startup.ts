// Start-up that explains itself (docs/OPERATIONS.md "Logs"). Between "opening store" and "listening" a
// process could wait for a long time: on a lock, on a database server, on Redis (the client retries for
// ever), on the disk. Each of those waits has a bound (STARTUP_STORE_TIMEOUT_MS, and LISTEN_TIMEOUT_MS for
// binding a port) and, when it passes, the process logs one line naming the step, what it was waiting on
// and the bound's setting, and exits 1. A port already taken says so at once.
//
// Opening an SQLite store is synchronous (better-sqlite3): while the main thread waits inside SQLite or inside
// a file-system call, no timer of its own can fire. A small watchdog thread therefore holds the store's bound
// too: the main thread tells it what it waits on before each step (a message it receives even while the main
// thread is blocked), and when the bound has passed by WATCHDOG_GRACE_MS without the main thread having
// reported, the watchdog writes the line itself and ends the process with SIGKILL (nothing else ends a thread
// stuck in a system call). Lock waits do not need it: while opening, SQLite's busy timeout is set to what is
// left of the bound (sqlite.ts), so SQLite itself gives up at the bound and the main thread reports. Binding a
// port never blocks the main thread (the bind and listen calls return at once; a host name is looked up on
// libuv's threads), so its bound is the main thread's own timer, and the watchdog ends with the store's step.
// The watchdog costs about 50 ms of CPU per start (a thread's isolate, up and down) and nothing after.
import type { Server } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { chooseLogFormat, type LogFormat } from './logger.js';

/** The steps of a start-up that have a bound. */
export type StartupStep = 'open store' | 'bind port';

export interface StartupBounds {
  /** `STARTUP_STORE_TIMEOUT_MS`: opening the store (SQLite file, MongoDB, Redis for the gateway's sessions). */
  storeTimeoutMs: number;
  /** Binding each listening port (the host name's lookup included): {@link LISTEN_TIMEOUT_MS} outside tests. */
  listenTimeoutMs: number;
}

/**
 * Binding a port: a bind returns at once and only a `HOST` name's lookup can take time, so 10 s is generous
 * anywhere; fixed, not a setting (with STARTUP_STORE_TIMEOUT_MS's 20 s it stays inside the startupProbe's 60 s).
 */
export const LISTEN_TIMEOUT_MS = 10_000;

/** The bounds from a checked environment (STARTUP_STORE_TIMEOUT_MS of BaseEnv, config.ts). */
export function startupBounds(env: { STARTUP_STORE_TIMEOUT_MS: number }): StartupBounds {
  return { storeTimeoutMs: env.STARTUP_STORE_TIMEOUT_MS, listenTimeoutMs: LISTEN_TIMEOUT_MS };
}

/** The setting a step's bound comes from, named in the line when the bound passes; binding a port has none. */
const SETTINGS: Record<StartupStep, string | undefined> = { 'open store': 'STARTUP_STORE_TIMEOUT_MS', 'bind port': undefined };

/**
 * Handed to a store while it opens: the time it must be done by, and a way to say what it waits on now
 * (the line logged when the bound passes names the last thing said).
 */
export interface OpeningProgress {
  deadline: number;
  waitingOn: (what: string) => void;
}

/** A start-up that could not go on, with its one line already logged (runMain then exits 1 without repeating it). */
export class StartupFailure extends Error {
  constructor(
    message: string,
    /** False when the logger's level hides it (LOG_LEVEL=silent): runMain prints it then. */
    readonly logged: boolean,
  ) {
    super(message);
    this.name = 'StartupFailure';
  }
}

/** Where a process listens, and the variable that sets the port (named in the line when it cannot). */
export interface ListenTarget {
  port: number;
  host: string;
  variable: string;
}

/** After a bound, how long the watchdog thread leaves the main thread to report before it acts itself. */
export const WATCHDOG_GRACE_MS = 3_000;

/**
 * The watchdog thread's code (run with `eval`, so the kit ships no extra file). It only keeps a timer per
 * step; it never touches the main thread's objects. Its line is written with a synchronous write to fd 1, the
 * logger's own destination, in the logger's form.
 */
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { name, format, enabled, graceMs } = workerData;
let timer;
const two = (n, width = 2) => String(n).padStart(width, '0');
function line(step) {
  const now = new Date();
  const msg = step.message + '; the process is stuck in a synchronous call (the main thread cannot act), so it is killed';
  if (format === 'pretty') {
    const clock = two(now.getHours()) + ':' + two(now.getMinutes()) + ':' + two(now.getSeconds()) + '.' + two(now.getMilliseconds(), 3);
    return '[' + clock + '] FATAL (' + name + '): ' + msg + '\\n';
  }
  const fields = { step: step.step, waitingOn: step.waitingOn, timeoutMs: step.timeoutMs, setting: step.setting, stuck: true };
  return JSON.stringify({ level: 60, time: now.toISOString(), service: name, name, ...fields, msg }) + '\\n';
}
parentPort.on('message', (step) => {
  clearTimeout(timer);
  if (!step) return;
  timer = setTimeout(() => {
    if (enabled) writeSync(1, line(step));
    process.kill(process.pid, 'SIGKILL');
  }, Math.max(0, step.deadline + graceMs - Date.now()));
});
`;

/** What the watchdog is told at each step (and when it changes what it waits on). */
interface StepNotice {
  step: StartupStep;
  waitingOn: string;
  timeoutMs: number;
  setting: string | undefined;
  deadline: number;
  /** The line's text up to "waiting on …", as the main thread would log it. */
  message: string;
}

export interface StartupWatchOptions {
  /** The process's name in the watchdog's line (the logger's `service`). */
  name: string;
  logger: Logger;
  bounds: StartupBounds;
  /** The logger's form, for the watchdog's line (default: chooseLogFormat(), as createLogger does). */
  format?: LogFormat;
  /** Default {@link WATCHDOG_GRACE_MS}. */
  graceMs?: number;
}

/**
 * The bounds of one process's start-up: `openStore` and `listen` run their step within its bound. The
 * watchdog thread lives from the construction to the end of `openStore` (or `done`, whichever comes first).
 */
export class StartupWatch {
  private readonly logger: Logger;
  private readonly bounds: StartupBounds;
  private worker: Worker | undefined;

  constructor({ name, logger, bounds, format = chooseLogFormat(), graceMs = WATCHDOG_GRACE_MS }: StartupWatchOptions) {
    this.logger = logger;
    this.bounds = bounds;
    try {
      this.worker = new Worker(WATCHDOG_SOURCE, {
        eval: true,
        workerData: { name, format, enabled: logger.isLevelEnabled('fatal'), graceMs },
        // Its own output is never used; not piping it through the main thread keeps that thread out of it.
        stdout: false,
        stderr: false,
      });
      // Never what keeps a process alive; a failure of the watchdog itself is not a reason to stop.
      this.worker.unref();
      this.worker.on('error', (error: unknown) => logger.warn({ err: error }, 'start-up watchdog failed; the start-up bounds hold only while the main thread is free'));
    } catch (error) {
      logger.warn({ err: error }, 'start-up watchdog not started; the start-up bounds hold only while the main thread is free');
    }
  }

  /**
   * Opens the store within STARTUP_STORE_TIMEOUT_MS. `waitingOn` says what opening waits on until the store
   * says more precisely through `progress` (SQLite does: the file, its WAL switch, its schema's write lock).
   */
  async openStore<T>(waitingOn: string, open: (progress: OpeningProgress) => Promise<T> | T): Promise<T> {
    try {
      return await this.run('open store', 'opening the store', this.bounds.storeTimeoutMs, waitingOn, open);
    } finally {
      this.done();
    }
  }

  /** Binds `server` to the target within its bound (`listenTimeoutMs`); resolves with the port it got. */
  listen(server: Server, target: ListenTarget): Promise<number> {
    const what = `binding port ${target.port} on ${target.host} (${target.variable})`;
    const waitingOn = isIpAddress(target.host) ? 'the operating system' : `the address lookup of "${target.host}" (HOST)`;
    return this.run('bind port', what, this.bounds.listenTimeoutMs, waitingOn, () => bind(server, target));
  }

  /** No step left that may block the main thread: the watchdog thread ends (runServer calls it once listening). */
  done(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private async run<T>(step: StartupStep, what: string, timeoutMs: number, waitingOn: string, work: (progress: OpeningProgress) => Promise<T> | T): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const setting = SETTINGS[step];
    let current = waitingOn;
    const message = () => `start-up stopped: ${what} did not finish within ${timeoutMs} ms${setting ? ` (${setting})` : ''}; it was waiting on ${current}`;
    const tell = () => this.worker?.postMessage({ step, waitingOn: current, timeoutMs, setting, deadline, message: message() } satisfies StepNotice);
    const progress: OpeningProgress = {
      deadline,
      waitingOn: (text) => {
        current = text;
        tell();
      },
    };
    tell();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(() => work(progress)).then((value) => ({ value })), late]);
      if (outcome === 'late') throw this.fail(message(), { step, waitingOn: current, timeoutMs, setting });
      return outcome.value;
    } catch (error) {
      if (error instanceof StartupFailure) throw error;
      if (error instanceof BindProblem) throw this.fail(`start-up stopped: ${error.message}`, { step, code: error.code, port: error.target.port, host: error.target.host, variable: error.target.variable });
      // While opening, SQLite's lock waits end at the deadline (sqlite.ts): a busy database is this bound passing.
      if (isSqliteBusy(error)) throw this.fail(message(), { step, waitingOn: current, timeoutMs, setting, code: (error as { code: string }).code });
      throw this.fail(`start-up stopped: ${what} failed: ${error instanceof Error ? error.message : String(error)}`, { step, waitingOn: current, err: error });
    } finally {
      clearTimeout(timer);
      this.worker?.postMessage(null);
    }
  }

  private fail(message: string, fields: Record<string, unknown>): StartupFailure {
    this.logger.fatal(fields, message);
    return new StartupFailure(message, this.logger.isLevelEnabled('fatal'));
  }
}

/** SQLITE_BUSY and its extended codes (better-sqlite3 puts them in `code`). */
function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** A port that cannot be bound for a known reason, said in words. */
class BindProblem extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly target: ListenTarget,
  ) {
    super(message);
  }
}

/** Why a port could not be bound, in words, for the errors that have a known cause; undefined for others. */
function bindProblem(error: NodeJS.ErrnoException, { port, host, variable }: ListenTarget): string | undefined {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} (${variable}) is already in use: another process listens there; stop it or set ${variable} to a free port`;
    case 'EACCES':
      return `not allowed to listen on port ${port} on ${host} (${variable}): ports below 1024 need privileges`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host} (port ${port}, ${variable}): no network interface of this machine has that address (HOST)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on "${host}" (port ${port}, ${variable}): the host name does not resolve (HOST)`;
    default:
      return undefined;
  }
}

/** `server.listen`, resolving with the port once it listens; an error names the port and its variable. */
function bind(server: Server, target: ListenTarget): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const problem = bindProblem(error, target);
      reject(problem && error.code ? new BindProblem(problem, error.code, target) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : target.port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(target.port, target.host);
  });
}
