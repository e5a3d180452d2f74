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
  /**
   * Live streams one process holds at most; more are answered 503 (another instance takes them). Sized by
   * measurement (docs/CAPACITY.md "Open streams, measured"; `node perf/capacity/streams.mjs`, figures in
   * perf/capacity/streams.json): an idle stream costs svc-todos about 26 KiB of resident memory (22 KiB of it V8
   * heap) and 7 ms of CPU a second per 1 000 (a ping and a read of the user's feed every heartbeat). Memory
   * binds first: half of the pod's 384 MiB (deploy/k8s/svc-todos.yaml) for streams is ~7 500 of them; the CPU
   * budget (a quarter of a core) would allow ~37 000. Keep TodoEventStreams' own default equal.
   */
  TODO_EVENTS_MAX_STREAMS: z.coerce.number().int().positive().default(7_000),
});

export type TodosConfig = ServiceConfig & z.infer<typeof TodosEnv>;

/** svc-todos' environment (listens on `TODOS_PORT`, default 4002); see {@link loadServiceConfig}. */
export function loadTodosConfig(env: NodeJS.ProcessEnv = process.env): TodosConfig {
  return { ...loadServiceConfig(SERVICE_PORTS.todos, env), ...loadConfig(TodosEnv, env) };
}
