// Test helpers (no tests here, never in the build: tsconfig.json leaves *.test-helpers.ts out). The rest of
// what gateway tests start (services, whole stacks, new users) is in @tm/test-support.
import { createLogger } from '@tm/service-kit';
import { listen, TEST_SECRET, type Started, type Upstreams } from '@tm/test-support';
import { createApp, type Gateway, type GatewayDeps } from './app.js';
import type { SessionStore } from './session.repository.js';
import { SqliteSessionStore } from './sqlite-session.store.js';

export interface TestGateway extends Started {
  /** Where the ops routes answer (`/readyz`, `/metrics`, `/healthz`): the gateway's ops port. */
  opsUrl: string;
  sessionStore: SessionStore;
  /** Begins shutdown as SIGTERM would (server.ts calls it first). */
  drain: Gateway['drain'];
  streams: Gateway['streams'];
  /** The same as `close` (what `startStack` calls). */
  stop: () => Promise<void>;
}

type ConfigOverrides = Partial<GatewayDeps['config']>;

/** A gateway configuration for tests: every limit off unless a test turns it on. */
export function testGatewayConfig(upstreams: { usersUrl: string; todosUrl: string }, overrides: ConfigOverrides = {}): GatewayDeps['config'] {
  return {
    usersUrl: upstreams.usersUrl,
    todosUrl: upstreams.todosUrl,
    sessionKeys: ['test-session-key-0123456789abcdef0123456789'],
    internalSecret: TEST_SECRET,
    session: { idleTimeoutMs: 60 * 60 * 1000, absoluteTimeoutMs: 24 * 60 * 60 * 1000 },
    allowedOrigins: [],
    trustProxy: false,
    trustProxyHops: 1,
    clients: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxHeaderBytes: 8192, maxHeaderCount: 100, maxConnections: 0, maxConnectionsPerAddress: 0, keepAliveTimeoutMs: 5_000 },
    upstreamTimeoutMs: 8000,
    authRateLimit: { points: 0, windowSeconds: 60 },
    signupRateLimit: { points: 0, windowSeconds: 60 },
    accountThrottle: { failLimit: 0, windowSeconds: 900, lockoutSeconds: 900 },
    events: { maxPerSession: 5, maxPerUser: 1000, maxPerAddress: 1000, maxStreams: 1000, sessionCheckMs: 15_000 },
    ...overrides,
  };
}

/** The gateway in this process, over real HTTP, in front of the given services (`startServices`). */
export async function startGateway(
  upstreams: Upstreams,
  overrides: ConfigOverrides = {},
  sessionStore: SessionStore = SqliteSessionStore.open(upstreams.dataDir),
  redis?: GatewayDeps['redis'],
  /** Built frontends to serve (all-in-one mode): the shell, the remotes and their catalog. */
  web?: GatewayDeps['web'],
): Promise<TestGateway> {
  const gateway = createApp({
    config: testGatewayConfig(upstreams, overrides),
    sessionStore,
    logger: createLogger('gateway-test'),
    redis,
    web,
  });
  const started = await listen(gateway.app);
  const ops = await listen(gateway.ops);
  const close = async () => {
    await started.close();
    await ops.close();
    gateway.close();
    await sessionStore.close();
  };
  return { ...started, opsUrl: ops.url, sessionStore, drain: gateway.drain, streams: gateway.streams, close, stop: close };
}

/** For `startStack({ gateway: inProcessGateway(...) })`: the whole app, its gateway in this process. */
export function inProcessGateway(overrides: ConfigOverrides = {}): (upstreams: Upstreams) => Promise<TestGateway> {
  return (upstreams) => startGateway(upstreams, overrides);
}

/**
 * `store` for another gateway (or a test) that must not close it: the same sessions, but `close` leaves
 * the store (and its Redis client) to its owner.
 */
export function keepOpen(store: SessionStore): SessionStore {
  return {
    get: (id) => store.get(id),
    set: (id, data, maxAgeMs) => store.set(id, data, maxAgeMs),
    destroy: (id) => store.destroy(id),
    destroyUserSessions: (userId, ending) => store.destroyUserSessions(userId, ending),
    recordEnd: (id, reason, keepForMs) => store.recordEnd(id, reason, keepForMs),
    endReason: (id) => store.endReason(id),
    ping: () => store.ping(),
    close: async () => undefined,
  };
}
