// The scheduler's rules (docs/PRODUCT.md §10.17), with no store: which reminders a write plans, what an
// attempt's results make of a reminder, and when a reminder is too late to send.
import { MISSED_REASONS } from '@tm/contracts';
import { DELIVERY, isStale, planTask, pushResultOf, settle } from './reminders.domain.js';

const id = 'b'.repeat(24);
const at = (iso: string) => new Date(iso);

describe('planTask', () => {
  const task = { _id: id, title: 'Pay rent', completed: false, due: '2027-05-10', reminders: [0, 120, 2880] };

  it('plans the reminders still ahead, keyed by task, due date and minutes', () => {
    const planned = planTask('u1', task, 'Europe/Paris', at('2027-05-08T06:00:00Z'));
    expect(planned.map((row) => [row.key, row.fireAt.toISOString(), row.title, row.userId])).toEqual([
      [`${id}.2027-05-10.2880`, '2027-05-08T07:00:00.000Z', 'Pay rent', 'u1'],
      [`${id}.2027-05-10.120`, '2027-05-10T05:00:00.000Z', 'Pay rent', 'u1'],
      [`${id}.2027-05-10.0`, '2027-05-10T07:00:00.000Z', 'Pay rent', 'u1'],
    ]);
  });

  it('leaves out a reminder whose time has already passed when the task is written', () => {
    expect(planTask('u1', task, 'Europe/Paris', at('2027-05-08T07:00:00Z')).map((row) => row.minutes)).toEqual([120, 0]);
  });

  it('plans nothing for a completed task or one without a due date', () => {
    expect(planTask('u1', { ...task, completed: true }, 'UTC', at('2027-01-01T00:00:00Z'))).toEqual([]);
    expect(planTask('u1', { _id: id, title: 'x', completed: false, reminders: [0] }, 'UTC', at('2027-01-01T00:00:00Z'))).toEqual([]);
  });
});

describe('settle', () => {
  const now = at('2027-05-10T07:00:00Z');

  it('is sent when any browser took it, whatever the others said', () => {
    expect(settle(0, [{ kind: 'failed', refused: true, detail: '500' }, { kind: 'delivered' }], now)).toEqual({ state: 'sent', attempts: 1 });
  });

  it('is missed at once when no browser allows notifications (none, or every one gone)', () => {
    expect(settle(0, [], now)).toEqual({ state: 'missed', attempts: 1, reason: MISSED_REASONS.noBrowser });
    expect(settle(0, [{ kind: 'gone' }], now)).toEqual({ state: 'missed', attempts: 1, reason: MISSED_REASONS.noBrowser });
  });

  it('tries a failing push service again after each delay, then is missed with its words', () => {
    const failed = [{ kind: 'failed' as const, refused: true, detail: '500 Internal Server Error' }];
    expect(settle(0, failed, now)).toEqual({ state: 'pending', attempts: 1, nextAttemptAt: new Date(now.getTime() + DELIVERY.retryDelaysMs[0]) });
    expect(settle(1, failed, now)).toEqual({ state: 'pending', attempts: 2, nextAttemptAt: new Date(now.getTime() + DELIVERY.retryDelaysMs[1]) });
    expect(settle(2, failed, now)).toEqual({ state: 'missed', attempts: 3, reason: 'The push service refused: 500 Internal Server Error' });
    expect(settle(2, [{ kind: 'failed', refused: false, detail: 'connect ECONNREFUSED' }], now)).toEqual({
      state: 'missed',
      attempts: 3,
      reason: 'The push service could not be reached: connect ECONNREFUSED',
    });
  });
});

describe('pushResultOf and isStale', () => {
  it('reads 2xx as delivered, 404 and 410 as gone, anything else as refused with its status', () => {
    expect(pushResultOf(201, '')).toEqual({ kind: 'delivered' });
    expect(pushResultOf(410, 'expired')).toEqual({ kind: 'gone' });
    expect(pushResultOf(404, '')).toEqual({ kind: 'gone' });
    expect(pushResultOf(429, ' slow down ')).toEqual({ kind: 'failed', refused: true, detail: '429 slow down' });
    expect(pushResultOf(500, '')).toEqual({ kind: 'failed', refused: true, detail: 'HTTP 500' });
  });

  it('calls a reminder stale a day after its time', () => {
    const fireAt = at('2027-05-10T07:00:00Z');
    expect(isStale({ fireAt }, new Date(fireAt.getTime() + DELIVERY.staleAfterMs))).toBe(false);
    expect(isStale({ fireAt }, new Date(fireAt.getTime() + DELIVERY.staleAfterMs + 1))).toBe(true);
  });
});
