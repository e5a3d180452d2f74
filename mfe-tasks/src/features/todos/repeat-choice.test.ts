import { repeatRuleProblem } from '@tm/contracts/repeat';
import { choiceOf, reminderText, ruleOf, weekdayOf, type RepeatChoice } from './repeat-choice';

// The date dialog's repeat choices as RFC 5545 rules and back (docs/PRODUCT.md §10.16).

const choice = (kind: RepeatChoice['kind'], interval = 1, weekdays: RepeatChoice['weekdays'] = []): RepeatChoice => ({ kind, interval, weekdays });

describe('repeat choices', () => {
  it.each([
    [choice('daily'), 'FREQ=DAILY'],
    [choice('daily', 3), 'FREQ=DAILY;INTERVAL=3'],
    [choice('weekdays'), 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
    [choice('weekly'), 'FREQ=WEEKLY;BYDAY=TH'],
    [choice('weekly', 2, ['FR', 'MO']), 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR'],
    [choice('monthly'), 'FREQ=MONTHLY;BYMONTHDAY=31'],
    [choice('monthly-last', 3), 'FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1'],
    [choice('yearly'), 'FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=31'],
  ])('makes a rule the service keeps, and reads it back as the same choice: %j', (chosen, rule) => {
    // 31 December 2026 is a Thursday.
    expect(ruleOf(chosen, '2026-12-31')).toBe(rule);
    expect(repeatRuleProblem(rule)).toBeNull();
    const back = choiceOf(rule);
    expect(back.kind).toBe(chosen.kind);
    expect(back.interval).toBe(chosen.interval);
    expect(ruleOf(back, '2026-12-31')).toBe(rule);
  });

  it('names no repeat for none, and keeps a rule the choices do not name as it is', () => {
    expect(ruleOf(choice('none'), '2026-12-31')).toBeNull();
    expect(choiceOf(undefined).kind).toBe('none');
    for (const rule of ['FREQ=MONTHLY;BYDAY=-1FR', 'FREQ=HOURLY;INTERVAL=6', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270101', 'FREQ=DAILY;INTERVAL=500']) {
      const kept = choiceOf(rule);
      expect(kept).toMatchObject({ kind: 'custom', rule });
      expect(ruleOf(kept, '2026-12-31')).toBe(rule);
    }
  });

  it('reads weekdays by the calendar and says reminders in words', () => {
    expect(['2026-12-28', '2027-01-03', '2024-02-29'].map(weekdayOf)).toEqual(['MO', 'SU', 'TH']);
    expect([0, 10, 60, 1440, 90, 120, 2880].map(reminderText)).toEqual([
      'At the due time',
      '10 minutes before',
      '1 hour before',
      '1 day before',
      '90 minutes before',
      '2 hours before',
      '2 days before',
    ]);
  });
});
