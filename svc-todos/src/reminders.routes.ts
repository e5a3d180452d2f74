import type Router from '@koa/router';
import {
  EndedSessionsRequest,
  InternalPushSubscriptionRequest,
  INTERNAL_API,
  PushUnsubscribeRequest,
  ReminderAckRequest,
  ReminderTimeZoneRequest,
  ROUTES,
  type MessageResponse,
  type RemindersResponse,
  type RemovedCountResponse,
} from '@tm/contracts';
import { apiRouter, parseOr400, requireUser, ServiceUnavailableError, UnauthorizedError } from '@tm/service-kit';
import type { Context } from 'koa';
import type { RemindersService } from './reminders.service.js';

// The reminder calls of svc-todos (docs/PRODUCT.md §10.17): the public ones as the gateway forwards them, and
// those only the gateway makes (a subscription tied to its session, sessions that ended, account deletion).

const MESSAGES = {
  timeZone: 'Reminders follow this time zone',
  acknowledged: 'Reminders marked as seen',
  subscribed: 'Reminders are on for this browser',
  unsubscribed: 'Reminders are off for this browser',
  sessionsEnded: 'Push subscriptions of the ended sessions removed',
  purged: 'Reminders deleted',
} as const;

function userIdOf(ctx: Context): string {
  const { userId } = ctx.state;
  if (!userId) throw new UnauthorizedError();
  return userId;
}

export function remindersRoutes(service: RemindersService): Router {
  const router = apiRouter();
  router.use(requireUser());
  router.get(ROUTES.reminders.path, async (ctx) => {
    const body: RemindersResponse = await service.overview(userIdOf(ctx));
    ctx.body = body;
  });

  router.put(ROUTES.reminderTimeZone.path, async (ctx) => {
    const { timeZone } = parseOr400(ReminderTimeZoneRequest, ctx.request.body);
    await service.setTimeZone(userIdOf(ctx), timeZone);
    const body: MessageResponse = { message: MESSAGES.timeZone };
    ctx.body = body;
  });

  router.post(ROUTES.acknowledgeReminders.path, async (ctx) => {
    const { reminders } = parseOr400(ReminderAckRequest, ctx.request.body);
    await service.acknowledge(userIdOf(ctx), reminders);
    const body: MessageResponse = { message: MESSAGES.acknowledged };
    ctx.body = body;
  });

  router.post(ROUTES.unsubscribePush.path, async (ctx) => {
    const { endpoint } = parseOr400(PushUnsubscribeRequest, ctx.request.body);
    const body: RemovedCountResponse = { message: MESSAGES.unsubscribed, removed: await service.removeSubscription(userIdOf(ctx), endpoint) };
    ctx.body = body;
  });

  router.put(INTERNAL_API.keepPushSubscription.path, async (ctx) => {
    const { subscription, timeZone, session, expiresAt } = parseOr400(InternalPushSubscriptionRequest, ctx.request.body);
    if (!service.pushes) throw new ServiceUnavailableError('Reminders cannot be sent to browsers by this server (it has no VAPID keys)');
    const userId = userIdOf(ctx);
    const { endpoint, keys } = subscription;
    await service.keepSubscription({ userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, session, expiresAt: new Date(expiresAt) }, timeZone);
    const body: MessageResponse = { message: MESSAGES.subscribed };
    ctx.body = body;
  });

  router.post(INTERNAL_API.endPushSessions.path, async (ctx) => {
    const ended = parseOr400(EndedSessionsRequest, ctx.request.body);
    const body: RemovedCountResponse = { message: MESSAGES.sessionsEnded, removed: await service.endSessions(userIdOf(ctx), ended) };
    ctx.body = body;
  });

  router.delete(INTERNAL_API.purgeReminders.path, async (ctx) => {
    const body: RemovedCountResponse = { message: MESSAGES.purged, removed: await service.purge(userIdOf(ctx)) };
    ctx.body = body;
  });

  return router;
}
