import { SessionEndReason } from '@tm/contracts';
import { withinRedisTimeout, type RedisClient } from './redis-connection.js';
import type { SessionData, SessionEnding, SessionStore } from './session.repository.js';

const PREFIX = 'tm:sess:';
/** A set per user of the ids of its sessions; an id whose session has already expired in it is harmless. */
const USER_PREFIX = 'tm:user-sess:';
/** Why a signed-in session ended: a string key per ended session id, with its own time to live. */
const END_PREFIX = 'tm:sess-end:';

/** Whole milliseconds, at least 1 (Redis refuses a PX of 0). */
const ttlOf = (ms: number) => Math.max(1, Math.round(ms));

/** Sessions in Redis with a TTL, shared by every gateway instance. */
export class RedisSessionStore implements SessionStore {
  constructor(private readonly client: RedisClient) {}

  async get(id: string): Promise<SessionData | undefined> {
    const raw = await withinRedisTimeout(this.client.get(PREFIX + id));
    return raw ? (JSON.parse(raw) as SessionData) : undefined;
  }

  async set(id: string, data: SessionData, maxAgeMs: number): Promise<void> {
    const ttl = ttlOf(maxAgeMs);
    const write = this.client.multi().set(PREFIX + id, JSON.stringify(data), { PX: ttl });
    // The user's index lives as long as its newest session (every session has the same time to live).
    if (data.userId) write.sAdd(USER_PREFIX + data.userId, id).pExpire(USER_PREFIX + data.userId, ttl);
    await withinRedisTimeout(write.exec());
  }

  async destroy(id: string): Promise<void> {
    await withinRedisTimeout(this.client.del(PREFIX + id));
  }

  async destroyUserSessions(userId: string, ending?: SessionEnding): Promise<number> {
    const ids = await withinRedisTimeout(this.client.sMembers(USER_PREFIX + userId));
    if (ids.length === 0) return 0;
    const keys = ids.map((id) => PREFIX + id);
    // Only the sessions still there get a record of why they ended: an id whose session expired gets none.
    const sessions = ending ? await withinRedisTimeout(this.client.mGet(keys)) : [];
    // Only the ids read are dropped from the index: a session opened meanwhile stays findable.
    const write = this.client.multi().del(keys).sRem(USER_PREFIX + userId, ids);
    if (ending) {
      ids.forEach((id, index) => {
        const raw = sessions[index];
        if (!raw || id === ending.unrecorded) return;
        write.set(END_PREFIX + id, ending.reason, { PX: ttlOf(ending.keepForMs(JSON.parse(raw) as SessionData)) });
      });
    }
    const [removed] = await withinRedisTimeout(write.exec());
    return Number(removed);
  }

  async recordEnd(id: string, reason: SessionEndReason, keepForMs: number): Promise<void> {
    await withinRedisTimeout(this.client.set(END_PREFIX + id, reason, { PX: ttlOf(keepForMs) }));
  }

  async endReason(id: string): Promise<SessionEndReason | undefined> {
    const raw = await withinRedisTimeout(this.client.get(END_PREFIX + id));
    const parsed = SessionEndReason.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  async ping(): Promise<boolean> {
    return (await withinRedisTimeout(this.client.ping())) === 'PONG';
  }

  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
  }
}
