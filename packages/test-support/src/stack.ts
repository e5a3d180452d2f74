import path from 'node:path';
import { SERVICE_PORTS } from '@tm/service-kit';
import { REPO_ROOT, startProcess as startWith, type ProcessOptions, type RunningProcess } from './processes.js';
import { tempDir } from './temp-dir.js';

export interface StackOptions {
  /** Serve the built frontends from the gateway (all-in-one, as `npm start` does). */
  web?: boolean;
  /** Gateway port; 0 picks a free one. */
  port?: number;
  /** Extra environment for all three processes. */
  env?: Record<string, string>;
  /** Keep collecting each process's log lines after start-up (default true; benchmarks turn it off). */
  keepLogs?: boolean;
}

export type ServiceName = 'users' | 'todos';

export interface RunningStack {
  url: string;
  dataDir: string;
  gateway: RunningProcess;
  users: RunningProcess;
  todos: RunningProcess;
  /** Stops one service (SIGTERM), as an outage would; the gateway keeps running. */
  stopService: (name: ServiceName) => Promise<void>;
  /** Starts a stopped service again on its old port with its old data: the outage is over. */
  startService: (name: ServiceName) => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * svc-users, svc-todos and the gateway as separate built processes with their own data folder — the
 * app as `npm start` runs it — for component tests, browser tests and benchmarks. Login rate limits are
 * off: these callers sign many users up from one address on purpose.
 */
export async function startStack({ web = false, port = 0, env: extra = {}, keepLogs = true }: StackOptions = {}): Promise<RunningStack> {
  const options: ProcessOptions = { keepLogs };
  const startProcess = (app: string, env: Record<string, string | undefined>) => startWith(app, env, undefined, options);
  const data = tempDir('tm-stack-');
  const env = {
    DATA_DIR: data.dir,
    INTERNAL_SECRET: 'stack-internal-secret-0123456789abcdef0123',
    SESSION_KEYS: 'stack-session-key-0123456789abcdef0123456789',
    AUTH_RATE_LIMIT: '0',
    SIGNUP_RATE_LIMIT: '0',
    ...extra,
  };
  const [users, todos] = await Promise.all([startProcess('svc-users', env), startProcess('svc-todos', env)]);
  const webRoots = web
    ? {
        SHELL_DIST: path.join(REPO_ROOT, 'shell/dist'),
        AUTH_DIST: path.join(REPO_ROOT, 'mfe-auth/dist'),
        TASKS_DIST: path.join(REPO_ROOT, 'mfe-tasks/dist'),
      }
    : {};
  const gateway = await startProcess('gateway', { ...env, ...webRoots, PORT: String(port), USERS_URL: users.url, TODOS_URL: todos.url });
  const services: Record<ServiceName, RunningProcess> = { users, todos };
  const apps: Record<ServiceName, string> = { users: 'svc-users', todos: 'svc-todos' };
  return {
    url: gateway.url,
    dataDir: data.dir,
    gateway,
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
      services[name] = await startProcess(apps[name], { ...env, [SERVICE_PORTS[name].variable]: String(services[name].port) });
    },
    stop: async () => {
      await Promise.all([gateway.stop(), services.users.stop(), services.todos.stop()]);
      data.remove();
    },
  };
}
