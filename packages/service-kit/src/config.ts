import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StartupFailure } from './startup.js';

/**
 * Parses the environment with `schema`; on failure throws one readable error naming every bad variable,
 * so a misconfigured process stops at boot instead of failing on the first request.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
}

/** An empty variable (`MONGO_URL=` in a compose file) means "not set", not "invalid". */
export const optionalText = z
  .string()
  .optional()
  .transform((value) => value || undefined);

/** A TCP port; empty or non-numeric is an error (a blank `PORT=` must not silently become port 0). */
export function port(defaultPort: number) {
  return z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(65_535))
    .default(defaultPort);
}

/** Environment variables every process reads. */
export const BaseEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` or `pretty`; unset: readable in a terminal, JSON elsewhere (read by createLogger). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * After SIGTERM the listener closes at once; requests on already open connections are still served (with
   * `Connection: close`) for this long before idle connections are cut. Set it above the load balancer's
   * upstream keep-alive idle timeout. 0 locally; a few seconds behind nginx or in Kubernetes.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(8000).default(0),
  /**
   * Start-up bound (startup.ts): opening the store (an SQLite file and its schema, MongoDB, the gateway's
   * Redis) must finish within this, or the process logs what it was waiting on and exits 1. Sized by the
   * deployment: with LISTEN_TIMEOUT_MS (startup.ts) it stays inside the Kubernetes startupProbe's 60 s.
   */
  STARTUP_STORE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
});

const LocalSecrets = z.object({ internalSecret: z.string().min(32), sessionKeys: z.array(z.string().min(32)).min(1) });
export type LocalSecrets = z.infer<typeof LocalSecrets>;

/**
 * Secrets for local use when none are configured: created once, at random, in `DATA_DIR/secrets.json`
 * and shared by every process reading the same folder. Never a fixed default that could leak into
 * production; production refuses to start without real secrets (see {@link requireSecret}).
 */
export function localSecrets(dataDir: string): LocalSecrets {
  return localSecretFile(dataDir, 'secrets.json', LocalSecrets, () => ({
    internalSecret: randomBytes(32).toString('base64url'),
    sessionKeys: [randomBytes(32).toString('base64url')],
  }));
}

/**
 * A file of local secrets under `dataDir` (owner-only), made by `make` the first time and read as `schema`
 * afterwards; processes starting together agree on one file (write, then hard-link: an atomic create).
 */
export function localSecretFile<T>(dataDir: string, name: string, schema: z.ZodType<T>, make: () => T): T {
  const file = path.join(dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  try {
    return schema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(make()), { mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  return schema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The configured secret, or (outside production) the local one; in production a missing secret is fatal. */
export function requireSecret(name: string, value: string | undefined, nodeEnv: string, local: () => string): string {
  if (value) {
    if (value.length < 32) throw new Error(`Invalid configuration:\n  ${name}: must be at least 32 characters`);
    return value;
  }
  if (nodeEnv === 'production') throw new Error(`Invalid configuration:\n  ${name}: is required in production`);
  return local();
}

/**
 * Where each internal service listens: a variable of its own, so that `PORT`, which every process sees in
 * `npm start`, moves only the app's public port (the gateway's). The gateway finds a service through the
 * same variable when its `USERS_URL` / `TODOS_URL` is not set.
 */
export const SERVICE_PORTS = {
  users: { variable: 'USERS_PORT', defaultPort: 4001 },
  todos: { variable: 'TODOS_PORT', defaultPort: 4002 },
} as const;

export type ServicePort = (typeof SERVICE_PORTS)[keyof typeof SERVICE_PORTS];

/** Environment of an internal service (svc-users, svc-todos), besides its port variable. */
const ServiceEnv = BaseEnv.extend({
  MONGO_URL: optionalText,
  MONGO_DB: z.string().min(1).default('task_manager'),
  INTERNAL_SECRET: optionalText,
});

export type ServiceConfig = Omit<z.infer<typeof ServiceEnv>, 'INTERNAL_SECRET'> & {
  /** The listening port, read from the service's own variable ({@link SERVICE_PORTS}). */
  PORT: number;
  INTERNAL_SECRET: string;
};

/**
 * A service's environment, checked at boot: one readable error naming every bad variable; in production a
 * missing INTERNAL_SECRET is fatal, elsewhere the shared local secret under DATA_DIR is used.
 */
export function loadServiceConfig(listen: ServicePort, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const schema = ServiceEnv.extend({ [listen.variable]: port(listen.defaultPort) });
  const config = loadConfig(schema, env) as z.infer<typeof ServiceEnv> & Record<string, unknown>;
  const INTERNAL_SECRET = requireSecret('INTERNAL_SECRET', config.INTERNAL_SECRET, config.NODE_ENV, () =>
    localSecrets(config.DATA_DIR).internalSecret,
  );
  const { [listen.variable]: listening, ...rest } = config;
  return { ...rest, PORT: listening as number, INTERNAL_SECRET };
}

/**
 * Runs a process's `main`; any start-up failure (bad config, unreachable store) goes to stderr, which exists
 * even when the logger does not, unless it is a {@link StartupFailure} already logged; the process exits 1.
 */
export function runMain(name: string, main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    // A start-up step that did not finish (startup.ts) has logged its own line already.
    const logged = error instanceof StartupFailure && error.logged;
    if (!logged) process.stderr.write(`${name}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
