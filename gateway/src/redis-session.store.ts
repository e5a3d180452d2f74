import { createClient } from 'redis';
import type { SessionData, SessionStore } from './session.store.js';

export type RedisClient = ReturnType<typeof createClient>;

const PREFIX = 'tm:sess:';

/** Connects the `redis` client used for sessions (and rate limits); fails fast when Redis is unreachable. */
export async function connectRedis(url: string): Promise<RedisClient> {
  const client = createClient({
    url,
    socket: { connectTimeout: 5000, reconnectStrategy: (retries) => Math.min(retries * 100, 2000) },
  });
  // Without a listener a connection error would crash the process; readiness reports it instead.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Sessions in Redis with a TTL, shared by every gateway instance. */
export function redisSessionStore(client: RedisClient): SessionStore {
  return {
    async get(id) {
      const raw = await client.get(PREFIX + id);
      return raw ? (JSON.parse(raw) as SessionData) : undefined;
    },
    async set(id, data, maxAgeMs) {
      await client.set(PREFIX + id, JSON.stringify(data), { PX: Math.max(1, Math.round(maxAgeMs)) });
    },
    async destroy(id) {
      await client.del(PREFIX + id);
    },
    async ping() {
      return (await client.ping()) === 'PONG';
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
