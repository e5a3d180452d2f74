import type { Agent } from 'node:https';
import type { Logger } from '@tm/service-kit';
import { MongoRemindersStore } from './mongo-reminders.store.js';
import { BullmqReminderScheduler, connectionOf, TimerReminderScheduler } from './reminder-schedulers.js';
import { NO_PUSH, vapidKeys, WebPushSender } from './push-sender.js';
import type { RemindersRepository } from './reminders.repository.js';
import { RemindersService, type AttemptListener, type ReminderScheduler } from './reminders.service.js';
import { SqliteRemindersStore } from './sqlite-reminders.store.js';
import type { TodosRepository } from './todos.repository.js';

// The reminder scheduler as a process runs it (docs/ARCHITECTURE.md "Reminders"): its store (beside the tasks:
// reminders.sqlite under DATA_DIR, or the MongoDB database of MONGO_URL), the Web Push sender with the VAPID
// keys, the service, and the scheduler the configuration asks for.

/** How long a sent or missed reminder is kept. */
const SETTLED_KEPT_MS = 30 * 24 * 60 * 60_000;

export interface ReminderSettings {
  DATA_DIR: string;
  /** When set, the schedule lives in this MongoDB database, shared by every host (docs/PRODUCT.md §10.17). */
  MONGO_URL?: string;
  MONGO_DB: string;
  NODE_ENV?: string;
  REDIS_URL?: string;
  REMINDER_SCHEDULER?: 'embedded' | 'bullmq';
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT: string;
}

export interface OpenRemindersOptions {
  settings: ReminderSettings;
  todos: TodosRepository;
  logger?: Logger;
  /** The embedded scheduler's tick (default 1 s). */
  tickMs?: number;
  /** The TLS agent for push services (tests and the bench: one that trusts a local receiver). */
  agent?: Agent;
  /** BullMQ's key prefix (tests use their own). */
  bullPrefix?: string;
  onAttempt?: AttemptListener;
}

export interface OpenReminders {
  service: RemindersService;
  scheduler: ReminderScheduler;
  kind: 'embedded' | 'bullmq';
  close(): Promise<void>;
}

/**
 * Opens the schedule where the tasks are (open-todos.store.ts chooses alike): the MongoDB database when
 * MONGO_URL is set, else reminders.sqlite under DATA_DIR.
 */
export async function openRemindersStore({ DATA_DIR, MONGO_URL, MONGO_DB }: Pick<ReminderSettings, 'DATA_DIR' | 'MONGO_URL' | 'MONGO_DB'>): Promise<RemindersRepository> {
  if (MONGO_URL) return MongoRemindersStore.open({ url: MONGO_URL, dbName: MONGO_DB });
  return SqliteRemindersStore.open({ dataDir: DATA_DIR });
}

/**
 * Opens the schedule and starts the scheduler: BullMQ on REDIS_URL unless `embedded` is asked for, else the
 * timer. Either is safe with several processes or hosts on one schedule, as the store's claim is atomic.
 */
export async function openReminders({ settings, todos, logger, tickMs, agent, bullPrefix, onAttempt }: OpenRemindersOptions): Promise<OpenReminders> {
  const store = await openRemindersStore(settings);
  const keys = vapidKeys(settings);
  if (!keys) logger?.warn('reminders: no VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, so no push is sent; open pages still show reminders');
  const pusher = keys ? new WebPushSender(keys, { agent }) : NO_PUSH;
  const service = new RemindersService({ store, todos, pusher, onAttempt });
  const kind = settings.REMINDER_SCHEDULER ?? (settings.REDIS_URL ? 'bullmq' : 'embedded');
  const timers: TimerReminderScheduler[] = [];
  let scheduler: ReminderScheduler;
  if (kind === 'bullmq' && settings.REDIS_URL) {
    // One queue per schedule (its own id, kept in the store): the hosts of one schedule share it, stacks of
    // other data folders or databases on this Redis keep to theirs.
    const bull = new BullmqReminderScheduler(service, store, { connection: connectionOf(settings.REDIS_URL), prefix: `${bullPrefix ?? 'tm:bull'}:${store.id}`, logger });
    service.useScheduler(bull);
    try {
      await bull.start();
    } catch (error) {
      // Redis refused the queue at start: the schedule's store (a MongoDB client, an SQLite file) is not left open.
      await Promise.allSettled([bull.close(), store.close()]);
      throw error;
    }
    scheduler = bull;
    // The safety net: a job lost with Redis is still attempted, a minute late at most.
    timers.push(new TimerReminderScheduler(service, { tickMs: 60_000, logger }).start());
  } else {
    const timer = new TimerReminderScheduler(service, { tickMs, logger });
    service.useScheduler(timer);
    scheduler = timer.start();
  }
  // Settled reminders are kept a month (the missed list reads a week), expired subscriptions not at all.
  const sweeper = setInterval(() => {
    const now = new Date();
    store.sweep(now, new Date(now.getTime() - SETTLED_KEPT_MS)).catch((error: unknown) => logger?.warn({ err: error }, 'reminders: sweep failed; retried in an hour'));
  }, 60 * 60_000);
  sweeper.unref();
  return {
    service,
    scheduler,
    kind,
    close: async () => {
      clearInterval(sweeper);
      await Promise.all(timers.map((timer) => timer.close()));
      await scheduler.close();
      await store.close();
    },
  };
}
