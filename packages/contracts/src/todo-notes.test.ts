import { LIMITS } from './limits.js';
import {
  noteParts,
  noteProblem,
  noteValue,
  NOTE_TOO_LONG_MESSAGE,
  progressLabel,
  progressText,
  SUBTASK_ID_MESSAGE,
  SUBTASK_IDS_REPEATED_MESSAGE,
  SUBTASK_TITLE_EMPTY_MESSAGE,
  subtaskProgress,
  subtasksChangeText,
  subtasksFieldValue,
  subtasksOfFieldValue,
  SUBTASKS_TOO_MANY_MESSAGE,
  taskDetails,
  type Subtask,
} from './todo-notes.js';
import { applyPatch, changeMessage, fieldValue, isTick, patchedFields, TODO_PATCH_FIELDS, unchangedMessage } from './todo-changes.js';
import { TODO_TITLE_TOO_LONG_MESSAGE } from './todo-title.js';
import { AddTodoRequest, Todo, TodoPatch, UpdateTodoRequest } from './todos.js';

// Notes and subtasks (docs/PRODUCT.md §10.21): the rules of a note and a checklist, the request schemas that
// apply them, a patch of either as the service and the device apply it, the history's words, and links.

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => result.error?.issues.map(({ path, message }) => ({ path, message }));
const milk: Subtask = { id: 'a1', title: 'Buy milk', done: false };
const bread: Subtask = { id: 'b2', title: 'Buy bread', done: true };

describe('a note', () => {
  it('is kept trimmed at both ends with its inner lines and spaces, and without bidi controls', () => {
    expect(noteValue('  Line one\n\n  line two  \n')).toBe('Line one\n\n  line two');
    expect(noteValue('Pay \u202Eevil\u202C now')).toBe('Pay evil now');
    expect(noteValue(' \n\t ')).toBe('');
  });

  it('has at most 10 000 characters after trimming', () => {
    expect(noteProblem('x'.repeat(LIMITS.note.max))).toBeNull();
    expect(noteProblem(` ${'x'.repeat(LIMITS.note.max)} \n`)).toBeNull();
    expect(noteProblem('x'.repeat(LIMITS.note.max + 1))).toBe(NOTE_TOO_LONG_MESSAGE);
    expect(NOTE_TOO_LONG_MESSAGE).toBe('A note can be at most 10000 characters long.');
  });
});

describe('the request schemas', () => {
  it('take a note at add and at update, trimmed; an empty one is a removal in a patch', () => {
    expect(AddTodoRequest.parse({ title: 't', note: ' See https://a.example \n' }).note).toBe('See https://a.example');
    expect(TodoPatch.parse({ note: '  ' })).toEqual({ note: '' });
    expect(TodoPatch.parse({ note: null })).toEqual({ note: null });
    expect(issuesOf(UpdateTodoRequest.safeParse({ updateData: { note: 'x'.repeat(10_001) } }))).toEqual([{ path: ['updateData', 'note'], message: NOTE_TOO_LONG_MESSAGE }]);
    expect(issuesOf(UpdateTodoRequest.safeParse({ updateData: { note: 5 } }))?.[0]?.path).toEqual(['updateData', 'note']);
  });

  it('take a whole checklist: ids made by the device, titles by the title rules, order as given', () => {
    expect(TodoPatch.parse({ subtasks: [{ id: 'z', title: '  Milk ', done: false }, bread] })).toEqual({ subtasks: [{ id: 'z', title: 'Milk', done: false }, bread] });
    expect(TodoPatch.parse({ subtasks: [] })).toEqual({ subtasks: [] });
    const hundred = Array.from({ length: LIMITS.subtasksPerTask }, (_, index) => ({ id: `s${index}`, title: `Step ${index}`, done: false }));
    expect(AddTodoRequest.parse({ title: 't', subtasks: hundred }).subtasks).toHaveLength(100);
    expect(issuesOf(AddTodoRequest.safeParse({ title: 't', subtasks: [...hundred, { id: 'x', title: 'x', done: false }] }))).toEqual([{ path: ['subtasks'], message: SUBTASKS_TOO_MANY_MESSAGE }]);
  });

  it('refuse a bad subtask on its index and field, and an id used twice', () => {
    const update = (subtasks: unknown) => issuesOf(UpdateTodoRequest.safeParse({ updateData: { subtasks } }));
    expect(update([milk, { ...bread, title: ' \u200B ' }])).toEqual([{ path: ['updateData', 'subtasks', 1, 'title'], message: SUBTASK_TITLE_EMPTY_MESSAGE }]);
    expect(update([{ ...milk, title: 'x'.repeat(501) }])).toEqual([{ path: ['updateData', 'subtasks', 0, 'title'], message: TODO_TITLE_TOO_LONG_MESSAGE }]);
    for (const id of ['', 'a b', 'x'.repeat(41), 'é']) expect(update([{ ...milk, id }])).toEqual([{ path: ['updateData', 'subtasks', 0, 'id'], message: SUBTASK_ID_MESSAGE }]);
    expect(update([milk, { ...bread, id: milk.id }])).toEqual([{ path: ['updateData', 'subtasks'], message: SUBTASK_IDS_REPEATED_MESSAGE }]);
    expect(update([{ ...milk, done: 'yes' }])?.[0]?.path).toEqual(['updateData', 'subtasks', 0, 'done']);
    expect(update([{ ...milk, extra: 1 }])?.[0]?.path).toEqual(['updateData', 'subtasks', 0]);
    expect(update({ ...milk })?.[0]?.path).toEqual(['updateData', 'subtasks']);
  });

  it('a task carries a note and subtasks', () => {
    const todo = { _id: '0123456789abcdef01234567', title: 't', completed: false, isPinned: false, createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString(), completedAt: null };
    expect(Todo.parse({ ...todo, note: 'n', subtasks: [milk] })).toEqual({ ...todo, note: 'n', subtasks: [milk] });
  });
});

describe('what a task keeps', () => {
  it('taskDetails: none for an empty note or no subtasks; titles trimmed', () => {
    expect(taskDetails({})).toEqual({});
    expect(taskDetails({ note: ' ', subtasks: [] })).toEqual({});
    expect(taskDetails({ note: null, subtasks: null })).toEqual({});
    expect(taskDetails({ note: ' n ', subtasks: [{ ...milk, title: ' Buy milk ' }] })).toEqual({ note: 'n', subtasks: [milk] });
  });

  it('progress: done of total, "2/5", in words for a screen reader; none without subtasks', () => {
    expect(subtaskProgress(undefined)).toBeNull();
    expect(subtaskProgress([])).toBeNull();
    const progress = subtaskProgress([milk, bread, { ...milk, id: 'c', done: true }]);
    expect(progress).toEqual({ done: 2, total: 3 });
    expect(progressText({ done: 2, total: 5 })).toBe('2/5');
    expect(progressLabel({ done: 2, total: 5 })).toBe('2 of 5 subtasks done');
    expect(progressLabel({ done: 0, total: 1 })).toBe('0 of 1 subtask done');
  });
});

describe('a patch of a note or subtasks (todo-changes.ts)', () => {
  const task = { title: 'A', completed: false, isPinned: false, updatedAt: 'then', completedAt: null };

  it('are patch fields after the labels, so the outbox, the merge and the history carry them; neither is a tick', () => {
    expect(TODO_PATCH_FIELDS.slice(10, 12)).toEqual(['note', 'subtasks']);
    expect(patchedFields({ subtasks: [], note: '' })).toEqual(['note', 'subtasks']);
    expect(isTick({ subtasks: [{ ...milk, done: true }] })).toBe(false);
  });

  it('applyPatch sets them, and removes them for "", [] and null; nothing else moves but updatedAt', () => {
    const detailed = applyPatch(task, { note: 'n', subtasks: [milk] }, 'now');
    expect(detailed).toEqual({ ...task, note: 'n', subtasks: [milk], updatedAt: 'now' });
    expect(applyPatch(detailed, { note: '' }, 'later')).toEqual({ ...task, subtasks: [milk], updatedAt: 'later' });
    expect(applyPatch(detailed, { subtasks: [] }, 'later')).toEqual({ ...task, note: 'n', updatedAt: 'later' });
    expect(applyPatch(detailed, { note: null, subtasks: null }, 'later')).toEqual({ ...task, updatedAt: 'later' });
    expect(applyPatch(detailed, { completed: true }, 'later')).toEqual({ ...detailed, completed: true, completedAt: 'later', updatedAt: 'later' });
  });

  it('fieldValue: a note its text, subtasks their JSON text; none is null; equal checklists equal values', () => {
    expect(fieldValue({ note: 'n' }, 'note')).toBe('n');
    expect([fieldValue({ note: '' }, 'note'), fieldValue({}, 'note'), fieldValue({ note: null }, 'note')]).toEqual([null, null, null]);
    expect(fieldValue({ subtasks: [milk] }, 'subtasks')).toBe('[{"id":"a1","title":"Buy milk","done":false}]');
    expect([fieldValue({ subtasks: [] }, 'subtasks'), fieldValue({}, 'subtasks'), fieldValue({ subtasks: null }, 'subtasks')]).toEqual([null, null, null]);
    expect(subtasksFieldValue([{ done: false, title: 'Buy milk', id: 'a1' }])).toBe(subtasksFieldValue([milk]));
    expect(subtasksOfFieldValue(subtasksFieldValue([milk, bread]))).toEqual([milk, bread]);
    expect([subtasksOfFieldValue(null), subtasksOfFieldValue('not json'), subtasksOfFieldValue('{"a":1}'), subtasksOfFieldValue('[{"id":1}]')]).toEqual([[], [], [], []]);
  });

  it('says what changed, and what is already so', () => {
    expect(changeMessage(['note'], { note: 'n' })).toBe('Note saved');
    expect(changeMessage(['note'], { note: null })).toBe('Note removed');
    expect(changeMessage(['subtasks'], { subtasks: [milk] })).toBe('Subtasks saved');
    expect(changeMessage(['subtasks'], { subtasks: [] })).toBe('Subtasks removed');
    expect(changeMessage(['note', 'subtasks'], { note: 'n', subtasks: [milk] })).toBe('Task updated');
    expect(unchangedMessage({ note: 'n' }, { completed: false, isPinned: false })).toBe('Note unchanged');
    expect(unchangedMessage({ subtasks: [] }, { completed: false, isPinned: false })).toBe('Subtasks unchanged');
  });
});

describe('a checklist change in the history’s words', () => {
  it('names the one subtask added, removed, done, reopened or renamed', () => {
    expect(subtasksChangeText([milk], [milk, bread])).toBe('Subtask added: Buy bread');
    expect(subtasksChangeText([], [milk])).toBe('Subtask added: Buy milk');
    expect(subtasksChangeText([milk, bread], [bread])).toBe('Subtask removed: Buy milk');
    expect(subtasksChangeText([milk, bread], [{ ...milk, done: true }, bread])).toBe('Subtask done: Buy milk');
    expect(subtasksChangeText([milk, bread], [milk, { ...bread, done: false }])).toBe('Subtask reopened: Buy bread');
    expect(subtasksChangeText([milk], [{ ...milk, title: 'Buy oat milk' }])).toBe('Subtask renamed: Buy milk → Buy oat milk');
  });

  it('says a reorder, several changes, and an emptied list', () => {
    expect(subtasksChangeText([milk, bread], [bread, milk])).toBe('Subtasks reordered');
    expect(subtasksChangeText([milk], [{ ...milk, title: 'x', done: true }])).toBe('Subtasks changed');
    expect(subtasksChangeText([milk], [{ ...milk, done: true }, bread])).toBe('Subtasks changed');
    expect(subtasksChangeText([milk, bread], [])).toBe('Subtasks removed');
  });
});

describe('links in a note', () => {
  const links = (note: string) => noteParts(note).flatMap((part) => ('href' in part ? [part.href] : []));

  it('makes each http(s) address a link and leaves the rest as text, joined back to the note', () => {
    const note = 'See https://example.com/a?b=1#c and http://x.example.\nThen <b>bold</b> javascript:alert(1)';
    const parts = noteParts(note);
    expect(parts.map((part) => part.text).join('')).toBe(note);
    expect(links(note)).toEqual(['https://example.com/a?b=1#c', 'http://x.example']);
    expect(parts[0]).toEqual({ text: 'See ' });
    expect(parts.at(-1)).toEqual({ text: '.\nThen <b>bold</b> javascript:alert(1)' });
  });

  it('leaves sentence punctuation and unopened brackets out, and keeps brackets the address opened', () => {
    expect(links('(see https://example.com/x).')).toEqual(['https://example.com/x']);
    expect(links('https://en.wikipedia.org/wiki/Foo_(bar), then')).toEqual(['https://en.wikipedia.org/wiki/Foo_(bar)']);
    expect(links('Is it https://a.example/?!')).toEqual(['https://a.example/']);
    expect(links('"https://a.example/q"')).toEqual(['https://a.example/q']);
  });

  it('links nothing but http(s) addresses with a host', () => {
    expect(links('ftp://a.example mailto:a@b.example javascript:alert(1) https:// http:/x')).toEqual([]);
    expect(noteParts('')).toEqual([]);
    expect(noteParts('plain')).toEqual([{ text: 'plain' }]);
  });

  it('stays linear on a long note', () => {
    const note = `${'https://a.example/'.repeat(500)} ${'x'.repeat(9_000)}`;
    const started = performance.now();
    expect(noteParts(note).length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
