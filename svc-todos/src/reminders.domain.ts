import { MISSED_REASONS, plannedReminders, reminderKey, type PlannedReminder, type ReminderRef, type ReminderState, type RemindedTask } from '@tm/contracts';

// The reminder scheduler's rules (docs/PRODUCT.md §10.17), pure: which reminders a task's write leaves
// pending, what a delivery's outcome makes of a reminder, when it is tried again. The stores only read and
// write what these decide; the time a reminder comes is the contracts' `plannedReminders`.

/** One stored reminder: one reminder of one occurrence of a task, deduplicated by {@link reminderKey}. */
export interface ReminderRow extends ReminderRef {
  key: string;
  userId: string;
  /** The task's title when the reminder was last planned: what the push and the page show. */
  title: string;
  fireAt: Date;
  state: ReminderState;
  /** Why a missed reminder was not delivered (MISSED_REASONS). */
  reason: string | null;
  /** Delivery attempts made so far. */
  attempts: number;
  /** When the next attempt is due: `fireAt`, then later after a failed attempt. */
  nextAttemptAt: Date;
  /** When the page showed it, or dismissed its missed notice. */
  acknowledgedAt: Date | null;
}

/** A reminder as planning hands it to the store: what a row is made of before any attempt. */
export interface PlannedRow extends PlannedReminder {
  key: string;
  userId: string;
  title: string;
}

/** How a reminder is delivered: attempts, the wait between them, and how late a reminder may still go. */
export const DELIVERY = {
  /** Attempts before a reminder whose push services kept failing is missed. */
  maxAttempts: 3,
  /** Wait after the first and the second failed attempt. */
  retryDelaysMs: [30_000, 120_000],
  /** A reminder found this long after its time (svc-todos was stopped) is missed rather than sent so late. */
  staleAfterMs: 24 * 60 * 60_000,
  /** How long a claimed reminder is held by one process before another may take it (a process that died). */
  leaseMs: 60_000,
} as const;

/**
 * The reminders a task's write leaves to come (§10.17): those of its current due date and reminder list whose
 * time is still ahead of `now`. A reminder whose time has already passed when the task is written (a due time
 * set a minute away with a reminder an hour before) is not planned: it would only come late. Reminders already
 * stored keep their state; the store drops the pending ones of the task that are no longer planned.
 */
export function planTask(userId: string, task: RemindedTask & { title: string }, timeZone: string, now: Date): PlannedRow[] {
  return plannedReminders(task, timeZone)
    .filter(({ fireAt }) => fireAt.getTime() > now.getTime())
    .map((planned) => ({ ...planned, key: reminderKey(planned), userId, title: task.title }));
}

/** What one push service said of one message. */
export type PushResult = { kind: 'delivered' } | { kind: 'gone' } | { kind: 'failed'; detail: string; refused: boolean };

/** What an attempt makes of a reminder. */
export type Settlement =
  | { state: 'sent'; attempts: number }
  | { state: 'missed'; attempts: number; reason: string }
  | { state: 'pending'; attempts: number; nextAttemptAt: Date };

/** Whether a reminder found at `now` is too late to send (the process was not running at its time). */
export function isStale(row: Pick<ReminderRow, 'fireAt'>, now: Date): boolean {
  return now.getTime() - row.fireAt.getTime() > DELIVERY.staleAfterMs;
}

/**
 * What an attempt to deliver a reminder makes of it (§10.17), from each subscription's result: sent when any
 * browser took it; missed when the person has no browser left that allows notifications (gone ones were just
 * removed); else, when every push service failed, tried again after DELIVERY.retryDelaysMs, and missed with the
 * last service's words once DELIVERY.maxAttempts are spent.
 */
export function settle(attempts: number, results: PushResult[], now: Date): Settlement {
  const made = attempts + 1;
  if (results.some((result) => result.kind === 'delivered')) return { state: 'sent', attempts: made };
  const failures = results.filter((result): result is Extract<PushResult, { kind: 'failed' }> => result.kind === 'failed');
  const last = failures.at(-1);
  if (!last) return { state: 'missed', attempts: made, reason: MISSED_REASONS.noBrowser };
  const delay = DELIVERY.retryDelaysMs[made - 1];
  if (made < DELIVERY.maxAttempts && delay !== undefined) return { state: 'pending', attempts: made, nextAttemptAt: new Date(now.getTime() + delay) };
  return { state: 'missed', attempts: made, reason: last.refused ? MISSED_REASONS.refused(last.detail) : MISSED_REASONS.unreachable(last.detail) };
}

/** A push service's answer as a result: 2xx delivered; 404 and 410 the subscription is gone (RFC 8030 §7.3); else failed. */
export function pushResultOf(status: number, body: string): PushResult {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 404 || status === 410) return { kind: 'gone' };
  const text = body.trim().slice(0, 120);
  return { kind: 'failed', refused: true, detail: text ? `${status} ${text}` : `HTTP ${status}` };
}
