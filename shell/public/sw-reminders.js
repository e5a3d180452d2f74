// Reminders in the shell's service worker (docs/PRODUCT.md §10.17), imported by the Workbox worker
// (shell/build/service-worker.mjs `importScripts`). A push carries one reminder (`ReminderPush` of
// @tm/contracts: task id, title, due date, minutes, tag). When a page of the app is visible, the page shows it
// (a toast with Open) and no system notification is made; otherwise a notification, tagged per reminder so a
// second delivery of it replaces the first. A click on it focuses the app at the task, or opens `/?task=<id>`.
/* eslint-env serviceworker */

/** "Due now", "Due in 15 minutes", "Due in 2 hours", "Due in 1 day": the contracts' reminderLead. */
function lead(minutes) {
  if (minutes === 0) return 'Due now';
  const [count, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `Due in ${count} ${unit}${count === 1 ? '' : 's'}`;
}

self.addEventListener('push', (event) => {
  let reminder;
  try {
    reminder = event.data ? event.data.json() : undefined;
  } catch {
    return;
  }
  if (!reminder || reminder.type !== 'reminder' || typeof reminder.todoId !== 'string') return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const visible = windows.filter((client) => client.visibilityState === 'visible');
      if (visible.length > 0) {
        for (const client of visible) client.postMessage({ type: 'tm:reminder', reminder });
        return undefined;
      }
      return self.registration.showNotification(reminder.title, {
        body: lead(reminder.minutes),
        tag: reminder.tag,
        icon: '/icons/icon-192.png',
        data: { todoId: reminder.todoId },
      });
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const todoId = event.notification.data && event.notification.data.todoId;
  if (typeof todoId !== 'string') return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const app = windows[0];
      if (app) {
        app.postMessage({ type: 'tm:open-task', todoId });
        return app.focus();
      }
      return self.clients.openWindow(`/?task=${encodeURIComponent(todoId)}`);
    }),
  );
});
