import type { TodoPatch } from '@tm/contracts';
import { MongoClient, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { z } from 'zod';
import type { StoreClock, TodoRecord, TodosRepository } from './todos.repository.js';

export const TODOS_COLLECTION = 'todos';

interface TodoDocument {
  _id: ObjectId;
  /** An ObjectId when the gateway's user id is one (svc-users issues them), else the raw string. */
  userId: ObjectId | string;
  title: string;
  completed: boolean;
  isPinned: boolean;
  createdAt: Date;
  updatedAt: Date;
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

function userKey(userId: string): ObjectId | string {
  return HEX_ID.test(userId) ? new ObjectId(userId) : userId;
}

/** The filter for one task of one user, or null when `id` cannot name a task (so nothing can match). */
function ownedBy(userId: string, id: string): { _id: ObjectId; userId: ObjectId | string } | null {
  return HEX_ID.test(id) ? { _id: new ObjectId(id), userId: userKey(userId) } : null;
}

/**
 * Sets the requested title and flags in one atomic pipeline update; the first stage still sees the old values,
 * so `updatedAt` moves only when a value really changes (idempotent repeats).
 */
function setFlagsPipeline(patch: TodoPatch, now: Date): Document[] {
  const flags: Partial<Pick<TodoDocument, 'title' | 'completed' | 'isPinned'>> = {};
  if (patch.title !== undefined) flags.title = patch.title;
  if (patch.completed !== undefined) flags.completed = patch.completed;
  if (patch.isPinned !== undefined) flags.isPinned = patch.isPinned;
  const changed = { $or: Object.entries(flags).map(([field, value]) => ({ $ne: [`$${field}`, value] })) };
  return [{ $set: { updatedAt: { $cond: [changed, now, '$updatedAt'] } } }, { $set: flags }];
}

export interface MongoTodosOptions extends StoreClock {
  url: string;
  dbName: string;
  /** How long an operation waits for a reachable server; readiness must answer well within probe timeouts. */
  serverSelectionTimeoutMS?: number;
}

/** The MongoDB store (official driver); shard-ready on `userId`, which every query filters by. */
export class MongoTodosStore implements TodosRepository {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly todos: Collection<TodoDocument>,
    private readonly now: () => Date,
  ) {}

  /** Connects and makes sure the listing index exists; rejects (and closes the client) when unreachable. */
  static async open(options: MongoTodosOptions): Promise<MongoTodosStore> {
    const { url, dbName, serverSelectionTimeoutMS = 5_000, now = () => new Date() } = options;
    const client = new MongoClient(url, { serverSelectionTimeoutMS });
    try {
      await client.connect();
      const db = client.db(dbName);
      const todos = db.collection<TodoDocument>(TODOS_COLLECTION);
      // _id last: the listing's tiebreak is served by the index instead of an in-memory sort.
      await todos.createIndex({ userId: 1, isPinned: -1, createdAt: -1, _id: -1 }, { name: 'user_pinned_created' });
      return new MongoTodosStore(client, db, todos, now);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async list(userId: string): Promise<TodoRecord[]> {
    const documents = await this.todos
      .find({ userId: userKey(userId) })
      .sort({ isPinned: -1, createdAt: -1, _id: -1 })
      .toArray();
    return documents.map(toRecord);
  }

  async create(userId: string, title: string): Promise<TodoRecord> {
    const now = this.now();
    const document: TodoDocument = {
      _id: new ObjectId(),
      userId: userKey(userId),
      title,
      completed: false,
      isPinned: false,
      createdAt: now,
      updatedAt: now,
    };
    await this.todos.insertOne(document);
    return toRecord(document);
  }

  async update(userId: string, id: string, patch: TodoPatch): Promise<TodoRecord | null> {
    const filter = ownedBy(userId, id);
    if (!filter) return null;
    if (patch.title === undefined && patch.completed === undefined && patch.isPinned === undefined) {
      const current = await this.todos.findOne(filter);
      return current ? toRecord(current) : null;
    }
    // Driver v6+ returns the document itself (or null), not a `{value}` wrapper.
    const updated = await this.todos.findOneAndUpdate(filter, setFlagsPipeline(patch, this.now()), {
      returnDocument: 'after',
    });
    return updated ? toRecord(updated) : null;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const filter = ownedBy(userId, id);
    if (!filter) return false;
    const result = await this.todos.deleteOne(filter);
    return result.deletedCount > 0;
  }

  async deleteAllForUser(userId: string): Promise<number> {
    const result = await this.todos.deleteMany({ userId: userKey(userId) });
    return result.deletedCount;
  }

  async ping(): Promise<boolean> {
    const answer = await this.db.command({ ping: 1 });
    return answer.ok === 1;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
