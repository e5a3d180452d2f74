import { createClient } from 'redis';
import type { SessionData, SessionStore } from './session.store.js';

export type RedisClient = ReturnType<typeof createClient>;

const PREFIX = 'tm:sess:';
/** A set per user of the ids of its sessions; an id whose session has already expired in it is harmless. */
const USER_PREFIX = 'tm:user-sess:';
/** A Redis that does not answer within this long counts as down (the request gets a 503 at once). */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** Connects the `redis` client used for sessions (and rate limits); fails fast when Redis is unreachable. */
export async function connectRedis(url: string): Promise<RedisClient> {
  const client = createClient({
    url,
    // While disconnected, commands fail at once instead of queueing: a request then gets an honest 503 in
    // milliseconds rather than hanging until Redis is back (docs/RELIABILITY.md).
    disableOfflineQueue: true,
    socket: { connectTimeout: 5000, reconnectStrategy: (retries) => Math.min(retries * 100, 2000) },
  });
  // Without a listener a connection error would crash the process; readiness reports it instead.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Rejects when `work` has not settled in {@link REDIS_COMMAND_TIMEOUT_MS} (a Redis that accepts but never answers). */
function withinRedisTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`)), REDIS_COMMAND_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Sessions in Redis with a TTL, shared by every gateway instance. */
export class RedisSessionStore implements SessionStore {
  constructor(private readonly client: RedisClient) {}

  async get(id: string): Promise<SessionData | undefined> {
    const raw = await withinRedisTimeout(this.client.get(PREFIX + id));
    return raw ? (JSON.parse(raw) as SessionData) : undefined;
  }

  async set(id: string, data: SessionData, maxAgeMs: number): Promise<void> {
    const ttl = Math.max(1, Math.round(maxAgeMs));
    const write = this.client.multi().set(PREFIX + id, JSON.stringify(data), { PX: ttl });
    // The user's index lives as long as its newest session (every session has the same time to live).
    if (data.userId) write.sAdd(USER_PREFIX + data.userId, id).pExpire(USER_PREFIX + data.userId, ttl);
    await withinRedisTimeout(write.exec());
  }

  async destroy(id: string): Promise<void> {
    await withinRedisTimeout(this.client.del(PREFIX + id));
  }

  async destroyUserSessions(userId: string): Promise<number> {
    const ids = await withinRedisTimeout(this.client.sMembers(USER_PREFIX + userId));
    if (ids.length === 0) return 0;
    const [removed] = await withinRedisTimeout(
      // Only the ids read are dropped from the index: a session opened meanwhile stays findable.
      this.client.multi().del(ids.map((id) => PREFIX + id)).sRem(USER_PREFIX + userId, ids).exec(),
    );
    return Number(removed);
  }

  async ping(): Promise<boolean> {
    return (await withinRedisTimeout(this.client.ping())) === 'PONG';
  }

  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
  }
}
