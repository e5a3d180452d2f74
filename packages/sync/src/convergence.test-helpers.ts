import { isDeepStrictEqual } from 'node:util';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { fieldValue, TODO_PATCH_FIELDS, UpdateTodoResponse, todoTitleValue, type FieldValue, type HistoryEntry, type SyncCommand, type Todo, type TodoChangeEvent, type TodoPatchField } from '@tm/contracts';
import { actionOf } from './sync.domain.js';

/**
 * The judge of the convergence test (docs/PRODUCT.md §10.4): pure checks over what the server holds at the end
 * (its list, its whole change feed, each task's history) and what the devices were answered, so the test
 * does the IO and these say what is wrong, in words that fit a failure message.
 */

/** A seeded source in [0, 1) (pure-rand): the same seed gives the same numbers. */
export function seededRandom(seed: number): () => number {
  const rng = xoroshiro128plus(seed);
  return () => uniformFloat64(rng);
}

/** The first answer a device got to one of its commands (a retried command answers as it first did). */
export interface AnsweredCommand {
  device: string;
  command: SyncCommand;
  status: number;
  body: unknown;
}

/** What the server holds at the end, and what the devices were told on the way. */
export interface Evidence {
  /** GET /todo/fetch-todo. */
  list: Todo[];
  /** The whole change feed, from the first event, in order. */
  feed: TodoChangeEvent[];
  /** GET /todo/history/:id of every task the feed names, newest first as the server answers. */
  histories: ReadonlyMap<string, HistoryEntry[]>;
  /** The answers the devices received, one per command id. */
  answers: readonly AnsweredCommand[];
  /** How many add commands the devices made. */
  addsMade: number;
}

/** How many entries one history answer holds at most (svc-todos' HISTORY_PAGE): a full page may hide older ones. */
export const HISTORY_PAGE = 200;

const FIELDS: readonly TodoPatchField[] = TODO_PATCH_FIELDS;
const show = (value: unknown) => JSON.stringify(value);
const sameTodo = (a: Todo, b: Todo) => isDeepStrictEqual({ ...a }, { ...b });

/** Every state a task had in the feed, in order, with the event that made it; its first and last; whether it ends deleted. */
interface Timeline {
  states: { version: string; todo: Todo }[];
  first: Todo;
  last: Todo;
  deleted: boolean;
}

function timelines(feed: readonly TodoChangeEvent[]): Map<string, Timeline> {
  const tasks = new Map<string, Timeline>();
  for (const event of feed) {
    for (const todo of event.saved) {
      const timeline = tasks.get(todo._id) ?? { states: [], first: todo, last: todo, deleted: false };
      timeline.states.push({ version: event.id, todo });
      timeline.last = todo;
      timeline.deleted = false;
      tasks.set(todo._id, timeline);
    }
    for (const id of event.removed) {
      const timeline = tasks.get(id);
      if (timeline) timeline.deleted = true;
    }
  }
  return tasks;
}

/** The entries of one field of a task, oldest first. */
const entriesOf = (entries: readonly HistoryEntry[], field: TodoPatchField) =>
  entries.filter((entry) => entry.field === field).sort((a, b) => Number(BigInt(a.version) - BigInt(b.version)));

/**
 * What is wrong at the end of a run, in words (empty: nothing):
 * - the feed, replayed from the start, gives the server's list;
 * - each add made one task (no duplicate despite lost answers and retries), and every task came from an add;
 * - no acknowledged field edit is lost: its answer is a state the feed holds, and the value it set is the
 *   task's last, or the history keeps it as the value a later change replaced;
 * - every overwritten value is in the history: its entries are exactly the field changes of the feed, and
 *   per field they form a chain with no gap, from the value the task was added with to its last value.
 */
export function audit({ list, feed, histories, answers, addsMade }: Evidence): string[] {
  const problems: string[] = [];
  const tasks = timelines(feed);
  const live = new Map(list.map((todo) => [todo._id, todo]));

  // The feed replays to the list.
  for (const [id, { last, deleted }] of tasks) {
    if (deleted) continue;
    const held = live.get(id);
    if (!held) problems.push(`task ${id} is live in the feed but not in the server's list`);
    else if (!sameTodo(held, last)) problems.push(`task ${id}: the list holds ${show(held)}, the feed ends at ${show(last)}`);
  }
  for (const id of live.keys()) if (tasks.get(id)?.deleted !== false) problems.push(`task ${id} is in the list but not live in the feed`);

  // Each add applied once.
  const addedBy = new Map<string, string>();
  let addsAcknowledged = 0;
  for (const { command, status, body } of answers) {
    if (actionOf(command).kind !== 'add' || status < 200 || status >= 300) continue;
    addsAcknowledged += 1;
    const id = (body as { todo?: Todo } | undefined)?.todo?._id;
    if (id === undefined) problems.push(`add ${command.id} was answered ${status} without a task`);
    else if (addedBy.has(id)) problems.push(`adds ${addedBy.get(id)} and ${command.id} were answered with the same task ${id}`);
    else addedBy.set(id, command.id);
  }
  if (addsAcknowledged !== addsMade) problems.push(`${addsMade} adds were made, ${addsAcknowledged} acknowledged`);
  if (tasks.size !== addedBy.size) problems.push(`${tasks.size} tasks were created for ${addedBy.size} acknowledged adds`);
  for (const id of tasks.keys()) if (!addedBy.has(id)) problems.push(`task ${id} was created by no acknowledged add`);

  // No acknowledged field edit lost.
  for (const { device, command, status, body } of answers) {
    const action = actionOf(command);
    if (action.kind !== 'update' || status < 200 || status >= 300) continue;
    const parsed = UpdateTodoResponse.safeParse(body);
    if (!parsed.success) {
      problems.push(`${device}'s update ${command.id} was answered ${status} with ${show(body)}`);
      continue;
    }
    const answered = parsed.data.todo;
    const timeline = tasks.get(answered._id);
    const at = timeline?.states.find(({ todo }) => sameTodo(todo, answered));
    if (!timeline || !at) {
      problems.push(`${device}'s update ${command.id} was answered with ${show(answered)}, a state the feed never had`);
      continue;
    }
    const entries = histories.get(answered._id) ?? [];
    const { last } = timeline;
    for (const field of FIELDS) {
      const sent = action.fields[field];
      if (sent === undefined) continue;
      const value: FieldValue = field === 'title' && typeof sent === 'string' ? todoTitleValue(sent) : fieldValue(action.fields, field);
      if (fieldValue(answered, field) !== value) {
        problems.push(`${device}'s update ${command.id} set ${field} of ${answered._id} to ${show(value)} but was answered with ${show(fieldValue(answered, field))}`);
        continue;
      }
      // Kept as the last value (live or deleted), or replaced later with the history keeping it.
      if (fieldValue(last, field) === value) continue;
      const replaced = entriesOf(entries, field).some((entry) => entry.before === value && BigInt(entry.version) > BigInt(at.version));
      if (!replaced) problems.push(`${device}'s acknowledged ${field} = ${show(value)} on ${answered._id} (feed ${at.version}) is lost: not its last value (${show(fieldValue(last, field))}), and no later history entry replaced it`);
    }
  }

  // Every overwritten value in the history: the entries are the feed's field changes, chained per field.
  for (const [id, timeline] of tasks) {
    const entries = histories.get(id) ?? [];
    if (entries.length >= HISTORY_PAGE) problems.push(`task ${id} has a full history page (${entries.length} entries): older ones are not checked; make fewer edits per task`);
    const expected = new Map<string, { before: FieldValue; after: FieldValue }>();
    for (const [index, { version, todo }] of timeline.states.entries()) {
      const previous = timeline.states[index - 1]?.todo;
      if (!previous) continue;
      for (const field of FIELDS) if (fieldValue(previous, field) !== fieldValue(todo, field)) expected.set(`${version} ${field}`, { before: fieldValue(previous, field), after: fieldValue(todo, field) });
    }
    const found = new Map(entries.map((entry) => [`${entry.version} ${entry.field}`, entry]));
    for (const [key, change] of expected) {
      const entry = found.get(key);
      if (!entry) problems.push(`task ${id}: feed change ${key} ${show(change.before)} → ${show(change.after)} has no history entry: the overwritten value is lost`);
      else if (entry.before !== change.before || entry.after !== change.after) problems.push(`task ${id}: history entry ${key} says ${show(entry.before)} → ${show(entry.after)}, the feed ${show(change.before)} → ${show(change.after)}`);
      if (entry && entry.todoId !== id) problems.push(`task ${id}: history entry ${key} names task ${entry.todoId}`);
    }
    for (const key of found.keys()) if (!expected.has(key)) problems.push(`task ${id}: history entry ${key} matches no change in the feed`);
    const { first, last } = timeline;
    for (const field of FIELDS) {
      const chain = entriesOf(entries, field);
      let older: HistoryEntry | undefined;
      for (const entry of chain) {
        if (older && older.after !== entry.before) problems.push(`task ${id}: ${field} history has a gap: ${show(older.after)} (feed ${older.version}) then ${show(entry.before)} (feed ${entry.version})`);
        older = entry;
      }
      const [oldest] = chain;
      const newest = older;
      // Compared as the history keeps values (fieldValue): an absent due date is null, labels are joined.
      if (oldest && oldest.before !== fieldValue(first, field)) problems.push(`task ${id}: ${field} history starts at ${show(oldest.before)}, the task was added with ${show(fieldValue(first, field))}`);
      if (newest && newest.after !== fieldValue(last, field)) problems.push(`task ${id}: ${field} history ends at ${show(newest.after)}, the task holds ${show(fieldValue(last, field))}`);
    }
  }
  return problems;
}

/** The differences between two lists of tasks, by id, in a few lines (empty: the same tasks). */
export function listDiff(name: string, actual: readonly Todo[], expected: readonly Todo[], max = 5): string[] {
  const lines: string[] = [];
  const want = new Map(expected.map((todo) => [todo._id, todo]));
  const have = new Map(actual.map((todo) => [todo._id, todo]));
  for (const [id, todo] of have) {
    const other = want.get(id);
    if (!other) lines.push(`${name} has ${show(todo)}, the server has not`);
    else if (!sameTodo(todo, other)) lines.push(`${name} has ${show(todo)}, the server ${show(other)}`);
  }
  for (const [id, todo] of want) if (!have.has(id)) lines.push(`${name} lacks ${show(todo)}`);
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}
