import type { Logger } from '@tm/service-kit';
import { connectRedis, type RedisClient } from './redis-connection.js';
import { RedisSessionStore } from './redis-session.store.js';
import type { SessionStore } from './session.repository.js';
import { SqliteSessionStore } from './sqlite-session.store.js';

export interface OpenedSessionStore {
  store: SessionStore;
  redis?: RedisClient;
}

/** Redis when `REDIS_URL` is set (shared by every gateway instance), else the embedded SQLite store. */
export async function openSessionStore(opts: { redisUrl?: string; dataDir: string; logger: Logger }): Promise<OpenedSessionStore> {
  if (opts.redisUrl) {
    const redis = await connectRedis(opts.redisUrl);
    opts.logger.info('sessions in Redis');
    return { store: new RedisSessionStore(redis), redis };
  }
  opts.logger.info({ dataDir: opts.dataDir }, 'sessions in embedded SQLite store');
  return { store: SqliteSessionStore.open(opts.dataDir) };
}
