import { addDays, agendaOf, nextMonday, type AgendaTask } from './agenda.js';

// Today and Upcoming (docs/PRODUCT.md §10.15): one rule for the service and the screen.

let made = 0;
const task = (id: string, fields: Partial<AgendaTask> = {}) => ({ id, completed: false, isPinned: false, createdAt: `2026-12-01T00:00:${String((made += 1) % 60).padStart(2, '0')}.000Z`, ...fields });
const ids = (todos: { id: string }[]) => todos.map((todo) => todo.id);

describe('the agenda', () => {
  it('counts days by the calendar, across month and year ends and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2027-03-27', 2)).toBe('2027-03-29'); // the clocks change in between in Europe
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(() => addDays('2027-02-30', 1)).toThrow(RangeError);
    // "Next week" is the Monday after, a week on from a Monday.
    expect(nextMonday('2026-12-06')).toBe('2026-12-07');
    expect(nextMonday('2026-12-07')).toBe('2026-12-14');
    expect(nextMonday('2026-12-12')).toBe('2026-12-14');
  });

  it('puts open tasks due before today first, oldest first, then each day that holds any, within the days asked', () => {
    const todos = [
      task('no date'),
      task('last week', { due: '2026-11-29' }),
      task('yesterday 9', { due: '2026-12-05T09:00' }),
      task('today', { due: '2026-12-06' }),
      task('today 08:00, passed', { due: '2026-12-06T08:00' }),
      task('done today', { due: '2026-12-06', completed: true }),
      task('in two days', { due: '2026-12-08' }),
      task('last day', { due: '2026-12-12T23:59' }),
      task('a day too far', { due: '2026-12-13' }),
    ];
    const agenda = agendaOf(todos, '2026-12-06', 7);
    expect(ids(agenda.overdue)).toEqual(['last week', 'yesterday 9']);
    expect(agenda.days.map((day) => [day.date, ids(day.todos)])).toEqual([
      ['2026-12-06', ['today 08:00, passed', 'today']],
      ['2026-12-08', ['in two days']],
      ['2026-12-12', ['last day']],
    ]);
    expect(agendaOf(todos, '2026-12-06', 1).days.map((day) => day.date)).toEqual(['2026-12-06']);
  });

  it('orders a day: times first by time, then the whole-day tasks as the list does (pinned, then newest)', () => {
    const todos = [task('old'), task('pinned', { isPinned: true }), task('new'), task('at 10', { due: '2026-12-06T10:00' }), task('at 9', { due: '2026-12-06T09:00' })].map((todo) =>
      todo.id.startsWith('at') ? todo : { ...todo, due: '2026-12-06' },
    );
    expect(ids(agendaOf(todos, '2026-12-06').days[0]!.todos)).toEqual(['at 9', 'at 10', 'pinned', 'new', 'old']);
  });
});
