// Test helpers (no tests here, never in the build: tsconfig.json leaves *.test-helpers.ts out): a listening
// svc-todos on a real SQLite file, and its live stream opened over real HTTP as the gateway would.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ObjectId } from 'bson';
import type { Todo } from '@tm/contracts';
import { createLogger, signIdentity } from '@tm/service-kit';
import { listen, openRawEventStream, TEST_SECRET, type RawStream, type Started } from '@tm/test-support';
import { createApp, type TodosApp } from './app.js';
import { SqliteSavedFiltersStore } from './sqlite-saved-filters.store.js';
import { SQLITE_FILE, SqliteTodosStore } from './sqlite-todos.store.js';
import { InProcessTodoEventBus, type TodoEventBus } from './todo-event-bus.js';
import type { EventStreamOptions } from './todo-events.stream.js';

export type { RawStream as EventStreamClient, SseFrame } from '@tm/test-support';

export interface OpenStreamOptions {
  userId: string;
  /** Query string, e.g. `?after=12`. */
  query?: string;
  lastEventId?: string;
  headers?: Record<string, string>;
}

export function openEventStream(baseUrl: string, options: OpenStreamOptions): Promise<RawStream> {
  const path = `/todo/events${options.query ?? ''}`;
  const requestId = randomUUID();
  return openRawEventStream(baseUrl + path, {
    'x-request-id': requestId,
    ...signIdentity(TEST_SECRET, { method: 'GET', url: path, userId: options.userId, requestId }),
    ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
    ...options.headers,
  });
}

export interface TestServiceOptions<B extends TodoEventBus> {
  /** Folder of the SQLite file; several services on one folder are the processes of one deployment. */
  dataDir: string;
  /** The store's clock (a test may run it ahead of the real one). */
  now?: () => Date;
  /** In-process by default. */
  bus?: B;
  events?: Partial<EventStreamOptions>;
}

/** A running svc-todos as a test sees it: its own store connection on `dataDir`, its own bus. */
export interface TestService<B extends TodoEventBus = TodoEventBus> {
  url: string;
  app: TodosApp;
  store: SqliteTodosStore;
  bus: B;
  server: Started;
  /** Closes the server, the bus and the store (the data folder stays). */
  stop: () => Promise<void>;
}

/** Starts the service as server.ts wires it, over real HTTP on an ephemeral port, logging nothing. */
export async function startTestService<B extends TodoEventBus = TodoEventBus>(options: TestServiceOptions<B>): Promise<TestService<B>> {
  const { dataDir, now, events } = options;
  const bus = options.bus ?? (new InProcessTodoEventBus() as TodoEventBus as B);
  const store = SqliteTodosStore.open({ dataDir, now });
  const savedFilters = SqliteSavedFiltersStore.open({ dataDir });
  const app = createApp({ repository: store, logger: createLogger('svc-todos', 'silent'), internalSecret: TEST_SECRET, bus, events, savedFilters });
  const server = await listen(app.app);
  return {
    url: server.url,
    app,
    store,
    bus,
    server,
    stop: async () => {
      await server.close();
      await bus.close();
      await savedFilters.close();
      await store.close();
    },
  };
}

/** One change event of a file from before per-user numbers: the global id it had, and the task it added. */
export interface GlobalFeedEvent {
  id: number;
  userId: string;
  title: string;
}

export interface GlobalFeedFile {
  /** The kept events (ids may skip: other events were trimmed, or purged with their user's account). */
  events: GlobalFeedEvent[];
  /** The global watermark: the highest id trimmed for age. */
  trimmedThrough: number;
  /** The global AUTOINCREMENT position (`sqlite_sequence`): the highest id ever handed out. */
  sequence: number;
}

/**
 * Writes `<dataDir>/todos.sqlite` as svc-todos wrote it before per-user event numbers: one
 * global AUTOINCREMENT id for every user's events and one global watermark. Each event adds one task, which
 * is in `todos` too (and, as then, neither has a completion time). Resolves the tasks by event id, as the
 * store reads them now.
 */
export function writeGlobalFeedFile(dataDir: string, { events, trimmedThrough, sequence }: GlobalFeedFile): Map<number, Todo> {
  const db = new Database(path.join(dataDir, SQLITE_FILE));
  const todos = new Map<number, Todo>();
  try {
    db.exec(`
      CREATE TABLE todos (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, title TEXT NOT NULL,
        completed INTEGER NOT NULL CHECK (completed IN (0, 1)), is_pinned INTEGER NOT NULL CHECK (is_pinned IN (0, 1)),
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER
      ) STRICT;
      CREATE TABLE todo_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, origin TEXT, saved TEXT NOT NULL,
        removed TEXT NOT NULL, created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX todo_events_user_id ON todo_events (user_id, id);
      CREATE INDEX todo_events_created ON todo_events (created_at);
      CREATE TABLE todo_feed (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
      CREATE INDEX todos_user_pinned_created ON todos (user_id, is_pinned, created_at, id);
      CREATE INDEX todos_deleted_at ON todos (deleted_at) WHERE deleted_at IS NOT NULL;
    `);
    const insertTodo = db.prepare('INSERT INTO todos VALUES (?, ?, ?, 0, 0, ?, ?, NULL)');
    const insertEvent = db.prepare("INSERT INTO todo_events (id, user_id, origin, saved, removed, created_at) VALUES (?, ?, NULL, ?, '[]', ?)");
    db.transaction(() => {
      for (const { id, userId, title } of events) {
        const createdAt = Date.now() - 60_000 + id;
        // As that version wrote it: no completedAt, in the row or in the event.
        const { completedAt: _none, ...legacy }: Todo = {
          _id: new ObjectId().toHexString(),
          title,
          completed: false,
          isPinned: false,
          createdAt: new Date(createdAt).toISOString(),
          updatedAt: new Date(createdAt).toISOString(),
          completedAt: null,
        };
        insertTodo.run(legacy._id, userId, title, createdAt, createdAt);
        insertEvent.run(id, userId, JSON.stringify([legacy]), createdAt);
        // What the store answers for it now: an active task, so no completion time.
        todos.set(id, { ...legacy, completedAt: null });
      }
      db.prepare("INSERT INTO todo_feed (key, value) VALUES ('trimmed_through', ?)").run(trimmedThrough);
      // sqlite_sequence has no key: its one row for the table (there once an id was handed out) is updated.
      if (db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'todo_events'").run(sequence).changes === 0) {
        db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('todo_events', ?)").run(sequence);
      }
    })();
  } finally {
    db.close();
  }
  return todos;
}
