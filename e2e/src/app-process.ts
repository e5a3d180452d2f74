import path from 'node:path';
import { REPO_ROOT, startProcess, tempDir, type RunningProcess } from '@tm/test-support';

export interface RunningApp {
  url: string;
  processes: RunningProcess[];
  stop: () => Promise<void>;
}

/**
 * The app as `pnpm start` runs it (same built processes, same all-in-one gateway serving the three
 * frontends), but on an ephemeral port with its own data folder.
 */
export async function startApp(): Promise<RunningApp> {
  const data = tempDir('tm-e2e-');
  const env = {
    DATA_DIR: data.dir,
    INTERNAL_SECRET: 'e2e-internal-secret-0123456789abcdef0123',
    SESSION_KEYS: 'e2e-session-key-0123456789abcdef0123456789',
    AUTH_RATE_LIMIT: '0',
  };
  const users = await startProcess('svc-users', env);
  const todos = await startProcess('svc-todos', env);
  const gateway = await startProcess('gateway', {
    ...env,
    USERS_URL: users.url,
    TODOS_URL: todos.url,
    SHELL_DIST: path.join(REPO_ROOT, 'shell/dist'),
    AUTH_DIST: path.join(REPO_ROOT, 'mfe-auth/dist'),
    TASKS_DIST: path.join(REPO_ROOT, 'mfe-tasks/dist'),
  });
  const processes = [gateway, users, todos];
  return {
    url: gateway.url,
    processes,
    stop: async () => {
      await Promise.all(processes.map((p) => p.stop()));
      data.remove();
    },
  };
}
