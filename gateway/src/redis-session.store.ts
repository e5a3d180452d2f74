import { withinRedisTimeout, type RedisClient } from './redis-connection.js';
import type { SessionData, SessionStore } from './session.repository.js';

const PREFIX = 'tm:sess:';
/** A set per user of the ids of its sessions; an id whose session has already expired in it is harmless. */
const USER_PREFIX = 'tm:user-sess:';

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
