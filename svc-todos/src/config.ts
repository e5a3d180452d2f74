import { loadConfig, loadServiceConfig, optionalText, SERVICE_PORTS, type ServiceConfig } from '@tm/service-kit';
import { z } from 'zod';

const milliseconds = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const HOUR_MS = 60 * 60_000;

/** svc-todos' own variables, beyond every service's (TODOS_PORT, DATA_DIR, MONGO_URL, ...). */
const TodosEnv = z.object({
  /** When set, change notices travel over Redis pub/sub, so streams on every instance get every write. */
  REDIS_URL: optionalText.pipe(z.url().optional()),
  /** How long a deleted task can be restored (docs/PRODUCT.md §10.11.4); after that it is removed for good. */
  TODO_RESTORE_WINDOW_MS: milliseconds(60_000, 1_000, 24 * HOUR_MS),
  /** How long change events are kept for streams that resume (docs/PRODUCT.md §10.11.5: 10 minutes). */
  TODO_EVENTS_RETENTION_MS: milliseconds(10 * 60_000, 10_000, 24 * HOUR_MS),
  /** How often expired deleted tasks and old events are removed. */
  TODO_SWEEP_INTERVAL_MS: milliseconds(30_000, 1_000, HOUR_MS),
  /** `: ping` comment interval on live streams. */
  TODO_EVENTS_HEARTBEAT_MS: milliseconds(15_000, 1_000, 5 * 60_000),
  /** Live streams one process holds at most; more are answered 503. */
  TODO_EVENTS_MAX_STREAMS: z.coerce.number().int().positive().default(2_000),
});

export type TodosConfig = ServiceConfig & z.infer<typeof TodosEnv>;

/** svc-todos' environment (listens on `TODOS_PORT`, default 4002); see {@link loadServiceConfig}. */
export function loadTodosConfig(env: NodeJS.ProcessEnv = process.env): TodosConfig {
  return { ...loadServiceConfig(SERVICE_PORTS.todos, env), ...loadConfig(TodosEnv, env) };
}
