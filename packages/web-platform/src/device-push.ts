// This browser's Web Push subscription (docs/PRODUCT.md §10.17), in a module small enough for the logout flow
// of the first load; the reminders' own screen code (reminders.tsx) loads later.

/** Whether this browser can take Web Push at all: a service worker, the Push API and notifications. */
export const pushSupported = (): boolean => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * Forgets this browser's push subscription (a logout, PRODUCT §10.17): the server drops it with the session,
 * and the browser's own is ended so its push service refuses anything still on its way.
 */
export async function forgetDevicePush(): Promise<void> {
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
