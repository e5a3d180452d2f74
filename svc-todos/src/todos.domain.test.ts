import { HISTORY_RETENTION_MS, INBOX_ID, LIMITS, listNameTakenMessage, orderKeyBetween, TEMP_ID_PREFIX, TODO_PATCH_FIELDS, type TodoPatch } from '@tm/contracts';
import type { TodoRecord } from './todos.repository.js';
import {
  addTodo,
  addTodoToList,
  byListOrder,
  createList,
  deleteList,
  editList,
  inScope,
  listIdProblem,
  NO_SUCH_LIST_MESSAGE,
  resolveTempId,
  undoBatch,
  type StoredList,
  catchUp,
  clearCompleted,
  completeAll,
  completedAtOf,
  decideOnce,
  deleteTodo,
  editTodo,
  fieldChanges,
  IDEMPOTENCY_RETENTION_MS,
  idempotencyExpiry,
  idempotencyVerdict,
  LIST_ORDER,
  migratedFeedPosition,
  requestFingerprint,
  resolveTaskId,
  restoreTodo,
  stillAsLeft,
  sweepCutoffs,
  undoBulk,
  withinRestoreWindow,
  type IdempotencyRecord,
  type StoredTask,
  type UndoBatch,
} from './todos.domain.js';

// The task rules on their own (docs/PRODUCT.md §7, §10.11): plain values in, the decision out, no store.
// todos.repository.test.ts holds both stores to the same behaviour through the repository.

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number): Date => new Date(T0 + ms);
const iso = (ms: number): string => at(ms).toISOString();
const WINDOW = 60_000;

let counter = 0;
function todo(values: Partial<TodoRecord> = {}): TodoRecord {
  counter += 1;
  return {
    _id: counter.toString(16).padStart(24, '0'),
    title: `task ${counter}`,
    completed: false,
    isPinned: false,
    createdAt: iso(counter),
    updatedAt: iso(counter),
    completedAt: null,
    ...values,
  };
}
const live = (record: TodoRecord): StoredTask => ({ todo: record, deletedAt: null });
const deletedAt = (record: TodoRecord, ms: number): StoredTask => ({ todo: record, deletedAt: iso(ms) });

describe('add', () => {
  it('makes an active, unpinned task without completion time, created and updated now, with its event', () => {
    const { result, writes } = addTodo('a'.repeat(24), 'Buy milk', at(5));
    const expected = { _id: 'a'.repeat(24), title: 'Buy milk', completed: false, isPinned: false, createdAt: iso(5), updatedAt: iso(5), completedAt: null };
    expect(result).toEqual(expected);
    expect(writes).toEqual({ tasks: [{ todo: expected, deletedAt: null }], event: { saved: [expected], removed: [] } });
  });
});

describe('priority and labels (docs/PRODUCT.md §10.20)', () => {
  it('a new task keeps priority 1–3 and its labels each once, case aside, in order; priority 4 and no labels leave both out', () => {
    expect(addTodo('a'.repeat(24), 'Post the letter', at(5), { priority: 2, labels: ['home', 'Errand', 'errand'] }).result).toMatchObject({ priority: 2, labels: ['Errand', 'home'] });
    const plain = addTodo('b'.repeat(24), 'Plain', at(5), { priority: 4, labels: [] }).result;
    expect(Object.keys(plain).sort()).toEqual(['_id', 'completed', 'completedAt', 'createdAt', 'isPinned', 'title', 'updatedAt']);
  });

  it('an edit sets and changes each, the history keeping the values as fieldValue gives them; the same set again is a no-op', () => {
    const task = todo({ priority: 3, labels: ['home'] });
    const { result, writes } = editTodo(live(task), { priority: 1, labels: ['work', 'Home', 'home'] }, at(1_000), null);
    expect(result?.todo).toEqual({ ...task, priority: 1, labels: ['Home', 'work'], updatedAt: iso(1_000) });
    expect(result?.changed).toEqual(['priority', 'labels']);
    expect(writes?.history?.map(({ field, before, after }) => [field, before, after])).toEqual([
      ['priority', 3, 1],
      ['labels', 'home', 'Home,work'],
    ]);
    expect(editTodo(live(task), { priority: 3, labels: ['home', 'home'] }, at(1_000), null).writes).toBeNull();
  });

  it('priority 4 or null and labels [] or null remove them', () => {
    const task = todo({ priority: 1, labels: ['errand'] });
    const { priority: _priority, labels: _labels, ...bare } = task;
    const patches: TodoPatch[] = [
      { priority: 4, labels: [] },
      { priority: null, labels: null },
    ];
    for (const patch of patches) {
      const { result, writes } = editTodo(live(task), patch, at(1_000), null);
      expect(result?.todo).toEqual({ ...bare, updatedAt: iso(1_000) });
      expect(writes?.history?.map(({ field, before, after }) => [field, before, after])).toEqual([
        ['priority', 1, null],
        ['labels', 'errand', null],
      ]);
    }
  });

  it('a deleted task comes back with them exactly', () => {
    const task = todo({ priority: 2, labels: ['a', 'b'] });
    expect(restoreTodo(deletedAt(task, 0), at(10), WINDOW).result).toEqual(task);
  });
});

describe('edit, tick and pin', () => {
  const open = todo({ title: 'Buy milk', updatedAt: iso(100) });
  const done = todo({ completed: true, completedAt: iso(200), updatedAt: iso(300) });

  it('changes only the fields whose value differs, in the order title, completed, isPinned; updatedAt moves', () => {
    const { result, writes } = editTodo(live(open), { isPinned: true, title: 'Buy oat milk', completed: false }, at(1_000), null);
    expect(result?.changed).toEqual(['title', 'isPinned']);
    expect(result?.todo).toEqual({ ...open, title: 'Buy oat milk', isPinned: true, updatedAt: iso(1_000) });
    expect(writes).toEqual({
      tasks: [{ todo: result?.todo, deletedAt: null }],
      event: { saved: [result?.todo], removed: [] },
      // One history entry per changed field, in TODO_PATCH_FIELDS order; no base, so no conflict.
      history: [
        { taskId: open._id, field: 'title', before: 'Buy milk', after: 'Buy oat milk', at: iso(1_000), conflict: false },
        { taskId: open._id, field: 'isPinned', before: false, after: true, at: iso(1_000), conflict: false },
      ],
    });
    expect(result?.undoToken).toBeNull();
    expect(result?.conflicts).toEqual([]);
  });

  it('with a base: a changed field whose stored value is not its base is a conflict; the change wins all the same', () => {
    // Renamed elsewhere to 'Buy milk' since this device saw 'Milk'; its pin was seen as it is.
    const { result, writes } = editTodo(live(open), { title: 'Oat milk', isPinned: true }, at(1_000), null, { title: 'Milk', isPinned: false });
    expect(result?.todo).toMatchObject({ title: 'Oat milk', isPinned: true });
    expect(result?.conflicts).toEqual(['title']);
    expect(writes?.history?.map(({ field, before, conflict }) => ({ field, before, conflict }))).toEqual([
      { field: 'title', before: 'Buy milk', conflict: true },
      { field: 'isPinned', before: false, conflict: false },
    ]);
    // A base that matches what is stored: no conflict.
    expect(editTodo(live(open), { title: 'Oat milk' }, at(1_000), null, { title: 'Buy milk' }).result?.conflicts).toEqual([]);
    // A no-op writes no history and has no conflict, whatever its base.
    expect(editTodo(live(open), { title: 'Buy milk' }, at(1_000), null, { title: 'Milk' })).toEqual({ result: { todo: open, changed: [], undoToken: null, conflicts: [] }, writes: null });
  });

  it('a no-op (every value already so, or nothing set) writes nothing and keeps updatedAt', () => {
    for (const patch of [{ title: 'Buy milk' }, { completed: false, isPinned: false }, {}]) {
      expect(editTodo(live(open), patch, at(1_000), 'token')).toEqual({ result: { todo: open, changed: [], undoToken: null, conflicts: [] }, writes: null });
    }
  });

  it('completion time: now when ticked, null when reopened, kept when completed stays', () => {
    expect(editTodo(live(open), { completed: true }, at(1_000), null).result?.todo).toMatchObject({ completed: true, completedAt: iso(1_000) });
    expect(editTodo(live(done), { completed: false }, at(1_000), null).result?.todo).toMatchObject({ completed: false, completedAt: null });
    expect(editTodo(live(done), { isPinned: true, completed: true }, at(1_000), null).result?.todo).toMatchObject({ completedAt: iso(200), updatedAt: iso(1_000) });
    expect(editTodo(live(done), { title: 'renamed' }, at(1_000), null).result?.todo).toMatchObject({ completedAt: iso(200) });
  });

  it('pin and unpin change isPinned alone and keep the completion time', () => {
    const pinned = editTodo(live(done), { isPinned: true }, at(1_000), null).result;
    expect(pinned).toEqual({ todo: { ...done, isPinned: true, updatedAt: iso(1_000) }, changed: ['isPinned'], undoToken: null, conflicts: [] });
    const unpinned = editTodo(live({ ...done, isPinned: true }), { isPinned: false }, at(2_000), null).result;
    expect(unpinned?.todo).toEqual({ ...done, isPinned: false, updatedAt: iso(2_000) });
  });

  it('no live task (unknown, another user’s, deleted): null, nothing written', () => {
    expect(editTodo(undefined, { completed: true }, at(1_000), null)).toEqual({ result: null, writes: null });
    expect(editTodo(deletedAt(open, 10), { completed: true }, at(1_000), 'token')).toEqual({ result: null, writes: null });
  });

  it('a tick that changes completed keeps a single-task undo with the values it replaced', () => {
    const { result, writes } = editTodo(live(done), { completed: false }, at(1_000), 'tick-token');
    expect(result?.undoToken).toBe('tick-token');
    expect(writes?.keepUndo).toEqual({
      token: 'tick-token',
      kind: 'complete-all',
      completed: false,
      createdAt: iso(1_000),
      items: [{ id: done._id, before: { completed: true, completedAt: iso(200), updatedAt: iso(300) } }],
    });
  });

  it('with a token, a change that leaves completed as it is keeps no undo (and hands out no token)', () => {
    const { result, writes } = editTodo(live(done), { completed: true, title: 'renamed' }, at(1_000), 'tick-token');
    expect(result?.undoToken).toBeNull();
    expect(writes?.keepUndo).toBeUndefined();
  });
});

describe('delete and restore (soft delete)', () => {
  const task = todo({ completed: true, completedAt: iso(5) });

  it('delete marks a live task deleted, untouched, with an event naming its id', () => {
    expect(deleteTodo(live(task), at(1_000))).toEqual({
      result: true,
      writes: { tasks: [{ todo: task, deletedAt: iso(1_000) }], event: { saved: [], removed: [task._id] } },
    });
  });

  it('delete of no live task (unknown, or already deleted) is false and writes nothing', () => {
    expect(deleteTodo(undefined, at(1_000))).toEqual({ result: false, writes: null });
    expect(deleteTodo(deletedAt(task, 500), at(1_000))).toEqual({ result: false, writes: null });
  });

  it('restore within the window brings the task back exactly as it was', () => {
    expect(restoreTodo(deletedAt(task, 1_000), at(1_000 + WINDOW - 1), WINDOW)).toEqual({
      result: task,
      writes: { tasks: [{ todo: task, deletedAt: null }], event: { saved: [task], removed: [] } },
    });
  });

  it('restore is null, writing nothing, at the end of the window, for a live task and for none', () => {
    expect(restoreTodo(deletedAt(task, 1_000), at(1_000 + WINDOW), WINDOW)).toEqual({ result: null, writes: null });
    expect(restoreTodo(live(task), at(1_000), WINDOW)).toEqual({ result: null, writes: null });
    expect(restoreTodo(undefined, at(1_000), WINDOW)).toEqual({ result: null, writes: null });
  });

  it('the restore window is open strictly less than its length after the act', () => {
    expect(withinRestoreWindow(iso(0), at(WINDOW - 1), WINDOW)).toBe(true);
    expect(withinRestoreWindow(iso(0), at(WINDOW), WINDOW)).toBe(false);
  });
});

describe('bulk calls', () => {
  const older = todo({ title: 'older', createdAt: iso(10), updatedAt: iso(10) });
  const pinnedDone = todo({ title: 'pinned done', isPinned: true, completed: true, createdAt: iso(5), updatedAt: iso(20), completedAt: iso(20) });
  const newer = todo({ title: 'newer', createdAt: iso(30), updatedAt: iso(40) });
  const gone = todo({ title: 'deleted', createdAt: iso(50) });
  const tasks = [live(older), live(pinnedDone), live(newer), deletedAt(gone, 60)];

  it('mark all complete changes only the live active tasks, in list order, and keeps what each had', () => {
    const { result, writes } = completeAll(tasks, true, at(1_000), 'bulk');
    const changed = [newer, older].map((t) => ({ ...t, completed: true, completedAt: iso(1_000), updatedAt: iso(1_000) }));
    expect(result).toEqual({ todos: changed, undoToken: 'bulk' });
    expect(writes).toEqual({
      tasks: changed.map((t) => live(t)),
      keepUndo: {
        token: 'bulk',
        kind: 'complete-all',
        completed: true,
        createdAt: iso(1_000),
        items: [older, newer].map((t) => ({ id: t._id, before: { completed: false, completedAt: null, updatedAt: t.updatedAt } })),
      },
      event: { saved: changed, removed: [] },
      history: [older, newer].map((t) => ({ taskId: t._id, field: 'completed', before: false, after: true, at: iso(1_000), conflict: false })),
    });
  });

  it('mark all active clears the completion time of the completed ones', () => {
    const { result } = completeAll(tasks, false, at(1_000), 'bulk');
    expect(result.todos).toEqual([{ ...pinnedDone, completed: false, completedAt: null, updatedAt: iso(1_000) }]);
  });

  it('a bulk call with nothing to do answers no token and writes nothing', () => {
    expect(completeAll([live(pinnedDone), deletedAt(gone, 1)], true, at(1_000), 'bulk')).toEqual({ result: { todos: [], undoToken: null }, writes: null });
    expect(clearCompleted([live(older), deletedAt({ ...gone, completed: true }, 1)], at(1_000), 'bulk')).toEqual({ result: { todos: [], undoToken: null }, writes: null });
  });

  it('clear completed deletes (softly) the live completed tasks; they are answered as they were', () => {
    const doneToo = todo({ completed: true, completedAt: iso(70), createdAt: iso(70), updatedAt: iso(70) });
    const { result, writes } = clearCompleted([...tasks, live(doneToo)], at(1_000), 'clear');
    expect(result).toEqual({ todos: [pinnedDone, doneToo], undoToken: 'clear' });
    expect(writes).toEqual({
      tasks: [deletedAt(pinnedDone, 1_000), deletedAt(doneToo, 1_000)],
      keepUndo: { token: 'clear', kind: 'clear-completed', completed: null, createdAt: iso(1_000), items: [{ id: pinnedDone._id, before: null }, { id: doneToo._id, before: null }] },
      event: { saved: [], removed: [pinnedDone._id, doneToo._id] },
    });
  });
});

describe('bulk undo: only what is still as the call left it', () => {
  const a = todo({ createdAt: iso(1), updatedAt: iso(1) });
  const b = todo({ createdAt: iso(2), updatedAt: iso(2) });
  const completion = completeAll([live(a), live(b)], true, at(1_000), 'bulk');
  const batch = completion.writes?.keepUndo as UndoBatch;
  const [doneB, doneA] = completion.result.todos as [TodoRecord, TodoRecord];

  it('puts back completed, completedAt and updatedAt of every task still as left, in list order, spending the token', () => {
    expect(undoBulk(batch, [live(doneA), live(doneB)], at(2_000), WINDOW)).toEqual({
      result: [b, a],
      writes: {
        tasks: [live(b), live(a)],
        spendUndo: 'bulk',
        event: { saved: [b, a], removed: [] },
        history: [a, b].map((t) => ({ taskId: t._id, field: 'completed', before: true, after: false, at: iso(2_000), conflict: false })),
      },
    });
  });

  it('a task changed, reopened, deleted since, or another call’s is left alone', () => {
    const renamed = { ...doneA, title: 'renamed', updatedAt: iso(1_500) };
    expect(stillAsLeft(batch, live(renamed))).toBe(false);
    expect(stillAsLeft(batch, live({ ...doneA, completed: false, completedAt: null, updatedAt: iso(1_500) }))).toBe(false);
    expect(stillAsLeft(batch, deletedAt(doneA, 1_500))).toBe(false);
    // A change in the call's own millisecond that leaves completed, completedAt and updatedAt is not seen.
    expect(stillAsLeft(batch, live({ ...doneA, isPinned: true }))).toBe(true);
    expect(undoBulk(batch, [live(renamed), live(doneB)], at(2_000), WINDOW).result).toEqual([b]);
  });

  it('nothing left to restore: [] with the token spent and no event', () => {
    expect(undoBulk(batch, [deletedAt(doneA, 1_500)], at(2_000), WINDOW)).toEqual({ result: [], writes: { tasks: [], spendUndo: 'bulk', event: null, history: [] } });
  });

  it('no batch (unknown, spent, another user’s) or a late one: null, nothing written', () => {
    expect(undoBulk(undefined, [], at(2_000), WINDOW)).toEqual({ result: null, writes: null });
    expect(undoBulk(batch, [live(doneA)], at(1_000 + WINDOW), WINDOW)).toEqual({ result: null, writes: null });
  });

  it('a tick’s undo is the same rule for one task', () => {
    const ticked = editTodo(live(a), { completed: true }, at(1_000), 'tick');
    const tick = ticked.writes?.keepUndo as UndoBatch;
    const now = ticked.result?.todo as TodoRecord;
    expect(undoBulk(tick, [live(now)], at(1_001), WINDOW).result).toEqual([a]);
    const pinnedSince = { ...now, isPinned: true, updatedAt: iso(1_001) };
    expect(undoBulk(tick, [live(pinnedSince)], at(1_002), WINDOW).result).toEqual([]);
  });

  it('after a clear: only the tasks still deleted by the clear itself come back, exactly as they were', () => {
    const c = todo({ completed: true, completedAt: iso(3), createdAt: iso(3), updatedAt: iso(3) });
    const d = todo({ completed: true, completedAt: iso(4), createdAt: iso(4), updatedAt: iso(4) });
    const clear = clearCompleted([live(c), live(d)], at(1_000), 'clear').writes?.keepUndo as UndoBatch;
    // d was restored on its own since, and deleted again: no longer the clear's.
    expect(undoBulk(clear, [deletedAt(c, 1_000), deletedAt(d, 1_200)], at(1_500), WINDOW)).toEqual({
      result: [c],
      // Undeleted as it was: no field changed, so nothing for the history.
      writes: { tasks: [live(c)], spendUndo: 'clear', event: { saved: [c], removed: [] }, history: [] },
    });
    expect(undoBulk(clear, [live(c)], at(1_500), WINDOW).result).toEqual([]);
  });
});

describe('list order', () => {
  it('pinned first, then newest first, then the higher id', () => {
    const oldPinned = todo({ isPinned: true, createdAt: iso(1) });
    const newest = todo({ createdAt: iso(9) });
    const sameMs = todo({ createdAt: iso(5), _id: 'b'.repeat(24) });
    const sameMsLowerId = todo({ createdAt: iso(5), _id: 'a'.repeat(24) });
    const list = [sameMsLowerId, newest, sameMs, oldPinned].sort(byListOrder);
    expect(list).toEqual([oldPinned, newest, sameMs, sameMsLowerId]);
    expect(byListOrder(newest, newest)).toBe(0);
    expect(LIST_ORDER.map(({ field, direction }) => `${field} ${direction}`)).toEqual(['isPinned desc', 'createdAt desc', '_id desc']);
  });
});

describe('migrations', () => {
  it('completion time of a task from before completion times: its updatedAt when completed, else null', () => {
    expect(completedAtOf(true, iso(5), undefined)).toBe(iso(5));
    expect(completedAtOf(true, iso(5), null)).toBe(iso(5));
    expect(completedAtOf(true, iso(5), iso(3))).toBe(iso(3));
    expect(completedAtOf(false, iso(5), iso(3))).toBeNull();
  });

  it("a user's feed position from the kept events of one global sequence: the newest, and just below the oldest", () => {
    expect(migratedFeedPosition(4, 7)).toEqual({ seq: 7, trimmedThrough: 3 });
  });
});

describe('sweep', () => {
  it('removes what the restore window and the event retention left behind, at or before their boundary', () => {
    expect(sweepCutoffs(at(600_000), { restoreWindowMs: WINDOW, eventRetentionMs: 300_000 })).toEqual({
      restoreClosed: at(600_000 - WINDOW),
      eventsExpired: at(300_000),
      historyExpired: at(600_000 - HISTORY_RETENTION_MS),
    });
    expect(HISTORY_RETENTION_MS).toBe(30 * 24 * 60 * 60_000);
    // The sweep's boundary is exactly where restore stops.
    expect(withinRestoreWindow(iso(600_000 - WINDOW), at(600_000), WINDOW)).toBe(false);
  });
});

describe('Idempotency-Key (docs/PRODUCT.md §7)', () => {
  const fingerprint = requestFingerprint('POST', '/todo/add-todo', { title: 'Milk' });
  const answer = { status: 201, body: { message: 'Task added successfully' } };
  const record = (createdAtMs: number, print = fingerprint): IdempotencyRecord => ({ key: 'k', fingerprint: print, answer, createdAt: iso(createdAtMs) });

  it('fingerprints method, path and body; key order and an absent body do not matter', () => {
    expect(requestFingerprint('post', '/todo/add-todo', { title: 'Milk' })).toBe(fingerprint);
    expect(requestFingerprint('PUT', '/todo/update-todo/1', { updateData: { completed: true, isPinned: false } })).toBe(
      requestFingerprint('PUT', '/todo/update-todo/1', { updateData: { isPinned: false, completed: true } }),
    );
    expect(requestFingerprint('DELETE', '/todo/clear-completed', undefined)).toBe(requestFingerprint('DELETE', '/todo/clear-completed', {}));
    const others = [
      requestFingerprint('PUT', '/todo/add-todo', { title: 'Milk' }),
      requestFingerprint('POST', '/todo/restore-todo/1', { title: 'Milk' }),
      requestFingerprint('POST', '/todo/add-todo', { title: 'Milk ' }),
      requestFingerprint('POST', '/todo/add-todo', { title: 'Milk', extra: null }),
    ];
    expect(new Set([fingerprint, ...others]).size).toBe(5);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('applies a new key, replays the same request, refuses another request under the key', () => {
    expect(idempotencyVerdict(undefined, fingerprint, at(0))).toEqual({ kind: 'apply' });
    expect(idempotencyVerdict(record(0), fingerprint, at(1_000))).toEqual({ kind: 'replay', answer });
    expect(idempotencyVerdict(record(0), 'another', at(1_000))).toEqual({ kind: 'reused' });
  });

  it('keeps a key 24 hours: at the boundary it is forgotten, as the sweep forgets it', () => {
    expect(IDEMPOTENCY_RETENTION_MS).toBe(24 * 60 * 60_000);
    expect(idempotencyVerdict(record(0), fingerprint, at(IDEMPOTENCY_RETENTION_MS - 1))).toEqual({ kind: 'replay', answer });
    expect(idempotencyVerdict(record(0), 'another', at(IDEMPOTENCY_RETENTION_MS))).toEqual({ kind: 'apply' });
    expect(idempotencyExpiry(at(IDEMPOTENCY_RETENTION_MS))).toEqual(at(0));
  });

  it('an applied write stores its own writes with the record of its answer', () => {
    const added = addTodo('a'.repeat(24), 'Milk', at(5));
    const decision = decideOnce(undefined, { key: 'k', fingerprint }, at(5), () => added, (todo) => ({ status: 201, body: { todo } }));
    const kept = { key: 'k', fingerprint, answer: { status: 201, body: { todo: added.result } }, createdAt: iso(5) };
    expect(decision).toEqual({
      result: { kind: 'answered', answer: kept.answer, replayed: false },
      writes: { ...added.writes, keepIdempotency: kept },
    });
  });

  it('a write that changes nothing still keeps its answer, so a retry gets exactly that answer', () => {
    const decision = decideOnce(undefined, { key: 'k', fingerprint }, at(5), () => deleteTodo(undefined, at(5)), (removed) => ({ status: removed ? 200 : 404, body: {} }));
    expect(decision.writes).toEqual({ tasks: [], event: null, keepIdempotency: { key: 'k', fingerprint, answer: { status: 404, body: {} }, createdAt: iso(5) } });
  });

  it('a replay or a reused key decides nothing and writes nothing', () => {
    const never = () => {
      throw new Error('the write must not be decided');
    };
    expect(decideOnce(record(0), { key: 'k', fingerprint }, at(1), never, never)).toEqual({ result: { kind: 'answered', answer, replayed: true }, writes: null });
    expect(decideOnce(record(0), { key: 'k', fingerprint: 'another' }, at(1), never, never)).toEqual({ result: { kind: 'reused' }, writes: null });
  });
});

describe('change history (docs/PRODUCT.md §10.4)', () => {
  const before = todo({ title: 'Milk', completed: false, isPinned: false });
  const other = {
    title: 'Oat milk',
    completed: true,
    isPinned: true,
    due: '2026-03-14T09:00',
    repeat: 'FREQ=WEEKLY',
    repeatFrom: 'completion',
    reminders: [0, 60],
    listId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    priority: 1,
    labels: ['errand', 'home'],
    note: 'Oat, not soy\nhttps://example.com/milk',
    subtasks: [{ id: 's1', title: 'Shop', done: true }],
    order: 'a0V',
  } as const;
  // What the history keeps of each: reminders as their minutes joined, labels as their names joined, subtasks as JSON text (JSON scalars).
  const kept = { ...other, reminders: '0,60', labels: 'errand,home', subtasks: '[{"id":"s1","title":"Shop","done":true}]' };

  it('covers every patchable field: one entry per field that differs, in TODO_PATCH_FIELDS order', () => {
    const after: TodoRecord = { ...before, ...other, reminders: [...other.reminders], labels: [...other.labels], subtasks: other.subtasks.map((item) => ({ ...item })), completedAt: iso(9), updatedAt: iso(9) };
    expect(fieldChanges(before, after, iso(9)).map((change) => change.field)).toEqual([...TODO_PATCH_FIELDS]);
    for (const field of TODO_PATCH_FIELDS) {
      const changes = fieldChanges(before, { ...before, [field]: other[field] }, iso(9));
      // A task without a due date (a repeat, reminders) has `null` as its value: that is what the history keeps.
      expect(changes).toEqual([{ taskId: before._id, field, before: (before as Partial<Record<string, unknown>>)[field] ?? null, after: kept[field], at: iso(9), conflict: false }]);
    }
    // updatedAt and completedAt are not patch fields: they are not history.
    expect(fieldChanges(before, { ...before, updatedAt: iso(9), completedAt: iso(9) }, iso(9))).toEqual([]);
  });

  it('marks a conflict only for a field present in the base whose stored value is not it', () => {
    const after: TodoRecord = { ...before, ...other, reminders: [...other.reminders], labels: [...other.labels], subtasks: other.subtasks.map((item) => ({ ...item })) };
    const conflicts = (base: Parameters<typeof fieldChanges>[3]) => fieldChanges(before, after, iso(9), base).filter((change) => change.conflict).map((change) => change.field);
    expect(conflicts(undefined)).toEqual([]);
    expect(conflicts({})).toEqual([]);
    expect(conflicts({ title: 'Milk', completed: false, isPinned: false })).toEqual([]);
    expect(conflicts({ title: 'Old milk' })).toEqual(['title']);
    expect(conflicts({ title: 'Old milk', completed: true, isPinned: false })).toEqual(['title', 'completed']);
    // A base of null is a value like any other: it differs from false.
    expect(conflicts({ isPinned: null })).toEqual(['isPinned']);
    // A base for a field that did not change makes no entry at all.
    expect(fieldChanges(before, { ...before, title: 'Oat milk' }, iso(9), { completed: true })).toEqual([
      { taskId: before._id, field: 'title', before: 'Milk', after: 'Oat milk', at: iso(9), conflict: false },
    ]);
  });
});

describe('sync: temporary task ids (docs/PRODUCT.md §10.4)', () => {
  const added = (status: number, body: unknown): IdempotencyRecord => ({ key: 'add-1', fingerprint: 'f', answer: { status, body }, createdAt: iso(0) });
  const taskId = 'a'.repeat(24);

  it('a temporary id is the task its add command answered (201)', () => {
    const records = new Map([['add-1', added(201, { message: 'Task added successfully', todo: { _id: taskId, title: 'Milk' } })]]);
    const asked: string[] = [];
    const lookup = (commandId: string) => {
      asked.push(commandId);
      return records.get(commandId);
    };
    expect(TEMP_ID_PREFIX).toBe('tmp-');
    expect(resolveTaskId(`${TEMP_ID_PREFIX}add-1`, lookup)).toBe(taskId);
    expect(asked).toEqual(['add-1']);
  });

  it('null when the add was never applied, was refused, or answered no task', () => {
    expect(resolveTaskId(`${TEMP_ID_PREFIX}add-1`, () => undefined)).toBeNull();
    expect(resolveTaskId(`${TEMP_ID_PREFIX}add-1`, () => added(400, { message: 'Title is required', code: 'VALIDATION_FAILED' }))).toBeNull();
    expect(resolveTaskId(`${TEMP_ID_PREFIX}add-1`, () => added(200, { todo: { _id: taskId } }))).toBeNull();
    expect(resolveTaskId(`${TEMP_ID_PREFIX}add-1`, () => added(201, null))).toBeNull();
    expect(resolveTaskId(`${TEMP_ID_PREFIX}add-1`, () => added(201, { todo: { _id: 42 } }))).toBeNull();
  });

  it('any other id is itself, without a look-up', () => {
    const never = () => {
      throw new Error('a plain id needs no record');
    };
    expect(resolveTaskId(taskId, never)).toBe(taskId);
    expect(resolveTaskId('add-1', never)).toBe('add-1');
  });
});

describe('catchUp (docs/PRODUCT.md §10.4: a device any distance behind gets its changes or a reset)', () => {
  const event = (id: number) => ({ id: String(id), origin: null, saved: [], removed: [] });
  const feed = { cursor: '12', trimmedThrough: '4' };

  it('sends a page, says whether more follow from the one extra event read, and moves the cursor to the last sent', () => {
    expect(catchUp('5', [6, 7, 8].map(event), feed, 2)).toEqual({ changes: [event(6), event(7)], cursor: '7', more: true, reset: false });
    expect(catchUp('10', [11, 12].map(event), feed, 2)).toEqual({ changes: [event(11), event(12)], cursor: '12', more: false, reset: false });
    expect(catchUp('12', [], feed, 2)).toEqual({ changes: [], cursor: '12', more: false, reset: false });
  });

  it('resets a position the feed no longer covers, or one ahead of it, to the current cursor', () => {
    expect(catchUp('3', [5].map(event), feed, 2)).toEqual({ changes: [], cursor: '12', more: false, reset: true });
    expect(catchUp('13', [], feed, 2)).toEqual({ changes: [], cursor: '12', more: false, reset: true });
    // At the watermark itself nothing is missing yet.
    expect(catchUp('4', [5].map(event), feed, 2).reset).toBe(false);
  });
});

describe('lists (docs/PRODUCT.md §10.19)', () => {
  const listId = (n: number) => n.toString(16).padStart(24, 'a');
  const list = (n: number, values: Partial<StoredList['list']> = {}): StoredList['list'] => ({
    _id: listId(n),
    name: `List ${n}`,
    colour: 'grey',
    order: orderKeyBetween(null, null),
    archived: false,
    createdAt: iso(0),
    updatedAt: iso(0),
    ...values,
  });
  const live = (record: StoredList['list']): StoredList => ({ list: record, deletedAt: null });

  it('a create is placed after the last live list; a taken name (case aside) or full lists write nothing', () => {
    const a = list(1, { order: 'a5' });
    const gone: StoredList = { list: list(2, { order: 'a9', name: 'Gone' }), deletedAt: iso(1) };
    const made = createList(listId(3), { name: 'New' }, [live(a), gone], at(2));
    expect(made.result).toEqual({ kind: 'saved', changed: [], list: expect.objectContaining({ name: 'New', colour: 'grey', order: orderKeyBetween('a5', null), archived: false }) });
    expect(made.writes?.event).toEqual({ saved: [], removed: [], savedLists: [made.result.kind === 'saved' ? made.result.list : null] });
    expect(createList(listId(3), { name: 'list 1' }, [live(a)], at(2))).toEqual({ result: { kind: 'name-taken', issue: { path: ['name'], message: listNameTakenMessage('list 1') } }, writes: null });
    expect(createList(listId(3), { name: 'gone' }, [live(a), gone], at(2)).result.kind).toBe('saved');
    const full = Array.from({ length: LIMITS.lists }, (_, n) => live(list(n + 10)));
    expect(createList(listId(3), { name: 'New' }, full, at(2))).toEqual({ result: { kind: 'full' }, writes: null });
  });

  it('an edit changes only what differs; nothing differing is a no-op; a deleted list is not found', () => {
    const a = list(1, { name: 'Work' });
    expect(editList(a._id, { name: 'Work', archived: false }, [live(a)], at(5))).toEqual({ result: { kind: 'saved', list: a, changed: [] }, writes: null });
    expect(editList(a._id, { name: 'WORK' }, [live(a)], at(5)).result).toEqual({ kind: 'saved', changed: ['name'], list: { ...a, name: 'WORK', updatedAt: iso(5) } });
    expect(editList(a._id, { archived: true }, [{ list: a, deletedAt: iso(1) }], at(5))).toEqual({ result: { kind: 'not-found' }, writes: null });
  });

  it('a task names a live list or none; a move to a deleted or unknown one is refused on listId', () => {
    const a = list(1);
    const problem = { path: ['listId'], message: NO_SUCH_LIST_MESSAGE };
    expect(listIdProblem(undefined, [])).toBeNull();
    expect(listIdProblem(null, [])).toBeNull();
    expect(listIdProblem(a._id, [live({ ...a, archived: true })])).toBeNull();
    expect(listIdProblem(a._id, [{ list: a, deletedAt: iso(1) }])).toEqual(problem);
    expect(addTodoToList('b'.repeat(24), 't', at(1), { listId: a._id }, [])).toEqual({ result: { problem }, writes: null });
    expect(addTodoToList('b'.repeat(24), 't', at(1), { listId: a._id }, [live(a)]).result).toEqual(expect.objectContaining({ listId: a._id }));
    const task = { todo: todo(), deletedAt: null };
    expect(editTodo(task, { listId: listId(9) }, at(2), null, undefined, undefined, [live(a)])).toEqual({
      result: { todo: task.todo, changed: [], undoToken: null, conflicts: [], problem },
      writes: null,
    });
  });

  it('a list\'s delete takes its live tasks; its undo needs the list as the delete left it and its name free', () => {
    const a = list(1, { name: 'Work' });
    const inA = { todo: todo({ listId: a._id }), deletedAt: null };
    const elsewhere = { todo: todo(), deletedAt: null };
    const removal = deleteList(a._id, [live(a)], [inA, elsewhere], at(10), 'token');
    expect(removal.result).toEqual({ kind: 'removed', list: a, todos: [inA.todo], undoToken: 'token' });
    const batch = removal.writes?.keepUndo;
    expect(batch).toEqual({ token: 'token', kind: 'delete-list', listId: a._id, completed: null, createdAt: iso(10), items: [{ id: inA.todo._id, before: null }] });
    if (batch === undefined) throw new Error('no batch');
    const deletedList = { list: a, deletedAt: iso(10) };
    const deletedTask = { todo: inA.todo, deletedAt: iso(10) };
    expect(undoBatch(batch, [deletedTask], [deletedList], at(20), WINDOW).result).toEqual({ todos: [inA.todo], lists: [a] });
    expect(undoBatch(batch, [deletedTask], [deletedList, live(list(2, { name: 'work' }))], at(20), WINDOW)).toEqual({ result: null, writes: null });
    expect(undoBatch(batch, [deletedTask], [deletedList], at(10 + WINDOW), WINDOW)).toEqual({ result: null, writes: null });
    expect(deleteList(a._id, [deletedList], [], at(30), 'other')).toEqual({ result: { kind: 'not-found' }, writes: null });
  });

  it('a task restored alone comes back in its list while the list lives, in the Inbox once it is gone', () => {
    const a = list(1);
    const deleted = { todo: todo({ listId: a._id }), deletedAt: iso(1) };
    expect(restoreTodo(deleted, at(2), WINDOW, [live(a)]).result).toEqual(deleted.todo);
    expect(restoreTodo(deleted, at(2), WINDOW, [{ list: a, deletedAt: iso(1) }]).result).not.toHaveProperty('listId');
  });

  it('the scopes: every task, the Inbox\'s, one list\'s; a temporary list id resolves through its create\'s answer', () => {
    const inA = todo({ listId: listId(1) });
    const inInbox = todo();
    expect([inScope(inA, undefined), inScope(inInbox, undefined)]).toEqual([true, true]);
    expect([inScope(inA, INBOX_ID), inScope(inInbox, INBOX_ID)]).toEqual([false, true]);
    expect([inScope(inA, listId(1)), inScope(inInbox, listId(1))]).toEqual([true, false]);
    const made = { key: 'c1', fingerprint: 'f', createdAt: iso(0), answer: { status: 201, body: { message: 'List created', list: { _id: listId(1) } } } };
    expect(resolveTempId(`${TEMP_ID_PREFIX}c1`, () => made, 'list')).toBe(listId(1));
    expect(resolveTempId(`${TEMP_ID_PREFIX}c1`, () => made, 'todo')).toBeNull();
    expect(resolveTempId(`${TEMP_ID_PREFIX}c1`, () => ({ ...made, answer: { status: 409, body: {} } }), 'list')).toBeNull();
  });
});
