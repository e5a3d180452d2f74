import { ErrorCode, type ErrorBody, type SessionEndReason } from '@tm/contracts';
import { HttpError, ServiceUnavailableError } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { API_PREFIX } from './api-prefix.js';
import type { LiveStreams } from './live-streams.js';
import { guarded, notedSessionEnd, SESSION_COOKIE, sessionExpiry, sessionIdOf, sessionOf, type SessionLifetime } from './session.middleware.js';
import type { SessionData, SessionStore } from './session.repository.js';

/**
 * Why a session ended, told to the page that held it (docs/PRODUCT.md §10.3, SECURITY.md "Sessions").
 *
 * Where the gateway ends a signed-in session (logout, sign out everywhere, password change, account deletion,
 * idle or absolute expiry) it records why, in the session store, under the ended session's id: a "tombstone",
 * kept until the session's absolute lifetime would have run out anyway (at least a minute, for the requests
 * already on their way). A later request whose signed cookie names that session gets its 401
 * `AUTH.UNAUTHENTICATED` with `reason`. Only the holder of that signed cookie can ask, so a reason tells
 * nobody anything about another account; without a cookie, or with a forged one, there is no reason. Nothing
 * is recorded for a visitor (there is no session to end), so an anonymous flood records nothing.
 */

/** A record of why a session ended is kept at least this long: the requests already on their way with its cookie. */
export const MIN_END_RECORD_MS = 60_000;

/**
 * How long the record of why `session` ended is kept, at `now`: until its absolute lifetime would have ended
 * it anyway (its cookie is worth nothing after that), at least {@link MIN_END_RECORD_MS}, at most the
 * absolute lifetime. It never outlives the session's own entry by more than that minute.
 */
export function keepEndFor(session: SessionData, { absoluteTimeoutMs }: SessionLifetime, now: number): number {
  const signedInAt = session.signedInAt ?? now;
  return Math.min(absoluteTimeoutMs, Math.max(MIN_END_RECORD_MS, signedInAt + absoluteTimeoutMs - now));
}

/** The reason a session still in the store (but no longer valid) would give from its own timestamps. */
function expiryReason(session: SessionData | undefined, lifetime: SessionLifetime, now: number): SessionEndReason | undefined {
  if (!session?.userId) return undefined;
  const expired = sessionExpiry(session, lifetime, now);
  return expired === 'idle' ? 'idle-timeout' : expired === 'absolute' ? 'absolute-timeout' : undefined;
}

/** Told after sessions of `userId` ended (reminder.routes.ts: their push subscriptions go, PRODUCT §10.17). */
export type SessionsEndedListener = (ctx: Context, userId: string, ended: { sessionIds: string[] } | { all: true; keepSessionId?: string }) => Promise<void>;

/** Ends sessions recording why, and finds out why a request's session ended. */
export class SessionEnds {
  constructor(
    private readonly store: SessionStore,
    private readonly lifetime: SessionLifetime,
    private readonly onEnded: SessionsEndedListener = async () => undefined,
  ) {}

  /**
   * The request's own signed-in session ends for `reason` (a logout): recorded before it is destroyed. Nothing
   * for a visitor. A store that fails is a 503, like the destruction itself would be.
   */
  async endOwn(ctx: Context, reason: SessionEndReason): Promise<void> {
    const id = sessionIdOf(ctx);
    const session = sessionOf(ctx);
    if (!id || !session.userId) return;
    const keepFor = keepEndFor(session, this.lifetime, Date.now());
    await guarded(() => this.store.recordEnd(id, reason, keepFor));
    await this.onEnded(ctx, session.userId, { sessionIds: [id] });
  }

  /** A session past a limit (session.middleware.ts `sessionLifetime`): recorded, then destroyed in the store. */
  readonly endExpired = async (ctx: Context, session: SessionData, reason: 'idle-timeout' | 'absolute-timeout'): Promise<void> => {
    const id = sessionIdOf(ctx);
    if (!id) return;
    const keepFor = keepEndFor(session, this.lifetime, Date.now());
    await guarded(() => this.store.recordEnd(id, reason, keepFor));
    await guarded(() => this.store.destroy(id));
    if (session.userId) await this.onEnded(ctx, session.userId, { sessionIds: [id] });
  };

  /**
   * Ends every session of `userId` for `reason`, recording it for each; with `keepOwn`, the request's own
   * session is ended without a record (it lives on under a new id: a password change). Resolves to how many
   * ended. The store's failure is thrown as it came (the caller says what did not happen).
   */
  async endUser(ctx: Context, userId: string, reason: SessionEndReason, { keepOwn = false }: { keepOwn?: boolean } = {}): Promise<number> {
    const now = Date.now();
    const own = sessionIdOf(ctx);
    const ended = await this.store.destroyUserSessions(userId, {
      reason,
      keepForMs: (session) => keepEndFor(session, this.lifetime, now),
      unrecorded: keepOwn ? own : undefined,
    });
    await this.onEnded(ctx, userId, { all: true, ...(keepOwn && own ? { keepSessionId: own } : {}) });
    return ended;
  }

  /**
   * Why the session named by the request's signed cookie ended: what this request found itself (an expiry),
   * else the store's record, else the session's own timestamps while it can still be read. Undefined without
   * a signed cookie, for a session that is still signed in, or when nothing is known; a store that cannot be
   * read leaves the answer without a reason (logged), never turns it into a 503.
   */
  async reasonFor(ctx: Context): Promise<SessionEndReason | undefined> {
    const noted = notedSessionEnd(ctx);
    if (noted) return noted;
    const id = sessionIdOf(ctx);
    if (!id || sessionOf(ctx).userId) return undefined;
    try {
      return (await this.store.endReason(id)) ?? expiryReason(await this.store.get(id), this.lifetime, Date.now());
    } catch (error) {
      ctx.log.warn({ err: error }, 'why the session ended could not be read; answering without a reason');
      return undefined;
    }
  }
}

/** What ending every session of a user needs. */
export interface SessionEnders {
  /** Ends sessions recording why (the other devices are told: `password-changed`, `signed-out-everywhere`, `account-deleted`). */
  ends: SessionEnds;
  /** Live streams of this process: the calls that end every session of the user end the user's streams. */
  streams: LiveStreams;
}

const NOT_SIGNED_OUT = 'Your other devices could not be signed out, please try "Sign out everywhere" again';

/**
 * Ends every session of the user, recording `reason` for each (but this request's own with `keepOwn`: it
 * lives on under a new id), and the user's live streams in this process (other instances end theirs at their
 * next session check); a store that fails here is a 503 that says what did not happen (`failure`).
 */
export async function endAllSessions(
  ctx: Context,
  { ends, streams }: SessionEnders,
  userId: string,
  reason: SessionEndReason,
  { keepOwn = false, failure = NOT_SIGNED_OUT }: { keepOwn?: boolean; failure?: string } = {},
): Promise<number> {
  try {
    const ended = await ends.endUser(ctx, userId, reason, { keepOwn });
    streams.endUser(userId);
    return ended;
  } catch (error) {
    ctx.log.error({ err: error }, 'ending the sessions of a user failed');
    throw new ServiceUnavailableError(failure);
  }
}

const CURRENT_USER_PATH = `${API_PREFIX}/user/me`;

/**
 * The 401 `AUTH.UNAUTHENTICATED` of a request whose signed session cookie names a session that ended says why
 * (`reason`, when known). The current-user check (`GET /api/user/me`, the page's "who is signed in?")
 * also expires such a cookie: the page has now been told, and a reload must not tell it again. Other requests
 * leave it, so that the calls a page has on their way (a live stream reconnecting, then a list refetch)
 * each get the reason. Placed inside the error handler, which writes every other error.
 */
export function sessionEndAnswers(ends: SessionEnds): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 401 || error.code !== ErrorCode.unauthenticated || ctx.headerSent) throw error;
      const reason = await ends.reasonFor(ctx);
      if (ctx.path === CURRENT_USER_PATH && sessionIdOf(ctx)) {
        ctx.cookies.set(SESSION_COOKIE, null, { signed: true, overwrite: true, path: '/', httpOnly: true, sameSite: 'lax' });
      }
      if (!reason) throw error;
      const body: ErrorBody = { message: error.message, code: error.code, reason };
      ctx.status = 401;
      ctx.body = body;
    }
  };
}
