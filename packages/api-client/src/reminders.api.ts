import { ROUTES, type PushSubscriptionJson, type ReminderRef, type RemindersResponse } from '@tm/contracts';
import { call } from './http.js';

// The reminder calls (docs/PRODUCT.md §10.17).

export const remindersQueryKey = ['reminders'] as const;

export function fetchReminders({ signal }: { signal?: AbortSignal } = {}): Promise<RemindersResponse> {
  return call(ROUTES.reminders, { signal });
}

export async function setReminderTimeZone(timeZone: string): Promise<void> {
  await call(ROUTES.reminderTimeZone, { body: { timeZone } });
}

export async function acknowledgeReminders(reminders: ReminderRef[]): Promise<void> {
  await call(ROUTES.acknowledgeReminders, { body: { reminders } });
}

export async function subscribePush(subscription: PushSubscriptionJson, timeZone: string): Promise<void> {
  await call(ROUTES.subscribePush, { body: { subscription, timeZone } });
}

export async function unsubscribePush(endpoint: string): Promise<void> {
  await call(ROUTES.unsubscribePush, { body: { endpoint } });
}
