import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The repository root (this file lives in packages/test-support/{src,dist}). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface RunningProcess {
  url: string;
  port: number;
  /** The gateway's ops port (`/readyz`, `/metrics`), when the process has one (it logs "ops listening"). */
  opsUrl?: string;
  child: ChildProcess;
  /** Every JSON log line the process printed so far. */
  logs: Record<string, unknown>[];
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export interface ProcessOptions {
  /**
   * Keep parsing the log lines after start-up into `logs` (default true). Benchmarks turn it off: parsing a
   * JSON line per request in the process that also drives the load would take CPU from the load itself.
   * The lines are still read (and dropped), as a container runtime reads a service's stdout.
   */
  keepLogs?: boolean;
  /** The checkout whose build runs (default this one; a benchmark may compare another's). */
  root?: string;
  /** Options for `node` itself, before the script (`--cpu-prof`, ...). */
  nodeArgs?: string[];
}

/**
 * Starts one of the project's processes from its build (`<app>/dist/server.js`) on an ephemeral port and
 * resolves once it logs that it listens. Tests use it to talk to the real services as separate processes.
 */
export async function startProcess(
  app: string,
  env: Record<string, string | undefined>,
  timeoutMs = 15_000,
  { keepLogs = true, root = REPO_ROOT, nodeArgs = [] }: ProcessOptions = {},
): Promise<RunningProcess> {
  const script = path.join(root, app, 'dist', 'server.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`pnpm build\` first (pnpm test does).`);
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: root,
    // Every listening port variable set to 0 (the services listen on their own: USERS_PORT, TODOS_PORT); JSON
    // logs whatever the terminal, since the start is read from them.
    env: { ...process.env, PORT: '0', USERS_PORT: '0', TODOS_PORT: '0', OPS_PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let opsPort: number | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    // A process that does not listen in time is killed: a caller that gives up on it has no handle to stop it,
    // and it would outlive the test run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${app} did not start in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    // A start-up step that failed logs its one line (level 60, service-kit startup.ts) rather than on stderr;
    // read once the output has closed, so that line has been parsed.
    const fatal = () => logs.filter((entry) => typeof entry.level === 'number' && entry.level >= 60).map((entry) => String(entry.msg));
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before listening: ${[...fatal(), stderr].join('\n')}`));
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const entry = parseLine(line);
      if (!entry) return;
      logs.push(entry);
      if (entry.msg === 'ops listening' && typeof entry.port === 'number') opsPort = entry.port;
      if (entry.msg === 'listening' && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolve(entry.port);
        if (!keepLogs) {
          lines.close();
          child.stdout?.resume();
        }
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ...(opsPort === undefined ? {} : { opsUrl: `http://127.0.0.1:${opsPort}` }),
    child,
    logs,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A loopback port nothing listens on right now (for a process or a proxy that needs its port up front). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
