import { REMINDER_WINDOWS, reminderKey, type ReminderItem, type ReminderPush, type ReminderRef, type RemindersResponse, type Todo } from '@tm/contracts';
import { MISSED_REASONS } from '@tm/contracts';
import { DELIVERY, isStale, planTask, settle, type PushResult, type ReminderRow, type Settlement } from './reminders.domain.js';
import type { PushSubscriptionRecord, RemindersRepository } from './reminders.repository.js';
import type { TodosRepository } from './todos.repository.js';

// The reminder scheduler of svc-todos (docs/PRODUCT.md §10.17, docs/ARCHITECTURE.md "Reminders"): it follows
// each person's change feed into its own stored schedule, and delivers what is due through a PushSender. When
// a reminder is attempted is the ReminderScheduler's business (a timer over the store, or BullMQ delayed jobs);
// what an attempt does, and that it happens once, is here and in the store's claim.

/** Sends one message to one browser (push-sender.ts). */
export interface ReminderPusher {
  readonly publicKey: string | null;
  send(subscription: PushSubscriptionRecord, payload: string): Promise<PushResult>;
}

/** Wakes the deliveries: told of every reminder added, moved or put off, so it is attempted at its time. */
export interface ReminderScheduler {
  schedule(rows: Pick<ReminderRow, 'key' | 'nextAttemptAt'>[]): Promise<void>;
  close(): Promise<void>;
}

/** Told after each attempt (the bench measures lateness with it; logs and metrics could too). */
export type AttemptListener = (row: ReminderRow, outcome: Settlement, at: Date) => void;

export interface RemindersServiceDeps {
  store: RemindersRepository;
  todos: Pick<TodosRepository, 'list' | 'eventsAfter' | 'feedPosition'>;
  pusher: ReminderPusher;
  now?: () => Date;
  /** Where due times are read when no page has told the person's zone yet. */
  defaultTimeZone?: string;
  onAttempt?: AttemptListener;
}

const EVENTS_PAGE = 500;

const itemOf = (row: ReminderRow): ReminderItem => ({
  todoId: row.todoId,
  title: row.title,
  due: row.due,
  minutes: row.minutes,
  fireAt: row.fireAt.toISOString(),
  state: row.state,
  ...(row.reason ? { reason: row.reason } : {}),
});

export class RemindersService {
  private readonly store: RemindersRepository;
  private readonly todos: RemindersServiceDeps['todos'];
  private readonly pusher: ReminderPusher;
  private readonly now: () => Date;
  private readonly defaultTimeZone: string;
  private readonly onAttempt?: AttemptListener;
  private scheduler: ReminderScheduler | undefined;
  /** One catch-up at a time per person: their feed is read in order. */
  private readonly catchingUp = new Map<string, Promise<void>>();

  constructor({ store, todos, pusher, now = () => new Date(), defaultTimeZone = 'UTC', onAttempt }: RemindersServiceDeps) {
    this.store = store;
    this.todos = todos;
    this.pusher = pusher;
    this.now = now;
    this.defaultTimeZone = defaultTimeZone;
    this.onAttempt = onAttempt;
  }

  /** Whether browsers can be pushed to at all (the server has VAPID keys). */
  get pushes(): boolean {
    return this.pusher.publicKey !== null;
  }

  /** The scheduler that wakes deliveries (set once the scheduler exists: it calls back into this service). */
  useScheduler(scheduler: ReminderScheduler): void {
    this.scheduler = scheduler;
  }

  private async scheduled(rows: Pick<ReminderRow, 'key' | 'nextAttemptAt'>[]): Promise<void> {
    if (rows.length > 0) await this.scheduler?.schedule(rows);
  }

  /**
   * Plans the person's task writes since the scheduler last read their feed (after a commit, a page's read, or
   * a restart). A person never read before, or whose feed was trimmed past the scheduler's position, is planned
   * from the whole list. Calls for one person run one after another; a call while one runs waits for it.
   */
  catchUp(userId: string): Promise<void> {
    return this.inTurn(userId, () => this.readFeed(userId));
  }

  private inTurn(userId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.catchingUp.get(userId) ?? Promise.resolve();
    const next = previous.then(work);
    const settled = next.catch(() => undefined);
    this.catchingUp.set(userId, settled);
    void settled.then(() => {
      if (this.catchingUp.get(userId) === settled) this.catchingUp.delete(userId);
    });
    return next;
  }

  private async readFeed(userId: string): Promise<void> {
    let cursor = await this.store.feedCursor(userId);
    if (cursor !== null && BigInt((await this.todos.feedPosition(userId)).trimmedThrough) > BigInt(cursor)) cursor = null;
    if (cursor === null) {
      await this.replanAll(userId);
      return;
    }
    const timeZone = await this.timeZoneOf(userId);
    for (;;) {
      const events = await this.todos.eventsAfter(userId, cursor, EVENTS_PAGE);
      for (const event of events) {
        for (const todo of event.saved) await this.replan(userId, todo, timeZone);
        if (event.removed.length > 0) await this.store.cancelTasks(userId, event.removed);
        cursor = event.id;
      }
      if (events.length > 0) await this.store.setFeedCursor(userId, cursor);
      if (events.length < EVENTS_PAGE) return;
    }
  }

  private async replan(userId: string, todo: Todo, timeZone: string): Promise<void> {
    const { scheduled } = await this.store.replanTask(userId, todo._id, planTask(userId, todo, timeZone, this.now()));
    await this.scheduled(scheduled);
  }

  /** Every task of the person planned again from the list (first read, a trimmed feed, a new time zone). */
  private async replanAll(userId: string): Promise<void> {
    const { todos, cursor } = await this.todos.list(userId);
    const timeZone = await this.timeZoneOf(userId);
    const pending = new Set(await this.store.pendingTaskIds(userId));
    for (const todo of todos) {
      if (todo.reminders?.length || pending.has(todo._id)) await this.replan(userId, todo, timeZone);
      pending.delete(todo._id);
    }
    const gone = [...pending];
    if (gone.length > 0) await this.store.cancelTasks(userId, gone);
    await this.store.setFeedCursor(userId, cursor);
  }

  private async timeZoneOf(userId: string): Promise<string> {
    return (await this.store.timeZoneOf(userId)) ?? this.defaultTimeZone;
  }

  /** The zone the person's due times are read in; a change plans every reminder again. */
  async setTimeZone(userId: string, timeZone: string): Promise<void> {
    if ((await this.store.timeZoneOf(userId)) === timeZone) return;
    await this.store.setTimeZone(userId, timeZone);
    await this.inTurn(userId, () => this.replanAll(userId));
  }

  /** GET /todo/reminders: caught up first, so a page sees the reminders of its latest writes. */
  async overview(userId: string): Promise<RemindersResponse> {
    await this.catchUp(userId);
    const now = this.now();
    const [timeZone, upcoming, missed] = await Promise.all([
      this.store.timeZoneOf(userId),
      this.store.upcoming(userId, new Date(now.getTime() + REMINDER_WINDOWS.upcomingMs), REMINDER_WINDOWS.items),
      this.store.missed(userId, new Date(now.getTime() - REMINDER_WINDOWS.missedMs), REMINDER_WINDOWS.items),
    ]);
    return { publicKey: this.pusher.publicKey, timeZone, upcoming: upcoming.map(itemOf), missed: missed.map(itemOf) };
  }

  acknowledge(userId: string, refs: ReminderRef[]): Promise<void> {
    return this.store.acknowledge(userId, refs, this.now());
  }

  async keepSubscription(subscription: PushSubscriptionRecord, timeZone: string): Promise<void> {
    await this.store.keepSubscription(subscription);
    await this.setTimeZone(subscription.userId, timeZone);
  }

  removeSubscription(userId: string, endpoint: string): Promise<number> {
    return this.store.removeSubscription(userId, endpoint);
  }

  endSessions(userId: string, ended: { sessions?: string[]; all?: boolean; keep?: string }): Promise<number> {
    return this.store.removeSessions(userId, ended);
  }

  purge(userId: string): Promise<number> {
    return this.store.purgeUser(userId);
  }

  /** Attempts every reminder due now (the embedded timer's tick, and the safety net under BullMQ); resolves how many. */
  async deliverDue(limit = 100): Promise<number> {
    const rows = await this.store.claimDue(this.now(), DELIVERY.leaseMs, limit);
    await Promise.all(rows.map((row) => this.attempt(row)));
    return rows.length;
  }

  /** Attempts the one reminder `key` if it is due and nobody holds it (a BullMQ job); resolves whether it ran. */
  async deliverOne(key: string): Promise<boolean> {
    const row = await this.store.claim(key, this.now(), DELIVERY.leaseMs);
    if (!row) return false;
    await this.attempt(row);
    return true;
  }

  /**
   * One attempt of a claimed reminder: too late (the process was stopped past DELIVERY.staleAfterMs) it is
   * missed; else a push to every browser of the person whose session is alive, a gone one (404, 410) removed,
   * and the rule's settlement written. A crash before the write leaves the claim to expire and the reminder to
   * be attempted again: delivered at least once, its notifications collapsing by their tag.
   */
  private async attempt(row: ReminderRow): Promise<void> {
    const now = this.now();
    if (isStale(row, now)) {
      const outcome: Settlement = { state: 'missed', attempts: row.attempts, reason: MISSED_REASONS.serverStopped };
      await this.store.settle(row.key, outcome, now);
      this.onAttempt?.(row, outcome, now);
      return;
    }
    const subscriptions = await this.store.subscriptionsOf(row.userId, now);
    const push: ReminderPush = { type: 'reminder', todoId: row.todoId, title: row.title, due: row.due, minutes: row.minutes, tag: reminderKey(row) };
    const payload = JSON.stringify(push);
    const results = await Promise.all(
      subscriptions.map(async (subscription) => {
        const result = await this.pusher.send(subscription, payload);
        if (result.kind === 'gone') await this.store.removeSubscription(row.userId, subscription.endpoint);
        return result;
      }),
    );
    const outcome = settle(row.attempts, results, this.now());
    await this.store.settle(row.key, outcome, this.now());
    if (outcome.state === 'pending') await this.scheduled([{ key: row.key, nextAttemptAt: outcome.nextAttemptAt }]);
    this.onAttempt?.(row, outcome, this.now());
  }
}
