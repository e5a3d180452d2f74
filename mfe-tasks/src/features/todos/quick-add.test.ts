import { understand } from './quick-add';

// Quick add in plain words (docs/PRODUCT.md §10.14), read from the person's own clock.

const NOW = new Date(2026, 11, 6, 16, 30); // Sunday 6 December 2026, 16:30 on the person's clock

describe('quick add in plain words', () => {
  it('takes the date and time out of the title', () => {
    expect(understand('Pay rent tomorrow 9am', NOW)).toEqual({ title: 'Pay rent', due: '2026-12-07T09:00', words: 'tomorrow 9am' });
    expect(understand('Dentist next friday at 3pm', NOW)).toEqual({ title: 'Dentist', due: '2026-12-11T15:00', words: 'next friday at 3pm' });
    expect(understand('Call the dentist tomorrow at 9', NOW)).toMatchObject({ title: 'Call the dentist', due: '2026-12-07T09:00' });
  });

  it('keeps a day without a time as a day, and the words that only tie the date to the title go with it', () => {
    expect(understand('Submit report by Friday', NOW)).toEqual({ title: 'Submit report', due: '2026-12-11', words: 'Friday' });
    expect(understand('Lunch on 14 Mar', NOW)).toMatchObject({ title: 'Lunch', due: '2027-03-14' });
    expect(understand('Do taxes 2027-04-15', NOW)).toMatchObject({ title: 'Do taxes', due: '2027-04-15' });
    expect(understand('Finish the draft in 3 days', NOW)).toMatchObject({ title: 'Finish the draft', due: '2026-12-09' });
    expect(understand('sat 3 pm haircut', NOW)).toMatchObject({ title: 'haircut', due: '2026-12-12T15:00' });
  });

  it('takes the next such day from now, never one gone by', () => {
    expect(understand('Bins out monday', NOW)?.due).toBe('2026-12-07');
    expect(understand('Call back at 10am', NOW)?.due).toBe('2026-12-07T10:00');
  });

  it('leaves words that only look like dates in the title', () => {
    for (const text of ['Order sun screen', 'Watch the March of the penguins', 'Read 1984', 'Buy 2 apples', 'Now and then', 'Call May about the trip']) {
      expect(understand(text, NOW)).toBeNull();
    }
  });

  it('leaves a repetition for the repeating tasks, and a date alone (no title left) as typed', () => {
    expect(understand('Water plants every monday', NOW)).toBeNull();
    expect(understand('tomorrow', NOW)).toBeNull();
  });
});
