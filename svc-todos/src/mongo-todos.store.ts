import { ObjectIdString, Todo, type TodoChangeEvent, type TodoPatch } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import { MongoClient, ObjectId, WriteConcern, type ClientSession, type Collection, type Filter, type UpdateFilter } from 'mongodb';
import { z } from 'zod';
import {
  byListOrder,
  CommitListeners,
  storeSettings,
  type ChangeNotice,
  type CommitListener,
  type FeedPosition,
  type StoreOptions,
  type StoreSettings,
  type SweepResult,
  type TodoList,
  type TodoRecord,
  type TodosRepository,
} from './todos.repository.js';

export const TODOS_COLLECTION = 'todos';
export const EVENTS_COLLECTION = 'todoEvents';
const COUNTERS_COLLECTION = 'counters';
/** Counter documents: the last event id handed out, and the highest one trimmed for age. */
const EVENT_SEQUENCE = 'todoEvents';
const TRIMMED_THROUGH = 'todoEventsTrimmedThrough';

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
}

/** One committed write (the outbox): `_id` comes from the counter, so ids only grow. */
interface EventDocument {
  _id: number;
  userId: ObjectId | string;
  origin: string | null;
  saved: TodoRecord[];
  removed: string[];
  createdAt: Date;
}

interface CounterDocument {
  _id: string;
  seq: number;
}

// zod at the database edge: documents written by another version or by hand must still be tasks.
const StoredTodo = z.object({
  _id: z.instanceof(ObjectId),
  title: z.string(),
  completed: z.boolean(),
  isPinned: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

const StoredEvent = z.object({
  _id: z.number().int().positive(),
  origin: z.string().nullable(),
  saved: z.array(Todo),
  removed: z.array(ObjectIdString),
});

const HEX_ID = /^[0-9a-f]{24}$/i;

function toRecord(document: unknown): TodoRecord {
  const d = StoredTodo.parse(document);
  return {
    _id: d._id.toHexString(),
    title: d.title,
    completed: d.completed,
    isPinned: d.isPinned,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

function toEvent(document: unknown): TodoChangeEvent {
  const d = StoredEvent.parse(document);
  return { id: String(d._id), origin: d.origin, saved: d.saved, removed: d.removed };
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
   * A task's new title and flags as one conditional update: `filter` matches only while at least one of
   * the given values differs from the stored one, so `updatedAt` moves (and the caller appends an event)
   * only when a value actually changes, in a single atomic `findOneAndUpdate`. `null` for an empty patch.
   */
  change(patch: TodoPatch, now: Date): { filter: Filter<TodoDocument>; update: UpdateFilter<TodoDocument> } | null {
    const values: Partial<Pick<TodoDocument, 'title' | 'completed' | 'isPinned'>> = {};
    const differs: Filter<TodoDocument>[] = [];
    if (patch.title !== undefined) {
      values.title = patch.title;
      differs.push({ title: { $ne: patch.title } });
    }
    if (patch.completed !== undefined) {
      values.completed = patch.completed;
      differs.push({ completed: { $ne: patch.completed } });
    }
    if (patch.isPinned !== undefined) {
      values.isPinned = patch.isPinned;
      differs.push({ isPinned: { $ne: patch.isPinned } });
    }
    if (differs.length === 0) return null;
    return { filter: { $or: differs }, update: { $set: { ...values, updatedAt: now } } };
  },
  setCompleted: (completed: boolean, now: Date): UpdateFilter<TodoDocument> => ({ $set: { completed, updatedAt: now } }),
  softDelete: (now: Date): UpdateFilter<TodoDocument> => ({ $set: { deletedAt: now } }),
  restore: (): UpdateFilter<TodoDocument> => ({ $unset: { deletedAt: '' } }),
  createCounter: (): UpdateFilter<CounterDocument> => ({ $setOnInsert: { seq: 0 } }),
  nextEventId: (): UpdateFilter<CounterDocument> => ({ $inc: { seq: 1 } }),
  raiseWatermark: (id: number): UpdateFilter<CounterDocument> => ({ $max: { seq: id } }),
};

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
 * (a single-node replica set is enough; a standalone server rejects transactions). Event ids come from one
 * counter document (`$inc` in the same transaction): two writers touching it conflict and the driver
 * retries the later one, so ids are handed out in commit order and a stream reading "after id N" never
 * skips a write that commits later with a smaller id. That counter serialises writes across all users, the
 * price of one global, gap-free order; fine for this product's write rates.
 */
export class MongoTodosStore implements TodosRepository {
  private readonly listeners = new CommitListeners();
  private readonly todos: Collection<TodoDocument>;
  private readonly events: Collection<EventDocument>;
  private readonly counters: Collection<CounterDocument>;

  private constructor(
    private readonly connection: MongoConnection,
    private readonly settings: StoreSettings,
  ) {
    this.todos = connection.db.collection<TodoDocument>(TODOS_COLLECTION);
    this.events = connection.db.collection<EventDocument>(EVENTS_COLLECTION);
    this.counters = connection.db.collection<CounterDocument>(COUNTERS_COLLECTION);
  }

  /** Connects and makes sure the indexes and counters exist; rejects (and closes the client) when unreachable. */
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
          { key: { userId: 1, _id: 1 }, name: 'user_id' },
          { key: { createdAt: 1 }, name: 'created_at' },
        ],
      },
      // Created up front: a transaction then only ever updates these documents, never creates a collection.
      setup: async (db) => {
        const counters = db.collection<CounterDocument>(COUNTERS_COLLECTION);
        for (const _id of [EVENT_SEQUENCE, TRIMMED_THROUGH]) {
          await counters.updateOne({ _id }, todoUpdates.createCounter(), { upsert: true });
        }
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

  /** Appends the write's event; called inside the write's transaction. */
  private async appendEvent(
    session: ClientSession,
    userId: string,
    origin: string | null,
    now: Date,
    saved: TodoRecord[],
    removed: string[],
  ): Promise<ChangeNotice> {
    const counter = await this.counters.findOneAndUpdate(
      { _id: EVENT_SEQUENCE },
      todoUpdates.nextEventId(),
      { session, upsert: true, returnDocument: 'after' },
    );
    if (!counter) throw new Error('the event counter did not answer');
    await this.events.insertOne({ _id: counter.seq, userId: userKey(userId), origin, saved, removed, createdAt: now }, { session });
    return { userId, id: String(counter.seq) };
  }

  private async counter(_id: string, session?: ClientSession): Promise<number> {
    const document = await this.counters.findOne({ _id }, { session });
    return document?.seq ?? 0;
  }

  async list(userId: string): Promise<TodoList> {
    // A snapshot session reads the counter and the tasks at one point in time. The counter is read first
    // anyway: should the snapshot ever be wider, a change would be applied twice, never missed.
    return this.connection.client.withSession({ snapshot: true }, async (session) => {
      const cursor = await this.counter(EVENT_SEQUENCE, session);
      const documents = await this.todos.find({ userId: userKey(userId), ...LIVE }, { session }).sort(LIST_SORT).toArray();
      return { todos: documents.map(toRecord), cursor: String(cursor) };
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
      };
      await this.todos.insertOne(document, { session });
      const todo = toRecord(document);
      return { result: todo, notice: await this.appendEvent(session, userId, origin, now, [todo], []) };
    });
  }

  async update(userId: string, id: string, patch: TodoPatch, origin: string | null = null): Promise<TodoRecord | null> {
    const filter = ownedBy(userId, id);
    if (!filter) return null;
    return this.write(async (session, now) => {
      const change = todoUpdates.change(patch, now);
      if (change) {
        // One atomic call: it matches only while a value still differs, and then moves updatedAt.
        const updated = await this.todos.findOneAndUpdate({ ...filter, ...LIVE, ...change.filter }, change.update, { session, returnDocument: 'after' });
        if (updated) {
          const todo = toRecord(updated);
          return { result: todo, notice: await this.appendEvent(session, userId, origin, now, [todo], []) };
        }
      }
      // Nothing changes (or there is no such task): updatedAt stays, and no event is appended (a repeat is
      // invisible to other pages).
      const current = await this.todos.findOne({ ...filter, ...LIVE }, { session });
      return { result: current ? toRecord(current) : null, notice: null };
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

  async setAllCompleted(userId: string, completed: boolean, origin: string | null = null): Promise<TodoRecord[]> {
    return this.write(async (session, now) => {
      const filter = { userId: userKey(userId), ...LIVE, completed: { $ne: completed } };
      const documents = await this.todos.find(filter, { session }).toArray();
      if (documents.length === 0) return { result: [], notice: null };
      const ids = documents.map((document) => document._id);
      // The transaction's snapshot makes the read and the update see the same tasks (a concurrent writer
      // conflicts and one of the two is retried).
      await this.todos.updateMany({ ...filter, _id: { $in: ids } }, todoUpdates.setCompleted(completed, now), { session });
      const changed = documents.map((document) => toRecord({ ...document, completed, updatedAt: now })).sort(byListOrder);
      return { result: changed, notice: await this.appendEvent(session, userId, origin, now, changed, []) };
    });
  }

  async clearCompleted(userId: string, origin: string | null = null): Promise<TodoRecord[]> {
    return this.write(async (session, now) => {
      const filter = { userId: userKey(userId), ...LIVE, completed: true };
      const documents = await this.todos.find(filter, { session }).toArray();
      if (documents.length === 0) return { result: [], notice: null };
      const ids = documents.map((document) => document._id);
      await this.todos.updateMany({ ...filter, _id: { $in: ids } }, todoUpdates.softDelete(now), { session });
      const cleared = documents.map(toRecord).sort(byListOrder);
      const notice = await this.appendEvent(session, userId, origin, now, [], cleared.map((todo) => todo._id));
      return { result: cleared, notice };
    });
  }

  async deleteAllForUser(userId: string): Promise<number> {
    return this.write(async (session) => {
      const user = userKey(userId);
      const count = await this.todos.countDocuments({ userId: user, ...LIVE }, { session });
      await this.todos.deleteMany({ userId: user }, { session });
      await this.events.deleteMany({ userId: user }, { session });
      return { result: count, notice: null };
    });
  }

  async eventsAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    const documents = await this.events
      .find({ userId: userKey(userId), _id: { $gt: Number(afterId) } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return documents.map(toEvent);
  }

  async feedPosition(): Promise<FeedPosition> {
    const [cursor, trimmedThrough] = [await this.counter(EVENT_SEQUENCE), await this.counter(TRIMMED_THROUGH)];
    return { cursor: String(cursor), trimmedThrough: String(trimmedThrough) };
  }

  async sweep(): Promise<SweepResult> {
    const now = this.settings.now().getTime();
    const purged = await this.todos.deleteMany({ deletedAt: { $type: 'date', $lte: new Date(now - this.settings.restoreWindowMs) } });
    const last = await this.events
      .find({ createdAt: { $lte: new Date(now - this.settings.eventRetentionMs) } })
      .sort({ _id: -1 })
      .limit(1)
      .project<{ _id: number }>({ _id: 1 })
      .next();
    let trimmedEvents = 0;
    if (last) {
      // The watermark rises before the events go: a reader in between is told to reset (safe), never
      // handed a feed with a silent hole in it.
      await this.counters.updateOne({ _id: TRIMMED_THROUGH }, todoUpdates.raiseWatermark(last._id));
      trimmedEvents = (await this.events.deleteMany({ _id: { $lte: last._id } })).deletedCount;
    }
    return { purgedTodos: purged.deletedCount, trimmedEvents };
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
