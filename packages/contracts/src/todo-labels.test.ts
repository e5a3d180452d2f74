import { LIMITS } from './limits.js';
import {
  taskMarks,
  hasLabel,
  LABEL_NAME_MESSAGE,
  labelKey,
  labelNameProblem,
  LABELS_TOO_MANY_MESSAGE,
  labelsInUse,
  NO_PRIORITY,
  normalLabels,
  PRIORITIES,
  PRIORITY_MESSAGE,
  priorityName,
  priorityOf,
} from './todo-labels.js';
import { applyPatch, changeMessage, fieldValue, isTick, patchedFields, TODO_PATCH_FIELDS, unchangedMessage, UPDATE_MESSAGES } from './todo-changes.js';
import { AddTodoRequest, Todo, TodoPatch, UpdateTodoRequest } from './todos.js';

// Labels and priorities (docs/PRODUCT.md §10.20): the rules of a label's name, how labels compare and are
// kept, priorities, the request schemas that apply them, and a patch of either as the service and the device
// apply it (todo-changes.ts).

describe('a label’s name', () => {
  it('is 1 to 40 letters (any script, with their marks), digits or - _ . /, with no spaces', () => {
    const good = ['errand', 'Übung', 'a-b_c.d/e', '2027', 'x'.repeat(LIMITS.labelName.max), '日本語', 'cafe\u0301', 'файл', 'x'];
    for (const name of good) expect([name, labelNameProblem(name)]).toEqual([name, null]);
    const bad = ['', ' ', 'on the way', ' errand', 'errand ', 'x'.repeat(LIMITS.labelName.max + 1), '@errand', '#work', 'a,b', 'tab\there', 'emoji😀', 'a"b', 'new\nline'];
    for (const name of bad) expect([name, labelNameProblem(name)]).toEqual([name, LABEL_NAME_MESSAGE]);
    expect(LABEL_NAME_MESSAGE).toBe('A label is 1 to 40 letters, digits or - _ . / with no spaces.');
  });

  it('compares case aside and in one Unicode form', () => {
    expect(labelKey('Errand')).toBe(labelKey('errand'));
    expect(labelKey('ERRAND')).toBe('errand');
    expect(labelKey('cafe\u0301')).toBe(labelKey('caf\u00e9'));
    expect(labelKey('errand')).not.toBe(labelKey('errands'));
  });
});

describe('a task’s labels as kept', () => {
  it('each once, case aside, the first spelling, in NFC, in the order of their keys', () => {
    expect(normalLabels(['home', 'Errand', 'errand', 'ERRAND', 'cafe\u0301', 'caf\u00e9'])).toEqual(['caf\u00e9', 'Errand', 'home']);
    expect(normalLabels([])).toEqual([]);
    // Two devices that add the same labels in another order keep the same value.
    expect(normalLabels(['b', 'a', 'c'])).toEqual(normalLabels(['c', 'b', 'a']));
    // Already normal: unchanged.
    const kept = normalLabels(['zeta', 'Alpha', 'mid']);
    expect(normalLabels(kept)).toEqual(kept);
  });

  it('the person’s labels are those their tasks carry, once each, with their open tasks counted', () => {
    const todos = [
      { labels: ['Errand', 'home'], completed: false },
      { labels: ['errand'], completed: true },
      { labels: ['errand', 'work'], completed: false },
      { completed: false },
    ];
    expect(labelsInUse(todos)).toEqual([
      { name: 'Errand', open: 2 },
      { name: 'home', open: 1 },
      { name: 'work', open: 1 },
    ]);
    expect(labelsInUse([])).toEqual([]);
    expect(hasLabel(todos[0]!, 'ERRAND')).toBe(true);
    expect(hasLabel(todos[0]!, 'work')).toBe(false);
    expect(hasLabel(todos[3]!, 'errand')).toBe(false);
  });
});

describe('a new task’s priority and labels (taskMarks)', () => {
  it('keeps priorities 1–3 and labels each once in order; priority 4 and no labels are none, left out', () => {
    expect(taskMarks({ priority: 2, labels: ['home', 'Errand', 'errand'] })).toEqual({ priority: 2, labels: ['Errand', 'home'] });
    expect(taskMarks({ priority: 4, labels: [] })).toEqual({});
    expect(taskMarks({})).toEqual({});
  });
});

describe('priorities', () => {
  it('run from 1, the most urgent, to 4, none; a task without one (or with anything else) is priority 4', () => {
    expect(PRIORITIES).toEqual([1, 2, 3, 4]);
    expect(NO_PRIORITY).toBe(4);
    expect([priorityOf({ priority: 1 }), priorityOf({ priority: 3 }), priorityOf({}), priorityOf({ priority: 7 })]).toEqual([1, 3, 4, 4]);
    expect(PRIORITIES.map(priorityName)).toEqual(['Priority 1', 'Priority 2', 'Priority 3', 'Priority 4']);
  });
});

describe('the request schemas (§10.20: bad input is a 400 naming the field)', () => {
  const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => result.error?.issues.map(({ path, message }) => ({ path, message }));

  it('an add takes a priority 1–4 and labels, kept as normalLabels keeps them; a spec client’s body still parses', () => {
    expect(AddTodoRequest.parse({ title: 't', priority: 2, labels: ['b', 'A', 'a'] })).toEqual({ title: 't', priority: 2, labels: ['A', 'b'] });
    expect(AddTodoRequest.parse({ title: 't', priority: 4, labels: [] })).toEqual({ title: 't', priority: 4, labels: [] });
    expect(AddTodoRequest.parse({ title: 't' })).toEqual({ title: 't' });
  });

  it.each([0, 5, 1.5, -1, 'high', '1', null, true])('refuses a priority of %p, on priority', (priority) => {
    expect(issuesOf(AddTodoRequest.safeParse({ title: 't', priority }))).toEqual([{ path: ['priority'], message: PRIORITY_MESSAGE }]);
  });

  it('refuses a bad label on its index, and more than 20 labels (after the repeats are counted once) on labels', () => {
    expect(issuesOf(AddTodoRequest.safeParse({ title: 't', labels: ['ok', 'on the way'] }))).toEqual([{ path: ['labels', 1], message: LABEL_NAME_MESSAGE }]);
    expect(issuesOf(AddTodoRequest.safeParse({ title: 't', labels: [''] }))).toEqual([{ path: ['labels', 0], message: LABEL_NAME_MESSAGE }]);
    expect(issuesOf(AddTodoRequest.safeParse({ title: 't', labels: ['x'.repeat(41)] }))).toEqual([{ path: ['labels', 0], message: LABEL_NAME_MESSAGE }]);
    const twenty = Array.from({ length: LIMITS.labelsPerTask }, (_, index) => `l${index}`);
    expect(AddTodoRequest.parse({ title: 't', labels: twenty }).labels).toHaveLength(20);
    expect(issuesOf(AddTodoRequest.safeParse({ title: 't', labels: [...twenty, 'one-more'] }))).toEqual([{ path: ['labels'], message: LABELS_TOO_MANY_MESSAGE }]);
    expect(AddTodoRequest.parse({ title: 't', labels: [...twenty, 'L0'] }).labels).toHaveLength(20);
    expect(AddTodoRequest.safeParse({ title: 't', labels: 'errand' }).success).toBe(false);
  });

  it('a patch sets them, removes them with null, 4 or [], and names them in its empty-patch message', () => {
    expect(TodoPatch.parse({ priority: null, labels: null })).toEqual({ priority: null, labels: null });
    expect(TodoPatch.parse({ priority: 4, labels: [] })).toEqual({ priority: 4, labels: [] });
    expect(TodoPatch.parse({ labels: ['Home', 'home', 'errand'] })).toEqual({ labels: ['errand', 'Home'] });
    expect(issuesOf(UpdateTodoRequest.safeParse({ updateData: { priority: 0 } }))).toEqual([{ path: ['updateData', 'priority'], message: PRIORITY_MESSAGE }]);
    expect(issuesOf(UpdateTodoRequest.safeParse({ updateData: { labels: ['a b'] } }))).toEqual([{ path: ['updateData', 'labels', 0], message: LABEL_NAME_MESSAGE }]);
    expect(issuesOf(TodoPatch.safeParse({}))?.[0]?.message).toBe('updateData must set title, completed, isPinned, due, repeat, repeatFrom, reminders, listId, priority, labels, note, subtasks and/or order');
  });

  it('a task carries a priority 1–3 only (4 is no priority) and labels as text', () => {
    const todo = { _id: '0123456789abcdef01234567', title: 't', completed: false, isPinned: false, createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString(), completedAt: null };
    expect(Todo.parse({ ...todo, priority: 3, labels: ['a'] })).toEqual({ ...todo, priority: 3, labels: ['a'] });
    expect(Todo.safeParse({ ...todo, priority: 4 }).success).toBe(false);
    expect(Todo.safeParse({ ...todo, labels: [1] }).success).toBe(false);
  });
});

describe('a patch of a priority or labels (todo-changes.ts)', () => {
  const task = { title: 'A', completed: false, isPinned: false, updatedAt: 'then', completedAt: null };

  it('are patch fields like any other, after the list, so the outbox, the merge and the history carry them', () => {
    expect(TODO_PATCH_FIELDS.slice(8, 10)).toEqual(['priority', 'labels']);
    expect(patchedFields({ labels: [], priority: 4, title: 'x' })).toEqual(['title', 'priority', 'labels']);
    expect(isTick({ priority: 1 })).toBe(false);
  });

  it('applyPatch sets them, and removes them for 4, [] and null; nothing else moves but updatedAt', () => {
    const marked = applyPatch(task, { priority: 2, labels: ['a', 'b'] }, 'now');
    expect(marked).toEqual({ ...task, priority: 2, labels: ['a', 'b'], updatedAt: 'now' });
    expect(applyPatch(marked, { priority: 4 }, 'later')).toEqual({ ...task, labels: ['a', 'b'], updatedAt: 'later' });
    expect(applyPatch(marked, { labels: [] }, 'later')).toEqual({ ...task, priority: 2, updatedAt: 'later' });
    expect(applyPatch(marked, { priority: null, labels: null }, 'later')).toEqual({ ...task, updatedAt: 'later' });
    expect(applyPatch(task, { priority: 4, labels: [] }, 'later')).toEqual({ ...task, updatedAt: 'later' });
    expect(applyPatch(marked, { completed: true }, 'later')).toEqual({ ...marked, completed: true, completedAt: 'later', updatedAt: 'later' });
  });

  it('fieldValue: labels joined by commas, a priority as its number; none of either is null', () => {
    expect(fieldValue({ labels: ['errand', 'home'] }, 'labels')).toBe('errand,home');
    expect([fieldValue({ labels: [] }, 'labels'), fieldValue({}, 'labels'), fieldValue({ labels: null }, 'labels')]).toEqual([null, null, null]);
    expect(fieldValue({ priority: 2 }, 'priority')).toBe(2);
    expect([fieldValue({ priority: 4 }, 'priority'), fieldValue({}, 'priority'), fieldValue({ priority: null }, 'priority')]).toEqual([null, null, null]);
  });

  it('says what changed, and what is already so', () => {
    expect(changeMessage(['priority'], { priority: 1 })).toBe('Priority set');
    expect(changeMessage(['priority'], {})).toBe('Priority removed');
    expect(changeMessage(['priority'], { priority: 4 })).toBe(UPDATE_MESSAGES.priority.removed);
    expect(changeMessage(['labels'], { labels: ['a'] })).toBe('Labels set');
    expect(changeMessage(['labels'], { labels: [] })).toBe('Labels removed');
    expect(changeMessage(['priority', 'labels'], { priority: 1, labels: ['a'] })).toBe('Task updated');
    expect(unchangedMessage({ priority: 4 }, task)).toBe('Priority unchanged');
    expect(unchangedMessage({ labels: ['a'] }, task)).toBe('Labels unchanged');
    expect(unchangedMessage({ labels: ['a'], priority: 1 }, task)).toBe('Task unchanged');
  });
});
