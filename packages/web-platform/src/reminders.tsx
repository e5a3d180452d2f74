import { acknowledgeReminders, currentUserQuery, fetchReminders, personTimeZone, remindersQueryKey, setReminderTimeZone, subscribePush, unsubscribePush, type Todo } from '@tm/api-client';
import { pushSupported } from './device-push.js';
import { reminderKey, reminderLead, type ReminderItem, type ReminderPush, type ReminderRef, type RemindersResponse } from '@tm/contracts';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import './platform.css';

// Reminders in the page (docs/PRODUCT.md §10.17): an open page shows each reminder at its time as a toast with
// the task's title and Open, whether the server's push reached this browser (the service worker hands it to a
// visible page instead of a notification) or the page's own timer came first; reminders missed while no
// browser could be reached are shown once with why. And, for the account page, turning reminders on and off
// on this device.

/** The reminders query: the person's upcoming and missed reminders, read again on focus and with the list. */
export const remindersQuery = () => ({ queryKey: remindersQueryKey, queryFn: ({ signal }: { signal: AbortSignal }) => fetchReminders({ signal }), retry: false, refetchOnWindowFocus: true });

/** Longest timer a browser keeps exactly (about 24.8 days); reminders further out wait for a later read. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The service worker's message for a visible page (shell/public/sw-reminders.js). */
const PUSH_MESSAGE = 'tm:reminder';
const OPEN_MESSAGE = 'tm:open-task';

const refOf = ({ todoId, due, minutes }: ReminderRef): ReminderRef => ({ todoId, due, minutes });

/** Which reminders this page has shown (by key): a push and the page's own timer show one toast. */
const shown = new Set<string>();

function showReminder(reminder: Pick<ReminderPush, 'todoId' | 'title' | 'due' | 'minutes'>, open: (todoId: string) => void): void {
  const key = reminderKey(reminder);
  if (shown.has(key)) return;
  shown.add(key);
  toast(
    (t) => (
      <span className="reminder-toast">
        <strong>Reminder: {reminder.title}</strong> <span>{reminderLead(reminder.minutes)}</span>{' '}
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            toast.dismiss(t.id);
            open(reminder.todoId);
          }}
        >
          Open
        </button>
      </span>
    ),
    { id: `reminder:${key}`, duration: 60_000 },
  );
  acknowledgeReminders([refOf(reminder)]).catch(() => undefined);
}

function showMissed(item: ReminderItem, open: (todoId: string) => void, client: QueryClient): void {
  const key = reminderKey(item);
  if (shown.has(`missed:${key}`)) return;
  shown.add(`missed:${key}`);
  // Seen: marked so on the server, and its mark leaves the task's row at once (useMissedReminders).
  const dismiss = () => {
    client.setQueryData<RemindersResponse>(remindersQueryKey, (data) => data && { ...data, missed: data.missed.filter((each) => reminderKey(each) !== key) });
    return acknowledgeReminders([refOf(item)]).catch(() => undefined);
  };
  toast(
    (t) => (
      <span className="reminder-toast">
        <strong>Missed reminder: {item.title}</strong> <span>{item.reason}</span>{' '}
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            toast.dismiss(t.id);
            void dismiss();
            open(item.todoId);
          }}
        >
          Open
        </button>
      </span>
    ),
    { id: `missed:${key}`, duration: Infinity },
  );
}

/**
 * The page's reminders, for a signed-in person: mounted once by the shell (`open` goes to the task, PRODUCT
 * §10.17). It keeps the server's zone equal to the person's (the account's, else this browser's), shows each
 * upcoming reminder at its time, each missed one once, and a push the service worker hands it.
 */
export function ReminderAlerts({ open }: { open: (todoId: string) => void }): null {
  const client = useQueryClient();
  const user = useQuery({ ...currentUserQuery(), select: (me) => me }).data;
  const { data } = useQuery(remindersQuery());

  // The zone due times are read in follows the person's (PRODUCT §10.14): told to the server when it differs.
  const zone = user ? personTimeZone(user) : undefined;
  useEffect(() => {
    if (!data || !zone || data.timeZone === zone) return;
    setReminderTimeZone(zone).then(
      () => client.invalidateQueries({ queryKey: remindersQueryKey }),
      () => undefined,
    );
  }, [client, data, zone]);

  // A change of the task list (this page's, or another device's through the live stream) may plan reminders.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = client.getQueryCache().subscribe((event) => {
      const [name] = event.query.queryKey as readonly unknown[];
      if (event.type !== 'updated' || name !== 'todos') return;
      clearTimeout(timer);
      timer = setTimeout(() => void client.invalidateQueries({ queryKey: remindersQueryKey }), 1_000);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [client]);

  useEffect(() => {
    if (!data) return undefined;
    for (const item of data.missed) showMissed(item, open, client);
    const timers = data.upcoming.flatMap((item) => {
      const wait = Date.parse(item.fireAt) - Date.now();
      if (wait > MAX_TIMER_MS) return [];
      return [setTimeout(() => showReminder(item, open), Math.max(0, wait))];
    });
    return () => timers.forEach(clearTimeout);
  }, [client, data, open]);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return undefined;
    const onMessage = (event: MessageEvent<unknown>) => {
      const message = event.data as { type?: string; reminder?: ReminderPush; todoId?: string } | null;
      if (message?.type === PUSH_MESSAGE && message.reminder) showReminder(message.reminder, open);
      if (message?.type === OPEN_MESSAGE && typeof message.todoId === 'string') open(message.todoId);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [open]);

  return null;
}

/**
 * The missed reminders of each task, the newest first (the server answers them newest first); none: undefined,
 * so a list whose reminders were all seen does not render again when they are read.
 */
function missedByTask({ missed }: RemindersResponse): ReadonlyMap<string, ReminderItem> | undefined {
  if (missed.length === 0) return undefined;
  const byTask = new Map<string, ReminderItem>();
  for (const item of missed) if (!byTask.has(item.todoId)) byTask.set(item.todoId, item);
  return byTask;
}

const NONE_MISSED: ReadonlyMap<string, ReminderItem> = new Map();

/**
 * The missed reminders of each task (PRODUCT §10.17), for a mark on the task's row: mounted once by a list
 * (not per row), `missedReminderOf(missed, todo)` is what a row shows. The same map while the reminders do not
 * change, so memoised rows stay so; it reads the shell's reminders query and asks the server for nothing more.
 */
export function useMissedReminders(): ReadonlyMap<string, ReminderItem> {
  return useQuery({ ...remindersQuery(), select: missedByTask, refetchOnMount: false, refetchOnWindowFocus: false }).data ?? NONE_MISSED;
}

/**
 * The missed reminder a task's row marks (PRODUCT §10.17): its newest one not yet seen, while the task is open at
 * the date that reminder was for. A new date (rescheduled, or a repeat's next occurrence) or a completion leaves
 * it behind; seeing it (Open on its toast) removes it from the list.
 */
export function missedReminderOf(missed: ReadonlyMap<string, ReminderItem>, todo: Pick<Todo, '_id' | 'due' | 'completed'>): ReminderItem | undefined {
  if (missed.size === 0 || todo.completed) return undefined;
  const item = missed.get(todo._id);
  return item?.due === todo.due ? item : undefined;
}

/**
 * The mark of a missed reminder on a task's row (PRODUCT §10.17): "Reminder missed" in words, not colour alone,
 * and why as its tooltip; give its `id` to the row's checkbox (aria-describedby) so the reason is read with it.
 */
export function MissedReminderMark({ id, reminder }: { id: string; reminder: ReminderItem }) {
  return (
    <span id={id} className="platform-missed" title={reminder.reason}>
      Reminder missed
      {reminder.reason && <span className="visually-hidden">: {reminder.reason}</span>}
    </span>
  );
}

/** Where reminders stand on this device (the account page's "Reminders on this device"). */
export type DeviceReminders =
  | { state: 'checking' }
  | { state: 'unsupported' }
  | { state: 'blocked' }
  | { state: 'off' }
  | { state: 'on' }
  | { state: 'failed'; message: string };

/** This browser could not be given a push address: the browser's own push service is unreachable, or it refused. */
export const PUSH_UNREACHABLE_MESSAGE = 'This browser could not reach its push service, so reminders cannot come when the app is closed. Try again later.';


/** The VAPID public key (URL-safe base64) as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Reminders on this device (PRODUCT §10.17): on when the browser allows notifications and has a push
 * subscription the server keeps; `turnOn` asks for the permission (on a click only), subscribes with the
 * server's VAPID key and hands the subscription over; `turnOff` forgets it on both sides. A page that finds
 * its subscription hands it over again, so the server keeps it for this session.
 */
export function useDeviceReminders(): { status: DeviceReminders; busy: boolean; turnOn: () => Promise<void>; turnOff: () => Promise<void> } {
  const user = useQuery({ ...currentUserQuery(), select: (me) => me }).data;
  const { data } = useQuery(remindersQuery());
  const [status, setStatus] = useState<DeviceReminders>({ state: 'checking' });
  const [busy, setBusy] = useState(false);
  const zone = personTimeZone(user);

  useEffect(() => {
    let live = true;
    const check = async (): Promise<DeviceReminders> => {
      if (!pushSupported()) return { state: 'unsupported' };
      if (Notification.permission === 'denied') return { state: 'blocked' };
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (!subscription || Notification.permission !== 'granted') return { state: 'off' };
      await subscribePush(subscription.toJSON() as Parameters<typeof subscribePush>[0], zone);
      return { state: 'on' };
    };
    check().then(
      (found) => live && setStatus(found),
      () => live && setStatus({ state: 'off' }),
    );
    return () => {
      live = false;
    };
  }, [zone]);

  const publicKey = data?.publicKey;
  const turnOn = useCallback(async () => {
    if (!publicKey) return;
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setStatus(permission === 'denied' ? { state: 'blocked' } : { state: 'off' });
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      let subscription: PushSubscription;
      try {
        subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      } catch {
        setStatus({ state: 'failed', message: PUSH_UNREACHABLE_MESSAGE });
        return;
      }
      await subscribePush(subscription.toJSON() as Parameters<typeof subscribePush>[0], zone);
      setStatus({ state: 'on' });
    } catch {
      setStatus({ state: 'failed', message: 'Reminders could not be turned on. Check your connection and try again.' });
    } finally {
      setBusy(false);
    }
  }, [publicKey, zone]);

  const turnOff = useCallback(async () => {
    setBusy(true);
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) {
        await unsubscribePush(subscription.endpoint);
        await subscription.unsubscribe();
      }
      setStatus({ state: 'off' });
    } catch {
      setStatus({ state: 'failed', message: 'Reminders could not be turned off. Check your connection and try again.' });
    } finally {
      setBusy(false);
    }
  }, []);

  return { status, busy, turnOn, turnOff };
}

export { forgetDevicePush } from './device-push.js';
