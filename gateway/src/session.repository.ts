import type { SessionEndReason } from '@tm/contracts';

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
 * Why the sessions that {@link SessionStore.destroyUserSessions} ends ended, recorded for each of them: a
 * "tombstone" of the session id, kept `keepForMs(itsData)` milliseconds.
 */
export interface SessionEnding {
  reason: SessionEndReason;
  /** How long to keep the record of one ended session, from that session's data (session-end.ts: `keepEndFor`). */
  keepForMs: (session: SessionData) => number;
  /** A session that ends without a record: the caller's own, which lives on under a new id (a password change). */
  unrecorded?: string;
}

/**
 * External store behind koa-session (its `store` option), plus health and shutdown. `maxAgeMs` is the
 * time to live of the entry; a missing or expired id reads as `undefined`. Stores index sessions by
 * `userId` so that all of one user's sessions can be ended at once. The adapters (sqlite-session.store.ts,
 * redis-session.store.ts) implement it; routes and middleware know only this interface.
 *
 * Besides sessions, a store keeps why a signed-in session ended (SECURITY.md "Sessions"): a record
 * per ended session id, with a time to live, written only where the gateway ends a signed-in session (logout,
 * sign out everywhere, password change, account deletion, expiry), never for a visitor. `destroy` leaves it.
 */
export interface SessionStore {
  get(id: string): Promise<SessionData | undefined>;
  set(id: string, data: SessionData, maxAgeMs: number): Promise<void>;
  destroy(id: string): Promise<void>;
  /**
   * Ends every session of a user (sign out everywhere, password change, account deletion); resolves to how
   * many. With `ending`, records why for each of them (but `ending.unrecorded`) in the same step.
   */
  destroyUserSessions(userId: string, ending?: SessionEnding): Promise<number>;
  /** Records that session `id` ended for `reason`, kept `keepForMs` (the session itself is destroyed separately). */
  recordEnd(id: string, reason: SessionEndReason, keepForMs: number): Promise<void>;
  /** Why session `id` ended, while that is kept; undefined for an id never ended (or whose record expired). */
  endReason(id: string): Promise<SessionEndReason | undefined>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
