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
  /**
   * The VAPID key pair reminders are pushed with (docs/PRODUCT.md §10.17, SECURITY.md "Reminders"): URL-safe
   * base64, the public key 65 bytes uncompressed P-256, the private key 32 bytes. In production from the
   * environment only (without them no push is sent: reminders show in open pages); elsewhere generated once
   * into DATA_DIR/vapid.json. `VAPID_SUBJECT`: how a push service reaches the operator.
   */
  VAPID_PUBLIC_KEY: optionalText.pipe(z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be a URL-safe base64 P-256 public key (87 characters)').optional()),
  VAPID_PRIVATE_KEY: optionalText.pipe(z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a URL-safe base64 P-256 private key (43 characters)').optional()),
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https: address').default('mailto:reminders@task-manager.invalid'),
  /**
   * Where reminders wait for their time: `embedded` (a timer over the schedule's store in this process) or `bullmq`
   * (BullMQ delayed jobs on REDIS_URL, shared by every replica). Default: bullmq when REDIS_URL is set.
   */
  REMINDER_SCHEDULER: z.enum(['embedded', 'bullmq']).optional(),
});

export type TodosConfig = ServiceConfig & z.infer<typeof TodosEnv>;

/** svc-todos' environment (listens on `TODOS_PORT`, default 4002); see {@link loadServiceConfig}. */
export function loadTodosConfig(env: NodeJS.ProcessEnv = process.env): TodosConfig {
  const config = { ...loadServiceConfig(SERVICE_PORTS.todos, env), ...loadConfig(TodosEnv, env) };
  if (config.REMINDER_SCHEDULER === 'bullmq' && !config.REDIS_URL) throw new Error('Invalid configuration:\n  REMINDER_SCHEDULER: bullmq needs REDIS_URL');
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) throw new Error('Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
  return config;
}
