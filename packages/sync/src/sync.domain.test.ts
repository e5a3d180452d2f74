import { COMMAND_ID_PATTERN, LIMITS, TEMP_ID_PREFIX, TODO_PATCH_FIELDS, type SyncCommand, type Todo } from '@tm/contracts';
import { applyTaskPatch } from '@tm/contracts/repeat';
import {
  actionOf,
  addTaskCommand,
  applyChange,
  applyCommand,
  backoffMs,
  chunkCommands,
  clearCompletedCommand,
  compareCursors,
  completeAllCommand,
  deleteTaskCommand,
  echoedAdds,
  newCommandId,
  outcomeOf,
  resolveCommand,
  restoreBulkCommand,
  restoreTaskCommand,
  rewriteCommand,
  sortTodos,
  taskIdOf,
  updateTaskCommand,
  viewOf,
} from './sync.domain.js';

/** The pure rules of offline-first tasks (docs/PRODUCT.md §10.4): commands, the overlay, the merge, the id map. */

const T0 = '2030-01-01T10:00:00.000Z';
const T1 = '2030-01-01T10:05:00.000Z';
const T2 = '2030-01-01T10:06:00.000Z';

function task(id: string, fields: Partial<Todo> = {}): Todo {
  return { _id: id, title: `Task ${id}`, completed: false, isPinned: false, createdAt: T0, updatedAt: T0, completedAt: null, ...fields };
}

const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccccccccccc';

describe('command builders', () => {
  it('each command is the write as it would be sent alone, with a fresh id usable as its Idempotency-Key', () => {
    const id = newCommandId();
    expect(id).toMatch(COMMAND_ID_PATTERN);
    expect(newCommandId()).not.toBe(id);
    expect(addTaskCommand('Buy milk', 'c1')).toEqual({ command: { id: 'c1', method: 'POST', path: '/todo/add-todo', body: { title: 'Buy milk' } }, tempId: `${TEMP_ID_PREFIX}c1` });
    expect(deleteTaskCommand(A, 'c2')).toEqual({ id: 'c2', method: 'DELETE', path: `/todo/delete-todo/${A}` });
    expect(restoreTaskCommand(A, 'c3')).toEqual({ id: 'c3', method: 'POST', path: `/todo/restore-todo/${A}` });
    expect(completeAllCommand(true, 'c4')).toEqual({ id: 'c4', method: 'PUT', path: '/todo/complete-all', body: { completed: true } });
    expect(clearCompletedCommand('c5')).toEqual({ id: 'c5', method: 'DELETE', path: '/todo/clear-completed' });
    expect(restoreBulkCommand('tok', 'c6')).toEqual({ id: 'c6', method: 'POST', path: '/todo/restore-bulk', body: { undoToken: 'tok' } });
  });

  it('an update carries as base the values the changed fields have on screen, and only those', () => {
    const shown = task(A, { title: 'Old', isPinned: true });
    expect(updateTaskCommand(shown, { title: 'New' }, 'u1')).toEqual({ id: 'u1', method: 'PUT', path: `/todo/update-todo/${A}`, body: { updateData: { title: 'New' }, base: { title: 'Old' } } });
    expect(updateTaskCommand(shown, { completed: true, isPinned: false }, 'u2').body).toEqual({ updateData: { completed: true, isPinned: false }, base: { completed: false, isPinned: true } });
  });

  it('is generic over TODO_PATCH_FIELDS: every field of the list is carried with its base', () => {
    const shown = task(A);
    const patch = { title: 'x', completed: true, isPinned: true, due: '2027-01-01', repeat: 'FREQ=DAILY', repeatFrom: 'completion', reminders: [0], listId: C, priority: 1, labels: ['errand'], note: 'n', subtasks: [{ id: 's', title: 'Step', done: false }], order: 'a0' } as const;
    const patchCopy = { ...patch, reminders: [...patch.reminders], labels: [...patch.labels], subtasks: patch.subtasks.map((item) => ({ ...item })) };
    const { updateData, base } = updateTaskCommand(shown, patchCopy).body as { updateData: object; base: object };
    expect(Object.keys(updateData).sort()).toEqual([...TODO_PATCH_FIELDS].sort());
    expect(Object.keys(base).sort()).toEqual([...TODO_PATCH_FIELDS].sort());
  });

  it('reads back what each command does and which task it names', () => {
    const { command: add, tempId } = addTaskCommand('Buy milk', 'c1');
    expect(actionOf(add)).toEqual({ kind: 'add', tempId, title: 'Buy milk', fields: {} });
    expect(actionOf(addTaskCommand({ title: 'Pay rent', due: '2027-01-01T09:00' }).command)).toMatchObject({ kind: 'add', title: 'Pay rent', fields: { due: '2027-01-01T09:00' } });
    expect(taskIdOf(add)).toBe(tempId);
    expect(actionOf(updateTaskCommand(task(A), { completed: true }))).toEqual({ kind: 'update', taskId: A, fields: { completed: true } });
    expect(taskIdOf(deleteTaskCommand(`${TEMP_ID_PREFIX}c1`))).toBe(`${TEMP_ID_PREFIX}c1`);
    expect(taskIdOf(completeAllCommand(false))).toBeNull();
    expect(actionOf({ id: 'x', method: 'GET' as never, path: '/todo/update-todo/a' }).kind).toBe('unknown');
  });
});

describe('applyCommand (the optimistic overlay)', () => {
  it('an add inserts a provisional active task under its temp id, newest first, title as the server will store it', () => {
    const { command, tempId } = addTaskCommand('  New one  ');
    const list = applyCommand([task(A), task(B, { isPinned: true })], command, T1);
    expect(list.map((todo) => todo._id)).toEqual([B, tempId, A]);
    expect(list[1]).toEqual({ _id: tempId, title: 'New one', completed: false, isPinned: false, createdAt: T1, updatedAt: T1, completedAt: null });
  });

  it('an add with a due date shows the task with it at once (PRODUCT §10.14), as the server will keep it', () => {
    const { command, tempId } = addTaskCommand({ title: 'Pay rent', due: '2027-01-01T09:00' });
    expect(command.body).toEqual({ title: 'Pay rent', due: '2027-01-01T09:00' });
    expect(applyCommand([task(A)], command, T1)[0]).toEqual({ _id: tempId, title: 'Pay rent', completed: false, isPinned: false, createdAt: T1, updatedAt: T1, completedAt: null, due: '2027-01-01T09:00' });
  });

  it('an update sets its fields; completedAt follows completed; a pin moves the task up', () => {
    const list = [task(B, { createdAt: T1 }), task(A)];
    const ticked = applyCommand(list, updateTaskCommand(list[1]!, { completed: true, isPinned: true }), T2);
    expect(ticked.map((todo) => todo._id)).toEqual([A, B]);
    expect(ticked[0]).toMatchObject({ completed: true, completedAt: T2, isPinned: true, updatedAt: T2 });
    const reopened = applyCommand(ticked, updateTaskCommand(ticked[0]!, { completed: false }), T2);
    expect(reopened[0]).toMatchObject({ completed: false, completedAt: null });
    const retitled = applyCommand(ticked, updateTaskCommand(ticked[0]!, { title: 'Renamed' }), T2);
    expect(retitled[0]).toMatchObject({ title: 'Renamed', completed: true, completedAt: T2 });
  });

  it('a delete removes; Mark all and Clear completed apply to the tasks the list holds', () => {
    const list = sortTodos([task(A, { completed: true, completedAt: T0 }), task(B), task(C)]);
    expect(applyCommand(list, deleteTaskCommand(B), T1).map((todo) => todo._id)).toEqual([C, A]);
    const all = applyCommand(list, completeAllCommand(true), T1);
    expect(all.every((todo) => todo.completed)).toBe(true);
    expect(all.find((todo) => todo._id === A)?.completedAt).toBe(T0);
    expect(all.find((todo) => todo._id === B)?.completedAt).toBe(T1);
    expect(applyCommand(list, clearCompletedCommand(), T1).map((todo) => todo._id)).toEqual([C, B]);
  });

  it('a restore and an Undo of a bulk action change nothing until the server answers', () => {
    const list = sortTodos([task(A), task(B)]);
    expect(applyCommand(list, restoreTaskCommand(C), T1)).toEqual(list);
    expect(applyCommand(list, restoreBulkCommand('tok'), T1)).toEqual(list);
  });
});

describe('repeating tasks in the overlay (docs/PRODUCT.md §10.16)', () => {
  /** An update as the app sends it: the person's own day beside its fields (web-platform's task-sync adds it). */
  const onDay = (command: SyncCommand, today: string): SyncCommand => ({ ...command, body: { ...(command.body as object), today } });
  const weekly = task(A, { due: '2029-12-28T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH', reminders: [15] });

  it('reads the day of an update, and only a day given as text', () => {
    const tick = updateTaskCommand(weekly, { completed: true }, 'u1');
    expect(actionOf(onDay(tick, '2030-01-02'))).toEqual({ kind: 'update', taskId: A, fields: { completed: true }, today: '2030-01-02' });
    expect(actionOf(onDay(tick, 20300102 as never))).toEqual({ kind: 'update', taskId: A, fields: { completed: true } });
  });

  it.each([
    ['a day that is not UTC’s (ahead of it)', '2030-01-02', '2030-01-03T09:00'],
    ['the first day of a new week', '2030-01-07', '2030-01-07T09:00'],
  ])('a tick on %s moves the task as the server will, to its next date from that day', (_, today, due) => {
    const [moved] = applyCommand([weekly], onDay(updateTaskCommand(weekly, { completed: true }), today), T1);
    expect(moved).toEqual(applyTaskPatch(weekly, { completed: true }, T1, today));
    expect(moved).toEqual({ ...weekly, due, repeatDone: [T1], updatedAt: T1 });
  });

  it('a tick without a day counts from the UTC day of the command; queued offline, from the time it was made', () => {
    const daily = task(A, { due: '2029-12-28', repeat: 'FREQ=DAILY' });
    expect(applyCommand([daily], updateTaskCommand(daily, { completed: true }), T1)[0]).toMatchObject({ completed: false, due: '2030-01-01', repeatDone: [T1] });
    const later = '2030-01-04T22:00:00.000Z';
    const view = viewOf([daily], [{ command: updateTaskCommand(daily, { completed: true }), createdAt: later }]);
    expect(view[0]).toMatchObject({ completed: false, due: '2030-01-04', repeatDone: [later] });
  });

  it('Mark all completed completes a repeating task as it stands, as the server’s complete-all does', () => {
    const list = sortTodos([weekly, task(B, { createdAt: T1 })]);
    const all = applyCommand(list, completeAllCommand(true), T2);
    expect(all.find((todo) => todo._id === A)).toEqual({ ...weekly, completed: true, completedAt: T2, updatedAt: T2 });
    expect(all.every((todo) => todo.completed && !('repeatDone' in todo))).toBe(true);
  });
});

describe('priorities and labels in the overlay (docs/PRODUCT.md §10.20)', () => {
  it('an add and an update show them at once as the server will keep them: labels each once, in order; 4 and [] none', () => {
    const { command, tempId } = addTaskCommand({ title: 'Post the letter', priority: 2, labels: ['town', 'Errand', 'errand'] }, 'c1');
    expect(actionOf(command)).toEqual({ kind: 'add', tempId, title: 'Post the letter', fields: { priority: 2, labels: ['town', 'Errand', 'errand'] } });
    const [added] = applyCommand([], command, T1);
    expect(added).toEqual({ _id: tempId, title: 'Post the letter', completed: false, isPinned: false, createdAt: T1, updatedAt: T1, completedAt: null, priority: 2, labels: ['Errand', 'town'] });
    const plain = applyCommand([], addTaskCommand({ title: 'Plain', priority: 4, labels: [] }, 'c2').command, T1)[0];
    expect(plain).not.toHaveProperty('priority');
    expect(plain).not.toHaveProperty('labels');

    const relabel = updateTaskCommand(added!, { labels: ['home', 'Home'], priority: 1 }, 'u1');
    // The base is what the device showed, as the history keeps it: the server tells a change made elsewhere by it.
    expect(relabel.body).toEqual({ updateData: { priority: 1, labels: ['home', 'Home'] }, base: { priority: 2, labels: 'Errand,town' } });
    expect(applyCommand([added!], relabel, T2)[0]).toEqual({ ...added, priority: 1, labels: ['home'], updatedAt: T2 });
    const cleared = applyCommand([added!], updateTaskCommand(added!, { labels: [], priority: 4 }), T2)[0];
    expect(cleared).toEqual({ _id: tempId, title: 'Post the letter', completed: false, isPinned: false, createdAt: T1, updatedAt: T2, completedAt: null });
    expect(applyCommand([added!], updateTaskCommand(added!, { labels: null, priority: null }), T2)[0]).toEqual(cleared);
  });

  it('a change from elsewhere (the feed) replaces the confirmed task, and queued changes are laid over it', () => {
    const confirmed = [task(A, { priority: 3, labels: ['home'] })];
    const queued = [{ command: updateTaskCommand(confirmed[0]!, { labels: ['home', 'errand'] }), createdAt: T2 }];
    const elsewhere = applyChange(confirmed, { saved: [task(A, { priority: 1, labels: ['home'], updatedAt: T1 })], removed: [] });
    expect(viewOf(elsewhere, queued)).toEqual([task(A, { priority: 1, labels: ['errand', 'home'], updatedAt: T2 })]);
  });
});

describe('notes and subtasks in the overlay (docs/PRODUCT.md §10.21)', () => {
  it('an add and an update show them at once as the server will keep them: trimmed; "" and [] none', () => {
    const milk = { id: 'm1', title: ' Buy milk ', done: false };
    const { command } = addTaskCommand({ title: 'Shop', note: ' Oat \n', subtasks: [milk] }, 'c1');
    const [added] = applyCommand([], command, T1);
    expect(added).toEqual(expect.objectContaining({ note: 'Oat', subtasks: [{ ...milk, title: 'Buy milk' }] }));

    const tick = updateTaskCommand(added!, { subtasks: [{ id: 'm1', title: 'Buy milk', done: true }] }, 'u1');
    // The base is the checklist the device showed, as the history keeps it (JSON text).
    expect(tick.body).toEqual({ updateData: { subtasks: [{ id: 'm1', title: 'Buy milk', done: true }] }, base: { subtasks: '[{"id":"m1","title":"Buy milk","done":false}]' } });
    expect(applyCommand([added!], tick, T2)[0]).toEqual({ ...added, subtasks: [{ id: 'm1', title: 'Buy milk', done: true }], updatedAt: T2 });
    const cleared = applyCommand([added!], updateTaskCommand(added!, { note: '  ', subtasks: [] }), T2)[0];
    expect(cleared).not.toHaveProperty('note');
    expect(cleared).not.toHaveProperty('subtasks');
  });

  it('a change from elsewhere (the feed) keeps a queued note edit laid over it', () => {
    const confirmed = [task(A, { note: 'old' })];
    const queued = [{ command: updateTaskCommand(confirmed[0]!, { note: 'mine' }), createdAt: T2 }];
    const elsewhere = applyChange(confirmed, { saved: [task(A, { note: 'old', title: 'Renamed', updatedAt: T1 })], removed: [] });
    expect(viewOf(elsewhere, queued)).toEqual([task(A, { note: 'mine', title: 'Renamed', updatedAt: T2 })]);
  });
});

describe('applyChange (a change event on the confirmed list)', () => {
  it('upserts saved tasks and deletes removed ids, keeping list order', () => {
    const confirmed = [task(A), task(B)];
    const next = applyChange(confirmed, { saved: [task(A, { title: 'Edited' }), task(C, { createdAt: T1 })], removed: [B] });
    expect(next.map((todo) => [todo._id, todo.title])).toEqual([
      [C, `Task ${C}`],
      [A, 'Edited'],
    ]);
  });
});

describe('viewOf and the id map', () => {
  it('lays pending commands over the confirmed list in order, each at its own time', () => {
    const { command: add, tempId } = addTaskCommand('Offline', 'c1');
    const pending = [
      { command: add, createdAt: T1 },
      { command: updateTaskCommand(task(tempId), { completed: true }), createdAt: T2 },
      { command: deleteTaskCommand(A), createdAt: T2 },
    ];
    const view = viewOf([task(A), task(B)], pending);
    expect(view.map((todo) => todo._id)).toEqual([tempId, B]);
    expect(view[0]).toMatchObject({ title: 'Offline', completed: true, completedAt: T2, createdAt: T1 });
  });

  it('an answered add shows once: under its real id, and not again once the confirmed list holds that task', () => {
    const { command: add, tempId } = addTaskCommand('Offline', 'c1');
    const ids = new Map([[tempId, C]]);
    const pending = [{ command: add, createdAt: T1 }];
    expect(viewOf([task(A)], pending, ids).map((todo) => todo._id)).toEqual([C, A]);
    const confirmed = [task(A), task(C, { title: 'Offline', createdAt: T2 })];
    const view = viewOf(confirmed, pending, ids);
    expect(view.map((todo) => todo._id)).toEqual([C, A]);
    expect(view[0]!.createdAt).toBe(T2);
    // Without the id map the same outbox would show the task twice: the map is what prevents it.
    expect(viewOf(confirmed, pending).map((todo) => todo._id)).toEqual([C, `${TEMP_ID_PREFIX}c1`, A]);
  });

  it('rewrites a later command naming the temp id to the real id, and leaves others alone', () => {
    const tempId = `${TEMP_ID_PREFIX}c1`;
    const edit = updateTaskCommand(task(tempId), { title: 'x' }, 'e1');
    expect(rewriteCommand(edit, tempId, C)).toEqual({ ...edit, path: `/todo/update-todo/${C}` });
    expect(rewriteCommand(deleteTaskCommand(A), tempId, C)).toBeNull();
    expect(rewriteCommand(deleteTaskCommand(`${tempId}0`), tempId, C)).toBeNull();
    expect(resolveCommand(deleteTaskCommand(tempId, 'd1'), new Map([[tempId, C]]))).toEqual({ id: 'd1', method: 'DELETE', path: `/todo/delete-todo/${C}` });
    expect(resolveCommand(deleteTaskCommand(tempId, 'd1'), new Map())).toEqual({ id: 'd1', method: 'DELETE', path: `/todo/delete-todo/${tempId}` });
  });
});

describe('answers, chunks, backoff, cursors', () => {
  it('2xx and a 404 on a delete are acknowledged; other 4xx refused; 5xx, 408 and 429 retried', () => {
    expect(outcomeOf(deleteTaskCommand(A), 200)).toBe('acknowledged');
    expect(outcomeOf(deleteTaskCommand(A), 404)).toBe('acknowledged');
    expect(outcomeOf(updateTaskCommand(task(A), { title: 'x' }), 404)).toBe('refused');
    expect(outcomeOf(addTaskCommand('x').command, 201)).toBe('acknowledged');
    for (const status of [400, 422, 424]) expect(outcomeOf(deleteTaskCommand(A), status)).toBe('refused');
    for (const status of [408, 429, 500, 503]) expect(outcomeOf(deleteTaskCommand(A), status)).toBe('retry');
  });

  it('cuts the commands into calls within the count and byte limits, in order', () => {
    const max = LIMITS.sync.commands;
    const many = Array.from({ length: 2 * max + 50 }, (_, n) => deleteTaskCommand(A, `d${n}`));
    const chunks = chunkCommands(many, max, LIMITS.sync.bodyBytes);
    expect(chunks.map((chunk) => chunk.length)).toEqual([max, max, 50]);
    expect(chunks.flat()).toEqual(many);
    const long = Array.from({ length: 10 }, (_, n) => addTaskCommand('x'.repeat(400), `a${n}`).command);
    const small = chunkCommands(long, 200, 1500);
    expect(small.length).toBeGreaterThan(1);
    for (const chunk of small) expect(new TextEncoder().encode(JSON.stringify({ commands: chunk })).length).toBeLessThanOrEqual(1500);
    expect(small.flat()).toEqual(long);
  });

  it('backs off 1 s doubling to 60 s, at most a quarter more at random, never under Retry-After', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => backoffMs(attempt, 0))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(backoffMs(1, 0.999)).toBe(1250);
    expect(backoffMs(7, 0.999)).toBe(74_985);
    expect(backoffMs(1, 0, 30_000)).toBe(30_000);
  });

  it('compares cursors as whole numbers, beyond 2^53', () => {
    expect(compareCursors('9', '10')).toBe(-1);
    expect(compareCursors('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareCursors('7', '7')).toBe(0);
  });
});

describe('echoedAdds (this device\'s adds applied before their answers came back)', () => {
  const queued = (command: ReturnType<typeof addTaskCommand>['command']) => ({ command, state: 'queued' as const });

  it('maps the oldest unanswered adds of the same titles, in order, to the tasks the echo saved', () => {
    const first = addTaskCommand('Buy milk', 'c1');
    const second = addTaskCommand('Buy milk', 'c2');
    const other = addTaskCommand('Call mum', 'c3');
    const pending = [queued(first.command), queued(second.command), queued(other.command)];
    const event = { saved: [task(A, { title: 'Buy milk' }), task(B, { title: 'Call mum' })], removed: [] };
    expect(echoedAdds(event, [], pending, new Map())).toEqual(new Map([[first.tempId, A], [other.tempId, B]]));
    // The view then shows each task once.
    const confirmed = applyChange([], event);
    expect(viewOf(confirmed, pending.map((entry) => ({ ...entry, createdAt: T1 })), echoedAdds(event, [], pending, new Map())).map((todo) => todo.title).sort()).toEqual(['Buy milk', 'Buy milk', 'Call mum']);
  });

  it('maps nothing for a task already known, already mapped, or with no unanswered add of its title', () => {
    const add = addTaskCommand('Buy milk', 'c1');
    const pending = [queued(add.command)];
    expect(echoedAdds({ saved: [task(A, { title: 'Buy milk' })] }, [task(A)], pending, new Map())).toEqual(new Map());
    expect(echoedAdds({ saved: [task(A, { title: 'Buy milk' })] }, [], pending, new Map([[add.tempId, A]]))).toEqual(new Map());
    expect(echoedAdds({ saved: [task(B, { title: 'Something else' })] }, [], pending, new Map())).toEqual(new Map());
    expect(echoedAdds({ saved: [task(B, { title: 'Buy milk' })] }, [], [{ command: add.command, state: 'acknowledged' }], new Map())).toEqual(new Map());
  });
});
