// A task's place in its list (docs/PRODUCT.md §10.24, "Your own order"): the one rule the service's list, the
// device's list and the reorder UI all sort by. Dependency-free: the list's first paint sorts with it, and only
// placing a task (orderKeyBetween of order-keys.ts) needs the key library.

/** What the order reads of a task. */
export interface TaskOrderFields {
  _id: string;
  isPinned: boolean;
  createdAt: string;
  /** The task's own order key (a fractional-indexing key), set when the person moved it; absent otherwise. */
  order?: string | undefined;
}

/** fractional-indexing's base-62 digits, in code unit order (the order keys compare in). */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Digits of the time part: 62⁸ ms reach far past the year 8000. */
const TIME_DIGITS = 8;
/** The integer head of a key with {@link TIME_DIGITS} digits after it (fractional-indexing: `a` one digit, … `h` eight). */
const TIME_HEAD = 'h';
const TIME_SPAN = DIGITS.length ** TIME_DIGITS;
/** Ends every implicit key's fraction: a fraction must not end in `0`. */
const END = 'V';

/**
 * The key a task without one sorts by (§10.24): it decreases as `createdAt` grows, so unmoved tasks keep the
 * spec's order, newest first (PRODUCT §2), and it is a valid order key, so a moved task takes a key between its
 * neighbours' keys, whether they were moved or not, and nothing is renumbered. The time part is 62⁸ − 1 − the
 * creation time in ms, in eight base-62 digits; the fraction is the id with each digit d written as 61 − d (a
 * higher id first, as the list's order breaks a tie of times), then {@link END}: no two tasks share one.
 */
export function implicitOrderKey(createdAt: string, id: string): string {
  const ms = Date.parse(createdAt);
  let rest = TIME_SPAN - 1 - Math.min(Math.max(Number.isFinite(ms) ? ms : 0, 0), TIME_SPAN - 1);
  let time = '';
  for (let i = 0; i < TIME_DIGITS; i += 1) {
    time = DIGITS.charAt(rest % DIGITS.length) + time;
    rest = Math.floor(rest / DIGITS.length);
  }
  let fraction = '';
  for (let i = 0; i < id.length; i += 1) fraction += INVERTED[id.charCodeAt(i)] ?? '';
  return `${TIME_HEAD}${time}${fraction}${END}`;
}

/** Each base-62 digit's counterpart 61 − d, by character code (other characters: none), for {@link implicitOrderKey}. */
const INVERTED: readonly (string | undefined)[] = Array.from({ length: 128 }, (_, code) => {
  const digit = DIGITS.indexOf(String.fromCharCode(code));
  return digit < 0 ? undefined : DIGITS.charAt(DIGITS.length - 1 - digit);
});

/** The key a task sorts by: its own, or the {@link implicitOrderKey} of its creation. */
export function effectiveOrderKey(task: TaskOrderFields): string {
  return task.order ?? implicitOrderKey(task.createdAt, task._id);
}

const descending = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);
const ascending = (a: string, b: string): number => -descending(a, b);

/**
 * The list's order (PRODUCT §2, §10.24): pinned first; then by order key, ascending (a task's own key, else its
 * implicit one, which puts the newest first); equal keys (two devices placing a task at once) by the higher id.
 * Two tasks without keys compare by creation time and id directly, which gives the same answer as their implicit
 * keys without building them: a list nobody reordered sorts as fast as before.
 */
export function compareTaskOrder(a: TaskOrderFields, b: TaskOrderFields): number {
  if (a.isPinned !== b.isPinned) return a.isPinned ? -1 : 1;
  if (a.order === undefined && b.order === undefined) return descending(a.createdAt, b.createdAt) || descending(a._id, b._id);
  return ascending(effectiveOrderKey(a), effectiveOrderKey(b)) || descending(a._id, b._id);
}

/**
 * `tasks` in {@link compareTaskOrder}'s order, a new array, cheaply for a long list: the tasks without a key sort
 * by creation (no key built, and a list read in that order is sorted in one pass); the few with one sort by
 * their keys and are merged in, each placed by a binary search that builds the implicit keys of about log₂ n
 * tasks. When many tasks have keys, every key is built once instead. Either way 10 000 tasks take milliseconds.
 */
export function inTaskOrder<T extends TaskOrderFields>(tasks: readonly T[]): T[] {
  const plain: T[] = [];
  const keyed: T[] = [];
  for (const task of tasks) (task.order === undefined ? plain : keyed).push(task);
  plain.sort(compareTaskOrder);
  if (keyed.length === 0) return plain;
  if (keyed.length * Math.log2(plain.length + 1) > tasks.length) return byBuiltKeys(tasks);
  keyed.sort(compareTaskOrder);
  const out: T[] = [];
  let from = 0;
  for (const task of keyed) {
    let low = from;
    let high = plain.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareTaskOrder(plain[middle] as T, task) < 0) low = middle + 1;
      else high = middle;
    }
    for (let i = from; i < low; i += 1) out.push(plain[i] as T);
    out.push(task);
    from = low;
  }
  for (let i = from; i < plain.length; i += 1) out.push(plain[i] as T);
  return out;
}

/** {@link inTaskOrder} with every task's key built once. */
function byBuiltKeys<T extends TaskOrderFields>(tasks: readonly T[]): T[] {
  return tasks
    .map((task) => ({ task, key: effectiveOrderKey(task) }))
    .sort((a, b) => (a.task.isPinned !== b.task.isPinned ? (a.task.isPinned ? -1 : 1) : ascending(a.key, b.key) || descending(a.task._id, b.task._id)))
    .map(({ task }) => task);
}

/**
 * Where a moved task goes (§10.24): the keys of the tasks it lands between, among those of its own group (the
 * same pinned and completed flags, {@link sameOrderGroup}), in `order`, the
 * group's other tasks in the list's order. `index` is its place among them (0: first). A place outside them is
 * brought to the nearer end. `null` for a neighbour means the start or the end. Two neighbours with the same
 * key (two devices placed both at once) cannot have a key between them: the task goes after the later one.
 */
export function placeBetween(order: readonly TaskOrderFields[], index: number): { before: string | null; after: string | null } {
  const at = Math.min(Math.max(index, 0), order.length);
  const previous = at > 0 ? effectiveOrderKey(order[at - 1] as TaskOrderFields) : null;
  let next = at < order.length ? at : -1;
  while (previous !== null && next >= 0 && effectiveOrderKey(order[next] as TaskOrderFields) <= previous) next = next + 1 < order.length ? next + 1 : -1;
  return { before: previous, after: next < 0 ? null : effectiveOrderKey(order[next] as TaskOrderFields) };
}

/**
 * The list as a device shows it (§10.24): in {@link inTaskOrder}, and once the person keeps an order of their
 * own (some task has its own key), the completed tasks after the open ones, each part in that order. A list
 * nobody reordered shows exactly the spec's order (PRODUCT §2).
 */
export function shownTaskOrder<T extends TaskOrderFields & { completed: boolean }>(tasks: readonly T[]): T[] {
  const ordered = inTaskOrder(tasks);
  if (!ordered.some((task) => task.order !== undefined)) return ordered;
  return [...ordered.filter((task) => !task.completed), ...ordered.filter((task) => task.completed)];
}

/** Whether two tasks are in one group of the order (§10.24): a task moves among those of its group only. */
export const sameOrderGroup = (a: TaskOrderFields & { completed: boolean }, b: TaskOrderFields & { completed: boolean }): boolean =>
  a.isPinned === b.isPinned && a.completed === b.completed;
