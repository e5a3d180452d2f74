// The reminder rule (docs/PRODUCT.md §10.17): when each reminder of a task comes, on the person's own clock,
// and which reminders a task has at all.
import { plannedReminders, PushSubscriptionRequest, reminderDueTime, reminderFireAt, reminderKey, reminderLead, ReminderTimeZone, WHOLE_DAY_REMINDER_TIME } from './index.js';

const id = 'a'.repeat(24);

describe('reminder times', () => {
  it('counts a whole-day task from 09:00 of its day, a timed one from its time', () => {
    expect(WHOLE_DAY_REMINDER_TIME).toBe('09:00');
    expect(reminderDueTime('2027-03-14')).toBe('2027-03-14T09:00');
    expect(reminderDueTime('2027-03-14T17:45')).toBe('2027-03-14T17:45');
    expect(reminderFireAt('2027-03-14', 0, 'Europe/Paris').toISOString()).toBe('2027-03-14T08:00:00.000Z');
    expect(reminderFireAt('2027-03-14T17:45', 15, 'UTC').toISOString()).toBe('2027-03-14T17:30:00.000Z');
  });

  it('subtracts elapsed time across a change of the clocks', () => {
    // Due Sunday 09:00 CEST (07:00 UTC), the day the clocks went forward; a day before is 07:00 UTC on Saturday, 08:00 there.
    expect(reminderFireAt('2027-03-28T09:00', 24 * 60, 'Europe/Paris').toISOString()).toBe('2027-03-27T07:00:00.000Z');
  });

  it('plans one reminder per entry for an open dated task, soonest first, and none otherwise', () => {
    const task = { _id: id, completed: false, due: '2027-03-14T10:00', reminders: [0, 60, 1440] };
    expect(plannedReminders(task, 'UTC').map(({ minutes, fireAt }) => [minutes, fireAt.toISOString()])).toEqual([
      [1440, '2027-03-13T10:00:00.000Z'],
      [60, '2027-03-14T09:00:00.000Z'],
      [0, '2027-03-14T10:00:00.000Z'],
    ]);
    expect(plannedReminders({ ...task, completed: true }, 'UTC')).toEqual([]);
    expect(plannedReminders({ _id: id, completed: false, reminders: [0] }, 'UTC')).toEqual([]);
    expect(plannedReminders({ _id: id, completed: false, due: '2027-03-14' }, 'UTC')).toEqual([]);
  });

  it('keys a reminder by task, due date and minutes, so a moved due date is another reminder', () => {
    expect(reminderKey({ todoId: id, due: '2027-03-14', minutes: 30 })).toBe(`${id}.2027-03-14.30`);
    expect(reminderKey({ todoId: id, due: '2027-03-15', minutes: 30 })).not.toBe(reminderKey({ todoId: id, due: '2027-03-14', minutes: 30 }));
  });

  it('says how far the due time is in words', () => {
    expect([0, 1, 15, 60, 120, 1440, 2880].map(reminderLead)).toEqual(['Due now', 'Due in 1 minute', 'Due in 15 minutes', 'Due in 1 hour', 'Due in 2 hours', 'Due in 1 day', 'Due in 2 days']);
  });
});

describe('reminder calls', () => {
  const subscription = { endpoint: 'https://push.example.test/send/abc', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } };

  it('takes an https subscription with its keys and a known zone, naming the field it refuses', () => {
    expect(PushSubscriptionRequest.safeParse({ subscription, timeZone: 'Europe/Paris' }).success).toBe(true);
    const http = PushSubscriptionRequest.safeParse({ subscription: { ...subscription, endpoint: 'http://push.example.test/x' }, timeZone: 'UTC' });
    expect(http.error?.issues[0]?.path).toEqual(['subscription', 'endpoint']);
    const keys = PushSubscriptionRequest.safeParse({ subscription: { ...subscription, keys: { ...subscription.keys, auth: 'not base64!' } }, timeZone: 'UTC' });
    expect(keys.error?.issues[0]?.path).toEqual(['subscription', 'keys', 'auth']);
    expect(ReminderTimeZone.safeParse('Mars/Olympus').success).toBe(false);
    expect(ReminderTimeZone.safeParse('').success).toBe(false);
  });
});
