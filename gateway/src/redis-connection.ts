import { createClient } from 'redis';

/** The gateway's one Redis connection, shared by the session store and the rate limiters (app.ts wires it). */
export type RedisClient = ReturnType<typeof createClient>;

/** A Redis that does not answer within this long counts as down (the request gets a 503 at once). */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** Connects the `redis` client used for sessions (and rate limits); fails fast when Redis is unreachable. */
export async function connectRedis(url: string): Promise<RedisClient> {
  const client = createClient({
    url,
    // While disconnected, commands fail at once instead of queueing: a request then gets an honest 503 in
    // milliseconds rather than hanging until Redis is back (docs/OPERATIONS.md "A service or a store unreachable").
    disableOfflineQueue: true,
    socket: { connectTimeout: 5000, reconnectStrategy: (retries) => Math.min(retries * 100, 2000) },
  });
  // Without a listener a connection error would crash the process; readiness reports it instead.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Rejects when `work` has not settled in {@link REDIS_COMMAND_TIMEOUT_MS} (a Redis that accepts but never answers). */
export function withinRedisTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`)), REDIS_COMMAND_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
