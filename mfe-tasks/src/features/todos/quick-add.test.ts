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

  it('leaves a date alone (no title left) as typed', () => {
    expect(understand('tomorrow', NOW)).toBeNull();
    expect(understand('every monday', NOW)).toBeNull();
  });

  // Repeating tasks (docs/PRODUCT.md §10.16): the repeat words set the rule, and the first date when no other words name one.
  it.each([
    ['Water plants every monday', { title: 'Water plants', due: '2026-12-07', repeat: 'FREQ=WEEKLY;BYDAY=MO', repeatWords: 'every monday' }],
    ['Standup every weekday at 9am', { title: 'Standup', due: '2026-12-07T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' }],
    ['Gym every mon and thu at 7pm', { title: 'Gym', due: '2026-12-07T19:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH' }],
    ['Pay rent every month on the 1st', { title: 'Pay rent', due: '2027-01-01', repeat: 'FREQ=MONTHLY;BYMONTHDAY=1' }],
    ['Budget every last day of the month', { title: 'Budget', due: '2026-12-31', repeat: 'FREQ=MONTHLY;BYMONTHDAY=-1' }],
    ['Review every 2 weeks', { title: 'Review', due: '2026-12-06', repeat: 'FREQ=WEEKLY;INTERVAL=2' }],
    ['Bins every other week', { title: 'Bins', due: '2026-12-06', repeat: 'FREQ=WEEKLY;INTERVAL=2' }],
    ['Call mom daily', { title: 'Call mom', due: '2026-12-06', repeat: 'FREQ=DAILY' }],
    ['Birthday card yearly on 14 March', { title: 'Birthday card', due: '2027-03-14', repeat: 'FREQ=YEARLY' }],
    ['Backup every friday from next week', { repeat: 'FREQ=WEEKLY;BYDAY=FR' }],
  ])('understands "%s" as a repeating task', (text, expected) => {
    expect(understand(text, NOW)).toMatchObject(expected);
  });
});
