/** Session data the gateway keeps server-side; the browser only holds the signed session id. */
export interface SessionData {
  /** The double-submit XSRF token bound to this session. */
  xsrf?: string;
  /** Set once signed in. */
  userId?: string;
  [key: string]: unknown;
}

/**
 * External store behind koa-session (its `store` option), plus health and shutdown. `maxAgeMs` is the
 * time to live of the entry; a missing or expired id reads as `undefined`.
 */
export interface SessionStore {
  get(id: string): Promise<SessionData | undefined>;
  set(id: string, data: SessionData, maxAgeMs: number): Promise<void>;
  destroy(id: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
