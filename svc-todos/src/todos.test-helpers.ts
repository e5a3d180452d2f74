// Test helpers (no tests here, never in the build: tsconfig.json leaves *.test-helpers.ts out): a listening
// svc-todos on a real SQLite file, and its live stream opened over real HTTP as the gateway would.
import { randomUUID } from 'node:crypto';
import { createLogger, signIdentity } from '@tm/service-kit';
import { listen, openRawEventStream, TEST_SECRET, type RawStream, type Started } from '@tm/test-support';
import { createApp, type TodosApp } from './app.js';
import { SqliteTodosStore } from './sqlite-todos.store.js';
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
  const app = createApp({ repository: store, logger: createLogger('svc-todos', 'silent'), internalSecret: TEST_SECRET, bus, events });
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
      await store.close();
    },
  };
}
