import { createServiceApp, type Logger, type ServiceApp, type ServiceAppOptions } from '@tm/service-kit';
import { Gauge, type Registry } from 'prom-client';
import { internalCalendarFeedRoutes } from './calendar-feed.routes.js';
import { CalendarFeedService } from './calendar-feed.service.js';
import { remindersRoutes } from './reminders.routes.js';
import { searchRoutes } from './search.routes.js';
import type { SavedFiltersRepository } from './saved-filters.repository.js';
import { savedFiltersRoutes } from './saved-filters.routes.js';
import type { RemindersService } from './reminders.service.js';
import { InProcessTodoEventBus, type TodoEventBus } from './todo-event-bus.js';
import { TodoEventStreams, type EventStreamOptions } from './todo-events.stream.js';
import type { TodosRepository } from './todos.repository.js';
import { internalTodosRoutes, todosRoutes } from './todos.routes.js';
import { TodosService } from './todos.service.js';
import { transferRoutes } from './transfer.routes.js';
import { TransferService } from './transfer.service.js';

export interface TodosAppDeps {
  repository: TodosRepository;
  logger: Logger;
  /** Shared with the gateway; verifies the signed identity on every request. */
  internalSecret: string;
  /** Carries "the feed moved" to the live streams of every process; in-process when not given. */
  bus?: TodoEventBus;
  /** Live stream settings (heartbeat, cap, ...); the defaults suit production. */
  events?: Partial<EventStreamOptions>;
  /** For readiness: the SQLite data folder (`dataDir`), none with MongoDB (see StorageWatch). */
  storage?: ServiceAppOptions['storage'];
  /** The reminder scheduler (docs/PRODUCT.md §10.17): told of every commit; none, no reminder calls. */
  reminders?: RemindersService;
  /** Saved filters (docs/PRODUCT.md §10.20): their calls, and their share of an account's purge; none, no such calls. */
  savedFilters?: SavedFiltersRepository;
}

export interface TodosApp extends ServiceApp {
  /** The open live streams (their count, for tests and metrics). */
  streams: TodoEventStreams;
}

/**
 * The svc-todos Koa app (not listening): the kit's middleware stack around the task routes, the live
 * stream and the gateway-only purge. Every committed write is announced on the bus; `drain` (called when
 * shutdown starts) also ends every open stream, so its page reconnects to another instance at once.
 */
export function createApp({ repository, logger, internalSecret, bus = new InProcessTodoEventBus(), events, storage, reminders, savedFilters }: TodosAppDeps): TodosApp {
  const service = new TodosService(repository);
  const streams = new TodoEventStreams(service, bus, logger, events);
  repository.onCommit((notice) => bus.publish(notice));
  repository.onCommit(({ userId }) => void reminders?.catchUp(userId).catch((error: unknown) => logger.warn({ err: error, userId }, 'reminders: planning a write failed; retried at the next write or read')));
  const { app, drain, registry } = createServiceApp({
    name: 'svc-todos',
    logger,
    internalSecret,
    ready: () => repository.ping(),
    storage,
    routes: [todosRoutes(service, streams), transferRoutes(new TransferService(repository, service)), internalTodosRoutes(service, savedFilters), internalCalendarFeedRoutes(new CalendarFeedService(repository)), searchRoutes(repository), ...(reminders ? [remindersRoutes(reminders)] : []), ...(savedFilters ? [savedFiltersRoutes(savedFilters)] : [])],
  });
  streamGauges(registry, streams);
  return {
    app,
    registry,
    streams,
    drain: () => {
      drain();
      streams.closeAll();
    },
  };
}

/**
 * The open live streams against their cap (`TODO_EVENTS_MAX_STREAMS`), for the saturation alert
 * (deploy/prometheus/alerts.yml, docs/OPERATIONS.md): past the cap new streams are refused with 503.
 */
function streamGauges(registry: Registry, streams: TodoEventStreams): void {
  new Gauge({
    name: 'todo_live_streams',
    help: 'Live task streams (GET /todo/events) open in this process',
    registers: [registry],
    collect() {
      this.set(streams.size);
    },
  });
  new Gauge({
    name: 'todo_live_streams_max',
    help: 'Live task streams this process holds at most (TODO_EVENTS_MAX_STREAMS); more are refused with 503',
    registers: [registry],
    collect() {
      this.set(streams.maxStreams);
    },
  });
}
