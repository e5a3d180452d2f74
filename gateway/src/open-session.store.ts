import path from 'node:path';
import type { Logger, OpeningProgress } from '@tm/service-kit';
import { connectRedis, type RedisClient } from './redis-connection.js';
import { RedisSessionStore } from './redis-session.store.js';
import type { SessionStore } from './session.repository.js';
import { SQLITE_FILE, SqliteSessionStore } from './sqlite-session.store.js';

export interface OpenedSessionStore {
  store: SessionStore;
  redis?: RedisClient;
}

/**
 * Redis when `REDIS_URL` is set (shared by every gateway instance), else the embedded SQLite store. `opening`:
 * the start-up's bound (server.ts); the Redis client retries a refused connection for ever, so without it a
 * gateway whose Redis is down at start would wait silently.
 */
export async function openSessionStore(opts: { redisUrl?: string; dataDir: string; logger: Logger; opening?: OpeningProgress }): Promise<OpenedSessionStore> {
  if (opts.redisUrl) {
    const redis = await connectRedis(opts.redisUrl);
    opts.logger.info('sessions in Redis');
    return { store: new RedisSessionStore(redis), redis };
  }
  opts.logger.info({ dataDir: opts.dataDir }, 'sessions in embedded SQLite store');
  return { store: SqliteSessionStore.open(opts.dataDir, { opening: opts.opening }) };
}

/** What opening the session store waits on, for the start-up's line: never the URL's user name or password. */
export function sessionStoreWaitingOn(opts: { redisUrl?: string; dataDir: string }): string {
  if (!opts.redisUrl) return `the SQLite file ${path.resolve(opts.dataDir, SQLITE_FILE)}`;
  let address = '(REDIS_URL)';
  try {
    const { hostname, port } = new URL(opts.redisUrl);
    address = `${hostname}:${port || '6379'}`;
  } catch {
    // Checked by the configuration already; the line then names the variable.
  }
  return `Redis at ${address} (the session store; its client retries until Redis answers)`;
}
