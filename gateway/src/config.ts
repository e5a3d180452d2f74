import { BaseEnv, loadConfig, localSecrets, optionalText, port, requireSecret, SERVICE_PORTS, startupBounds, type StartupBounds } from '@tm/service-kit';
import path from 'node:path';
import { checkOriginPattern, checkRemoteCatalog, LOOPBACK_OVERRIDE_ORIGINS, type RemoteCatalog } from '@tm/contracts';
import { z } from 'zod';
import { parseRemoteList, type RemoteList } from './remote-folders.js';

const absolute = (dir: string | undefined) => (dir ? path.resolve(dir) : undefined);

const DAY_MS = 24 * 60 * 60 * 1000;

// What the gateway does not take from its environment: the same for every deployment, each with its reason
// (the settings below are only what an operator has a reason to change: ports, addresses, secrets, and the
// limits sized by the machine or by the deployment). Tests pass other values in-process (GatewayDeps).

/** Sessions (SECURITY.md "Sessions"): end 7 days unused, and 30 days after sign-in however much they are used. */
export const SESSION_LIFETIME = { idleTimeoutMs: 7 * DAY_MS, absoluteTimeoutMs: 30 * DAY_MS } as const;

/**
 * What one client connection may hold (SECURITY.md "Limits and timeouts"): a browser sends its request's head
 * at once, 10 s covers the slowest link; the largest body (LIMITS.bodyBytes) arrives well within 30 s; 8 KiB
 * of head (Node's default, and nginx's in deploy/nginx/lb.conf) and 100 headers are more than any browser sends.
 */
export const CLIENT_REQUEST_LIMITS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxHeaderBytes: 8192, maxHeaderCount: 100 } as const;

/**
 * Connections one client address (IPv4, or IPv6 /64) may hold at once when the gateway faces clients directly:
 * a browser opens at most 6 to a host, so 256 is some 40 browsers behind one NAT. Behind a trusted proxy there
 * is no such cap (every connection is the proxy's, and the proxy caps clients: deploy/nginx/lb.conf).
 */
export const CONNECTIONS_PER_ADDRESS = 256;

/**
 * Idle keep-alive connections: behind a proxy longer than a load balancer's usual upstream idle time (60 s), so
 * the proxy closes them, never the gateway under a request; browsers connecting directly get Node's 5 s (an
 * idle socket is a file descriptor, counted against its address).
 */
export const KEEP_ALIVE_MS = { behindProxy: 65_000, direct: 5_000 } as const;

/** A service slower than this is answered 504, before the browser's own 10 s timeout (docs/PRODUCT.md §9). */
export const UPSTREAM_TIMEOUT_MS = 8000;

/** AUTH_RATE_LIMIT counts sign-in and sign-up attempts per client address per minute. */
export const AUTH_RATE_WINDOW_S = 60;

/**
 * Wrong passwords for one account (from clients it does not know) that lock it, within 15 minutes, for 15
 * minutes (SECURITY.md "Throttling"): counted per account, not per address, so no deployment changes it.
 */
export const ACCOUNT_THROTTLE = { failLimit: 10, windowSeconds: 15 * 60, lockoutSeconds: 15 * 60 } as const;

/**
 * Live task streams (GET /api/todo/events; SECURITY.md "Limits and timeouts") one session, one user and one
 * client address may hold: a person with five tabs holds five on one session, with a phone and a laptop about
 * ten, an office behind one address a few dozen. Each open stream's session is read again every 15 s, so a
 * session ended elsewhere closes its streams within that (a store read per stream per 15 s: docs/CAPACITY.md
 * "Open streams, measured").
 */
export const LIVE_STREAMS = { maxPerSession: 5, maxPerUser: 10, maxPerAddress: 100, sessionCheckMs: 15_000 } as const;

/**
 * The signups one client address may make per hour, from AUTH_RATE_LIMIT (sign-in attempts per minute): half
 * of it, 10 for the default 20. Both are sized by how many people share one address (an office behind one
 * NAT), so they move together; 0 turns both off.
 */
export function signupsPerHour(authRateLimit: number): number {
  return Math.ceil(authRateLimit / 2);
}

function listOf(text: string | undefined): string[] {
  return (text ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/** `TRUST_PROXY`: `false` (or `0`, or unset): no proxy; `true`: one; a number from 1 to 10: that many proxies in front. */
const proxyHops = optionalText.transform((text, ctx) => {
  const value = text?.toLowerCase();
  if (value === undefined || value === 'false' || value === '0') return 0;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
  ctx.addIssue({ code: 'custom', message: 'expected false, true, or the number of proxies in front (1 to 10)' });
  return z.NEVER;
});

const GatewayEnv = BaseEnv.extend({
  /** The app's public port: the only process that reads `PORT` (`PORT=3000 npm start`). */
  PORT: port(8080),
  /**
   * The port of `/readyz` and `/metrics` (and `/healthz`) for probes and Prometheus, kept off the app's public
   * port (SECURITY.md "Limits and timeouts"); on HOST like the app's.
   */
  OPS_PORT: port(9181),
  /** Where the services are; unset, the local service on its port variable (`USERS_PORT`, `TODOS_PORT`). */
  USERS_URL: optionalText.pipe(z.url().optional()),
  TODOS_URL: optionalText.pipe(z.url().optional()),
  USERS_PORT: port(SERVICE_PORTS.users.defaultPort),
  TODOS_PORT: port(SERVICE_PORTS.todos.defaultPort),
  REDIS_URL: optionalText.pipe(z.url().optional()),
  /** Comma-separated; the first signs new cookies, all verify (rotation). */
  SESSION_KEYS: optionalText,
  INTERNAL_SECRET: optionalText,
  /** Extra origins allowed to write (besides the gateway's own), comma-separated: `https://app.example.com`. */
  ALLOWED_ORIGINS: optionalText.transform(listOf).pipe(z.array(z.url({ protocol: /^https?$/ }))),
  /**
   * Behind a TLS-terminating proxy: trust X-Forwarded-* (client address, https → Secure cookies), with how many
   * proxies stand in front (`true`: one, a load balancer; `2`: a CDN and a load balancer). The client's address
   * is the entry that many places from the right of X-Forwarded-For: what the farthest trusted proxy saw.
   * Entries further left are the client's own words and never trusted.
   */
  TRUST_PROXY: proxyHops,
  /**
   * Client connections open at once in this process (SECURITY.md "Limits and timeouts"), sized by the machine:
   * keep it below the process's open-files limit; 0 turns the cap off.
   */
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(10_000),
  /** Sign-in and sign-up attempts per client address per minute (signups: half of it per hour); 0 turns both limits off. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
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
   * (docs/ADDING_A_REMOTE.md "Trying your remote against the real shell"): `off` (the default),
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
  /** Where the ops routes listen (`/healthz`, `/readyz`, `/metrics`): OPS_PORT on HOST. */
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
  /** STARTUP_STORE_TIMEOUT_MS, and the fixed bound of binding a port (service-kit startup.ts). */
  startup: StartupBounds;
}

/** Reads and checks the gateway's environment; local runs get generated secrets from `DATA_DIR`. */
export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(GatewayEnv, env);
  const local = () => localSecrets(parsed.DATA_DIR);
  const keys = requireSecret('SESSION_KEYS', parsed.SESSION_KEYS, parsed.NODE_ENV, () => local().sessionKeys.join(','));
  const trustProxy = parsed.TRUST_PROXY > 0;
  return {
    nodeEnv: parsed.NODE_ENV,
    logLevel: parsed.LOG_LEVEL,
    host: parsed.HOST,
    port: parsed.PORT,
    ops: { host: parsed.HOST, port: parsed.OPS_PORT },
    dataDir: parsed.DATA_DIR,
    usersUrl: parsed.USERS_URL ?? `http://127.0.0.1:${parsed.USERS_PORT}`,
    todosUrl: parsed.TODOS_URL ?? `http://127.0.0.1:${parsed.TODOS_PORT}`,
    redisUrl: parsed.REDIS_URL,
    sessionKeys: listOf(keys),
    internalSecret: requireSecret('INTERNAL_SECRET', parsed.INTERNAL_SECRET, parsed.NODE_ENV, () => local().internalSecret),
    session: { ...SESSION_LIFETIME },
    allowedOrigins: parsed.ALLOWED_ORIGINS.map((origin) => new URL(origin).origin),
    trustProxy,
    trustProxyHops: Math.max(1, parsed.TRUST_PROXY),
    clients: {
      ...CLIENT_REQUEST_LIMITS,
      maxConnections: parsed.MAX_CONNECTIONS,
      // MAX_CONNECTIONS=0 lifts both caps (a test stack: every client is this machine).
      maxConnectionsPerAddress: trustProxy || parsed.MAX_CONNECTIONS === 0 ? 0 : CONNECTIONS_PER_ADDRESS,
      keepAliveTimeoutMs: trustProxy ? KEEP_ALIVE_MS.behindProxy : KEEP_ALIVE_MS.direct,
    },
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
    authRateLimit: { points: parsed.AUTH_RATE_LIMIT, windowSeconds: AUTH_RATE_WINDOW_S },
    signupRateLimit: { points: signupsPerHour(parsed.AUTH_RATE_LIMIT), windowSeconds: 60 * 60 },
    accountThrottle: { ...ACCOUNT_THROTTLE },
    events: { ...LIVE_STREAMS, maxStreams: parsed.EVENTS_MAX_STREAMS },
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
