import { BaseEnv, loadConfig, localSecrets, optionalText, port, requireSecret, SERVICE_PORTS, startupBounds, type StartupBounds } from '@tm/service-kit';
import path from 'node:path';
import { checkOriginPattern, checkRemoteCatalog, LOOPBACK_OVERRIDE_ORIGINS, type RemoteCatalog } from '@tm/contracts';
import { z } from 'zod';
import { parseRemoteList, type RemoteList } from './remote-folders.js';
import { DEFAULT_RUM_LIMITS, type RumLimits } from './rum.routes.js';

const absolute = (dir: string | undefined) => (dir ? path.resolve(dir) : undefined);

const DAY_MS = 24 * 60 * 60 * 1000;

function listOf(text: string | undefined): string[] {
  return (text ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const GatewayEnv = BaseEnv.extend({
  /** The app's public port: the only process that reads `PORT` (`PORT=3000 npm start`). */
  PORT: port(8080),
  /**
   * The port (and address) of `/readyz` and `/metrics` (and `/healthz`) for probes and Prometheus, kept off
   * the app's public port (issue #21): in all-in-one mode it listens on HOST (127.0.0.1) like the rest.
   */
  OPS_PORT: port(9181),
  OPS_HOST: optionalText,
  /** Where the services are; unset, the local service on its port variable (`USERS_PORT`, `TODOS_PORT`). */
  USERS_URL: optionalText.pipe(z.url().optional()),
  TODOS_URL: optionalText.pipe(z.url().optional()),
  USERS_PORT: port(SERVICE_PORTS.users.defaultPort),
  TODOS_PORT: port(SERVICE_PORTS.todos.defaultPort),
  REDIS_URL: optionalText.pipe(z.url().optional()),
  /** Comma-separated; the first signs new cookies, all verify (rotation). */
  SESSION_KEYS: optionalText,
  INTERNAL_SECRET: optionalText,
  /** A signed-in session unused this long ends (SECURITY.md "Sessions"). */
  SESSION_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(7 * DAY_MS),
  /** A signed-in session ends this long after sign-in, however much it is used. */
  SESSION_ABSOLUTE_TIMEOUT_MS: z.coerce.number().int().positive().default(30 * DAY_MS),
  /** Extra origins allowed to write (besides the gateway's own), comma-separated: `https://app.example.com`. */
  ALLOWED_ORIGINS: optionalText.transform(listOf).pipe(z.array(z.url({ protocol: /^https?$/ }))),
  /** Behind a TLS-terminating proxy: trust X-Forwarded-* (client IP, https → Secure cookies). */
  TRUST_PROXY: booleanFlag.default(false),
  /**
   * With TRUST_PROXY: how many proxies stand in front (a load balancer: 1; a CDN and a load balancer: 2). The
   * client's address is the entry that many places from the right of X-Forwarded-For: what the farthest
   * trusted proxy saw. Entries further left are the client's own words and never trusted.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  /**
   * What a client connection may hold (issue #21, SECURITY.md "Limits and timeouts"): its request's head must
   * arrive within HEADERS_TIMEOUT_MS and be at most MAX_HEADER_BYTES with at most MAX_HEADER_COUNT headers,
   * the whole request within REQUEST_TIMEOUT_MS; at most MAX_CONNECTIONS connections at once (keep it below
   * the process's open-files limit), and MAX_CONNECTIONS_PER_ADDRESS from one address unless TRUST_PROXY
   * (then every connection is the proxy's, which caps clients itself).
   */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  MAX_HEADER_BYTES: z.coerce.number().int().min(1024).default(8192),
  MAX_HEADER_COUNT: z.coerce.number().int().min(10).default(100),
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(10_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  /**
   * How long an idle keep-alive connection stays open. Behind a proxy (TRUST_PROXY) longer than the proxy's own
   * upstream idle time, 65 s by default; for browsers connecting directly 5 s (Node's default): an idle socket
   * is a file descriptor, and counts against its address's cap.
   */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).optional(),
  /** Answer 504 before the browser's 10 s timeout (docs/PRODUCT.md §9). */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  /** Login + signup attempts per client IP per window; 0 turns the limit off. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  AUTH_RATE_WINDOW_S: z.coerce.number().int().positive().default(60),
  /** Failed password checks per account (any IP) before it is locked; 0 turns the account throttle off. */
  ACCOUNT_FAIL_LIMIT: z.coerce.number().int().min(0).default(10),
  ACCOUNT_FAIL_WINDOW_S: z.coerce.number().int().positive().default(15 * 60),
  ACCOUNT_LOCKOUT_S: z.coerce.number().int().positive().default(15 * 60),
  /** Signups per client IP per window; 0 turns the limit off. */
  SIGNUP_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
  SIGNUP_RATE_WINDOW_S: z.coerce.number().int().positive().default(60 * 60),
  /** Live task streams (GET /api/todo/events) one session may hold at once; more are answered 429. */
  EVENTS_MAX_PER_SESSION: z.coerce.number().int().positive().default(5),
  /**
   * Live task streams one user (all their sessions) and one client address (IPv4, or IPv6 /64) may hold at
   * once in a gateway process; more are answered 429 (issue #21: one account, or one client with many
   * accounts, must not take every stream of a process). A person with a phone, a laptop and a few tabs
   * holds a handful; an office behind one address, a few dozen.
   */
  EVENTS_MAX_PER_USER: z.coerce.number().int().positive().default(10),
  EVENTS_MAX_PER_ADDRESS: z.coerce.number().int().positive().default(100),
  /**
   * Live task streams this gateway process holds at most; more are answered 503 (another instance takes them).
   * Sized by measurement (docs/CAPACITY.md "Open streams, measured"; `node perf/capacity/streams.mjs`, figures in
   * perf/capacity/streams.json): an idle stream costs the gateway about 34 KiB of resident memory (26 KiB of it
   * V8 heap) and 5 ms of CPU a second per 1 000 (relayed pings, session checks). Memory binds first: half of
   * the pod's 384 MiB (deploy/k8s/gateway.yaml) for streams is ~5 700 of them, the CPU budget (a quarter of a
   * core) would allow ~50 000. It also stays below MAX_CONNECTIONS (each stream is a client connection) and
   * half the open-files limit (each is two files, client and upstream).
   */
  EVENTS_MAX_STREAMS: z.coerce.number().int().positive().default(5_500),
  /** How often each open stream's session is looked up again, to end streams whose session ended elsewhere. */
  EVENTS_SESSION_CHECK_MS: z.coerce.number().int().positive().default(15_000),
  /**
   * `POST /api/rum` (rum.routes.ts, docs/OPERATIONS.md "What users feel (RUM)"): reports one client address may
   * send per window (429 beyond; 0 turns the limit off), and the distinct routes kept as labels.
   */
  RUM_RATE_LIMIT: z.coerce.number().int().min(0).default(DEFAULT_RUM_LIMITS.rateLimit.points),
  RUM_RATE_WINDOW_S: z.coerce.number().int().positive().default(DEFAULT_RUM_LIMITS.rateLimit.windowSeconds),
  RUM_MAX_ROUTES: z.coerce.number().int().min(1).max(1000).default(DEFAULT_RUM_LIMITS.maxRoutes),
  /**
   * The app's address as people reach it (`https://tasks.example.com`): the password reset links in mails
   * point there (password-reset.routes.ts). Unset: the address the gateway listens on, as the socket says
   * (never the request's Host header, which a caller chooses). Set it wherever a proxy or TLS is in front.
   */
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
  /** Built frontends to serve in all-in-one mode (`pnpm start`); unset when nginx serves them. */
  SHELL_DIST: optionalText,
  /** The remotes to serve under /remotes/<key>/: `auth=mfe-auth/dist,tasks=mfe-tasks/dist` (relative to the working folder). */
  REMOTES: optionalText.transform((text, ctx) => {
    if (text === undefined) return undefined;
    try {
      return parseRemoteList(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }),
  /** A JSON file of key → folder, read again when it changes (add, redeploy, roll back a remote without a restart); replaces REMOTES. */
  REMOTES_FILE: optionalText,
  /** A whole catalog (JSON) served as /remotes.json instead of the one made from the remotes' remote.json. */
  REMOTES_CATALOG: optionalText.transform((text, ctx) => {
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `not JSON: ${(error as Error).message}` });
      return z.NEVER;
    }
    const check = checkRemoteCatalog(value);
    if (check.ok) return check.catalog;
    ctx.addIssue({ code: 'custom', message: check.problems.join('; ') });
    return z.NEVER;
  }),
  /**
   * Lets a browser load a remote from a team's machine instead of the catalog's build, for that browser only
   * (issue #19; docs/ADDING_A_REMOTE.md "Trying your remote against the real shell"): `off` (the default),
   * `on` (from this machine: http://127.0.0.1:* and http://localhost:*), or a comma-separated list of origins
   * (`on` among them adds those two). The gateway writes them into /remotes.json and the Content-Security-Policy.
   */
  REMOTE_OVERRIDES: optionalText.transform((text, ctx) => {
    const items = listOf(text);
    if (items.length === 0 || (items.length === 1 && items[0]?.toLowerCase() === 'off')) return undefined;
    const origins: string[] = [];
    for (const item of items) {
      const checks = item.toLowerCase() === 'on' ? LOOPBACK_OVERRIDE_ORIGINS.map((origin) => checkOriginPattern(origin)) : [checkOriginPattern(item)];
      for (const check of checks) {
        if (!check.ok) ctx.addIssue({ code: 'custom', message: `${check.problem}; expected off, on, or a list of origins` });
        else if (!origins.includes(check.pattern)) origins.push(check.pattern);
      }
    }
    return origins;
  }),
});

export interface GatewayConfig {
  nodeEnv: string;
  logLevel: string;
  host: string;
  port: number;
  /** Where the ops routes listen (`/healthz`, `/readyz`, `/metrics`). */
  ops: { host: string; port: number };
  dataDir: string;
  usersUrl: string;
  todosUrl: string;
  redisUrl: string | undefined;
  sessionKeys: string[];
  internalSecret: string;
  session: { idleTimeoutMs: number; absoluteTimeoutMs: number };
  allowedOrigins: string[];
  trustProxy: boolean;
  /** Proxies in front, when `trustProxy` (Koa's `maxIpsCount`). */
  trustProxyHops: number;
  /** Limits on client connections (the server's) and request heads (the app's). */
  clients: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    maxHeaderBytes: number;
    maxHeaderCount: number;
    maxConnections: number;
    maxConnectionsPerAddress: number;
    keepAliveTimeoutMs: number;
  };
  upstreamTimeoutMs: number;
  authRateLimit: { points: number; windowSeconds: number };
  signupRateLimit: { points: number; windowSeconds: number };
  accountThrottle: { failLimit: number; windowSeconds: number; lockoutSeconds: number };
  events: { maxPerSession: number; maxPerUser: number; maxPerAddress: number; maxStreams: number; sessionCheckMs: number };
  rum: RumLimits;
  /** PUBLIC_URL without a trailing slash; undefined: the address the gateway listens on. */
  publicUrl: string | undefined;
  web: {
    shell?: string;
    /** `REMOTES_FILE` (read again when it changes) or else `REMOTES` (a fixed list); neither: no remotes are served. */
    remotes?: { list: RemoteList } | { file: string };
    catalog?: RemoteCatalog;
    /** REMOTE_OVERRIDES: the origins a browser may load a remote from instead of the catalog's; none when off. */
    overrideOrigins?: string[];
  };
  shutdownDrainMs: number;
  /** STARTUP_STORE_TIMEOUT_MS, STARTUP_LISTEN_TIMEOUT_MS (service-kit startup.ts). */
  startup: StartupBounds;
}

/** Reads and checks the gateway's environment; local runs get generated secrets from `DATA_DIR`. */
export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(GatewayEnv, env);
  const local = () => localSecrets(parsed.DATA_DIR);
  const keys = requireSecret('SESSION_KEYS', parsed.SESSION_KEYS, parsed.NODE_ENV, () => local().sessionKeys.join(','));
  return {
    nodeEnv: parsed.NODE_ENV,
    logLevel: parsed.LOG_LEVEL,
    host: parsed.HOST,
    port: parsed.PORT,
    ops: { host: parsed.OPS_HOST ?? parsed.HOST, port: parsed.OPS_PORT },
    dataDir: parsed.DATA_DIR,
    usersUrl: parsed.USERS_URL ?? `http://127.0.0.1:${parsed.USERS_PORT}`,
    todosUrl: parsed.TODOS_URL ?? `http://127.0.0.1:${parsed.TODOS_PORT}`,
    redisUrl: parsed.REDIS_URL,
    sessionKeys: listOf(keys),
    internalSecret: requireSecret('INTERNAL_SECRET', parsed.INTERNAL_SECRET, parsed.NODE_ENV, () => local().internalSecret),
    session: { idleTimeoutMs: parsed.SESSION_IDLE_TIMEOUT_MS, absoluteTimeoutMs: parsed.SESSION_ABSOLUTE_TIMEOUT_MS },
    allowedOrigins: parsed.ALLOWED_ORIGINS.map((origin) => new URL(origin).origin),
    trustProxy: parsed.TRUST_PROXY,
    trustProxyHops: parsed.TRUST_PROXY_HOPS,
    clients: {
      headersTimeoutMs: parsed.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: Math.max(parsed.REQUEST_TIMEOUT_MS, parsed.HEADERS_TIMEOUT_MS),
      maxHeaderBytes: parsed.MAX_HEADER_BYTES,
      maxHeaderCount: parsed.MAX_HEADER_COUNT,
      maxConnections: parsed.MAX_CONNECTIONS,
      maxConnectionsPerAddress: parsed.TRUST_PROXY ? 0 : parsed.MAX_CONNECTIONS_PER_ADDRESS,
      keepAliveTimeoutMs: parsed.KEEP_ALIVE_TIMEOUT_MS ?? (parsed.TRUST_PROXY ? 65_000 : 5_000),
    },
    upstreamTimeoutMs: parsed.UPSTREAM_TIMEOUT_MS,
    authRateLimit: { points: parsed.AUTH_RATE_LIMIT, windowSeconds: parsed.AUTH_RATE_WINDOW_S },
    signupRateLimit: { points: parsed.SIGNUP_RATE_LIMIT, windowSeconds: parsed.SIGNUP_RATE_WINDOW_S },
    accountThrottle: {
      failLimit: parsed.ACCOUNT_FAIL_LIMIT,
      windowSeconds: parsed.ACCOUNT_FAIL_WINDOW_S,
      lockoutSeconds: parsed.ACCOUNT_LOCKOUT_S,
    },
    events: {
      maxPerSession: parsed.EVENTS_MAX_PER_SESSION,
      maxPerUser: parsed.EVENTS_MAX_PER_USER,
      maxPerAddress: parsed.EVENTS_MAX_PER_ADDRESS,
      maxStreams: parsed.EVENTS_MAX_STREAMS,
      sessionCheckMs: parsed.EVENTS_SESSION_CHECK_MS,
    },
    rum: { rateLimit: { points: parsed.RUM_RATE_LIMIT, windowSeconds: parsed.RUM_RATE_WINDOW_S }, maxRoutes: parsed.RUM_MAX_ROUTES },
    publicUrl: parsed.PUBLIC_URL?.replace(/\/+$/, ''),
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
    startup: startupBounds(parsed),
    web: {
      shell: absolute(parsed.SHELL_DIST),
      ...(parsed.REMOTES_FILE ? { remotes: { file: path.resolve(parsed.REMOTES_FILE) } } : parsed.REMOTES ? { remotes: { list: parsed.REMOTES } } : {}),
      ...(parsed.REMOTES_CATALOG ? { catalog: parsed.REMOTES_CATALOG } : {}),
      ...(parsed.REMOTE_OVERRIDES ? { overrideOrigins: parsed.REMOTE_OVERRIDES } : {}),
    },
  };
}
