import { FieldValue, INBOX_ID, LIST_COLOURS, listNameKey, ObjectIdString, TaskList, TODO_PATCH_FIELDS, type HistoryEntry, type TodoChangeEvent, type TodoPatchField } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import { MongoClient, ObjectId, WriteConcern, type AnyBulkWriteOperation, type ClientSession, type Collection, type Db, type Document, type Filter, type UpdateFilter, type WithoutId } from 'mongodb';
import { z } from 'zod';
import {
  byListOrder,
  completedAtOf,
  inListOrder,
  LIST_ORDER,
  migratedFeedPosition,
  type FieldChange,
  type IdempotencyRecord,
  type StoredList,
  type StoredTask,
  type SweepCutoffs,
  type UndoBatch,
  type Writes,
} from './todos.domain.js';
import { storeSettings, StoredEventTodos, TodosStoreBase, type Decide, type ReadPlan, type Snapshot, type TaskRead } from './todos.store-base.js';
import type { ChangeNotice, FeedPosition, ListRecord, SearchResult, StoreOptions, SweepResult, TodoList, TodoRecord, TodosRepository } from './todos.repository.js';
import { mongoSearch, type SearchMatch, type SearchPlan } from './search.domain.js';

export const TODOS_COLLECTION = 'todos';
export const EVENTS_COLLECTION = 'todoEvents';
/** One document per user: the user's feed position (event numbers are per user, docs/PRODUCT.md §10.11.5). */
export const FEEDS_COLLECTION = 'todoFeeds';
/** One document per bulk call (or tick) that changed something: what its Undo needs (docs/PRODUCT.md §10.11.3). */
export const UNDO_COLLECTION = 'todoUndoBatches';
/**
 * One document per user and `Idempotency-Key` (docs/PRODUCT.md §7), written in the transaction of the write
 * it answers; `_id` is `{ userId, key }`, so two writes with one key conflict on it and the later one retries.
 */
export const IDEMPOTENCY_COLLECTION = 'todoIdempotencyKeys';
/**
 * The change history (docs/PRODUCT.md §10.4): one document per field a write changed, written in the write's
 * transaction and only with its event, numbered as the event is (`seq`) and carrying its origin.
 */
export const HISTORY_COLLECTION = 'todoHistory';
/**
 * The lists of tasks (docs/PRODUCT.md §10.19): one document per list, `nameKey` the name as two lists of one
 * user must not share (listNameKey), `deletedAt` while deleted with its tasks and still restorable.
 */
export const LISTS_COLLECTION = 'todoLists';
/**
 * Of a database with one global event sequence: the global counter documents (the last event id handed out,
 * and the highest one trimmed for age), in this collection. Only {@link migrateGlobalFeed} reads them, to remove them.
 */
export const LEGACY_COUNTERS_COLLECTION = 'counters';
export const LEGACY_COUNTER_IDS = ['todoEvents', 'todoEventsTrimmedThrough'];
/** The events' index by user of a database with one global sequence (`{ userId: 1, _id: 1 }`), dropped by the migration. */
const LEGACY_EVENTS_INDEX = 'user_id';
const MIGRATION_BATCH = 1_000;

/** A user key: an ObjectId when the gateway's user id is one (svc-users issues them), else the raw string. */
type UserKey = ObjectId | string;

// zod at the database edge: documents written by another version or by hand must still be tasks.
const StoredTodo = z.object({
  _id: z.instanceof(ObjectId),
  title: z.string(),
  completed: z.boolean(),
  isPinned: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /**
   * When the task was completed; null while it is active. Absent on a document from before completion times
   * until {@link backfillCompletedAt} gives it one; such a document reads as the rules say (completedAtOf).
   */
  completedAt: z.date().nullable().optional(),
  /** When the task is due (docs/PRODUCT.md §10.14), as the contracts' TodoDue has it; absent for none (older documents too). */
  due: z.string().optional(),
  /** The repeat (§10.16): RRULE value, from when it counts, and the completions of earlier occurrences; absent for none. */
  repeat: z.string().optional(),
  repeatFrom: z.enum(['due', 'completion']).optional(),
  repeatDone: z.array(z.string()).optional(),
  /** Reminders in minutes before the due time (§10.17); absent for none. */
  reminders: z.array(z.number().int()).optional(),
  /** The list the task is in (§10.19); absent: the Inbox (older documents too). */
  listId: z.instanceof(ObjectId).optional(),
  /** The priority, 1 to 3 (§10.20); absent: none (priority 4), older documents too. */
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  /** The labels the task carries (§10.20), as normalLabels keeps them; absent for none (older documents too). */
  labels: z.array(z.string()).optional(),
  /** The note (§10.21), plain text; absent for none (older documents too). */
  note: z.string().optional(),
  /** The subtasks (§10.21), subdocuments {id, title, done} in order; absent for none (older documents too). */
  subtasks: z.array(z.object({ id: z.string(), title: z.string(), done: z.boolean() })).optional(),
  /** The task's own order key (§10.24), set when the person moved it; absent: placed by its creation. */
  order: z.string().optional(),
  /** Set while the task is deleted but still restorable (soft delete); absent on a live task. */
  deletedAt: z.date().optional(),
});
type TodoDocument = z.infer<typeof StoredTodo> & { userId: UserKey };

/** An {@link UndoBatch} as stored, keyed by its token; `completed` and each item's values only for 'complete-all'. */
const StoredUndo = z.object({
  kind: z.enum(['clear-completed', 'complete-all', 'delete-list']),
  /** The list a 'delete-list' deleted (§10.19). */
  listId: z.instanceof(ObjectId).optional(),
  completed: z.boolean().optional(),
  createdAt: z.date(),
  items: z.array(
    z.object({
      _id: z.instanceof(ObjectId),
      completed: z.boolean().optional(),
      completedAt: z.date().nullable().optional(),
      updatedAt: z.date().optional(),
      /** For the tick of a repeating task (§10.16): the due date and completions it moved from. */
      moved: z.object({ due: z.string().optional(), repeatDone: z.array(z.string()).optional() }).optional(),
    }),
  ),
});
type UndoDocument = z.infer<typeof StoredUndo> & { _id: string; userId: UserKey };

/** A list as stored (§10.19). */
const StoredListDocument = z.object({
  _id: z.instanceof(ObjectId),
  name: z.string(),
  colour: z.enum(LIST_COLOURS),
  order: z.string(),
  archived: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
  deletedAt: z.date().optional(),
});
type ListDocument = z.infer<typeof StoredListDocument> & { userId: UserKey; nameKey: string };

/** A record of a key as stored: the answer's body as its JSON text, so a replay sends exactly what was sent. */
const StoredIdempotency = z.object({ fingerprint: z.string(), status: z.number().int(), body: z.string(), createdAt: z.date() });
interface IdempotencyDocument {
  _id: { userId: UserKey; key: string };
  userId: UserKey;
  fingerprint: string;
  status: number;
  body: string;
  createdAt: Date;
}

/**
 * One value a write replaced: field `field` of task `todoId` went from `before` to `after` (JSON scalars, stored
 * as they are) at `at`, in the write numbered `seq` in the user's feed; `conflict` when `before` was not the
 * change's base. Kept for deleted tasks too; removed by the sweep after 30 days and with the account.
 */
interface HistoryDocument {
  _id: ObjectId;
  userId: UserKey;
  todoId: ObjectId;
  seq: number;
  field: TodoPatchField;
  before: FieldValue;
  after: FieldValue;
  at: Date;
  origin: string | null;
  conflict: boolean;
}

/**
 * One committed write (the outbox): `seq` is the user's own event number, from the user's feed document,
 * so a user's numbers only grow, one per write of that user. `_id` is an ObjectId (a number on an event of
 * a database with one global sequence; the migration gave it that number as its `seq`) and means nothing.
 */
interface EventDocument {
  _id: ObjectId | number;
  userId: UserKey;
  seq: number;
  origin: string | null;
  saved: TodoRecord[];
  removed: string[];
  /** Lists the write made or changed, and those it deleted (§10.19); absent when it touched none. */
  savedLists?: ListRecord[];
  removedLists?: string[];
  createdAt: Date;
}

/** Where one user's feed stands: the last number handed out to the user (`seq`), and the highest trimmed for age. */
interface FeedDocument {
  _id: UserKey;
  seq: number;
  trimmedThrough: number;
}

/** One migration that ran to its end (see {@link backfillCompletedAt}). */
interface MigrationDocument {
  _id: string;
  finishedAt: Date;
}

const StoredEvent = z.object({
  seq: z.number().int().positive(),
  origin: z.string().nullable(),
  saved: StoredEventTodos,
  removed: z.array(ObjectIdString),
  savedLists: z.array(TaskList).optional(),
  removedLists: z.array(ObjectIdString).optional(),
});
const StoredFeed = z.object({ seq: z.number().int().nonnegative(), trimmedThrough: z.number().int().nonnegative() });
const StoredHistory = z.object({
  todoId: z.instanceof(ObjectId),
  seq: z.number().int().positive(),
  field: z.enum(TODO_PATCH_FIELDS),
  before: FieldValue,
  after: FieldValue,
  at: z.date(),
  origin: z.string().nullable(),
  conflict: z.boolean(),
});

const HEX_ID = /^[0-9a-f]{24}$/i;
const isoOrNull = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);
const dateOrNull = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

function toTask(document: unknown): StoredTask {
  const d = StoredTodo.parse(document);
  const updatedAt = d.updatedAt.toISOString();
  const todo: TodoRecord = {
    _id: d._id.toHexString(),
    title: d.title,
    completed: d.completed,
    isPinned: d.isPinned,
    createdAt: d.createdAt.toISOString(),
    updatedAt,
    completedAt: completedAtOf(d.completed, updatedAt, d.completedAt === undefined ? undefined : isoOrNull(d.completedAt)),
    ...(d.due === undefined ? {} : { due: d.due }),
    ...optionalFields(d),
    ...(d.listId === undefined ? {} : { listId: d.listId.toHexString() }),
  };
  return { todo, deletedAt: isoOrNull(d.deletedAt) };
}

/** A search match (§10.22) as the filters read it. */
function toMatch(document: unknown): SearchMatch {
  const d = StoredMatch.parse(document);
  return {
    _id: d._id.toHexString(),
    completed: d.completed,
    ...(d.due === undefined ? {} : { due: d.due }),
    ...(d.listId === undefined ? {} : { listId: d.listId.toHexString() }),
    ...(d.priority === undefined ? {} : { priority: d.priority }),
    ...(d.labels === undefined ? {} : { labels: d.labels }),
  };
}

function toList(document: unknown): StoredList {
  const d = StoredListDocument.parse(document);
  const list: ListRecord = {
    _id: d._id.toHexString(),
    name: d.name,
    colour: d.colour,
    order: d.order,
    archived: d.archived,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
  return { list, deletedAt: isoOrNull(d.deletedAt) };
}

/** A list as stored: every field written (a live list has no `deletedAt`). */
function toListDocument(userId: UserKey, { list, deletedAt }: StoredList): WithoutId<ListDocument> {
  const document = {
    userId,
    name: list.name,
    nameKey: listNameKey(list.name),
    colour: list.colour,
    order: list.order,
    archived: list.archived,
    createdAt: new Date(list.createdAt),
    updatedAt: new Date(list.updatedAt),
  };
  return deletedAt === null ? document : { ...document, deletedAt: new Date(deletedAt) };
}

/**
 * The optional fields a task stores as they are: a repeat and reminders (§10.16, §10.17), a priority and labels
 * (§10.20), a note and subtasks (§10.21), an order key (§10.24).
 */
type OptionalFields = Pick<TodoRecord, 'repeat' | 'repeatFrom' | 'repeatDone' | 'reminders' | 'priority' | 'labels' | 'note' | 'subtasks' | 'order'>;

/**
 * The {@link OptionalFields} that `from` has, stored and read as they are: an absent one is left out, never
 * written as null (the driver would store a null a task never had).
 */
function optionalFields(from: OptionalFields): OptionalFields {
  return {
    ...(from.repeat === undefined ? {} : { repeat: from.repeat }),
    ...(from.repeatFrom === undefined ? {} : { repeatFrom: from.repeatFrom }),
    ...(from.repeatDone === undefined ? {} : { repeatDone: from.repeatDone }),
    ...(from.reminders === undefined ? {} : { reminders: from.reminders }),
    ...(from.priority === undefined ? {} : { priority: from.priority }),
    ...(from.labels === undefined ? {} : { labels: from.labels }),
    ...(from.note === undefined ? {} : { note: from.note }),
    ...(from.subtasks === undefined ? {} : { subtasks: from.subtasks.map(({ id, title, done }) => ({ id, title, done })) }),
    ...(from.order === undefined ? {} : { order: from.order }),
  };
}

/** A task as stored: every field written (a live task has no `deletedAt`, a task without a date no `due`). */
function toDocument(userId: UserKey, { todo, deletedAt }: StoredTask): WithoutId<TodoDocument> {
  const { title, completed, isPinned } = todo;
  const document = {
    userId,
    title,
    completed,
    isPinned,
    createdAt: new Date(todo.createdAt),
    updatedAt: new Date(todo.updatedAt),
    completedAt: dateOrNull(todo.completedAt),
    ...(todo.due === undefined ? {} : { due: todo.due }),
    ...optionalFields(todo),
    ...(todo.listId === undefined ? {} : { listId: new ObjectId(todo.listId) }),
  };
  return deletedAt === null ? document : { ...document, deletedAt: new Date(deletedAt) };
}

function toUndo(token: string, document: unknown): UndoBatch {
  const d = StoredUndo.parse(document);
  const items = d.items.map(({ _id, completed, completedAt, updatedAt, moved }) => ({
    id: _id.toHexString(),
    before:
      updatedAt === undefined
        ? null
        : { completed: completed === true, completedAt: isoOrNull(completedAt), updatedAt: updatedAt.toISOString(), ...(moved === undefined ? {} : { moved }) },
  }));
  return { token, kind: d.kind, completed: d.completed ?? null, createdAt: d.createdAt.toISOString(), items, ...(d.listId === undefined ? {} : { listId: d.listId.toHexString() }) };
}

function toUndoDocument(userId: UserKey, { token, kind, completed, createdAt, items, listId }: UndoBatch): UndoDocument {
  return {
    _id: token,
    userId,
    kind,
    ...(listId === undefined ? {} : { listId: new ObjectId(listId) }),
    ...(completed === null ? {} : { completed }),
    createdAt: new Date(createdAt),
    items: items.map(({ id, before }) => ({
      _id: new ObjectId(id),
      ...(before && { completed: before.completed, completedAt: dateOrNull(before.completedAt), updatedAt: new Date(before.updatedAt) }),
      ...(before?.moved && { moved: before.moved }),
    })),
  };
}

function toHistoryDocument(user: UserKey, seq: number, origin: string | null, { taskId, field, before, after, at, conflict }: FieldChange): HistoryDocument {
  return { _id: new ObjectId(), userId: user, todoId: new ObjectId(taskId), seq, field, before, after, at: new Date(at), origin, conflict };
}

function toHistoryEntry(document: unknown): HistoryEntry {
  const d = StoredHistory.parse(document);
  return { todoId: d.todoId.toHexString(), field: d.field, before: d.before, after: d.after, at: d.at.toISOString(), version: String(d.seq), origin: d.origin, conflict: d.conflict };
}

/** Newest first (`seq` desc), the fields of one write in TODO_PATCH_FIELDS order. */
const byHistoryOrder = (a: HistoryEntry, b: HistoryEntry): number =>
  Number(b.version) - Number(a.version) || TODO_PATCH_FIELDS.indexOf(a.field) - TODO_PATCH_FIELDS.indexOf(b.field);

function userKey(userId: string): UserKey {
  return HEX_ID.test(userId) ? new ObjectId(userId) : userId;
}

/** A live (undeleted) task has no `deletedAt`. */
const LIVE = { deletedAt: { $exists: false } };

/**
 * The index of Today and Upcoming (docs/PRODUCT.md §10.15): a user's open dated tasks by due date, and only
 * those (a completed task or one without a date costs it nothing). Partial filters of equality and
 * `$exists: true` alone, which MongoDB and the compatible engines all accept.
 */
export const OPEN_DUE_INDEX = {
  key: { userId: 1, due: 1 },
  name: 'user_open_due',
  partialFilterExpression: { completed: false, due: { $exists: true } },
} as const;

/**
 * The filter of {@link MongoTodosStore.openDueBefore}: the index's partial filter written out in it term for
 * term (a planner uses a partial index only for a query that implies its filter), the user, the range of
 * due dates, and live tasks only.
 */
export function openDueFilter(user: UserKey, before: string) {
  return { userId: user, completed: false, due: { $exists: true, $lt: before }, ...LIVE } satisfies Filter<TodoDocument>;
}
/**
 * Search's index (docs/PRODUCT.md §10.22): one text index over title, note and the subtasks' titles, after the
 * user's id (a `$text` query names the user, so it reads that user's entries only). Language "none": no
 * stemming and no stop words, so a word matches as a word, as in SQLite's index; text indexes of version 3 fold
 * case and diacritics. Weights as SQLite's bm25 weights them: the title first.
 */
export const SEARCH_TEXT_INDEX = {
  key: { userId: 1, title: 'text', note: 'text', 'subtasks.title': 'text' },
  name: 'user_search_text',
  weights: { title: 10, note: 4, 'subtasks.title': 2 },
  default_language: 'none',
} as const;

/**
 * The filter of a search (§10.22; mongoSearch says what each part does): the user's live tasks, the complete
 * terms through `$text` (they must all be there), the last term as the start of a word of the title, the
 * note or a subtask's title. `$text` never matches a prefix, so the last term, still being typed, cannot go
 * through it.
 */
export function searchFilter(user: UserKey, terms: readonly string[]): Filter<TodoDocument> {
  const { text, lastWord } = mongoSearch(terms);
  return {
    userId: user,
    ...LIVE,
    ...(text === null ? {} : { $text: { $search: text } }),
    $or: [{ title: lastWord }, { note: lastWord }, { 'subtasks.title': lastWord }],
  };
}

/** The fields a search's match is read with before the pick (the note and subtasks are read for the picked tasks only). */
const SEARCH_PROJECTION = { _id: 1, completed: 1, due: 1, listId: 1, priority: 1, labels: 1 } as const;

/** A search match as read with SEARCH_PROJECTION. */
const StoredMatch = StoredTodo.pick({ _id: true, completed: true, due: true, listId: true, priority: true, labels: true });

/** The lists' order (the contracts' byListPlace: order key, then id; MongoDB's simple collation compares them as code units), served by `user_order`. */
const LISTS_SORT = { order: 1, _id: 1 } as const;

/** The rules' list order as a sort document (served by the `user_pinned_created` index). */
const LIST_SORT = Object.fromEntries(LIST_ORDER.map(({ field, direction }) => [field, direction === 'desc' ? -1 : 1] as const));

/**
 * The update documents the store sends (tasks themselves are stored whole, by replacement). All are classic
 * update operators: no aggregation pipeline update, which several MongoDB-compatible engines and managed
 * services refuse ("Aggregation pipelines are not supported"; docs/ARCHITECTURE.md, "Storage"). The tests
 * hold each to `isClassicUpdate`.
 */
export const todoUpdates = {
  /** The user's next event number (1 for the first: the upsert creates the user's feed document). */
  nextEventSeq: (): UpdateFilter<FeedDocument> => ({ $inc: { seq: 1 }, $setOnInsert: { trimmedThrough: 0 } }),
  raiseWatermark: (seq: number): UpdateFilter<FeedDocument> => ({ $max: { trimmedThrough: seq } }),
  /** Migration: an event of the global sequence keeps its old id as its number. */
  numberLegacyEvent: (seq: number): UpdateFilter<EventDocument> => ({ $set: { seq } }),
  /** Migration: a user's position from the user's kept legacy events (the rules' migratedFeedPosition). */
  migratedPosition: (last: number, first: number): UpdateFilter<FeedDocument> => ({ $max: migratedFeedPosition(first, last) }),
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

/** Sends `operations` in bulk writes of {@link MIGRATION_BATCH}. */
async function inBatches<T extends Document>(collection: Collection<T>, operations: AsyncIterable<AnyBulkWriteOperation<T>> | Iterable<AnyBulkWriteOperation<T>>): Promise<void> {
  let batch: AnyBulkWriteOperation<T>[] = [];
  for await (const operation of operations) {
    batch.push(operation);
    if (batch.length === MIGRATION_BATCH) {
      await collection.bulkWrite(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await collection.bulkWrite(batch);
}

/**
 * Moves a database with one global event sequence (each event's `_id` the next value of the counter
 * `counters`/`todoEvents`, one watermark `todoEventsTrimmedThrough`) to per-user numbers as the rules say
 * (migratedFeedPosition); idempotent, so it runs on every open and finishes what an interrupted run left:
 * each user with kept events gets a feed document (`$max`: a rerun never moves a position back), each kept
 * event its old id as its `seq`, and the global counters and the old `{ userId: 1, _id: 1 }` index go.
 * Replicas writing global ids must not write meanwhile: roll this version out by replacing every svc-todos
 * replica, not one by one.
 */
export async function migrateGlobalFeed(db: Db): Promise<void> {
  const events = db.collection<EventDocument>(EVENTS_COLLECTION);
  const legacy: Filter<EventDocument> = { seq: { $exists: false } };
  const ranges = await events
    .aggregate<{ _id: UserKey; last: number; first: number }>([{ $match: legacy }, { $group: { _id: '$userId', last: { $max: '$_id' }, first: { $min: '$_id' } } }])
    .toArray();
  await inBatches(db.collection<FeedDocument>(FEEDS_COLLECTION), ranges.map(({ _id, last, first }) => ({ updateOne: { filter: { _id }, update: todoUpdates.migratedPosition(last, first), upsert: true } })));
  const numbered = async function* () {
    for await (const { _id } of events.find(legacy).project<{ _id: number }>({ _id: 1 })) {
      yield { updateOne: { filter: { _id, ...legacy }, update: todoUpdates.numberLegacyEvent(_id) } } satisfies AnyBulkWriteOperation<EventDocument>;
    }
  };
  await inBatches(events, numbered());
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
 * Completion times for a database from before them (completedAtOf), deleted but restorable tasks included.
 * Until it has run (and for a document a replica of the previous version writes during the rollout) a
 * document without the field reads the same way, and the first write to it stores that value. Classic
 * updates only (see {@link todoUpdates}): one conditional update per completed document, in batches, each
 * matching only while the document still lacks the field and has that `updatedAt`, so a rerun, a second
 * replica, or a write in between is never overwritten. A marker document then spares the next opens the scan.
 */
export async function backfillCompletedAt(db: Db): Promise<void> {
  const migrations = db.collection<MigrationDocument>(MIGRATIONS_COLLECTION);
  if (await migrations.findOne({ _id: COMPLETED_AT_MIGRATION })) return;
  const todos = db.collection<TodoDocument>(TODOS_COLLECTION);
  const missing: Filter<TodoDocument> = { completedAt: { $exists: false } };
  await todos.updateMany({ ...missing, completed: false }, todoUpdates.backfillCompletedAt(null));
  const backfills = async function* () {
    for await (const { _id, updatedAt } of todos.find({ ...missing, completed: true }).project<{ _id: ObjectId; updatedAt: Date }>({ _id: 1, updatedAt: 1 })) {
      const completedAt = dateOrNull(completedAtOf(true, updatedAt.toISOString(), undefined));
      yield { updateOne: { filter: { _id, ...missing, completed: true, updatedAt }, update: todoUpdates.backfillCompletedAt(completedAt) } } satisfies AnyBulkWriteOperation<TodoDocument>;
    }
  };
  await inBatches(todos, backfills());
  await migrations.updateOne({ _id: COMPLETED_AT_MIGRATION }, todoUpdates.migrationFinished(new Date()), { upsert: true });
}

export interface MongoTodosOptions extends StoreOptions {
  url: string;
  dbName: string;
  /** How long an operation waits for a reachable server; readiness must answer well within probe timeouts. */
  serverSelectionTimeoutMS?: number;
}

/**
 * The MongoDB store (official driver); shard-ready on `userId`, which every task query filters by. The
 * rules are the shared ones (todos.store-base.ts): this class only reads and writes.
 *
 * Each write and its change event commit together in one multi-document transaction
 * (`client.withSession` + `session.withTransaction`, snapshot reads), which **requires MongoDB to run as a
 * replica set** (a single-node replica set is enough; a standalone server rejects transactions). Event
 * numbers are per user and come from the user's feed document (`$inc` in the same transaction): two writers
 * of one user conflict on it and the driver retries the later one, so a user's numbers are handed out in
 * commit order and a stream reading "after N" never skips a write that commits later with a smaller number.
 * Two writes of one task conflict the same way, so a rule always decides on what its write replaces, and
 * two writes under one `Idempotency-Key` conflict on its record: the later one runs again and replays.
 */
export class MongoTodosStore extends TodosStoreBase implements TodosRepository {
  private readonly todos: Collection<TodoDocument>;
  private readonly events: Collection<EventDocument>;
  private readonly feeds: Collection<FeedDocument>;
  private readonly undos: Collection<UndoDocument>;
  private readonly idempotency: Collection<IdempotencyDocument>;
  private readonly historyEntries: Collection<HistoryDocument>;
  private readonly lists: Collection<ListDocument>;

  private constructor(
    private readonly connection: MongoConnection,
    options: StoreOptions,
  ) {
    super(storeSettings(options));
    this.todos = connection.db.collection<TodoDocument>(TODOS_COLLECTION);
    this.events = connection.db.collection<EventDocument>(EVENTS_COLLECTION);
    this.feeds = connection.db.collection<FeedDocument>(FEEDS_COLLECTION);
    this.undos = connection.db.collection<UndoDocument>(UNDO_COLLECTION);
    this.idempotency = connection.db.collection<IdempotencyDocument>(IDEMPOTENCY_COLLECTION);
    this.historyEntries = connection.db.collection<HistoryDocument>(HISTORY_COLLECTION);
    this.lists = connection.db.collection<ListDocument>(LISTS_COLLECTION);
  }

  /**
   * Connects, makes sure the indexes and the feeds collection exist and migrates an older database
   * ({@link migrateGlobalFeed}, {@link backfillCompletedAt}); rejects (and closes the client) when unreachable.
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
          // Today and Upcoming (openDueBefore): a user's open dated tasks by due date.
          OPEN_DUE_INDEX,
          // The tasks of one list (§10.19): a list's delete and the bulk calls scoped to it.
          { key: { userId: 1, listId: 1 }, name: 'user_list' },
          // Search (§10.22): the text of a user's tasks.
          SEARCH_TEXT_INDEX,
        ],
        [LISTS_COLLECTION]: [
          // A user's lists in their order (the listing's and every list write's read; the account purge's).
          { key: { userId: 1, order: 1, _id: 1 }, name: 'user_order' },
          // Only deleted lists, for the sweep.
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
        // Keyed by user and key (`_id`); the sweep finds the expired records, the account purge a user's.
        [IDEMPOTENCY_COLLECTION]: [
          { key: { createdAt: 1 }, name: 'created_at' },
          { key: { userId: 1 }, name: 'user_id' },
        ],
        [HISTORY_COLLECTION]: [
          // One user's task, newest first (the history's read; the account purge's by its userId prefix).
          { key: { userId: 1, todoId: 1, seq: -1 }, name: 'user_todo_seq' },
          // The sweep's expired entries.
          { key: { at: 1 }, name: 'at' },
        ],
      },
      setup: async (db) => {
        // Created up front: a transaction then only ever writes documents, never creates a collection.
        await ensureCollection(db, FEEDS_COLLECTION);
        await migrateGlobalFeed(db);
        await backfillCompletedAt(db);
      },
    });
    return new MongoTodosStore(connection, settings);
  }

  /**
   * Runs `work` in one transaction. The driver may call `work` more than once (transient errors, write
   * conflicts), so it must only touch the database through `session` and decide nothing else.
   */
  private inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    return this.connection.client.withSession((session) =>
      session.withTransaction(work, { readConcern: { level: 'snapshot' }, writeConcern: new WriteConcern('majority') }),
    );
  }

  protected override newId(): string {
    return new ObjectId().toHexString();
  }

  protected override async transact<R>(userId: string, origin: string | null, read: ReadPlan, decide: Decide<R>, idempotencyKey: string | null) {
    const now = this.settings.now();
    return this.inTransaction(async (session) => {
      const snapshot = await this.read(session, userKey(userId), read);
      const idempotency = idempotencyKey === null ? undefined : await this.idempotencyIn(userId, idempotencyKey, session);
      const { result, writes } = decide(idempotency === undefined ? snapshot : { ...snapshot, idempotency }, now);
      return { result, notice: writes ? await this.store(session, userId, origin, now, writes) : null };
    });
  }

  private async read(session: ClientSession, user: UserKey, { tasks, lists }: ReadPlan): Promise<Snapshot> {
    const found = await this.readTasks(session, user, tasks);
    return { ...found, lists: lists ? (await this.lists.find({ userId: user }, { session }).sort(LISTS_SORT).toArray()).map(toList) : [] };
  }

  private async readTasks(session: ClientSession, user: UserKey, read: TaskRead): Promise<Omit<Snapshot, 'lists'>> {
    if (read === null || ('task' in read && !HEX_ID.test(read.task))) return { tasks: [] };
    if ('task' in read) {
      const document = await this.todos.findOne({ _id: new ObjectId(read.task), userId: user }, { session });
      return { tasks: document ? [toTask(document)] : [] };
    }
    if ('live' in read) {
      // A list's tasks through user_list; the Inbox's are those without a listId; an id no list can have: none.
      const { scope } = read;
      if (scope !== undefined && scope !== INBOX_ID && !HEX_ID.test(scope)) return { tasks: [] };
      const inScope = scope === undefined ? {} : scope === INBOX_ID ? { listId: { $exists: false } } : { listId: new ObjectId(scope) };
      return { tasks: (await this.todos.find({ userId: user, ...inScope, ...LIVE }, { session }).toArray()).map(toTask) };
    }
    const batch = await this.undos.findOne({ _id: read.undo, userId: user }, { session });
    if (!batch) return { tasks: [] };
    const undo = toUndo(read.undo, batch);
    const tasks = await this.todos.find({ _id: { $in: undo.items.map((item) => new ObjectId(item.id)) }, userId: user }, { session }).toArray();
    return { tasks: tasks.map(toTask), undo };
  }

  private async idempotencyIn(userId: string, key: string, session?: ClientSession): Promise<IdempotencyRecord | undefined> {
    const user = userKey(userId);
    const document = await this.idempotency.findOne({ _id: { userId: user, key } }, { session });
    if (!document) return undefined;
    const d = StoredIdempotency.parse(document);
    return { key, fingerprint: d.fingerprint, answer: { status: d.status, body: JSON.parse(d.body) as unknown }, createdAt: d.createdAt.toISOString() };
  }

  async idempotencyRecord(userId: string, key: string): Promise<IdempotencyRecord | null> {
    return (await this.idempotencyIn(userId, key)) ?? null;
  }

  /** Stores a decision's writes, in the write's transaction; appends its event as the user's next number. */
  private async store(
    session: ClientSession,
    userId: string,
    origin: string | null,
    now: Date,
    { tasks, lists = [], keepUndo, spendUndo, event, keepIdempotency, history = [] }: Writes,
  ): Promise<ChangeNotice | null> {
    const user = userKey(userId);
    if (keepIdempotency) {
      const { key, fingerprint, answer, createdAt } = keepIdempotency;
      // A replacement (an expired record of the key is overwritten); a concurrent write of the same key
      // conflicts on this `_id`, and the driver runs the later transaction again, which then replays.
      const document: IdempotencyDocument = { _id: { userId: user, key }, userId: user, fingerprint, status: answer.status, body: JSON.stringify(answer.body), createdAt: new Date(createdAt) };
      await this.idempotency.replaceOne({ _id: document._id }, document, { session, upsert: true });
    }
    if (lists.length > 0) {
      const replacements: AnyBulkWriteOperation<ListDocument>[] = lists.map((stored) => ({
        replaceOne: { filter: { _id: new ObjectId(stored.list._id), userId: user }, replacement: toListDocument(user, stored), upsert: true },
      }));
      await this.lists.bulkWrite(replacements, { session });
    }
    if (tasks.length > 0) {
      const replacements: AnyBulkWriteOperation<TodoDocument>[] = tasks.map((task) => ({
        replaceOne: { filter: { _id: new ObjectId(task.todo._id), userId: user }, replacement: toDocument(user, task), upsert: true },
      }));
      await this.todos.bulkWrite(replacements, { session });
    }
    if (keepUndo) await this.undos.insertOne(toUndoDocument(user, keepUndo), { session });
    if (spendUndo !== undefined) await this.undos.deleteOne({ _id: spendUndo, userId: user }, { session });
    if (event === null) return null;
    const feed = await this.feeds.findOneAndUpdate({ _id: user }, todoUpdates.nextEventSeq(), { session, upsert: true, returnDocument: 'after' });
    if (!feed) throw new Error("the user's feed document did not answer");
    const { saved, removed, savedLists, removedLists } = event;
    const listFields = { ...(savedLists === undefined ? {} : { savedLists }), ...(removedLists === undefined ? {} : { removedLists }) };
    await this.events.insertOne({ _id: new ObjectId(), userId: user, seq: feed.seq, origin, saved, removed, ...listFields, createdAt: now }, { session });
    if (history.length > 0) await this.historyEntries.insertMany(history.map((change) => toHistoryDocument(user, feed.seq, origin, change)), { session });
    return { userId, id: String(feed.seq) };
  }

  async list(userId: string): Promise<TodoList> {
    // A snapshot session reads the user's position and tasks at one point in time. The position is read
    // first anyway: should the snapshot ever be wider, a change would be applied twice, never missed.
    return this.connection.client.withSession({ snapshot: true }, async (session) => {
      const { cursor } = toPosition(await this.feeds.findOne({ _id: userKey(userId) }, { session }));
      const documents = await this.todos.find({ userId: userKey(userId), ...LIVE }, { session }).sort(LIST_SORT).toArray();
      const lists = await this.lists.find({ userId: userKey(userId), ...LIVE }, { session }).sort(LISTS_SORT).toArray();
      // Read in LIST_ORDER (the index serves it); put in the list's order only when a task has its own key (§10.24).
      const todos = documents.map((document) => toTask(document).todo);
      return { todos: inListOrder(todos, (todo) => todo.order !== undefined, (todo) => todo), lists: lists.map((document) => toList(document).list), cursor };
    });
  }

  async listJson(userId: string): Promise<string> {
    // Documents are validated one by one (toTask): unlike a STRICT SQLite table, a collection enforces no shape.
    return JSON.stringify(await this.list(userId));
  }

  async listsOf(userId: string): Promise<ListRecord[]> {
    return (await this.lists.find({ userId: userKey(userId), ...LIVE }).sort(LISTS_SORT).toArray()).map((document) => toList(document).list);
  }

  async openDueBefore(userId: string, before: string): Promise<TodoRecord[]> {
    // Read through user_open_due, then put in list order here, where they are few: a sort in the query could
    // lead the planner to the listing index instead, which reads every task of the user.
    const documents = await this.todos.find(openDueFilter(userKey(userId), before)).toArray();
    return documents.map((document) => toTask(document).todo).sort(byListOrder);
  }

  async search(userId: string, terms: readonly string[], plan: SearchPlan): Promise<SearchResult> {
    const user = userKey(userId);
    const filter = searchFilter(user, terms);
    // With `$text`, best match first (its score, by the index's weights), then the list's order; without, the list's order.
    const sort = '$text' in filter ? { score: { $meta: 'textScore' }, ...LIST_SORT } : LIST_SORT;
    const projection = '$text' in filter ? { ...SEARCH_PROJECTION, score: { $meta: 'textScore' } } : SEARCH_PROJECTION;
    let picked: { ids: string[]; more: number };
    if (plan.filtered) {
      picked = plan.pick((await this.todos.find(filter, { projection }).sort(sort).toArray()).map(toMatch));
    } else {
      // No filter: every match passes, so the first few are read and the others only counted.
      const first = await this.todos.find(filter, { projection }).sort(sort).limit(plan.limit).toArray();
      const ids = first.map((document) => document._id.toHexString());
      picked = { ids, more: (await this.todos.countDocuments(filter)) - ids.length };
    }
    if (picked.ids.length === 0) return { todos: [], more: picked.more };
    const documents = await this.todos.find({ userId: user, _id: { $in: picked.ids.map((id) => new ObjectId(id)) }, ...LIVE }).toArray();
    const byId = new Map(documents.map((document) => [document._id.toHexString(), toTask(document).todo]));
    return { todos: picked.ids.flatMap((id) => byId.get(id) ?? []), more: picked.more };
  }

  async history(userId: string, todoId: string, limit: number): Promise<HistoryEntry[]> {
    if (!HEX_ID.test(todoId)) return [];
    // The index sorts by seq only. One write changes each field of a task once, so the entries of any one
    // write are at most TODO_PATCH_FIELDS.length: the first `limit + length - 1` by seq hold every entry of
    // every write among the newest `limit`, which are then put in field order and cut to `limit`.
    const documents = await this.historyEntries
      .find({ userId: userKey(userId), todoId: new ObjectId(todoId) })
      .sort({ seq: -1 })
      .limit(limit + TODO_PATCH_FIELDS.length - 1)
      .toArray();
    return documents.map(toHistoryEntry).sort(byHistoryOrder).slice(0, limit);
  }

  // ----- Import and export (docs/PRODUCT.md §10.23); the import's write is TodosStoreBase.importTasks -----
  async historyOfUser(userId: string): Promise<HistoryEntry[]> {
    const documents = await this.historyEntries.find({ userId: userKey(userId) }).sort({ seq: -1 }).toArray();
    return documents.map(toHistoryEntry).sort(byHistoryOrder);
  }
  // ----- end of import and export -----

  async deleteAllForUser(userId: string): Promise<number> {
    const user = userKey(userId);
    return this.inTransaction(async (session) => {
      const count = await this.todos.countDocuments({ userId: user, ...LIVE }, { session });
      await this.todos.deleteMany({ userId: user }, { session });
      await this.lists.deleteMany({ userId: user }, { session });
      await this.events.deleteMany({ userId: user }, { session });
      await this.feeds.deleteOne({ _id: user }, { session });
      await this.undos.deleteMany({ userId: user }, { session });
      await this.idempotency.deleteMany({ userId: user }, { session });
      await this.historyEntries.deleteMany({ userId: user }, { session });
      return count;
    });
  }

  async eventsAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    const documents = await this.events.find({ userId: userKey(userId), seq: { $gt: Number(afterId) } }).sort({ seq: 1 }).limit(limit).toArray();
    return documents.map((document) => {
      const d = StoredEvent.parse(document);
      return {
        id: String(d.seq),
        origin: d.origin,
        saved: d.saved,
        removed: d.removed,
        ...(d.savedLists === undefined ? {} : { savedLists: d.savedLists }),
        ...(d.removedLists === undefined ? {} : { removedLists: d.removedLists }),
      };
    });
  }

  async feedPosition(userId: string): Promise<FeedPosition> {
    // One document: the cursor and the watermark are always read together.
    return toPosition(await this.feeds.findOne({ _id: userKey(userId) }));
  }

  protected override async purgeExpired({ restoreClosed, eventsExpired, historyExpired }: SweepCutoffs, idempotencyExpired: Date): Promise<SweepResult> {
    await this.idempotency.deleteMany({ createdAt: { $lte: idempotencyExpired } });
    const forgotten = await this.historyEntries.deleteMany({ at: { $lte: historyExpired } });
    const purged = await this.todos.deleteMany({ deletedAt: { $type: 'date', $lte: restoreClosed } });
    const purgedLists = await this.lists.deleteMany({ deletedAt: { $type: 'date', $lte: restoreClosed } });
    const undone = await this.undos.deleteMany({ createdAt: { $lte: restoreClosed } });
    // Per user, the newest number among the events past the retention (through the createdAt index).
    const expired = await this.events
      .aggregate<{ _id: UserKey; last: number }>([{ $match: { createdAt: { $lte: eventsExpired } } }, { $group: { _id: '$userId', last: { $max: '$seq' } } }])
      .toArray();
    let trimmedEvents = 0;
    for (const { _id: user, last } of expired) {
      // By number, not by time: afterwards every number of the user up to the watermark is gone and every
      // number above it kept. The watermark rises before the events go: a reader in between is told to
      // reset (safe), never handed a feed with a silent hole in it.
      await this.feeds.updateOne({ _id: user }, todoUpdates.raiseWatermark(last));
      trimmedEvents += (await this.events.deleteMany({ userId: user, seq: { $lte: last } })).deletedCount;
    }
    return { purgedTodos: purged.deletedCount, purgedLists: purgedLists.deletedCount, trimmedEvents, purgedUndoBatches: undone.deletedCount, purgedHistory: forgotten.deletedCount };
  }

  async ping(): Promise<boolean> {
    return this.connection.ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

/** A user's position as the repository answers it; a user without a feed document never wrote (or was purged). */
function toPosition(document: unknown): FeedPosition {
  const { seq, trimmedThrough } = document ? StoredFeed.parse(document) : { seq: 0, trimmedThrough: 0 };
  return { cursor: String(seq), trimmedThrough: String(trimmedThrough) };
}
