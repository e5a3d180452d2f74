import { BaseEnv, loadConfig, localSecrets, optionalText, port, requireSecret } from '@tm/service-kit';
import path from 'node:path';
import { z } from 'zod';

const absolute = (dir: string | undefined) => (dir ? path.resolve(dir) : undefined);

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const GatewayEnv = BaseEnv.extend({
  PORT: port(8080),
  USERS_URL: z.url().default('http://127.0.0.1:4001'),
  TODOS_URL: z.url().default('http://127.0.0.1:4002'),
  REDIS_URL: optionalText.pipe(z.url().optional()),
  /** Comma-separated; the first signs new cookies, all verify (rotation). */
  SESSION_KEYS: optionalText,
  INTERNAL_SECRET: optionalText,
  SESSION_MAX_AGE_MS: z.coerce.number().int().positive().default(7 * 24 * 60 * 60 * 1000),
  /** Behind a TLS-terminating proxy: trust X-Forwarded-* (client IP, https → Secure cookies). */
  TRUST_PROXY: booleanFlag.default(false),
  /** Answer 504 before the browser's 10 s timeout (PRODUCT §9). */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  /** Login + signup attempts per client IP per window; 0 turns the limit off. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  AUTH_RATE_WINDOW_S: z.coerce.number().int().positive().default(60),
  /** Built frontends to serve in all-in-one mode (`pnpm start`); unset when nginx serves them. */
  SHELL_DIST: optionalText,
  AUTH_DIST: optionalText,
  TASKS_DIST: optionalText,
});

export interface GatewayConfig {
  nodeEnv: string;
  logLevel: string;
  host: string;
  port: number;
  dataDir: string;
  usersUrl: string;
  todosUrl: string;
  redisUrl: string | undefined;
  sessionKeys: string[];
  internalSecret: string;
  sessionMaxAgeMs: number;
  trustProxy: boolean;
  upstreamTimeoutMs: number;
  authRateLimit: { points: number; windowSeconds: number };
  web: { shell?: string; auth?: string; tasks?: string };
  shutdownDrainMs: number;
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
    dataDir: parsed.DATA_DIR,
    usersUrl: parsed.USERS_URL,
    todosUrl: parsed.TODOS_URL,
    redisUrl: parsed.REDIS_URL,
    sessionKeys: keys.split(',').map((key) => key.trim()).filter(Boolean),
    internalSecret: requireSecret('INTERNAL_SECRET', parsed.INTERNAL_SECRET, parsed.NODE_ENV, () => local().internalSecret),
    sessionMaxAgeMs: parsed.SESSION_MAX_AGE_MS,
    trustProxy: parsed.TRUST_PROXY,
    upstreamTimeoutMs: parsed.UPSTREAM_TIMEOUT_MS,
    authRateLimit: { points: parsed.AUTH_RATE_LIMIT, windowSeconds: parsed.AUTH_RATE_WINDOW_S },
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
    web: { shell: absolute(parsed.SHELL_DIST), auth: absolute(parsed.AUTH_DIST), tasks: absolute(parsed.TASKS_DIST) },
  };
}
