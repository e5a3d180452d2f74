import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_PORTS } from '@tm/service-kit';
import { REPO_ROOT, startProcess as startWith, type ProcessOptions, type RunningProcess } from './processes.js';
import { TEST_SECRET } from './secret.js';
import { tempDir } from './temp-dir.js';

export type ServiceName = 'users' | 'todos';

/** Where a gateway finds the services (and the data folder they share). */
export interface Upstreams {
  dataDir: string;
  usersUrl: string;
  todosUrl: string;
}

/** What a stack needs of its gateway: where it listens, and how to stop it. */
export interface StackGateway {
  url: string;
  stop: () => Promise<unknown>;
}

export interface StackOptions<G extends StackGateway = RunningProcess> {
  /** Serve the built frontends from the gateway (all-in-one, as `npm start` does). */
  web?: boolean;
  /** Gateway port; 0 picks a free one. */
  port?: number;
  /** Extra environment for all three processes. */
  env?: Record<string, string>;
  /** Keep collecting each process's log lines after start-up (default true; benchmarks turn it off). */
  keepLogs?: boolean;
  /** The checkout whose builds run (default this one; the profiling script compares several). */
  root?: string;
  /** Options for `node` per app (`--cpu-prof` ...). */
  nodeArgs?: (app: string) => string[];
  /**
   * Starts the gateway some other way than as its built process: the gateway's own tests run it in the
   * test's process, with their configuration and session store. `web` and `port` then do not apply.
   */
  gateway?: (upstreams: Upstreams) => Promise<G>;
}

export interface RunningServices {
  dataDir: string;
  users: RunningProcess;
  todos: RunningProcess;
  /** Stops one service (SIGTERM), as an outage would; the gateway keeps running. */
  stopService: (name: ServiceName) => Promise<void>;
  /** Starts a stopped service again on its old port with its old data: the outage is over. */
  startService: (name: ServiceName) => Promise<void>;
  /** Stops both services and removes the data folder. */
  stop: () => Promise<void>;
}

export interface RunningStack<G extends StackGateway = RunningProcess> extends RunningServices {
  url: string;
  gateway: G;
}

/** Where a gateway finds these services. */
export function upstreamsOf(services: Pick<RunningServices, 'dataDir' | 'users' | 'todos'>): Upstreams {
  return { dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: services.todos.url };
}

const APPS: Record<ServiceName, string> = { users: 'svc-users', todos: 'svc-todos' };

function processOptions(app: string, { keepLogs = true, root, nodeArgs }: Pick<StackOptions, 'keepLogs' | 'root' | 'nodeArgs'>): ProcessOptions {
  return { keepLogs, root, nodeArgs: nodeArgs?.(app) };
}

/**
 * svc-users and svc-todos as separate built processes on ephemeral ports, sharing a fresh data folder and
 * {@link TEST_SECRET}; `env` adds variables to both.
 */
export async function startServices(options: Pick<StackOptions, 'env' | 'keepLogs' | 'root' | 'nodeArgs'> = {}): Promise<RunningServices> {
  const { env: extra = {} } = options;
  const data = tempDir('tm-stack-');
  const env = { DATA_DIR: data.dir, INTERNAL_SECRET: TEST_SECRET, ...extra };
  const start = (name: ServiceName, more: Record<string, string> = {}) => startWith(APPS[name], { ...env, ...more }, undefined, processOptions(APPS[name], options));
  // Both start at once; when one fails, the other is stopped before the error goes on, so nothing outlives the caller.
  const starts = await Promise.allSettled([start('users'), start('todos')]);
  const failed = starts.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(starts.flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])));
    data.remove();
    throw failed.reason;
  }
  const [users, todos] = starts.map((result) => (result as PromiseFulfilledResult<RunningProcess>).value) as [RunningProcess, RunningProcess];
  const services: Record<ServiceName, RunningProcess> = { users, todos };
  return {
    dataDir: data.dir,
    get users() {
      return services.users;
    },
    get todos() {
      return services.todos;
    },
    stopService: async (name) => {
      await services[name].stop();
    },
    startService: async (name) => {
      services[name] = await start(name, { [SERVICE_PORTS[name].variable]: String(services[name].port) });
    },
    stop: async () => {
      await Promise.all([services.users.stop(), services.todos.stop()]);
      data.remove();
    },
  };
}

/**
 * The app as `npm start` runs it: {@link startServices} and the gateway in front of them, by default as
 * its built process too, for component tests, browser tests and benchmarks. Sign-in and sign-up rate limits
 * are off: these callers sign many users up from one address on purpose (a test of those limits sets its
 * own).
 */
/**
 * `REMOTES` for every built remote under `root`, found by the same pattern as `npm start`
 * (`builtRemotes` of packages/build-config/workspace-remotes.mjs, which this compiled package cannot import):
 * `mfe-<key>/dist` with a `remote.json`, served under `/remotes/<key>/`; absolute, since `root` may be
 * another checkout.
 */
export function builtRemotes(root: string = REPO_ROOT): string {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^mfe-[a-z][a-z0-9-]*$/.test(entry.name) && existsSync(path.join(root, entry.name, 'dist', 'remote.json')))
    .map((entry) => `${entry.name.slice('mfe-'.length)}=${path.join(root, entry.name, 'dist')}`)
    .sort()
    .join(',');
}

export async function startStack<G extends StackGateway = RunningProcess>(options: StackOptions<G> = {}): Promise<RunningStack<G>> {
  const { web = false, port = 0, env: extra = {} } = options;
  const env = {
    SESSION_KEYS: 'stack-session-key-0123456789abcdef0123456789',
    AUTH_RATE_LIMIT: '0',
    // No connection caps: every client of a test stack is this machine, on one address (a test of the caps sets its own).
    MAX_CONNECTIONS: '0',
    ...extra,
  };
  const services = await startServices({ ...options, env });
  const upstreams = upstreamsOf(services);
  const root = options.root ?? REPO_ROOT;
  const webRoots = web
    ? {
        SHELL_DIST: path.join(root, 'shell/dist'),
        REMOTES: builtRemotes(root),
      }
    : {};
  const startGateway =
    options.gateway ??
    ((): Promise<G> => {
      const gatewayEnv = { DATA_DIR: services.dataDir, INTERNAL_SECRET: TEST_SECRET, ...env, ...webRoots, PORT: String(port), USERS_URL: upstreams.usersUrl, TODOS_URL: upstreams.todosUrl };
      // Without `options.gateway`, G is its default: the gateway's process.
      return startWith('gateway', gatewayEnv, undefined, processOptions('gateway', options)) as Promise<unknown> as Promise<G>;
    });
  let gateway: G;
  try {
    gateway = await startGateway(upstreams);
  } catch (error) {
    await services.stop();
    throw error;
  }
  return {
    url: gateway.url,
    gateway,
    dataDir: services.dataDir,
    get users() {
      return services.users;
    },
    get todos() {
      return services.todos;
    },
    stopService: services.stopService,
    startService: services.startService,
    stop: async () => {
      await gateway.stop();
      await services.stop();
    },
  };
}
