import path from 'node:path';
import { createLogger, runMain, runServer, SERVICE_PORTS, startTracing, StartupWatch, startupBounds, traceMethods, withSpan } from '@tm/service-kit';
import { createApp } from './app.js';
import { loadTodosConfig } from './config.js';
import { openReminders } from './open-reminders.js';
import { openSavedFiltersStore } from './open-saved-filters.store.js';
import { openTodosStore } from './open-todos.store.js';
import { SQLITE_FILE } from './sqlite-todos.store.js';
import { createTodoEventBus } from './todo-event-bus.js';
import type { TodosRepository } from './todos.repository.js';

/** The store calls a request makes, each a span `store.<call>` when tracing is on (sweep, ping and close are not a request's). */
const TRACED_STORE_CALLS = [
  'list',
  'listJson',
  'openDueBefore',
  'listsOf',
  'search',
  'create',
  'update',
  'remove',
  'restore',
  'setAllCompleted',
  'clearCompleted',
  'restoreBulk',
  'undoBulk',
  'createList',
  'updateList',
  'removeList',
  'deleteAllForUser',
  'eventsAfter',
  'feedPosition',
] as const satisfies readonly (keyof TodosRepository)[];

/**
 * A write under an `Idempotency-Key` (`applyOnce`) as the span of its own call (`store.create`…), the same
 * span as that write without a key (docs/OPERATIONS.md "Traces").
 */
function traceKeyedWrites(repository: TodosRepository, attributes: Record<string, string>): TodosRepository {
  const applyOnce: TodosRepository['applyOnce'] = (userId, origin, write, request, answer) =>
    withSpan(`store.${write.call}`, () => repository.applyOnce(userId, origin, write, request, answer), { attributes });
  return new Proxy(repository, { get: (object, key, receiver): unknown => (key === 'applyOnce' ? applyOnce : Reflect.get(object, key, receiver)) });
}

runMain('svc-todos', async () => {
  const config = loadTodosConfig();
  const logger = createLogger('svc-todos', config.LOG_LEVEL);
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; else nothing is started (docs/OPERATIONS.md "Traces").
  startTracing('svc-todos', logger);
  // Never log MONGO_URL or REDIS_URL themselves: they may carry credentials.
  logger.info({ store: config.MONGO_URL ? 'mongodb' : 'sqlite', bus: config.REDIS_URL ? 'redis' : 'in-process' }, 'opening store');
  // Opening the store and binding the port each have a bound; past it, one line says what was waited on.
  const startup = new StartupWatch({ name: 'svc-todos', logger, bounds: startupBounds(config) });
  const waitingOn = config.MONGO_URL ? 'MongoDB (MONGO_URL: connecting, selecting a server)' : `the SQLite file ${path.resolve(config.DATA_DIR, SQLITE_FILE)}`;
  const store = await startup.openStore(waitingOn, (opening) =>
    openTodosStore({
      dataDir: config.DATA_DIR,
      mongoUrl: config.MONGO_URL,
      mongoDb: config.MONGO_DB,
      restoreWindowMs: config.TODO_RESTORE_WINDOW_MS,
      eventRetentionMs: config.TODO_EVENTS_RETENTION_MS,
      opening,
    }),
  );
  const storeAttributes = { 'db.system.name': config.MONGO_URL ? 'mongodb' : 'sqlite' };
  const repository = traceKeyedWrites(traceMethods(store, 'store', TRACED_STORE_CALLS, storeAttributes), storeAttributes);
  const bus = createTodoEventBus(config.REDIS_URL, logger);
  const sweep = () => {
    repository.sweep().then(
      (result) => {
        if (result.purgedTodos > 0 || result.trimmedEvents > 0) logger.debug(result, 'swept deleted tasks and old events');
      },
      (error: unknown) => logger.warn({ err: error }, 'sweep failed; retried on the next tick'),
    );
  };
  sweep();
  const sweeper = setInterval(sweep, config.TODO_SWEEP_INTERVAL_MS);
  sweeper.unref();
  // Reminders (docs/PRODUCT.md §10.17): the schedule lives beside the tasks (reminders.sqlite, or the MongoDB
  // database every host shares). With REDIS_URL the hosts wake it through one BullMQ queue named by the
  // schedule's id, else each runs the timer: either way the store's atomic claim lets one process send each.
  const reminders = await openReminders({ settings: config, todos: repository, logger });
  const savedFilters = await openSavedFiltersStore({ dataDir: config.DATA_DIR, mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB });
  logger.info({ scheduler: reminders.kind, store: config.MONGO_URL ? 'mongodb' : 'sqlite' }, 'reminders');
  const { app, drain } = createApp({
    repository,
    logger,
    internalSecret: config.INTERNAL_SECRET,
    bus,
    events: { heartbeatMs: config.TODO_EVENTS_HEARTBEAT_MS, maxStreams: config.TODO_EVENTS_MAX_STREAMS },
    // Readiness watches the free space of the SQLite data folder; MongoDB's disk is the server's.
    storage: { dataDir: config.MONGO_URL ? undefined : config.DATA_DIR },
    reminders: reminders.service,
    savedFilters,
  });
  const close = async () => {
    clearInterval(sweeper);
    await reminders.close();
    await savedFilters.close();
    await bus.close();
    await repository.close();
  };
  await runServer({ app, port: config.PORT, host: config.HOST, logger, close, onDrain: drain, drainMs: config.SHUTDOWN_DRAIN_MS, startup, portVariable: SERVICE_PORTS.todos.variable });
});
