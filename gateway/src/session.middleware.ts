import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { SessionEndReason } from '@tm/contracts';
import { ServiceUnavailableError, withSpan } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { createSession } from 'koa-session';
import type { SessionData, SessionStore } from './session.repository.js';

export const SESSION_COOKIE = 'tm.sid';
/**
 * A visitor's XSRF token before sign-in: in a cookie of its own, signed with the session keys
 * and HttpOnly, instead of a stored session. Nothing is stored for a visitor until they sign in.
 */
export const VISITOR_TOKEN_COOKIE = 'tm.xsrf';

/** The parts of koa-session's Session model the gateway uses (koa-session 7 ships no Koa typings). */
export interface GatewaySession extends SessionData {
  regenerate(): Promise<void> | undefined;
  manuallyCommit(): Promise<void> | undefined;
}

export interface SessionLifetime {
  /** A signed-in session unused this long ends. */
  idleTimeoutMs: number;
  /** A signed-in session ends this long after sign-in, however much it is used. */
  absoluteTimeoutMs: number;
}

export interface SessionOptions {
  store: SessionStore;
  lifetime: SessionLifetime;
}

/**
 * koa-session with an external store; every store call that fails becomes a {@link SessionsUnavailableError}. Cookie: HttpOnly, SameSite=Lax (koa-session leaves it unset by
 * default), signed with `app.keys`, Secure whenever the request came over TLS. `autoCommit` is off: the
 * gateway writes a session only where it changes one (new visitor, login, signup, logout), never on the
 * way back from a proxied response whose headers are already gone.
 */
/** Any failure of the session store, wherever it happens (read, save, rotation): a 503, never a 500. */
class SessionsUnavailableError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super('Sessions are temporarily unavailable, please try again');
    this.cause = cause;
  }
}

/** Runs a call of the session store; a failure becomes a {@link SessionsUnavailableError} (503). */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new SessionsUnavailableError(error);
  }
}

export function sessions(app: Koa, { store, lifetime }: SessionOptions): Middleware {
  return createSession(
    {
      key: SESSION_COOKIE,
      // The cookie and the stored entry live as long as the absolute lifetime, so that the gateway's own check
      // (sessionLifetime) decides when a session has been idle too long: had koa-session dropped it first,
      // the request would arrive with an XSRF token of a session that no longer exists and get a 403
      // instead of the 401 that tells the client its session ended.
      maxAge: lifetime.absoluteTimeoutMs,
      autoCommit: false,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      rolling: false,
      // Each a span of the request's trace when tracing is on (docs/OPERATIONS.md "Traces"): the look-up runs
      // on every request that brings a session cookie, before anything else under /api.
      // A sign-in's new session is stored before the one it replaces is destroyed (rotateSession): had the
      // store failed in between, the browser would keep a cookie of a session that no longer exists, and its
      // next call would be refused for its XSRF token rather than answered; this way a failed sign-in leaves
      // everything as it was (a 503), and a successful one leaves no old session behind.
      store: {
        get: (id: string) => withSpan('session.lookup', () => guarded(() => store.get(id))),
        set: async (id: string, data: SessionData, ttlMs: number, { ctx }: { ctx?: Context }) => {
          await withSpan('session.save', () => guarded(() => store.set(id, data, ttlMs)));
          if (!ctx) return;
          const replaced = rotation(ctx).replaced;
          if (replaced === undefined) return;
          rotation(ctx).replaced = undefined;
          await withSpan('session.destroy', () => guarded(() => store.destroy(replaced)));
        },
        destroy: async (id: string, { ctx }: { ctx?: Context }) => {
          if (ctx && rotation(ctx).rotating) {
            rotation(ctx).replaced = id;
            return;
          }
          await withSpan('session.destroy', () => guarded(() => store.destroy(id)));
        },
      },
    },
    app,
  );
}

/** A sign-in's rotation under way in this request: the stored session it replaces waits for the new one. */
interface Rotation {
  rotating: boolean;
  replaced: string | undefined;
}

function rotation(ctx: Context): Rotation {
  const state = ctx.state as { sessionRotation?: Rotation };
  state.sessionRotation ??= { rotating: false, replaced: undefined };
  return state.sessionRotation;
}

/** Takes back what this answer was to say of the session cookie (its value and its signature). */
function keepSessionCookie(ctx: Context): void {
  const written = ctx.res.getHeader('Set-Cookie');
  if (!Array.isArray(written)) return;
  const others = written.filter((cookie) => !cookie.startsWith(`${SESSION_COOKIE}=`) && !cookie.startsWith(`${SESSION_COOKIE}.sig=`));
  if (others.length > 0) ctx.res.setHeader('Set-Cookie', others);
  else ctx.res.removeHeader('Set-Cookie');
}

/** The request's session (created on demand by koa-session). */
export function sessionOf(ctx: Context): GatewaySession {
  return (ctx as Context & { session: GatewaySession }).session;
}

/** A fresh unguessable token (256 bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The visitor's XSRF token: the one given earlier in this request, else its signed cookie's, or undefined. */
export function visitorToken(ctx: Context): string | undefined {
  const given = (ctx.state as { visitorToken?: string }).visitorToken;
  return given ?? (ctx.cookies.get(VISITOR_TOKEN_COOKIE, { signed: true }) || undefined);
}

/** Gives the visitor `token` as its XSRF token: the signed, HttpOnly binding cookie (the readable one is the caller's). */
export function setVisitorToken(ctx: Context, token: string): void {
  (ctx.state as { visitorToken?: string }).visitorToken = token;
  ctx.cookies.set(VISITOR_TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'lax', signed: true, overwrite: true, path: '/' });
}

function clearVisitorToken(ctx: Context): void {
  if (ctx.cookies.get(VISITOR_TOKEN_COOKIE)) ctx.cookies.set(VISITOR_TOKEN_COOKIE, null, { signed: true, overwrite: true, path: '/' });
}

/**
 * Ends the request's stored session: the entry is destroyed server-side and the cookie expired; the rest of
 * the request sees an empty session that is never saved. The visitor goes on with `token` as its visitor
 * token (a new one unless given).
 */
async function endStoredSession(ctx: Context, token: string = newToken()): Promise<string> {
  const old = sessionOf(ctx);
  (ctx as Context & { session: unknown }).session = null;
  await old.manuallyCommit();
  (ctx as Context & { session: unknown }).session = {};
  setVisitorToken(ctx, token);
  return token;
}

/**
 * Signs `userId` in (or, with `undefined`, out). Signing in stores a new session under a new id with a new
 * XSRF token (a fixed or stolen pre-login id or token is worth nothing) and starts the absolute lifetime
 * afresh (as after a password change). Signing out destroys the stored session and leaves a visitor with a
 * new visitor token: nothing is stored for a visitor.
 */
export async function rotateSession(ctx: Context, userId: string | undefined): Promise<string> {
  if (!userId) return endStoredSession(ctx);
  const session = sessionOf(ctx);
  session.userId = userId;
  session.signedInAt = session.seenAt = Date.now();
  session.xsrf = newToken();
  rotation(ctx).rotating = true;
  try {
    await session.regenerate();
  } catch (error) {
    // Nothing changed in the store (the new session was not stored, or the old one not destroyed): the
    // browser keeps the cookie it has rather than the expired one koa-session wrote on the way.
    keepSessionCookie(ctx);
    throw error;
  } finally {
    rotation(ctx).rotating = false;
  }
  clearVisitorToken(ctx);
  return session.xsrf;
}

/**
 * Whether a signed-in session is past its absolute lifetime or idle too long at `now` ('absolute' / 'idle'),
 * or still holds (undefined). A session without timestamps (from before they were kept) counts from `now`.
 */
export function sessionExpiry(session: SessionData, { idleTimeoutMs, absoluteTimeoutMs }: SessionLifetime, now: number): 'absolute' | 'idle' | undefined {
  const signedInAt = session.signedInAt ?? now;
  const seenAt = session.seenAt ?? signedInAt;
  if (now - seenAt >= idleTimeoutMs) return 'idle';
  if (now - signedInAt >= absoluteTimeoutMs) return 'absolute';
  return undefined;
}

/**
 * The id under which the request's session is stored (the signed cookie's value), or undefined when the
 * request brought no valid session cookie. A signed-in session always came with one.
 */
export function sessionIdOf(ctx: Context): string | undefined {
  return ctx.cookies.get(SESSION_COOKIE, { signed: true }) || undefined;
}

/** How often at most a session's `seenAt` is written back: a store write per minute, not per request. */
const TOUCH_EVERY_MS = 60_000;

/** How a session that outlived a limit ends (session-end.ts: recorded with its reason, then destroyed in the store). */
export type EndExpiredSession = (ctx: Context, session: SessionData, reason: 'idle-timeout' | 'absolute-timeout') => Promise<void>;

/**
 * The rest of the request sees a visitor whose XSRF token is `token`; nothing is committed, so the browser
 * keeps its (now dead) session cookie: the requests it has on their way, and its next ones, are answered 401
 * with why the session ended (session-end.ts) instead of a bare 401, or a 403 for a token nobody knows.
 */
function leaveAsVisitor(ctx: Context, session: GatewaySession, token: string | undefined): void {
  delete session.userId;
  delete session.signedInAt;
  delete session.seenAt;
  delete session.xsrf;
  setVisitorToken(ctx, token ?? newToken());
}

/**
 * Enforces the idle timeout and the absolute lifetime on the server (OWASP ASVS 5.0 V7.3, SECURITY.md
 * "Sessions"). A session past either limit is signed out: `endExpired` records why and destroys it in the
 * store, and the request goes on as a visitor keeping the session's XSRF token as its visitor token, so
 * it reaches an honest 401 (with `reason` `idle-timeout` or `absolute-timeout`), not a 403. A live one is
 * touched at most once a minute.
 */
export function sessionLifetime(lifetime: SessionLifetime, endExpired: EndExpiredSession): Middleware {
  const touchEvery = Math.min(TOUCH_EVERY_MS, lifetime.idleTimeoutMs / 2);
  return async (ctx, next) => {
    const session = sessionOf(ctx);
    if (session.userId) {
      const now = Date.now();
      const signedInAt = session.signedInAt ?? now;
      const seenAt = session.seenAt ?? signedInAt;
      const expired = sessionExpiry(session, lifetime, now);
      if (expired) {
        ctx.log.info({ idle: expired === 'idle' }, 'session expired');
        const reason = expired === 'idle' ? 'idle-timeout' : 'absolute-timeout';
        noteSessionEnd(ctx, reason);
        await endExpired(ctx, session, reason);
        leaveAsVisitor(ctx, session, session.xsrf);
      } else if (now - seenAt >= touchEvery || session.signedInAt === undefined) {
        session.signedInAt = signedInAt;
        session.seenAt = now;
        await session.manuallyCommit();
      }
    }
    await next();
  };
}

/** What this request itself found about why its session ended (an expiry), for the 401 it is answered. */
export function noteSessionEnd(ctx: Context, reason: SessionEndReason): void {
  (ctx.state as { sessionEnd?: SessionEndReason }).sessionEnd = reason;
}

/** See {@link noteSessionEnd}. */
export function notedSessionEnd(ctx: Context): SessionEndReason | undefined {
  return (ctx.state as { sessionEnd?: SessionEndReason }).sessionEnd;
}
