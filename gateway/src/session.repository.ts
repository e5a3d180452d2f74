/** Session data the gateway keeps server-side; the browser only holds the signed session id. */
export interface SessionData {
  /** The double-submit XSRF token bound to this session. */
  xsrf?: string;
  /** Set once signed in. */
  userId?: string;
  /** When the user signed in (ms since the epoch): the absolute lifetime counts from here. */
  signedInAt?: number;
  /** When the session was last used, to within a minute: the idle timeout counts from here. */
  seenAt?: number;
  [key: string]: unknown;
}

/**
 * External store behind koa-session (its `store` option), plus health and shutdown. `maxAgeMs` is the
 * time to live of the entry; a missing or expired id reads as `undefined`. Stores index sessions by
 * `userId` so that all of one user's sessions can be ended at once. The adapters (sqlite-session.store.ts,
 * redis-session.store.ts) implement it; routes and middleware know only this interface.
 */
export interface SessionStore {
  get(id: string): Promise<SessionData | undefined>;
  set(id: string, data: SessionData, maxAgeMs: number): Promise<void>;
  destroy(id: string): Promise<void>;
  /** Ends every session of a user (sign out everywhere, password change, account deletion); resolves to how many. */
  destroyUserSessions(userId: string): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
