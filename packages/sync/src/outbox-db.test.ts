// IndexedDB's classes as globals (idb checks values against them), and a factory per simulated device.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { Todo } from '@tm/contracts';
import { DATABASE_PREFIX, deleteAllDeviceData, deleteDeviceData, Outbox, REGISTRY_DATABASE, usersWithDeviceData, type RefusedCommand } from './outbox-db.js';
import { addTaskCommand, deleteTaskCommand, type QueuedCommand } from './sync.domain.js';

/**
 * The outbox on IndexedDB (docs/PRODUCT.md §10.4): what a device keeps survives a reload, writes that belong
 * together land together, one user's data is apart from another's and can be deleted alone or all at once.
 */

const T0 = '2030-01-01T10:00:00.000Z';
const todo: Todo = { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', title: 'Kept', completed: false, isPinned: false, createdAt: T0, updatedAt: T0, completedAt: null };
const queued = (n: number): Omit<QueuedCommand, 'seq'> => ({ command: addTaskCommand(`Task ${n}`, `c${n}`).command, createdAt: T0, state: 'queued' });

async function databaseNames(factory: IDBFactory): Promise<string[]> {
  return (await factory.databases()).map(({ name }) => name ?? '').sort();
}

describe('Outbox', () => {
  it('survives a reload: the same commands in the order made, the same snapshot, refusals and id map', async () => {
    const device = new IDBFactory();
    const first = await Outbox.open('alice', { indexedDB: device });
    const seqs = await first.write({ add: [queued(1), queued(2), queued(3)] });
    expect(seqs).toHaveLength(3);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const refusal: RefusedCommand = { id: 'r1', seq: 7, command: deleteTaskCommand(todo._id, 'r1'), taskId: todo._id, status: 400, message: 'No', code: 'VALIDATION_FAILED', createdAt: T0, at: T0 };
    await first.write({ snapshot: { todos: [todo], cursor: '42', lastSyncAt: T0 }, refuse: [refusal], ids: [{ tempId: 'tmp-c0', realId: todo._id, at: T0 }] });
    const before = await first.load();
    first.close();

    const reopened = await Outbox.open('alice', { indexedDB: device });
    const after = await reopened.load();
    expect(after).toEqual(before);
    expect(after.commands.map(({ command }) => command.id)).toEqual(['c1', 'c2', 'c3']);
    expect(after.snapshot).toEqual({ todos: [todo], cursor: '42', lastSyncAt: T0 });
    expect(after.refused).toEqual([refusal]);
    expect(after.ids).toEqual([{ tempId: 'tmp-c0', realId: todo._id, at: T0 }]);

    // Commands made after the reload come after the earlier ones; a state change and a removal stick.
    const [fourth] = await reopened.write({ add: [queued(4)] });
    expect(fourth).toBeGreaterThan(seqs[2]!);
    await reopened.write({ put: [{ ...after.commands[1]!, state: 'acknowledged' }], remove: [after.commands[0]!.seq] });
    reopened.close();
    const third = await Outbox.open('alice', { indexedDB: device });
    const last = await third.load();
    expect(last.commands.map(({ command, state }) => [command.id, state])).toEqual([
      ['c2', 'acknowledged'],
      ['c3', 'queued'],
      ['c4', 'queued'],
    ]);
    third.close();
  });

  it('writes one change set in one transaction: when a part fails, nothing of it is written', async () => {
    const device = new IDBFactory();
    const outbox = await Outbox.open('alice', { indexedDB: device });
    const [seq] = await outbox.write({ add: [queued(1)], snapshot: { todos: [], cursor: '1', lastSyncAt: T0 } });
    // The second part adds a command under a key already taken: the whole write fails.
    const clash = { ...queued(2), seq } as QueuedCommand;
    await expect(outbox.write({ snapshot: { todos: [todo], cursor: '2', lastSyncAt: T0 }, remove: [], add: [clash] })).rejects.toBeTruthy();
    const state = await outbox.load();
    expect(state.snapshot).toEqual({ todos: [], cursor: '1', lastSyncAt: T0 });
    expect(state.commands.map(({ command }) => command.id)).toEqual(['c1']);
    outbox.close();
  });

  it("keeps each user's data apart, and deletes one user's without touching another's", async () => {
    const device = new IDBFactory();
    const alice = await Outbox.open('alice', { indexedDB: device });
    const bob = await Outbox.open('bob@example', { indexedDB: device });
    await alice.write({ add: [queued(1)] });
    await bob.write({ add: [queued(2)], snapshot: { todos: [todo], cursor: '5', lastSyncAt: T0 } });
    expect((await alice.load()).commands.map(({ command }) => command.id)).toEqual(['c1']);
    expect((await alice.load()).snapshot).toBeNull();
    expect((await bob.load()).commands.map(({ command }) => command.id)).toEqual(['c2']);
    expect(await usersWithDeviceData({ indexedDB: device })).toEqual(['alice', 'bob@example']);

    // Alice's open connection gives way to the deletion (another tab logging out) and says so.
    const closed = jest.fn();
    const aliceTab = await Outbox.open('alice', { indexedDB: device, onClosed: closed });
    alice.close();
    await deleteDeviceData('alice', { indexedDB: device });
    expect(closed).toHaveBeenCalled();
    aliceTab.close();
    expect(await usersWithDeviceData({ indexedDB: device })).toEqual(['bob@example']);
    const again = await Outbox.open('alice', { indexedDB: device });
    expect(await again.load()).toEqual({ commands: [], snapshot: null, refused: [], ids: [] });
    again.close();
    expect((await bob.load()).snapshot?.cursor).toBe('5');
    bob.close();
  });

  it("deletes every user's data with indexedDB.databases()", async () => {
    const device = new IDBFactory();
    for (const user of ['alice', 'bob', 'carol']) (await Outbox.open(user, { indexedDB: device })).close();
    expect(await databaseNames(device)).toEqual([REGISTRY_DATABASE, `${DATABASE_PREFIX}alice`, `${DATABASE_PREFIX}bob`, `${DATABASE_PREFIX}carol`].sort());
    await deleteAllDeviceData({ indexedDB: device });
    expect(await databaseNames(device)).toEqual([]);
  });

  it("deletes every user's data where the browser has no indexedDB.databases(), from the registry", async () => {
    const device = new IDBFactory();
    // The same device seen through a factory without databases(), as in older browsers.
    const bound = new Proxy(device, { get: (target, key) => (key === 'databases' ? undefined : Reflect.get(target, key, target)) });
    for (const user of ['alice', 'bob']) (await Outbox.open(user, { indexedDB: bound })).close();
    expect(await usersWithDeviceData({ indexedDB: bound })).toEqual(['alice', 'bob']);
    await deleteAllDeviceData({ indexedDB: bound });
    expect(await databaseNames(device)).toEqual([]);
  });
});
