import { createHmac } from 'node:crypto';
import type Router from '@koa/router';
import { API, INTERNAL_API, PushSubscriptionRequest } from '@tm/contracts';
import { apiRouter, jsonBody, parseOr400 } from '@tm/service-kit';
import type { Context } from 'koa';
import { API_PREFIX } from './api-prefix.js';
import { callService } from './forward.middleware.js';
import { requireSession, signedInUser } from './require-session.js';
import { sessionIdOf, sessionOf, type SessionLifetime } from './session.middleware.js';
import { relay } from './upstream-answer.js';
import type { Upstream } from './upstream.proxy.js';

// A browser's push subscription for reminders belongs to the session it was made in (docs/PRODUCT.md §10.17,
// SECURITY.md "Reminders"): the gateway, which owns the sessions, hands it to svc-todos with a tag of the
// session and the latest time the session could still be alive, and names the tag again when the session
// ends, so no reminder reaches a browser that is signed out.

/** The session's tag as svc-todos keeps it: an HMAC of its id, so svc-todos never holds a session id. */
export function pushSessionTag(internalSecret: string, sessionId: string): string {
  return createHmac('sha256', internalSecret).update(`push-session\n${sessionId}`).digest('base64url');
}

export interface ReminderRoutesOptions {
  todos: Upstream;
  internalSecret: string;
  lifetime: SessionLifetime;
}

/** PUT /api/todo/reminders/subscription: checked here, kept by svc-todos with the session's tag and end. */
export function reminderRoutes({ todos, internalSecret, lifetime }: ReminderRoutesOptions): Router {
  const router = apiRouter(API_PREFIX);
  router.put(API.subscribePush.path, requireSession(), jsonBody(), async (ctx) => {
    const request = parseOr400(PushSubscriptionRequest, ctx.request.body);
    const session = sessionOf(ctx);
    const now = Date.now();
    // The session ends by itself at the sooner of its idle and absolute limits; the page subscribes again on
    // each visit, which moves the idle one along.
    const expiresAt = Math.min((session.signedInAt ?? now) + lifetime.absoluteTimeoutMs, now + lifetime.idleTimeoutMs);
    const { answer } = await callService(ctx, todos, internalSecret, {
      ...INTERNAL_API.keepPushSubscription,
      userId: signedInUser(ctx),
      body: { ...request, session: pushSessionTag(internalSecret, sessionIdOf(ctx) ?? ''), expiresAt: new Date(expiresAt).toISOString() },
      contract: INTERNAL_API.keepPushSubscription.response,
    });
    relay(ctx, answer);
  });
  return router;
}

/** Which sessions of a user ended: some by id, or all of them but `keep`'s. */
export type EndedSessions = { sessionIds: string[] } | { all: true; keepSessionId?: string };

/**
 * Tells svc-todos that sessions ended, so their push subscriptions go (SessionEnds calls it after every end).
 * A failure is logged, never turned into a failed logout: the page also unsubscribes its browser, and a
 * subscription stops receiving at its session's latest end anyway.
 */
export function pushSessionEnds(todos: Upstream, internalSecret: string) {
  return async (ctx: Context, userId: string, ended: EndedSessions): Promise<void> => {
    const tag = (id: string) => pushSessionTag(internalSecret, id);
    const body = 'sessionIds' in ended ? { sessions: ended.sessionIds.map(tag) } : { all: true, ...(ended.keepSessionId ? { keep: tag(ended.keepSessionId) } : {}) };
    try {
      const { answer } = await callService(ctx, todos, internalSecret, { ...INTERNAL_API.endPushSessions, userId, body, contract: INTERNAL_API.endPushSessions.response });
      if (answer.status >= 300) ctx.log.warn({ status: answer.status }, 'push subscriptions of ended sessions were not removed');
    } catch (error) {
      ctx.log.warn({ err: error }, 'push subscriptions of ended sessions were not removed');
    }
  };
}
