import { compareTaskOrder, effectiveOrderKey, implicitOrderKey, inTaskOrder, placeBetween, sameOrderGroup, shownTaskOrder, type TaskOrderFields } from './task-order.js';
import { isOrderKey, orderKeyBetween } from './order-keys.js';
import { TodoPatch } from './todos.js';
import { LIST_ORDER_MESSAGE } from './list-rules.js';

const task = (id: string, createdAt: string, more: Partial<TaskOrderFields> = {}): TaskOrderFields => ({ _id: id.padStart(24, '0'), isPinned: false, createdAt, ...more });

describe('the task order (PRODUCT §10.24)', () => {
  const older = task('a1', '2026-01-01T10:00:00.000Z');
  const newer = task('a2', '2026-01-02T10:00:00.000Z');
  const sameMsHigherId = task('b1', '2026-01-01T10:00:00.000Z');
  const pinned = task('a0', '2025-01-01T00:00:00.000Z', { isPinned: true });

  it('gives each task without a key a valid order key that decreases with its creation, then its id', () => {
    const keys = [newer, sameMsHigherId, older].map(effectiveOrderKey);
    keys.forEach((key) => expect(isOrderKey(key)).toBe(true));
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(3);
    expect(implicitOrderKey('not a time', 'x')).toMatch(/^h/);
  });

  it('keeps the spec order (pinned first, then newest first, then the higher id) for tasks nobody moved', () => {
    expect(inTaskOrder([older, newer, pinned, sameMsHigherId])).toEqual([pinned, newer, sameMsHigherId, older]);
    // The quick comparison and the keys agree.
    const pairs = [[older, newer], [older, sameMsHigherId], [newer, sameMsHigherId]] as const;
    for (const [a, b] of pairs) expect(Math.sign(compareTaskOrder(a, b))).toBe(Math.sign(effectiveOrderKey(a) < effectiveOrderKey(b) ? -1 : 1));
  });

  it('puts a moved task between its neighbours by writing its key only', () => {
    const { before, after } = placeBetween([newer, sameMsHigherId], 1);
    const moved = { ...older, order: orderKeyBetween(before, after) };
    expect(inTaskOrder([newer, sameMsHigherId, moved])).toEqual([newer, moved, sameMsHigherId]);
    const first = { ...older, order: orderKeyBetween(...Object.values(placeBetween([newer, sameMsHigherId], 0)) as [string | null, string | null]) };
    expect(inTaskOrder([sameMsHigherId, first, newer])).toEqual([first, newer, sameMsHigherId]);
    const last = { ...newer, order: orderKeyBetween(...Object.values(placeBetween([sameMsHigherId, older], 2)) as [string | null, string | null]) };
    expect(inTaskOrder([last, sameMsHigherId, older])).toEqual([sameMsHigherId, older, last]);
  });

  it('still keeps pinned tasks first, whatever their keys', () => {
    const movedFirst = { ...older, order: 'a0' };
    expect(inTaskOrder([movedFirst, pinned])).toEqual([pinned, movedFirst]);
  });

  it('orders two tasks with the same key (placed on two devices at once) by the higher id, and places after both', () => {
    const one = task('c1', '2026-01-01T00:00:00.000Z', { order: 'a5' });
    const two = task('c2', '2026-01-01T00:00:00.000Z', { order: 'a5' });
    const next = task('c3', '2026-01-01T00:00:00.000Z', { order: 'a6' });
    expect(inTaskOrder([one, two, next])).toEqual([two, one, next]);
    expect(placeBetween([two, one, next], 1)).toEqual({ before: 'a5', after: 'a6' });
    expect(placeBetween([two, one], 1)).toEqual({ before: 'a5', after: null });
  });

  it('brings a place outside the group to its nearer end', () => {
    expect(placeBetween([newer, older], -3)).toEqual({ before: null, after: effectiveOrderKey(newer) });
    expect(placeBetween([newer, older], 9)).toEqual({ before: effectiveOrderKey(older), after: null });
    expect(placeBetween([], 0)).toEqual({ before: null, after: null });
  });

  it('takes an order key in a patch, null to put the task back, and refuses anything else naming order', () => {
    expect(TodoPatch.parse({ order: 'a0V' })).toEqual({ order: 'a0V' });
    expect(TodoPatch.parse({ order: null })).toEqual({ order: null });
    for (const bad of ['', 'a0 ', 'a00', 'x'.repeat(200), 7]) {
      const result = TodoPatch.safeParse({ order: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['order']);
    }
    expect(TodoPatch.safeParse({ order: 'a0~' }).error?.issues[0]?.message).toBe(LIST_ORDER_MESSAGE);
  });
});

describe('the order a device shows (PRODUCT §10.24)', () => {
  const open = { ...task('d1', '2026-01-01T00:00:00.000Z'), completed: false };
  const done = { ...task('d2', '2026-01-02T00:00:00.000Z'), completed: true };
  const later = { ...task('d3', '2026-01-03T00:00:00.000Z'), completed: false };

  it('is the spec order while nobody moved a task, completed ones in place', () => {
    expect(shownTaskOrder([open, done, later])).toEqual([later, done, open]);
  });

  it('puts completed tasks after the open ones once a task has its own key', () => {
    const moved = { ...open, order: 'a0' };
    expect(shownTaskOrder([moved, done, later])).toEqual([moved, later, done]);
    expect(sameOrderGroup(moved, later)).toBe(true);
    expect(sameOrderGroup(moved, done)).toBe(false);
    expect(sameOrderGroup(moved, { ...later, isPinned: true })).toBe(false);
  });
});

describe('inTaskOrder on long lists', () => {
  it('gives the comparator’s own order, whether few or many tasks have keys', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    for (const share of [0, 0.01, 0.1, 0.5, 1]) {
      const tasks: TaskOrderFields[] = Array.from({ length: 2000 }, (_, i) => {
        const createdAt = new Date(base + Math.floor(random() * 500) * 1000).toISOString();
        const id = i.toString(16).padStart(24, '0');
        const moved = random() < share;
        const order = moved ? orderKeyBetween(implicitOrderKey(new Date(base + Math.floor(random() * 500) * 1000).toISOString(), id), null) : undefined;
        return { _id: id, isPinned: random() < 0.1, createdAt, ...(order === undefined ? {} : { order }) };
      });
      expect(inTaskOrder(tasks)).toEqual([...tasks].sort(compareTaskOrder));
    }
  });
});
