// The person's day and time in their own time zone (docs/PRODUCT.md §10.14): read off Intl's zone data at
// fixed instants, across changes of the clocks and across midnight in zones ahead of and behind UTC.
import { dueProblem, instantIn, nowIn, todayIn } from './index.js';

const at = (iso: string) => new Date(iso);

describe('todayIn and nowIn', () => {
  it('reads the day and the minute in the zone, not in UTC', () => {
    const instant = at('2027-06-15T12:34:56.789Z');
    expect(todayIn('UTC', instant)).toBe('2027-06-15');
    expect(nowIn('UTC', instant)).toBe('2027-06-15T12:34');
    expect(nowIn('Europe/Paris', instant)).toBe('2027-06-15T14:34');
    expect(nowIn('America/New_York', instant)).toBe('2027-06-15T08:34');
    // Half-hour offsets, and an alias Intl accepts.
    expect(nowIn('Asia/Kolkata', instant)).toBe('2027-06-15T18:04');
    expect(nowIn('Asia/Calcutta', instant)).toBe('2027-06-15T18:04');
  });

  it('follows Paris across the spring change (2027-03-28: 02:00 CET becomes 03:00 CEST)', () => {
    expect(nowIn('Europe/Paris', at('2027-03-28T00:59:00Z'))).toBe('2027-03-28T01:59');
    // The hour from 02:00 to 03:00 does not exist there.
    expect(nowIn('Europe/Paris', at('2027-03-28T01:00:00Z'))).toBe('2027-03-28T03:00');
    expect(nowIn('Europe/Paris', at('2027-03-28T12:00:00Z'))).toBe('2027-03-28T14:00');
    expect(nowIn('Europe/Paris', at('2027-03-27T12:00:00Z'))).toBe('2027-03-27T13:00');
  });

  it('follows New York across the autumn change (2027-11-07: 02:00 EDT becomes 01:00 EST)', () => {
    expect(nowIn('America/New_York', at('2027-11-07T05:30:00Z'))).toBe('2027-11-07T01:30');
    // The hour from 01:00 to 02:00 comes twice.
    expect(nowIn('America/New_York', at('2027-11-07T06:30:00Z'))).toBe('2027-11-07T01:30');
    expect(nowIn('America/New_York', at('2027-11-07T07:00:00Z'))).toBe('2027-11-07T02:00');
    // The day there begins at 04:00 UTC before the change, and ends at 05:00 UTC after it.
    expect(todayIn('America/New_York', at('2027-11-07T03:59:00Z'))).toBe('2027-11-06');
    expect(todayIn('America/New_York', at('2027-11-07T04:00:00Z'))).toBe('2027-11-07');
    expect(todayIn('America/New_York', at('2027-11-08T04:59:00Z'))).toBe('2027-11-07');
    expect(todayIn('America/New_York', at('2027-11-08T05:00:00Z'))).toBe('2027-11-08');
  });

  it('turns the day at the zone\'s own midnight, ahead of UTC (Auckland, UTC+13 in its summer) and behind it', () => {
    // Auckland's New Year comes at 11:00 UTC on 31 December.
    expect(nowIn('Pacific/Auckland', at('2026-12-31T10:59:00Z'))).toBe('2026-12-31T23:59');
    expect(nowIn('Pacific/Auckland', at('2026-12-31T11:00:00Z'))).toBe('2027-01-01T00:00');
    expect(todayIn('Pacific/Auckland', at('2026-12-31T11:00:00Z'))).toBe('2027-01-01');
    expect(todayIn('UTC', at('2026-12-31T11:00:00Z'))).toBe('2026-12-31');
    // Kiritimati (UTC+14) is a day ahead of Honolulu (UTC-10) at the same instant.
    const instant = at('2027-03-01T10:30:00Z');
    expect(todayIn('Pacific/Kiritimati', instant)).toBe('2027-03-02');
    expect(todayIn('Pacific/Honolulu', instant)).toBe('2027-03-01');
    expect(nowIn('Pacific/Honolulu', instant)).toBe('2027-03-01T00:30');
  });

  it('writes midnight as 00:00, never 24:00, and answers due dates the contracts accept', () => {
    const midnight = at('2027-01-01T00:00:00Z');
    expect(nowIn('UTC', midnight)).toBe('2027-01-01T00:00');
    for (const zone of ['UTC', 'Europe/Paris', 'Pacific/Auckland', 'America/Los_Angeles']) {
      expect(dueProblem(nowIn(zone, midnight))).toBeNull();
      expect(dueProblem(todayIn(zone, midnight))).toBeNull();
    }
  });

  it('reads the clock now when no instant is given', () => {
    const before = todayIn('UTC', new Date());
    const today = todayIn('UTC');
    const after = todayIn('UTC', new Date());
    expect([before, after]).toContain(today);
    expect(nowIn('UTC')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  });

  it('refuses a zone Intl does not know', () => {
    expect(() => todayIn('Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => nowIn('')).toThrow(RangeError);
  });
});

describe('instantIn (a floating due time and a zone to the instant, PRODUCT §10.17)', () => {
  it('reads the wall clock of the zone, ahead of and behind UTC, on both sides of midnight', () => {
    expect(instantIn('UTC', '2027-06-15T12:34').toISOString()).toBe('2027-06-15T12:34:00.000Z');
    expect(instantIn('Europe/Paris', '2027-06-15T14:34').toISOString()).toBe('2027-06-15T12:34:00.000Z');
    expect(instantIn('America/New_York', '2027-06-15T08:34').toISOString()).toBe('2027-06-15T12:34:00.000Z');
    expect(instantIn('Asia/Kolkata', '2027-06-15T18:04').toISOString()).toBe('2027-06-15T12:34:00.000Z');
    expect(instantIn('Pacific/Auckland', '2027-01-01T00:00').toISOString()).toBe('2026-12-31T11:00:00.000Z');
    expect(instantIn('Pacific/Honolulu', '2027-03-01').toISOString()).toBe('2027-03-01T10:00:00.000Z');
  });

  it('inverts nowIn at every quarter hour of a week spanning the spring and autumn changes', () => {
    for (const [zone, start] of [
      ['Europe/Paris', '2027-03-25T00:00:00Z'],
      ['Europe/Paris', '2027-10-28T00:00:00Z'],
      ['America/New_York', '2027-11-04T00:00:00Z'],
      ['Australia/Lord_Howe', '2027-04-01T00:00:00Z'],
    ] as const) {
      for (let t = Date.parse(start); t < Date.parse(start) + 7 * 86_400_000; t += 15 * 60_000) {
        const wall = nowIn(zone, new Date(t));
        // Every wall time read off an instant maps back to that instant, or to the earlier one of a repeated time.
        const back = instantIn(zone, wall).getTime();
        expect(back <= t && nowIn(zone, new Date(back)) === wall).toBe(true);
      }
    }
  });

  it('takes the first of a time the autumn change repeats (New York 01:30 on 2027-11-07 is EDT)', () => {
    expect(instantIn('America/New_York', '2027-11-07T01:30').toISOString()).toBe('2027-11-07T05:30:00.000Z');
    expect(instantIn('America/New_York', '2027-11-07T02:00').toISOString()).toBe('2027-11-07T07:00:00.000Z');
    expect(instantIn('Europe/Paris', '2027-10-31T02:30').toISOString()).toBe('2027-10-31T00:30:00.000Z');
  });

  it('moves a time the spring change skips forward by the skip (Paris 02:30 on 2027-03-28 is 03:30 CEST)', () => {
    expect(instantIn('Europe/Paris', '2027-03-28T02:30').toISOString()).toBe('2027-03-28T01:30:00.000Z');
    expect(nowIn('Europe/Paris', instantIn('Europe/Paris', '2027-03-28T02:30'))).toBe('2027-03-28T03:30');
    expect(instantIn('Europe/Paris', '2027-03-28T03:00').toISOString()).toBe('2027-03-28T01:00:00.000Z');
    // Lord Howe skips half an hour.
    expect(nowIn('Australia/Lord_Howe', instantIn('Australia/Lord_Howe', '2027-10-03T02:15'))).toBe('2027-10-03T02:45');
  });

  it('refuses an unknown zone and a text that is not a floating date', () => {
    expect(() => instantIn('Mars/Olympus', '2027-01-01T00:00')).toThrow(RangeError);
    expect(() => instantIn('UTC', '2027-01-01T00:00Z')).toThrow(RangeError);
  });
});
