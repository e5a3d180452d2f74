import { dueText, isOverdue, personNow, setPersonTimeZone } from './due-text.js';

// A due date in plain words (docs/PRODUCT.md §10.14), read as the person's own day and time.

const NOW = new Date(2026, 11, 6, 14, 30); // Sunday 6 December 2026, 14:30 local

describe('due dates in words', () => {
  it('names the near days, with the time when there is one', () => {
    expect(dueText('2026-12-06', NOW, 'en-GB')).toBe('Today');
    expect(dueText('2026-12-07T09:00', NOW, 'en-GB')).toBe('Tomorrow 09:00');
    expect(dueText('2026-12-05', NOW, 'en-GB')).toBe('Yesterday');
  });

  it('gives the weekday and date further out, and the year when it is not this one', () => {
    expect(dueText('2026-12-11', NOW, 'en-GB')).toBe('Fri 11 Dec');
    // The locale's own form, as Intl writes it (en-GB puts a comma after the weekday when the year is there).
    expect(dueText('2027-03-14T15:00', NOW, 'en-GB')).toBe('Sun, 14 Mar 2027 15:00');
  });

  it('counts days by the calendar across a change of the clocks and the year', () => {
    const beforeSummerTime = new Date(2027, 2, 27, 23, 30);
    expect(dueText('2027-03-28', beforeSummerTime, 'en-GB')).toBe('Tomorrow');
    expect(dueText('2027-01-01', new Date(2026, 11, 31, 23, 59), 'en-GB')).toBe('Tomorrow');
  });

  it('is overdue from the next day for a day, and from its minute for a time', () => {
    expect(isOverdue('2026-12-06', NOW)).toBe(false);
    expect(isOverdue('2026-12-05', NOW)).toBe(true);
    expect(isOverdue('2026-12-06T14:29', NOW)).toBe(true);
    expect(isOverdue('2026-12-06T14:31', NOW)).toBe(false);
    expect(isOverdue('not a date', NOW)).toBe(false);
  });
});

describe('the person’s own clock', () => {
  afterEach(() => setPersonTimeZone(undefined));

  it('reads today and overdue in the account’s time zone, not this browser’s', () => {
    // 23:30 on 6 December in UTC is already 7 December in Auckland (UTC+13) and still 6 December in Honolulu.
    const at = new Date(Date.UTC(2026, 11, 6, 23, 30));
    setPersonTimeZone('Pacific/Auckland');
    expect(personNow(at).getDate()).toBe(7);
    expect(dueText('2026-12-07', personNow(at), 'en-GB')).toBe('Today');
    expect(isOverdue('2026-12-06', personNow(at))).toBe(true);
    setPersonTimeZone('Pacific/Honolulu');
    expect(dueText('2026-12-07', personNow(at), 'en-GB')).toBe('Tomorrow');
    expect(isOverdue('2026-12-06', personNow(at))).toBe(false);
    expect(personNow(at).getHours()).toBe(13);
  });
});
