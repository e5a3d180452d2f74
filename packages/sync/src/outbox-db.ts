import { wrap, type DBSchema, type IDBPDatabase, type StoreNames } from 'idb';
import type { SyncCommand, TaskList, Todo } from '@tm/contracts';
import type { QueuedCommand } from './sync.domain.js';

/**
 * The device's copy of one user's tasks (docs/PRODUCT.md §10.4), in IndexedDB so it survives a reload, a
 * closed tab or a restarted device: the outbox of commands not yet done with, the last confirmed list and its
 * feed cursor, the commands the server refused (until the person dismisses them), and the ids the server gave
 * to tasks added offline. One database per user, named by the user's id, so one person's data is never read
 * for another and can be deleted alone (logout, session ended, password changed, account deleted).
 */

/** Every database of this package starts with this; the user's id follows, URI-encoded. */
export const DATABASE_PREFIX = 'tm-sync-user-';
/**
 * The list of users who have data on this device, for the browsers without `indexedDB.databases()` (it is
 * how "delete every user's data" finds them without localStorage).
 */
export const REGISTRY_DATABASE = 'tm-sync-registry';
const VERSION = 1;

/** The confirmed list as the server last sent it, where in the feed it stands, and when it was fetched. */
export interface Snapshot {
  todos: Todo[];
  /**
   * The person's lists (docs/PRODUCT.md §10.19), read with the tasks under the same cursor. Absent in a copy
   * kept before lists existed: the engine then reads the whole list again.
   */
  lists?: TaskList[];
  cursor: string;
  /** When a pull or a fetch last succeeded (ISO). */
  lastSyncAt: string;
}

/** A command the server refused (a 4xx answer): kept, with its words, until the person dismisses it. */
export interface RefusedCommand {
  /** The command's id. */
  id: string;
  /** The command's place in the outbox: refusals are listed in the order the changes were made. */
  seq: number;
  command: SyncCommand;
  /** The task it was about (a temp id for an add), or null for a bulk command. */
  taskId: string | null;
  status: number;
  /** The server's message ("Task not found"…), or a plain one when the answer had none. */
  message: string;
  /** The server's error code (TODO.NOT_FOUND, VALIDATION_FAILED, TODO.DEPENDENCY_FAILED…), or null. */
  code: string | null;
  /** When the person acted (ISO). */
  createdAt: string;
  /** When the refusal arrived (ISO). */
  at: string;
}

/** An answered add (or a new list, §10.19): its temp id and the id the server gave the task or the list. */
export interface IdEntry {
  tempId: string;
  realId: string;
  /** When the answer arrived (ISO); entries older than the server's Idempotency-Key window are dropped. */
  at: string;
}

interface SyncSchema extends DBSchema {
  commands: { key: number; value: QueuedCommand };
  snapshot: { key: string; value: Snapshot };
  refused: { key: string; value: RefusedCommand };
  ids: { key: string; value: IdEntry };
}

interface RegistrySchema extends DBSchema {
  users: { key: string; value: { userId: string } };
}

/** What a device holds for one user, as loaded at start. */
export interface OutboxState {
  /** In the order they were made. */
  commands: QueuedCommand[];
  snapshot: Snapshot | null;
  refused: RefusedCommand[];
  ids: IdEntry[];
}

/** Changes that belong together, written in one IndexedDB transaction: all of them or none. */
export interface OutboxWrite {
  /** New commands, appended in this order (their `seq` is given by the database). */
  add?: Omit<QueuedCommand, 'seq'>[];
  /** Commands replaced whole (a new state, a rewritten path). */
  put?: QueuedCommand[];
  /** Commands that leave the outbox, by `seq`. */
  remove?: number[];
  refuse?: RefusedCommand[];
  /** Refused commands the person dismissed, by id. */
  dismiss?: string[];
  ids?: IdEntry[];
  /** Id map entries to forget, by temp id. */
  forgetIds?: string[];
  snapshot?: Snapshot;
}

export interface OpenOptions {
  /** The IndexedDB to use (default the global one; Node tests pass fake-indexeddb's, one per simulated device). */
  indexedDB?: IDBFactory;
  /**
   * Called when the connection is closed for another (a deletion of this user's data, in this tab or another,
   * or the browser ending it): the caller stops using this outbox.
   */
  onClosed?: () => void;
}

/** The database name of `userId`'s data. */
export function databaseName(userId: string): string {
  return DATABASE_PREFIX + encodeURIComponent(userId);
}

function factoryOf(indexedDB: IDBFactory | undefined): IDBFactory {
  const factory = indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) throw new Error('No IndexedDB here: pass one (fake-indexeddb in Node).');
  return factory;
}

/**
 * Opens `name` on `factory` as idb's openDB does on the global one (each factory a device of its own). When
 * another connection wants the database deleted (or upgraded), this one closes at once so that can go on,
 * and `onClosed` runs; it runs too when the browser ends the connection.
 */
async function openOn<S extends DBSchema>(factory: IDBFactory, name: string, upgrade: (db: IDBPDatabase<S>) => void, onClosed?: () => void): Promise<IDBPDatabase<S>> {
  const request = factory.open(name, VERSION);
  request.addEventListener('upgradeneeded', () => upgrade(wrap(request.result) as IDBPDatabase<S>));
  const db = (await wrap(request)) as IDBPDatabase<S>;
  db.addEventListener('versionchange', () => {
    db.close();
    onClosed?.();
  });
  if (onClosed) db.addEventListener('close', onClosed);
  return db;
}

async function openRegistry(factory: IDBFactory): Promise<IDBPDatabase<RegistrySchema>> {
  return openOn<RegistrySchema>(factory, REGISTRY_DATABASE, (db) => db.createObjectStore('users', { keyPath: 'userId' }));
}

/** One user's outbox on this device (docs/PRODUCT.md §10.4). */
export class Outbox {
  private constructor(private readonly db: IDBPDatabase<SyncSchema>) {}

  /**
   * Opens (creating at first use) `userId`'s database and notes the user in the registry. The connection
   * gives way to a deletion: it closes itself and calls `onClosed`.
   */
  static async open(userId: string, { indexedDB, onClosed }: OpenOptions = {}): Promise<Outbox> {
    const factory = factoryOf(indexedDB);
    const registry = await openRegistry(factory);
    try {
      await registry.put('users', { userId });
    } finally {
      registry.close();
    }
    const db = await openOn<SyncSchema>(
      factory,
      databaseName(userId),
      (db) => {
        db.createObjectStore('commands', { keyPath: 'seq', autoIncrement: true });
        db.createObjectStore('snapshot');
        db.createObjectStore('refused', { keyPath: 'id' });
        db.createObjectStore('ids', { keyPath: 'tempId' });
      },
      onClosed,
    );
    return new Outbox(db);
  }

  /** Everything held for the user: commands and refusals in the order the changes were made. */
  async load(): Promise<OutboxState> {
    const tx = this.db.transaction(['commands', 'snapshot', 'refused', 'ids'], 'readonly');
    const [commands, snapshot, refused, ids] = await Promise.all([
      tx.objectStore('commands').getAll(),
      tx.objectStore('snapshot').get('current'),
      tx.objectStore('refused').getAll(),
      tx.objectStore('ids').getAll(),
      tx.done,
    ]);
    return { commands, snapshot: snapshot ?? null, refused: refused.sort((a, b) => a.seq - b.seq), ids };
  }

  /** Applies `write` in one transaction; resolves with the `seq` of each added command, in order. */
  async write(write: OutboxWrite): Promise<number[]> {
    const stores = new Set<StoreNames<SyncSchema>>();
    if (write.add?.length || write.put?.length || write.remove?.length) stores.add('commands');
    if (write.refuse?.length || write.dismiss?.length) stores.add('refused');
    if (write.ids?.length || write.forgetIds?.length) stores.add('ids');
    if (write.snapshot) stores.add('snapshot');
    if (stores.size === 0) return [];
    const tx = this.db.transaction([...stores], 'readwrite');
    const pending: Promise<unknown>[] = [];
    const added: Promise<number>[] = [];
    if (stores.has('commands')) {
      const commands = tx.objectStore('commands');
      for (const seq of write.remove ?? []) pending.push(commands.delete(seq));
      for (const command of write.put ?? []) pending.push(commands.put(command));
      // No `seq` on the value: the store's key generator gives the next one.
      for (const command of write.add ?? []) added.push(commands.add(command as QueuedCommand));
    }
    if (stores.has('refused')) {
      const refused = tx.objectStore('refused');
      for (const entry of write.refuse ?? []) pending.push(refused.put(entry));
      for (const id of write.dismiss ?? []) pending.push(refused.delete(id));
    }
    if (stores.has('ids')) {
      const ids = tx.objectStore('ids');
      for (const entry of write.ids ?? []) pending.push(ids.put(entry));
      for (const tempId of write.forgetIds ?? []) pending.push(ids.delete(tempId));
    }
    if (write.snapshot) pending.push(tx.objectStore('snapshot').put(write.snapshot, 'current'));
    const [seqs] = await Promise.all([Promise.all(added), ...pending, tx.done]);
    return seqs;
  }

  /** Closes the connection (the data stays). */
  close(): void {
    this.db.close();
  }
}

async function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  await wrap(factory.deleteDatabase(name));
}

/**
 * Deletes everything this device holds for `userId` (docs/PRODUCT.md §10.4): on logout, a session that ended,
 * a password change or an account deletion, so nothing of theirs stays for the next person on the device.
 * Open connections to it (other tabs' engines) close themselves first.
 */
export async function deleteDeviceData(userId: string, { indexedDB }: Pick<OpenOptions, 'indexedDB'> = {}): Promise<void> {
  const factory = factoryOf(indexedDB);
  await deleteDatabase(factory, databaseName(userId));
  const registry = await openRegistry(factory);
  try {
    await registry.delete('users', userId);
  } finally {
    registry.close();
  }
}

/** The users with data on this device: `indexedDB.databases()` where the browser has it, and the registry. */
export async function usersWithDeviceData({ indexedDB }: Pick<OpenOptions, 'indexedDB'> = {}): Promise<string[]> {
  const factory = factoryOf(indexedDB);
  const users = new Set<string>();
  if (typeof factory.databases === 'function') {
    for (const { name } of await factory.databases()) {
      if (name?.startsWith(DATABASE_PREFIX)) users.add(decodeURIComponent(name.slice(DATABASE_PREFIX.length)));
    }
  }
  const registry = await openRegistry(factory);
  try {
    for (const userId of await registry.getAllKeys('users')) users.add(userId);
  } finally {
    registry.close();
  }
  return [...users].sort();
}

/** Deletes every user's data on this device, and the registry (a sign-out everywhere, a shared device). */
export async function deleteAllDeviceData({ indexedDB }: Pick<OpenOptions, 'indexedDB'> = {}): Promise<void> {
  const factory = factoryOf(indexedDB);
  for (const userId of await usersWithDeviceData({ indexedDB: factory })) await deleteDatabase(factory, databaseName(userId));
  await deleteDatabase(factory, REGISTRY_DATABASE);
}
