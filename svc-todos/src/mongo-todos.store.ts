import { ObjectIdString, type TodoChangeEvent, type TodoPatch } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import {
  MongoClient,
  ObjectId,
  WriteConcern,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Filter,
  type UpdateFilter,
} from 'mongodb';
import { z } from 'zod';
import {
  byListOrder,
  CommitListeners,
  newUndoToken,
  storeSettings,
  StoredEventTodos,
  type BulkChange,
  type ChangeNotice,
  type CommitListener,
  type FeedPosition,
  type StoreOptions,
  type StoreSettings,
  type SweepResult,
  type TodoList,
  type TodoField,
  type TodoRecord,
  type TodosRepository,
  type TodoUpdate,
  type UpdateOptions,
} from './todos.repository.js';

export const TODOS_COLLECTION = 'todos';
export const EVENTS_COLLECTION = 'todoEvents';
/** One document per user: the user's feed position (issue #21: event numbers are per user). */
export const FEEDS_COLLECTION = 'todoFeeds';
/** One document per bulk call that changed something: what its Undo needs (docs/PRODUCT.md §10.11.3). */
export const UNDO_COLLECTION = 'todoUndoBatches';
/**
 * Before per-user numbers: the global counter documents (the last event id handed out, and the highest one
 * trimmed for age), in this collection. Only {@link migrateGlobalFeed} still reads them, to remove them.
 */
export const LEGACY_COUNTERS_COLLECTION = 'counters';
export const LEGACY_COUNTER_IDS = ['todoEvents', 'todoEventsTrimmedThrough'];
/** The events' index by user before per-user numbers (`{ userId: 1, _id: 1 }`), dropped by the migration. */
const LEGACY_EVENTS_INDEX = 'user_id';
const MIGRATION_BATCH = 1_000;

interface TodoDocument {
  _id: ObjectId;
  /** An ObjectId when the gateway's user id is one (svc-users issues them), else the raw string. */
  userId: ObjectId | string;
  title: string;
  completed: boolean;
  isPinned: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Set while the task is deleted but still restorable (soft delete); absent on a live task. */
  deletedAt?: Date;
  /**
   * When the task was completed; null while it is active. Absent on a document written before completion
   * times (issue #18) until {@link backfillCompletedAt} gives it one; such a document reads as the
   * backfill would write it (see {@link toRecord}).
   */
  completedAt?: Date | null;
}

/**
 * The undo of one bulk call, keyed by its token. `kind` 'clear-completed': the call deleted `items` softly
 * at `createdAt`. 'complete-all': it (complete-all, or an update's tick of one task) set them to `completed`
 * at `createdAt`, and each item keeps the values
 * it replaced. Removed when spent, by the sweep after the restore window, and with the account.
 */
interface UndoDocument {
  _id: string;
  userId: ObjectId | string;
  kind: 'clear-completed' | 'complete-all';
  completed?: boolean;
  createdAt: Date;
  items: Array<{ _id: ObjectId; completed?: boolean; completedAt?: Date | null; updatedAt?: Date }>;
}

/**
 * One committed write (the outbox): `seq` is the user's own event number, from the user's feed document,
 * so a user's numbers only grow, one per write of that user. `_id` is an ObjectId (a number on an event
 * written before per-user numbers; the migration gave it that number as its `seq`) and means nothing.
 */
interface EventDocument {
  _id: ObjectId | number;
  userId: ObjectId | string;
  seq: number;
  origin: string | null;
  saved: TodoRecord[];
  removed: string[];
  createdAt: Date;
}

/**
 * Where one user's feed stands: `seq` is the last number handed out to the user (the user's cursor), and
 * `trimmedThrough` the highest of the user's numbers trimmed for age (the user's reset watermark).
 */
interface FeedDocument {
  _id: ObjectId | string;
  seq: number;
  trimmedThrough: number;
}

/** One migration that ran to its end (see {@link backfillCompletedAt}). */
interface MigrationDocument {
  _id: string;
  finishedAt: Date;
}

// zod at the database edge: documents written by another version or by hand must still be tasks.
const StoredTodo = z.object({
  _id: z.instanceof(ObjectId),
  title: z.string(),
  completed: z.boolean(),
  isPinned: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
  completedAt: z.date().nullable().optional(),
});

const StoredEvent = z.object({
  seq: z.number().int().positive(),
  origin: z.string().nullable(),
  saved: StoredEventTodos,
  removed: z.array(ObjectIdString),
});

/** What an undo of setAllCompleted puts back into one task (its values before the call). */
const StoredUndoItem = z.object({ _id: z.instanceof(ObjectId), completed: z.boolean(), completedAt: z.date().nullable(), updatedAt: z.date() });
const StoredUndo = z.object({
  kind: z.enum(['clear-completed', 'complete-all']),
  completed: z.boolean().optional(),
  createdAt: z.date(),
  items: z.array(z.looseObject({ _id: z.instanceof(ObjectId) })),
});

const HEX_ID = /^[0-9a-f]{24}$/i;

/**
 * A task's completion time as it is read: null for an active task; for a completed one its `completedAt`,
 * or, on a document from before completion times that the backfill has not reached yet (or that a replica
 * of the previous version wrote during the rollout), its `updatedAt`: the backfill's own rule.
 */
function completedAtOf(d: { completed: boolean; updatedAt: Date; completedAt?: Date | null }): Date | null {
  return d.completed ? (d.completedAt ?? d.updatedAt) : null;
}

function toRecord(document: unknown): TodoRecord {
  const d = StoredTodo.parse(document);
  const completedAt = completedAtOf(d);
  return {
    _id: d._id.toHexString(),
    title: d.title,
    completed: d.completed,
    isPinned: d.isPinned,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    completedAt: completedAt === null ? null : completedAt.toISOString(),
  };
}

function toEvent(document: unknown): TodoChangeEvent {
  const d = StoredEvent.parse(document);
  return { id: String(d.seq), origin: d.origin, saved: d.saved, removed: d.removed };
}

const StoredFeed = z.object({ seq: z.number().int().nonnegative(), trimmedThrough: z.number().int().nonnegative() });

/** A user's position as the repository answers it; a user without a feed document never wrote (or was purged). */
function toPosition(document: unknown): FeedPosition {
  const { seq, trimmedThrough } = document ? StoredFeed.parse(document) : { seq: 0, trimmedThrough: 0 };
  return { cursor: String(seq), trimmedThrough: String(trimmedThrough) };
}

function userKey(userId: string): ObjectId | string {
  return HEX_ID.test(userId) ? new ObjectId(userId) : userId;
}

/** A live (undeleted) task has no `deletedAt` (restore unsets it). */
const LIVE = { deletedAt: { $exists: false } };

/** The filter for one task of one user, or null when `id` cannot name a task (so nothing can match). */
function ownedBy(userId: string, id: string): { _id: ObjectId; userId: ObjectId | string } | null {
  return HEX_ID.test(id) ? { _id: new ObjectId(id), userId: userKey(userId) } : null;
}

const LIST_SORT = { isPinned: -1, createdAt: -1, _id: -1 } as const;

/**
 * Every update document the store sends, built here. All are classic update operators: no aggregation
 * pipeline update, which several MongoDB-compatible engines and managed services refuse ("Aggregation
 * pipelines are not supported"; docs/ARCHITECTURE.md, "Storage"). The tests hold each to `isClassicUpdate`.
 */
export const todoUpdates = {
  /**
   * A task's new title and flags, from the task as the write's transaction read it: only the values that
   * differ are set, and `updatedAt` moves (the caller appends an event) only when one does; `null` when
   * nothing changes. `completedAt` follows `completed`: `now` when the task gets ticked, null when it is
   * reopened; otherwise it is written as it reads ({@link completedAtOf}), which also gives a document from
   * before completion times its value before `updatedAt` moves. The transaction (snapshot reads; a
   * concurrent writer of the same task conflicts and one of the two is retried) makes read and update one
   * atomic change.
   */
  change(
    current: Pick<TodoDocument, 'title' | 'completed' | 'isPinned' | 'updatedAt' | 'completedAt'>,
    patch: TodoPatch,
    now: Date,
  ): UpdateFilter<TodoDocument> | null {
    const values: Partial<Pick<TodoDocument, 'title' | 'completed' | 'isPinned'>> = {};
    if (patch.title !== undefined && patch.title !== current.title) values.title = patch.title;
    if (patch.completed !== undefined && patch.completed !== current.completed) values.completed = patch.completed;
    if (patch.isPinned !== undefined && patch.isPinned !== current.isPinned) values.isPinned = patch.isPinned;
    if (Object.keys(values).length === 0) return null;
    const completedAt = values.completed === undefined ? completedAtOf(current) : values.completed ? now : null;
    return { $set: { ...values, completedAt, updatedAt: now } };
  },
  setCompleted: (completed: boolean, now: Date): UpdateFilter<TodoDocument> => ({
    $set: { completed, completedAt: completed ? now : null, updatedAt: now },
  }),
  softDelete: (now: Date): UpdateFilter<TodoDocument> => ({ $set: { deletedAt: now } }),
  restore: (): UpdateFilter<TodoDocument> => ({ $unset: { deletedAt: '' } }),
  /** Undo of setAllCompleted for one task: the values the call replaced. */
  undoCompleted: (previous: { completed: boolean; completedAt: Date | null; updatedAt: Date }): UpdateFilter<TodoDocument> => ({
    $set: { completed: previous.completed, completedAt: previous.completedAt, updatedAt: previous.updatedAt },
  }),
  /** The user's next event number (1 for the first: the upsert creates the user's feed document). */
  nextEventSeq: (): UpdateFilter<FeedDocument> => ({ $inc: { seq: 1 }, $setOnInsert: { trimmedThrough: 0 } }),
  raiseWatermark: (seq: number): UpdateFilter<FeedDocument> => ({ $max: { trimmedThrough: seq } }),
  /** Migration: an event from before per-user numbers keeps its old id as its number. */
  numberLegacyEvent: (seq: number): UpdateFilter<EventDocument> => ({ $set: { seq } }),
  /** Migration: a user's position from the user's kept legacy events (see {@link migrateGlobalFeed}). */
  migratedPosition: (last: number, first: number): UpdateFilter<FeedDocument> => ({ $max: { seq: last, trimmedThrough: first - 1 } }),
  /** Migration (see {@link backfillCompletedAt}): a task from before completion times gets one. */
  backfillCompletedAt: (completedAt: Date | null): UpdateFilter<TodoDocument> => ({ $set: { completedAt } }),
  /** A migration's marker: when it first ran to its end (a rerun keeps the first time). */
  migrationFinished: (at: Date): UpdateFilter<MigrationDocument> => ({ $setOnInsert: { finishedAt: at } }),
};

/** A server error's code name (`NamespaceExists`, `IndexNotFound`…), for the few that are expected. */
const codeNameOf = (error: unknown): unknown => (typeof error === 'object' && error !== null ? (error as { codeName?: unknown }).codeName : undefined);

/** Creates the collection unless it exists (another replica may create it at the same moment). */
async function ensureCollection(db: Db, name: string): Promise<void> {
  if (await db.listCollections({ name }, { nameOnly: true }).hasNext()) return;
  await db.createCollection(name).catch((error: unknown) => {
    if (codeNameOf(error) !== 'NamespaceExists') throw error;
  });
}

/**
 * Moves a database from one global event sequence to per-user numbers (issue #21); idempotent, so it runs
 * on every open and finishes what an interrupted run left. Before, every event's `_id` was the next value
 * of one global counter (`counters`/`todoEvents`), and one watermark (`todoEventsTrimmedThrough`) said how
 * far events had been trimmed. Now:
 * 1. each user's feed document starts at the user's newest kept event id, its watermark just below the
 *    user's oldest kept one (everything the user lost to trimming is below it, so resuming from before it
 *    is a `reset`, never a silent gap). `$max`: a rerun never moves a position back;
 * 2. each kept event gets its old id as its `seq`. Keeping the old numbers, rather than renumbering from 1,
 *    keeps every cursor a page already holds meaning what it meant (renumbered, it would name a different
 *    change and the page would skip changes silently); it tells a user nothing new, as they are the user's
 *    own events' ids, already sent to that user. From here on the user's numbers grow by one per own write;
 * 3. the global counters and the old `{ userId: 1, _id: 1 }` index go.
 * A user with no kept event gets no feed document (position 0): a cursor held from before is then ahead of
 * the feed, which is a `reset` too. Old replicas must not write meanwhile (their events would carry a
 * global id again): roll this version out by replacing every svc-todos replica, not one by one.
 */
export async function migrateGlobalFeed(db: Db): Promise<void> {
  const events = db.collection<EventDocument>(EVENTS_COLLECTION);
  const feeds = db.collection<FeedDocument>(FEEDS_COLLECTION);
  const legacy: Filter<EventDocument> = { seq: { $exists: false } };
  const ranges = await events
    .aggregate<{ _id: ObjectId | string; last: number; first: number }>([
      { $match: legacy },
      { $group: { _id: '$userId', last: { $max: '$_id' }, first: { $min: '$_id' } } },
    ])
    .toArray();
  const positions: AnyBulkWriteOperation<FeedDocument>[] = ranges.map(({ _id, last, first }) => ({
    updateOne: { filter: { _id }, update: todoUpdates.migratedPosition(last, first), upsert: true },
  }));
  for (let i = 0; i < positions.length; i += MIGRATION_BATCH) await feeds.bulkWrite(positions.slice(i, i + MIGRATION_BATCH));
  let batch: AnyBulkWriteOperation<EventDocument>[] = [];
  for await (const { _id } of events.find(legacy).project<{ _id: number }>({ _id: 1 })) {
    batch.push({ updateOne: { filter: { _id, ...legacy }, update: todoUpdates.numberLegacyEvent(_id) } });
    if (batch.length === MIGRATION_BATCH) {
      await events.bulkWrite(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await events.bulkWrite(batch);
  await db.collection<{ _id: string }>(LEGACY_COUNTERS_COLLECTION).deleteMany({ _id: { $in: LEGACY_COUNTER_IDS } });
  if (await events.indexExists(LEGACY_EVENTS_INDEX)) {
    await events.dropIndex(LEGACY_EVENTS_INDEX).catch((error: unknown) => {
      if (codeNameOf(error) !== 'IndexNotFound') throw error;
    });
  }
}

/** Migrations that ran to their end, one document each: a finished one costs a single read at the next open. */
export const MIGRATIONS_COLLECTION = 'todoMigrations';
export const COMPLETED_AT_MIGRATION = 'todos.completedAt';

/**
 * Completion times (issue #18) for a database from before them. No earlier version recorded when a task was
 * completed, so a completed task gets its `updatedAt`: the time of its last change, which was the tick
 * itself or came after it (an edit or pin since), the best time known. An active task gets null. Deleted but
 * still restorable tasks too. Until it has run (and for a document a replica of the previous version writes
 * during the rollout) a document without the field reads the same way ({@link completedAtOf}), and the
 * first write to it stores that value ({@link todoUpdates}.change), so the time never drifts with a later
 * `updatedAt`.
 *
 * Classic updates only (no pipeline, see {@link todoUpdates}): a completed task's value is its own
 * `updatedAt`, so it takes one conditional update per document, in batches; each matches only while the
 * document still lacks the field and still has that `updatedAt`, so a rerun, a second replica migrating at
 * the same time, or a write in between is never overwritten. Once through, a marker document in
 * {@link MIGRATIONS_COLLECTION} spares the next opens the scan of every task.
 */
export async function backfillCompletedAt(db: Db): Promise<void> {
  const migrations = db.collection<MigrationDocument>(MIGRATIONS_COLLECTION);
  if (await migrations.findOne({ _id: COMPLETED_AT_MIGRATION })) return;
  const todos = db.collection<TodoDocument>(TODOS_COLLECTION);
  const missing: Filter<TodoDocument> = { completedAt: { $exists: false } };
  await todos.updateMany({ ...missing, completed: false }, todoUpdates.backfillCompletedAt(null));
  let batch: AnyBulkWriteOperation<TodoDocument>[] = [];
  const completed = todos.find({ ...missing, completed: true }).project<{ _id: ObjectId; updatedAt: Date }>({ _id: 1, updatedAt: 1 });
  for await (const { _id, updatedAt } of completed) {
    batch.push({ updateOne: { filter: { _id, ...missing, completed: true, updatedAt }, update: todoUpdates.backfillCompletedAt(updatedAt) } });
    if (batch.length === MIGRATION_BATCH) {
      await todos.bulkWrite(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await todos.bulkWrite(batch);
  await migrations.updateOne({ _id: COMPLETED_AT_MIGRATION }, todoUpdates.migrationFinished(new Date()), { upsert: true });
}

export interface MongoTodosOptions extends StoreOptions {
  url: string;
  dbName: string;
  /** How long an operation waits for a reachable server; readiness must answer well within probe timeouts. */
  serverSelectionTimeoutMS?: number;
}

/**
 * The MongoDB store (official driver); shard-ready on `userId`, which every task query filters by.
 *
 * Each write and its change event commit together in one multi-document transaction
 * (`client.withSession` + `session.withTransaction`), which **requires MongoDB to run as a replica set**
 * (a single-node replica set is enough; a standalone server rejects transactions). Event numbers are per
 * user (issue #21) and come from the user's feed document (`$inc` in the same transaction): two writers of
 * one user conflict on it and the driver retries the later one, so a user's numbers are handed out in
 * commit order and a stream reading "after N" never skips a write that commits later with a smaller
 * number. Writers of different users touch different documents and no longer wait for each other.
 */
export class MongoTodosStore implements TodosRepository {
  private readonly listeners = new CommitListeners();
  private readonly todos: Collection<TodoDocument>;
  private readonly events: Collection<EventDocument>;
  private readonly feeds: Collection<FeedDocument>;
  private readonly undos: Collection<UndoDocument>;

  private constructor(
    private readonly connection: MongoConnection,
    private readonly settings: StoreSettings,
  ) {
    this.todos = connection.db.collection<TodoDocument>(TODOS_COLLECTION);
    this.events = connection.db.collection<EventDocument>(EVENTS_COLLECTION);
    this.feeds = connection.db.collection<FeedDocument>(FEEDS_COLLECTION);
    this.undos = connection.db.collection<UndoDocument>(UNDO_COLLECTION);
  }

  /**
   * Connects, makes sure the indexes and the feeds collection exist and migrates a database from before
   * per-user event numbers ({@link migrateGlobalFeed}); rejects (and closes the client) when unreachable.
   */
  static async open(options: MongoTodosOptions): Promise<MongoTodosStore> {
    const { url, dbName, serverSelectionTimeoutMS, ...settings } = options;
    const connection = await connectMongo({ MongoClient }, url, {
      dbName,
      serverSelectionTimeoutMS,
      indexes: {
        [TODOS_COLLECTION]: [
          // _id last: the listing's tiebreak is served by the index instead of an in-memory sort.
          { key: { userId: 1, isPinned: -1, createdAt: -1, _id: -1 }, name: 'user_pinned_created' },
          // Only deleted tasks are in it, so the sweep finds the expired ones without a scan.
          { key: { deletedAt: 1 }, name: 'deleted_at', partialFilterExpression: { deletedAt: { $type: 'date' } } },
        ],
        [EVENTS_COLLECTION]: [
          // A user's events in number order (the stream's read). Not unique: the user's feed document already
          // hands each number out once (in the write's transaction), and docs/DEPLOY.md shards `todoEvents`
          // by `{ userId: 'hashed' }`, which a unique index other than the shard key's would stand in the way of.
          { key: { userId: 1, seq: 1 }, name: 'user_seq' },
          { key: { createdAt: 1 }, name: 'created_at' },
        ],
        // Keyed by token (`_id`); the sweep finds the expired batches, the account purge a user's.
        [UNDO_COLLECTION]: [
          { key: { createdAt: 1 }, name: 'created_at' },
          { key: { userId: 1 }, name: 'user_id' },
        ],
      },
      setup: async (db) => {
        // Created up front: a transaction then only ever writes documents, never creates a collection.
        await ensureCollection(db, FEEDS_COLLECTION);
        await migrateGlobalFeed(db);
        await backfillCompletedAt(db);
      },
    });
    return new MongoTodosStore(connection, storeSettings(settings));
  }

  /**
   * Runs `work` in one transaction and tells the listeners about its event once it committed. The driver
   * may call `work` more than once (transient errors, write conflicts on the counter), so it must only
   * touch the database through `session`.
   */
  private async write<T>(work: (session: ClientSession, now: Date) => Promise<{ result: T; notice: ChangeNotice | null }>): Promise<T> {
    const now = this.settings.now();
    const { result, notice } = await this.connection.client.withSession((session) =>
      session.withTransaction((transaction) => work(transaction, now), {
        readConcern: { level: 'snapshot' },
        writeConcern: new WriteConcern('majority'),
      }),
    );
    this.listeners.notify(notice);
    return result;
  }

  /** Appends the write's event as the user's next number; called inside the write's transaction. */
  private async appendEvent(
    session: ClientSession,
    userId: string,
    origin: string | null,
    now: Date,
    saved: TodoRecord[],
    removed: string[],
  ): Promise<ChangeNotice> {
    const user = userKey(userId);
    const feed = await this.feeds.findOneAndUpdate({ _id: user }, todoUpdates.nextEventSeq(), { session, upsert: true, returnDocument: 'after' });
    if (!feed) throw new Error("the user's feed document did not answer");
    await this.events.insertOne({ _id: new ObjectId(), userId: user, seq: feed.seq, origin, saved, removed, createdAt: now }, { session });
    return { userId, id: String(feed.seq) };
  }

  async list(userId: string): Promise<TodoList> {
    // A snapshot session reads the user's position and tasks at one point in time. The position is read
    // first anyway: should the snapshot ever be wider, a change would be applied twice, never missed.
    return this.connection.client.withSession({ snapshot: true }, async (session) => {
      const { cursor } = toPosition(await this.feeds.findOne({ _id: userKey(userId) }, { session }));
      const documents = await this.todos.find({ userId: userKey(userId), ...LIVE }, { session }).sort(LIST_SORT).toArray();
      return { todos: documents.map(toRecord), cursor };
    });
  }

  async listJson(userId: string): Promise<string> {
    // Documents are validated one by one (toRecord): unlike a STRICT SQLite table, a collection enforces no shape.
    return JSON.stringify(await this.list(userId));
  }

  async create(userId: string, title: string, origin: string | null = null): Promise<TodoRecord> {
    return this.write(async (session, now) => {
      const document: TodoDocument = {
        _id: new ObjectId(),
        userId: userKey(userId),
        title,
        completed: false,
        isPinned: false,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
      };
      await this.todos.insertOne(document, { session });
      const todo = toRecord(document);
      return { result: todo, notice: await this.appendEvent(session, userId, origin, now, [todo], []) };
    });
  }

  async update(userId: string, id: string, patch: TodoPatch, origin: string | null = null, { keepUndo = false }: UpdateOptions = {}): Promise<TodoUpdate | null> {
    const filter = ownedBy(userId, id);
    if (!filter) return null;
    return this.write<TodoUpdate | null>(async (session, now) => {
      const current = await this.todos.findOne({ ...filter, ...LIVE }, { session });
      if (!current) return { result: null, notice: null };
      const change = todoUpdates.change(current, patch, now);
      // Nothing changes: updatedAt stays, and no event is appended (a repeat is invisible to other pages).
      if (!change) return { result: { todo: toRecord(current), changed: [], undoToken: null }, notice: null };
      const set = change.$set ?? {};
      const changed = (['title', 'completed', 'isPinned'] as const).filter((field): field is TodoField => field in set);
      const updated = await this.todos.findOneAndUpdate({ ...filter, ...LIVE }, change, { session, returnDocument: 'after' });
      // (Gone between the read and the update: the transaction would have conflicted; it reads as not found.)
      if (!updated) return { result: null, notice: null };
      let undoToken: string | null = null;
      if (keepUndo && changed.includes('completed')) {
        // The undo batch of the tick: one task, with the values the update replaced (as setAllCompleted keeps them).
        undoToken = newUndoToken();
        const item = { _id: current._id, completed: current.completed, completedAt: completedAtOf(current), updatedAt: current.updatedAt };
        await this.undos.insertOne({ _id: undoToken, userId: userKey(userId), kind: 'complete-all', completed: updated.completed, createdAt: now, items: [item] }, { session });
      }
      const todo = toRecord(updated);
      return { result: { todo, changed, undoToken }, notice: await this.appendEvent(session, userId, origin, now, [todo], []) };
    });
  }

  async remove(userId: string, id: string, origin: string | null = null): Promise<boolean> {
    const filter = ownedBy(userId, id);
    if (!filter) return false;
    return this.write(async (session, now) => {
      const result = await this.todos.updateOne({ ...filter, ...LIVE }, todoUpdates.softDelete(now), { session });
      if (result.modifiedCount === 0) return { result: false, notice: null };
      return { result: true, notice: await this.appendEvent(session, userId, origin, now, [], [filter._id.toHexString()]) };
    });
  }

  async restore(userId: string, id: string, origin: string | null = null): Promise<TodoRecord | null> {
    const filter = ownedBy(userId, id);
    if (!filter) return null;
    return this.write(async (session, now) => {
      const restored = await this.todos.findOneAndUpdate(
        { ...filter, deletedAt: { $gt: new Date(now.getTime() - this.settings.restoreWindowMs) } },
        todoUpdates.restore(),
        { session, returnDocument: 'after' },
      );
      if (!restored) return { result: null, notice: null };
      const todo = toRecord(restored);
      return { result: todo, notice: await this.appendEvent(session, userId, origin, now, [todo], []) };
    });
  }

  async setAllCompleted(userId: string, completed: boolean, origin: string | null = null): Promise<BulkChange> {
    const undoToken = newUndoToken();
    return this.write<BulkChange>(async (session, now) => {
      const user = userKey(userId);
      const filter = { userId: user, ...LIVE, completed: { $ne: completed } };
      const documents = await this.todos.find(filter, { session }).toArray();
      if (documents.length === 0) return { result: { todos: [], undoToken: null }, notice: null };
      const ids = documents.map((document) => document._id);
      // The transaction's snapshot makes the read and the update see the same tasks (a concurrent writer
      // conflicts and one of the two is retried).
      await this.todos.updateMany({ ...filter, _id: { $in: ids } }, todoUpdates.setCompleted(completed, now), { session });
      // The undo batch: the values the update replaced, from the same read.
      const items = documents.map((document) => ({
        _id: document._id,
        completed: document.completed,
        completedAt: completedAtOf(document),
        updatedAt: document.updatedAt,
      }));
      await this.undos.insertOne({ _id: undoToken, userId: user, kind: 'complete-all', completed, createdAt: now, items }, { session });
      const changed = documents
        .map((document) => toRecord({ ...document, completed, completedAt: completed ? now : null, updatedAt: now }))
        .sort(byListOrder);
      return { result: { todos: changed, undoToken }, notice: await this.appendEvent(session, userId, origin, now, changed, []) };
    });
  }

  async clearCompleted(userId: string, origin: string | null = null): Promise<BulkChange> {
    const undoToken = newUndoToken();
    return this.write<BulkChange>(async (session, now) => {
      const user = userKey(userId);
      const filter = { userId: user, ...LIVE, completed: true };
      const documents = await this.todos.find(filter, { session }).toArray();
      if (documents.length === 0) return { result: { todos: [], undoToken: null }, notice: null };
      const ids = documents.map((document) => document._id);
      await this.todos.updateMany({ ...filter, _id: { $in: ids } }, todoUpdates.softDelete(now), { session });
      const items = ids.map((_id) => ({ _id }));
      await this.undos.insertOne({ _id: undoToken, userId: user, kind: 'clear-completed', createdAt: now, items }, { session });
      const cleared = documents.map(toRecord).sort(byListOrder);
      const notice = await this.appendEvent(session, userId, origin, now, [], cleared.map((todo) => todo._id));
      return { result: { todos: cleared, undoToken }, notice };
    });
  }

  async restoreBulk(userId: string, undoToken: string, origin: string | null = null): Promise<TodoRecord[] | null> {
    return this.write(async (session, now) => {
      const user = userKey(userId);
      // Only the owner's, within the restore window; spent in this same transaction, whatever is left to restore.
      const found = await this.undos.findOneAndDelete(
        { _id: undoToken, userId: user, createdAt: { $gt: new Date(now.getTime() - this.settings.restoreWindowMs) } },
        { session },
      );
      if (!found) return { result: null, notice: null };
      const batch = StoredUndo.parse(found);
      const ids = batch.items.map((item) => item._id);
      let restored: TodoRecord[];
      if (batch.kind === 'clear-completed') {
        // Still deleted by the clear itself (its time): one restored on its own since, maybe deleted again, is not the clear's.
        const filter: Filter<TodoDocument> = { _id: { $in: ids }, userId: user, deletedAt: batch.createdAt };
        const documents = await this.todos.find(filter, { session }).toArray();
        if (documents.length > 0) await this.todos.updateMany(filter, todoUpdates.restore(), { session });
        restored = documents.map(toRecord);
      } else {
        // Only the tasks still exactly as the call left them (live, same completed, completedAt and updatedAt).
        const completed = batch.completed === true;
        const asLeft: Filter<TodoDocument> = { userId: user, ...LIVE, completed, completedAt: completed ? batch.createdAt : null, updatedAt: batch.createdAt };
        const documents = await this.todos.find({ ...asLeft, _id: { $in: ids } }, { session }).toArray();
        const previous = new Map(batch.items.map((item) => [item._id.toHexString(), item]));
        const changes = documents.map((document) => ({
          document,
          before: StoredUndoItem.parse(previous.get(document._id.toHexString())),
        }));
        const writes: AnyBulkWriteOperation<TodoDocument>[] = changes.map(({ document, before }) => ({
          updateOne: { filter: { ...asLeft, _id: document._id }, update: todoUpdates.undoCompleted(before) },
        }));
        if (writes.length > 0) await this.todos.bulkWrite(writes, { session });
        restored = changes.map(({ document, before }) => toRecord({ ...document, ...before, _id: document._id }));
      }
      restored.sort(byListOrder);
      if (restored.length === 0) return { result: restored, notice: null };
      return { result: restored, notice: await this.appendEvent(session, userId, origin, now, restored, []) };
    });
  }

  async deleteAllForUser(userId: string): Promise<number> {
    return this.write(async (session) => {
      const user = userKey(userId);
      const count = await this.todos.countDocuments({ userId: user, ...LIVE }, { session });
      await this.todos.deleteMany({ userId: user }, { session });
      await this.events.deleteMany({ userId: user }, { session });
      await this.feeds.deleteOne({ _id: user }, { session });
      await this.undos.deleteMany({ userId: user }, { session });
      return { result: count, notice: null };
    });
  }

  async eventsAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    const documents = await this.events
      .find({ userId: userKey(userId), seq: { $gt: Number(afterId) } })
      .sort({ seq: 1 })
      .limit(limit)
      .toArray();
    return documents.map(toEvent);
  }

  async feedPosition(userId: string): Promise<FeedPosition> {
    // One document: the cursor and the watermark are always read together.
    return toPosition(await this.feeds.findOne({ _id: userKey(userId) }));
  }

  async sweep(): Promise<SweepResult> {
    const now = this.settings.now().getTime();
    const purged = await this.todos.deleteMany({ deletedAt: { $type: 'date', $lte: new Date(now - this.settings.restoreWindowMs) } });
    // The same boundary as restoreBulk's: a batch it can no longer spend goes.
    const undone = await this.undos.deleteMany({ createdAt: { $lte: new Date(now - this.settings.restoreWindowMs) } });
    // Per user, the newest number among the events past the retention (through the createdAt index).
    const expired = await this.events
      .aggregate<{ _id: ObjectId | string; last: number }>([
        { $match: { createdAt: { $lte: new Date(now - this.settings.eventRetentionMs) } } },
        { $group: { _id: '$userId', last: { $max: '$seq' } } },
      ])
      .toArray();
    let trimmedEvents = 0;
    for (const { _id: user, last } of expired) {
      // By number, not by time: afterwards every number of the user up to the watermark is gone and every
      // number above it kept. The watermark rises before the events go: a reader in between is told to
      // reset (safe), never handed a feed with a silent hole in it.
      await this.feeds.updateOne({ _id: user }, todoUpdates.raiseWatermark(last));
      trimmedEvents += (await this.events.deleteMany({ userId: user, seq: { $lte: last } })).deletedCount;
    }
    return { purgedTodos: purged.deletedCount, trimmedEvents, purgedUndoBatches: undone.deletedCount };
  }

  onCommit(listener: CommitListener): () => void {
    return this.listeners.add(listener);
  }

  async ping(): Promise<boolean> {
    return this.connection.ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
