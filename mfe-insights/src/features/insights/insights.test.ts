import type { Todo } from '@tm/api-client';
import type { TaskList } from '@tm/contracts';
import { CHART_DAYS, insightsByList, insightsOf, localDate } from './insights';

let next = 0;
function todo(fields: Partial<Todo>): Todo {
  next += 1;
  const id = next.toString(16).padStart(24, '0');
  return { _id: id, title: `task ${next}`, completed: false, completedAt: null, isPinned: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields };
}

/** A local time `daysBack` days before `now`, at `hour`:00. */
const at = (now: Date, daysBack: number, hour = 12) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack, hour).toISOString();

describe('insightsOf (the figures of the Insights screen)', () => {
  // A Wednesday afternoon, local time.
  const now = new Date(2026, 10, 25, 15, 0);

  it('counts completions per local day over the last 4 weeks, today last, and nothing older', () => {
    const todos = [
      todo({ completed: true, completedAt: at(now, 0, 9) }),
      todo({ completed: true, completedAt: at(now, 0, 23) }),
      todo({ completed: true, completedAt: at(now, 3) }),
      todo({ completed: true, completedAt: at(now, 27, 1) }),
      todo({ completed: true, completedAt: at(now, 28) }), // 29th day back: not in the chart
      todo({ completed: false }),
    ];
    const { days } = insightsOf(todos, now);
    expect(days).toHaveLength(CHART_DAYS);
    expect(days.at(-1)).toEqual({ date: localDate(now), completed: 2 });
    expect(days.at(-4)?.completed).toBe(1);
    expect(days[0]).toEqual({ date: localDate(new Date(2026, 10, 25 - 27)), completed: 1 });
    expect(days.reduce((sum, day) => sum + day.completed, 0)).toBe(4);
  });

  it('gives the totals: open, completed, pinned, and completed since Monday', () => {
    const todos = [
      todo({ completed: true, completedAt: at(now, 0), isPinned: true }), // Wednesday
      todo({ completed: true, completedAt: at(now, 2, 0) }), // Monday 00:00 … counts
      todo({ completed: true, completedAt: at(now, 3, 23) }), // Sunday night: last week
      todo({ completed: true, completedAt: null }), // completed before completion times were kept
      todo({ completed: false, isPinned: true }),
      todo({ completed: false }),
    ];
    expect(insightsOf(todos, now)).toMatchObject({ open: 2, completed: 4, pinned: 2, completedThisWeek: 2 });
  });

  it('counts the streak back from today; a today without completions yet does not break it', () => {
    const run = [1, 2, 3].map((back) => todo({ completed: true, completedAt: at(now, back) }));
    expect(insightsOf(run, now).streak).toBe(3);
    expect(insightsOf([...run, todo({ completed: true, completedAt: at(now, 0) })], now).streak).toBe(4);
    // A gap ends it.
    expect(insightsOf([todo({ completed: true, completedAt: at(now, 2) })], now).streak).toBe(0);
    expect(insightsOf([], now).streak).toBe(0);
  });
});

describe('insightsByList (the figures of each list)', () => {
  const now = new Date(2026, 10, 25, 15, 0);
  const list = (id: string, name: string, order: string, archived = false): TaskList => ({
    _id: id.padStart(24, 'a'),
    name,
    colour: 'teal',
    order,
    archived,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const work = list('1', 'Work', 'a1');
  const home = list('2', 'Home', 'a0');
  const old = list('3', 'Old project', 'a2', true);
  const gone = list('4', 'Emptied', 'a3', true);

  it('counts open tasks and completions per list: the Inbox first, then the lists in their order, archived ones only with tasks', () => {
    const todos = [
      todo({}),
      todo({ completed: true, completedAt: at(now, 0) }),
      todo({ listId: work._id }),
      todo({ listId: work._id }),
      todo({ listId: work._id, completed: true, completedAt: at(now, 10) }),
      // A repeating task: two occurrences done this week, the task itself open.
      todo({ listId: home._id, repeatDone: [at(now, 1), at(now, 2)] }),
      todo({ listId: old._id, completed: true, completedAt: at(now, 30) }),
    ];
    expect(insightsByList(todos, [work, home, old, gone], now)).toEqual([
      { id: 'inbox', name: 'Inbox', open: 1, completed: 1, completedThisWeek: 1 },
      { id: home._id, name: 'Home', colour: 'teal', open: 1, completed: 2, completedThisWeek: 2 },
      { id: work._id, name: 'Work', colour: 'teal', open: 2, completed: 1, completedThisWeek: 0 },
      { id: old._id, name: 'Old project', colour: 'teal', open: 0, completed: 1, completedThisWeek: 0 },
    ]);
  });

  it('counts a task of a list the device does not know in the Inbox, and the totals agree with insightsOf', () => {
    const todos = [todo({ listId: 'f'.repeat(24) }), todo({ listId: work._id, completed: true, completedAt: at(now, 0) })];
    const rows = insightsByList(todos, [work], now);
    expect(rows.map((row) => [row.name, row.open, row.completed])).toEqual([
      ['Inbox', 1, 0],
      ['Work', 0, 1],
    ]);
    const totals = insightsOf(todos, now);
    expect(rows.reduce((sum, row) => sum + row.open, 0)).toBe(totals.open);
    expect(rows.reduce((sum, row) => sum + row.completed, 0)).toBe(totals.completed);
  });
});
