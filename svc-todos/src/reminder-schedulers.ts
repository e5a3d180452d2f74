import type { Logger } from '@tm/service-kit';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { ReminderRow } from './reminders.domain.js';
import type { ReminderScheduler, RemindersService } from './reminders.service.js';
import type { RemindersRepository } from './reminders.repository.js';

// When reminders are attempted (docs/ARCHITECTURE.md "Reminders"). The store is the schedule and its claim the
// deduplication; a scheduler only wakes the deliveries at the right time. Two, behind one interface:
// - embedded (the default): a timer in this process over the store, every `tickMs`;
// - BullMQ (REDIS_URL, several replicas): one delayed job per attempt on the Redis the app already uses, its
//   job id the reminder's key and time, so replicas adding the same attempt make one job; the timer still runs,
//   slowly, as a safety net for a job lost with Redis.

export interface TimerSchedulerOptions {
  /** How often due reminders are looked for (the lateness bound of the embedded scheduler). */
  tickMs?: number;
  logger?: Logger;
}

/** The embedded scheduler: a timer that attempts whatever is due (the claim holds each for one process). */
export class TimerReminderScheduler implements ReminderScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly service: RemindersService,
    private readonly options: TimerSchedulerOptions = {},
  ) {}

  start(): this {
    const { tickMs = 1_000, logger } = this.options;
    const tick = () => {
      this.running = this.drain().catch((error: unknown) => logger?.warn({ err: error }, 'reminders: delivery round failed; retried on the next tick'));
    };
    this.timer = setInterval(tick, tickMs);
    this.timer.unref();
    tick();
    return this;
  }

  /** Attempts due reminders until none is left (a burst larger than one claim). */
  private async drain(): Promise<void> {
    while (!this.closed && (await this.service.deliverDue()) > 0);
  }

  async schedule(): Promise<void> {
    // Every pending reminder is in the store, which each tick reads: nothing to remember here.
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }
}

export interface BullmqSchedulerOptions {
  /** ioredis connection options (host, port, password…), from REDIS_URL. */
  connection: ConnectionOptions;
  /** Key prefix in Redis (tests use one of their own). */
  prefix?: string;
  queueName?: string;
  /** Jobs this process runs at once. */
  concurrency?: number;
  logger?: Logger;
}

/** The job id of one attempt: the reminder's key and the attempt's time (BullMQ refuses `:` in ids). */
export const attemptJobId = (row: Pick<ReminderRow, 'key' | 'nextAttemptAt'>): string => `${row.key}@${row.nextAttemptAt.getTime()}`.replaceAll(':', '');

/** ioredis options from a redis:// or rediss:// URL. */
export function connectionOf(url: string): ConnectionOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.pathname.length > 1 ? { db: Number(parsed.pathname.slice(1)) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    // A worker's blocking connection must wait for Redis as long as it takes (BullMQ's requirement).
    maxRetriesPerRequest: null,
  };
}

/**
 * Reminders as BullMQ delayed jobs: `schedule` adds one job per attempt, delayed to its time; a worker on any
 * replica runs it by claiming the reminder in the store (a job for a reminder moved, removed or already sent
 * claims nothing). Jobs live in Redis, so a restart loses none; `start` adds again the jobs of every pending
 * reminder (the same ids: nothing doubles) for reminders planned while Redis was unreachable.
 */
export class BullmqReminderScheduler implements ReminderScheduler {
  private readonly queue: Queue;
  private worker: Worker | undefined;

  constructor(
    private readonly service: RemindersService,
    private readonly store: Pick<RemindersRepository, 'pending'>,
    private readonly options: BullmqSchedulerOptions,
  ) {
    const { connection, prefix = 'tm:bull', queueName = 'reminders' } = options;
    this.queue = new Queue(queueName, { connection, prefix });
    this.queue.on('error', (error) => options.logger?.warn({ err: error }, 'reminders: BullMQ queue error'));
  }

  async start(): Promise<this> {
    const { connection, prefix = 'tm:bull', queueName = 'reminders', concurrency = 20, logger } = this.options;
    this.worker = new Worker<{ key: string }>(
      queueName,
      async (job) => {
        await this.service.deliverOne(job.data.key);
      },
      { connection, prefix, concurrency },
    );
    this.worker.on('error', (error) => logger?.warn({ err: error }, 'reminders: BullMQ worker error'));
    this.worker.on('failed', (job, error) => logger?.warn({ err: error, job: job?.id }, 'reminders: delivery job failed; BullMQ retries it'));
    let after = '';
    for (;;) {
      const rows = await this.store.pending(after, 500);
      await this.schedule(rows);
      const last = rows.at(-1);
      if (rows.length < 500 || !last) break;
      after = last.key;
    }
    return this;
  }

  async schedule(rows: Pick<ReminderRow, 'key' | 'nextAttemptAt'>[]): Promise<void> {
    const now = Date.now();
    await this.queue.addBulk(
      rows.map((row) => ({
        name: 'remind',
        data: { key: row.key },
        opts: {
          jobId: attemptJobId(row),
          delay: Math.max(0, row.nextAttemptAt.getTime() - now),
          attempts: 5,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { age: 24 * 60 * 60 },
          removeOnFail: { age: 7 * 24 * 60 * 60 },
        },
      })),
    );
  }

  /** The queue, for tests and operators (counts, cleaning a test's prefix). */
  get jobs(): Queue {
    return this.queue;
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
