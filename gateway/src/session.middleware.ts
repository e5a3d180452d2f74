import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import { createSession } from 'koa-session';
import type { SessionData, SessionStore } from './session.store.js';

export const SESSION_COOKIE = 'tm.sid';

/** The parts of koa-session's Session model the gateway uses (koa-session 7 ships no Koa typings). */
export interface GatewaySession extends SessionData {
  regenerate(): Promise<void> | undefined;
  manuallyCommit(): Promise<void> | undefined;
}

export interface SessionOptions {
  store: SessionStore;
  maxAgeMs: number;
}

/**
 * koa-session with an external store. Cookie: HttpOnly, SameSite=Lax (koa-session leaves it unset by
 * default), signed with `app.keys`, Secure whenever the request came over TLS. `autoCommit` is off: the
 * gateway writes a session only where it changes one (new visitor, login, signup, logout), never on the
 * way back from a proxied response whose headers are already gone.
 */
export function sessions(app: Koa, { store, maxAgeMs }: SessionOptions): Middleware {
  return createSession(
    {
      key: SESSION_COOKIE,
      maxAge: maxAgeMs,
      autoCommit: false,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      rolling: false,
      store: {
        get: async (id: string) => store.get(id),
        set: async (id: string, data: SessionData, ttlMs: number) => store.set(id, data, ttlMs),
        destroy: async (id: string) => store.destroy(id),
      },
    },
    app,
  );
}

/** The request's session (created on demand by koa-session). */
export function sessionOf(ctx: Context): GatewaySession {
  return (ctx as Context & { session: GatewaySession }).session;
}

/** A fresh unguessable token (256 bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Signs `userId` in (or, with `undefined`, out): the old session id is destroyed server-side and a new one
 * issued with a new XSRF token, so neither a fixed nor a stolen pre-login id or token is worth anything.
 */
export async function rotateSession(ctx: Context, userId: string | undefined): Promise<string> {
  const session = sessionOf(ctx);
  if (userId) session.userId = userId;
  else delete session.userId;
  session.xsrf = newToken();
  await session.regenerate();
  return session.xsrf;
}
