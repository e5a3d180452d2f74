import { DEFAULT_LIST_COLOUR, INBOX_ID, TEMP_ID_PREFIX, type TaskList, type Todo } from '@tm/contracts';
import {
  actionOf,
  addTaskCommand,
  applyListChange,
  clearCompletedCommand,
  completeAllCommand,
  createListCommand,
  deleteListCommand,
  echoedLists,
  inList,
  listIdOf,
  listsViewOf,
  outcomeOf,
  resolveCommand,
  rewriteCommand,
  taskIdOf,
  updateListCommand,
  updateTaskCommand,
  viewOf,
} from './sync.domain.js';

/** Lists on the device (docs/PRODUCT.md §10.19, offline as §10.4): their commands, the overlay, temp ids, the feed. */

const T0 = '2030-01-01T10:00:00.000Z';
const T1 = '2030-01-01T10:05:00.000Z';
const L1 = '111111111111111111111111';
const L2 = '222222222222222222222222';
const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccccccccccc';

function list(id: string, fields: Partial<TaskList> = {}): TaskList {
  return { _id: id, name: `List ${id.slice(0, 2)}`, colour: 'grey', order: 'a0', archived: false, createdAt: T0, updatedAt: T0, ...fields };
}
function task(id: string, fields: Partial<Todo> = {}): Todo {
  return { _id: id, title: `Task ${id}`, completed: false, isPinned: false, createdAt: T0, updatedAt: T0, completedAt: null, ...fields };
}
const pending = (...commands: ReturnType<typeof deleteListCommand>[]) => commands.map((command) => ({ command, createdAt: T1 }));

describe('list commands', () => {
  it('are the list routes as the API takes them, a new list with a temp id later commands may name', () => {
    expect(createListCommand({ name: 'Work', colour: 'blue' }, 'c1')).toEqual({ command: { id: 'c1', method: 'POST', path: '/todo/lists', body: { name: 'Work', colour: 'blue' } }, tempId: `${TEMP_ID_PREFIX}c1` });
    expect(updateListCommand(L1, { name: 'Home' }, 'c2')).toEqual({ id: 'c2', method: 'PUT', path: `/todo/lists/${L1}`, body: { name: 'Home' } });
    expect(deleteListCommand(L1, 'c3')).toEqual({ id: 'c3', method: 'DELETE', path: `/todo/lists/${L1}` });
    expect(completeAllCommand(true, 'c4', L1)).toEqual({ id: 'c4', method: 'PUT', path: '/todo/complete-all', body: { completed: true, listId: L1 } });
    expect(clearCompletedCommand('c5', INBOX_ID)).toEqual({ id: 'c5', method: 'DELETE', path: '/todo/clear-completed?listId=inbox' });
  });

  it('are read back as what they do; they are about a list, not a task', () => {
    expect(actionOf(updateListCommand(L1, { archived: true, order: 'a5' }))).toEqual({ kind: 'updateList', listId: L1, patch: { archived: true, order: 'a5' } });
    expect(actionOf(deleteListCommand(L1))).toEqual({ kind: 'deleteList', listId: L1 });
    expect(actionOf(clearCompletedCommand('x', L2))).toEqual({ kind: 'clearCompleted', listId: L2 });
    expect(actionOf(completeAllCommand(false, 'y'))).toEqual({ kind: 'completeAll', completed: false });
    expect(listIdOf(createListCommand({ name: 'Work' }, 'c1').command)).toBe(`${TEMP_ID_PREFIX}c1`);
    expect(listIdOf(deleteListCommand(L2))).toBe(L2);
    expect(taskIdOf(deleteListCommand(L2))).toBeNull();
    expect(listIdOf(completeAllCommand(true))).toBeNull();
  });

  it('a delete of a list already gone (404) is done; any other refusal is kept', () => {
    expect(outcomeOf(deleteListCommand(L1), 404)).toBe('acknowledged');
    expect(outcomeOf(updateListCommand(L1, { name: 'x' }), 404)).toBe('refused');
    expect(outcomeOf(createListCommand({ name: 'Work' }).command, 409)).toBe('refused');
  });
});

describe('the lists shown: the confirmed ones with the list commands laid over them', () => {
  it('a new list shows at once, after the last, grey unless coloured, its name trimmed', () => {
    const { command, tempId } = createListCommand({ name: '  Work ' }, 'c1');
    const shown = listsViewOf([list(L1, { order: 'a0' })], pending(command));
    expect(shown.map((entry) => entry._id)).toEqual([L1, tempId]);
    expect(shown[1]).toMatchObject({ name: 'Work', colour: DEFAULT_LIST_COLOUR, archived: false, createdAt: T1 });
    expect(shown[1]!.order > 'a0').toBe(true);
  });

  it('once answered it shows under its real id, and once only when the confirmed lists hold it already', () => {
    const { command, tempId } = createListCommand({ name: 'Work' }, 'c1');
    const ids = new Map([[tempId, L2]]);
    expect(listsViewOf([], pending(command), ids).map((entry) => entry._id)).toEqual([L2]);
    expect(listsViewOf([list(L2, { name: 'Work' })], pending(command), ids)).toEqual([list(L2, { name: 'Work' })]);
  });

  it('a rename, a colour, a move and an archive show at once, in the new order; a delete takes the list away', () => {
    const confirmed = [list(L1, { order: 'a0' }), list(L2, { order: 'a1' })];
    const shown = listsViewOf(confirmed, pending(updateListCommand(L2, { name: ' Home ', colour: 'teal', order: 'Zz' }), updateListCommand(L1, { archived: true })));
    expect(shown.map((entry) => [entry._id, entry.name, entry.colour, entry.archived])).toEqual([
      [L2, 'Home', 'teal', false],
      [L1, 'List 11', 'grey', true],
    ]);
    expect(listsViewOf(confirmed, pending(deleteListCommand(L1))).map((entry) => entry._id)).toEqual([L2]);
  });

  it('a list change names a new list by its temp id before the answer', () => {
    const { command, tempId } = createListCommand({ name: 'Work' }, 'c1');
    expect(listsViewOf([], pending(command, updateListCommand(tempId, { colour: 'red' })))[0]).toMatchObject({ _id: tempId, colour: 'red' });
    expect(listsViewOf([], pending(command, deleteListCommand(tempId)))).toEqual([]);
  });
});

describe('tasks and lists in the overlay', () => {
  it('a task added to a new list, or moved into it, is in that list under its temp id, then under its real id', () => {
    const { command: create, tempId } = createListCommand({ name: 'Work' }, 'c1');
    const { command: add, tempId: taskTemp } = addTaskCommand({ title: 'Report', listId: tempId }, 'c2');
    const move = updateTaskCommand(task(A), { listId: tempId }, 'c3');
    const before = viewOf([task(A)], pending(create, add, move));
    expect(before.map((todo) => [todo._id, todo.listId])).toEqual([
      [taskTemp, tempId],
      [A, tempId],
    ]);
    const after = viewOf([task(A)], pending(create, add, move), new Map([[tempId, L1]]));
    expect(after.map((todo) => todo.listId)).toEqual([L1, L1]);
    expect(after.every((todo) => inList(todo, L1))).toBe(true);
  });

  it('a move to the Inbox (listId null) takes the listId away', () => {
    const [moved] = viewOf([task(A, { listId: L1 })], pending(updateTaskCommand(task(A, { listId: L1 }), { listId: null })));
    expect(moved).not.toHaveProperty('listId');
    expect(inList(moved!, INBOX_ID)).toBe(true);
    expect(inList(moved!, L1)).toBe(false);
  });

  it('deleting a list takes its tasks away, and only them', () => {
    const shown = viewOf([task(A, { listId: L1 }), task(B), task(C, { listId: L2 })], pending(deleteListCommand(L1)));
    expect(shown.map((todo) => todo._id).sort()).toEqual([B, C]);
  });

  it('Mark all and Clear completed scoped to a list (or the Inbox) touch that list only', () => {
    const confirmed = [task(A, { listId: L1 }), task(B), task(C, { listId: L2, completed: true, completedAt: T0 })];
    const marked = viewOf(confirmed, pending(completeAllCommand(true, 'm', L1)));
    expect(Object.fromEntries(marked.map((todo) => [todo._id, todo.completed]))).toEqual({ [A]: true, [B]: false, [C]: true });
    const inbox = viewOf(confirmed, pending(completeAllCommand(true, 'm', INBOX_ID)));
    expect(Object.fromEntries(inbox.map((todo) => [todo._id, todo.completed]))).toEqual({ [A]: false, [B]: true, [C]: true });
    const cleared = viewOf([...confirmed, task('d'.repeat(24), { completed: true, completedAt: T0 })], pending(clearCompletedCommand('c', L1), clearCompletedCommand('k', INBOX_ID)));
    expect(cleared.map((todo) => todo._id).sort()).toEqual([A, B, C]);
  });
});

describe('temp ids of new lists in later commands', () => {
  const tempId = `${TEMP_ID_PREFIX}c1`;

  it('are replaced by the real id in the path, the query, and a body\'s listId, and nowhere else', () => {
    expect(rewriteCommand(updateListCommand(tempId, { name: 'x' }, 'u'), tempId, L1)).toEqual({ id: 'u', method: 'PUT', path: `/todo/lists/${L1}`, body: { name: 'x' } });
    expect(rewriteCommand(clearCompletedCommand('k', tempId), tempId, L1)?.path).toBe(`/todo/clear-completed?listId=${L1}`);
    expect(rewriteCommand(completeAllCommand(true, 'm', tempId), tempId, L1)?.body).toEqual({ completed: true, listId: L1 });
    expect(rewriteCommand(addTaskCommand({ title: 'a', listId: tempId }, 'a').command, tempId, L1)?.body).toEqual({ title: 'a', listId: L1 });
    expect(rewriteCommand(updateTaskCommand(task(A), { listId: tempId }, 'v'), tempId, L1)?.body).toEqual({ updateData: { listId: L1 }, base: { listId: null } });
    expect(rewriteCommand(updateTaskCommand(task(A), { title: tempId }, 'v'), tempId, L1)).toBeNull();
    expect(rewriteCommand(completeAllCommand(true, 'm', L2), tempId, L1)).toBeNull();
  });

  it('a command made after the answer names the real ids of both the task and the list', () => {
    const taskTemp = `${TEMP_ID_PREFIX}t1`;
    const move = updateTaskCommand(task(taskTemp), { listId: tempId }, 'v');
    const resolved = resolveCommand(move, new Map([[taskTemp, A], [tempId, L1]]));
    expect(resolved.path).toBe(`/todo/update-todo/${A}`);
    expect(resolved.body).toMatchObject({ updateData: { listId: L1 } });
  });
});

describe('list changes from the feed', () => {
  it('savedLists are upserted and removedLists deleted, in their order; an event without them changes nothing', () => {
    const confirmed = [list(L1, { order: 'a0' })];
    expect(applyListChange(confirmed, {})).toBe(confirmed);
    const next = applyListChange(confirmed, { savedLists: [list(L2, { order: 'Zz' }), list(L1, { order: 'a0', name: 'Renamed' })] });
    expect(next.map((entry) => [entry._id, entry.name])).toEqual([
      [L2, 'List 22'],
      [L1, 'Renamed'],
    ]);
    expect(applyListChange(next, { removedLists: [L2] }).map((entry) => entry._id)).toEqual([L1]);
  });

  it('an echo of this device\'s own unanswered create names the new list: it shows once', () => {
    const { command, tempId } = createListCommand({ name: ' Work ' }, 'c1');
    const matches = echoedLists({ savedLists: [list(L1, { name: 'Work' })] }, [], [{ command, state: 'queued' }], new Map());
    expect(matches).toEqual(new Map([[tempId, L1]]));
    expect(listsViewOf([list(L1, { name: 'Work' })], pending(command), matches).map((entry) => entry._id)).toEqual([L1]);
    expect(echoedLists({ savedLists: [list(L1, { name: 'Other' })] }, [], [{ command, state: 'queued' }], new Map()).size).toBe(0);
  });
});
