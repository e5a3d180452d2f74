import { createLogger } from '@tm/service-kit';
import { listen, startProcess, tempDir, TEST_SECRET, type RunningProcess, type Started } from '@tm/test-support';
import { createApp, type Gateway, type GatewayDeps } from './app.js';
import type { SessionStore } from './session.store.js';
import { SqliteSessionStore } from './sqlite-session.store.js';

export interface Services {
  dataDir: string;
  users: RunningProcess;
  todos: RunningProcess;
  stop: () => Promise<void>;
}

/** Starts svc-users and svc-todos as real processes (from their builds) on ephemeral ports; `env` adds variables to both. */
export async function startServices(extraEnv: Record<string, string> = {}): Promise<Services> {
  const data = tempDir('tm-gw-');
  const env = { ...extraEnv, DATA_DIR: data.dir, INTERNAL_SECRET: TEST_SECRET };
  const [users, todos] = await Promise.all([startProcess('svc-users', env), startProcess('svc-todos', env)]);
  return {
    dataDir: data.dir,
    users,
    todos,
    stop: async () => {
      await Promise.all([users.stop(), todos.stop()]);
      data.remove();
    },
  };
}

export interface TestGateway extends Started {
  sessionStore: SessionStore;
  /** Begins shutdown as SIGTERM would (server.ts calls it first). */
  drain: Gateway['drain'];
  streams: Gateway['streams'];
}

type ConfigOverrides = Partial<GatewayDeps['config']>;

/** A gateway configuration for tests: every limit off unless a test turns it on. */
export function testGatewayConfig(upstreams: { usersUrl: string; todosUrl: string }, overrides: ConfigOverrides = {}): GatewayDeps['config'] {
  return {
    ...upstreams,
    sessionKeys: ['test-session-key-0123456789abcdef0123456789'],
    internalSecret: TEST_SECRET,
    session: { idleTimeoutMs: 60 * 60 * 1000, absoluteTimeoutMs: 24 * 60 * 60 * 1000 },
    allowedOrigins: [],
    trustProxy: false,
    upstreamTimeoutMs: 8000,
    authRateLimit: { points: 0, windowSeconds: 60 },
    signupRateLimit: { points: 0, windowSeconds: 60 },
    accountThrottle: { failLimit: 0, windowSeconds: 900, lockoutSeconds: 900 },
    events: { maxPerSession: 5, maxStreams: 1000, sessionCheckMs: 15_000 },
    ...overrides,
  };
}

/** The gateway in this process, over real HTTP, in front of the given services. */
export async function startGateway(
  services: Pick<Services, 'dataDir'> & { usersUrl: string; todosUrl: string },
  overrides: ConfigOverrides = {},
  sessionStore: SessionStore = SqliteSessionStore.open(services.dataDir),
  redis?: GatewayDeps['redis'],
): Promise<TestGateway> {
  const gateway = createApp({
    config: testGatewayConfig(services, overrides),
    sessionStore,
    logger: createLogger('gateway-test'),
    redis,
  });
  const started = await listen(gateway.app);
  return {
    ...started,
    sessionStore,
    drain: gateway.drain,
    streams: gateway.streams,
    close: async () => {
      await started.close();
      gateway.close();
      await sessionStore.close();
    },
  };
}

/** Services + gateway, the usual setup of an API test file. */
export async function startStack(
  overrides: ConfigOverrides = {},
  serviceEnv: Record<string, string> = {},
): Promise<{ services: Services; gateway: TestGateway; stop: () => Promise<void> }> {
  const services = await startServices(serviceEnv);
  const gateway = await startGateway({ dataDir: services.dataDir, usersUrl: services.users.url, todosUrl: services.todos.url }, overrides);
  return {
    services,
    gateway,
    stop: async () => {
      await gateway.close();
      await services.stop();
    },
  };
}

let counter = 0;
/** A unique, valid signup payload. */
export function newUser(name = 'Test User'): { fullName: string; email: string; password: string } {
  counter += 1;
  return { fullName: name, email: `user${Date.now()}-${process.pid}-${counter}@example.com`, password: 'correct horse battery' };
}
