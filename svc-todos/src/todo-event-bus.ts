import { EventEmitter } from 'node:events';
import type { Logger } from '@tm/service-kit';
import { createClient } from 'redis';
import { z } from 'zod';
import type { ChangeNotice } from './todos.repository.js';

/**
 * Wakes a stream: `notice` says which event committed; `null` means "something may have been missed, look
 * again" (the bus reconnected). Listeners only ever re-read the feed, so a duplicate or late wake is harmless.
 */
export type WakeListener = (notice: ChangeNotice | null) => void;

/**
 * Tells the live streams of a user, in this process and every other svc-todos process, that the user's
 * change feed moved (docs/PRODUCT.md §10.11.5). Notifications are hints: the events themselves are read
 * from the store, in id order, so a lost or reordered notification delays a change, never loses it.
 */
export interface TodoEventBus {
  /** Publishes after a commit. Never throws and never waits: the write has already succeeded. */
  publish(notice: ChangeNotice): void;
  /**
   * Listens for `userId`'s notices; resolves, with the unsubscribe, once the subscription is active (or,
   * when the bus is down, after a short wait: the stream's heartbeat then catches up).
   */
  subscribe(userId: string, listener: WakeListener): Promise<() => void>;
  close(): Promise<void>;
}

/** The bus of a single process (no REDIS_URL): an EventEmitter keyed by user id. */
export class InProcessTodoEventBus implements TodoEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open stream of a user; the stream cap, not this warning, bounds them.
    this.emitter.setMaxListeners(0);
  }

  publish(notice: ChangeNotice): void {
    this.emitter.emit(notice.userId, notice);
  }

  async subscribe(userId: string, listener: WakeListener): Promise<() => void> {
    this.emitter.on(userId, listener);
    return () => {
      this.emitter.off(userId, listener);
    };
  }

  /** How many listeners `userId` has (streams open in this process). */
  listenerCount(userId: string): number {
    return this.emitter.listenerCount(userId);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** Redis channel of one user's notices. */
const TODO_EVENTS_CHANNEL_PREFIX = 'tm:todo-events:';
export const todoEventsChannel = (userId: string): string => TODO_EVENTS_CHANNEL_PREFIX + userId;

const Notice = z.object({ userId: z.string().min(1), id: z.string().regex(/^\d{1,16}$/) });

type RedisClient = ReturnType<typeof createClient>;

export interface RedisTodoEventBusOptions {
  url: string;
  logger: Logger;
  /** How long `subscribe` waits for Redis to confirm before the stream starts anyway. */
  subscribeWaitMs?: number;
}

interface Channel {
  listeners: Set<WakeListener>;
  subscribed: Promise<void>;
}

/**
 * Notices over Redis pub/sub, so a write on one svc-todos process reaches streams on every other. Two
 * connections per process: one publishes, one subscribes (a subscribed connection can do nothing else).
 * Subscriptions are counted per user: the first stream of a user subscribes its channel, the last one to
 * close unsubscribes it. Both connections reconnect by themselves; after a reconnect every channel is
 * subscribed again and every stream is woken to catch up on what it may have missed meanwhile. A publish
 * that fails (Redis down) is logged and dropped: the write has committed, and the streams catch up on their
 * next notice or heartbeat. Notices are also delivered in-process at once, Redis or not.
 */
export class RedisTodoEventBus implements TodoEventBus {
  private readonly channels = new Map<string, Channel>();
  private readonly publisher: RedisClient;
  private readonly subscriber: RedisClient;
  private readonly logger: Logger;
  private readonly subscribeWaitMs: number;
  private publishFailing = false;
  private closed = false;
  /** Settles once both connections are up for the first time (or failed for good). */
  readonly connected: Promise<void>;

  constructor({ url, logger, subscribeWaitMs = 1_000 }: RedisTodoEventBusOptions) {
    this.logger = logger;
    this.subscribeWaitMs = subscribeWaitMs;
    const socket = { connectTimeout: 5_000, reconnectStrategy: (retries: number) => Math.min(retries * 100, 2_000) };
    // Publishing while disconnected fails at once instead of queueing: a notice that late is worthless.
    this.publisher = createClient({ url, disableOfflineQueue: true, socket });
    this.subscriber = createClient({ url, socket });
    for (const [name, client] of [['publisher', this.publisher], ['subscriber', this.subscriber]] as const) {
      let down = false;
      // Without an error listener a connection error would crash the process; log each outage once.
      client.on('error', (error: unknown) => {
        if (down || this.closed) return;
        down = true;
        this.logger.warn({ err: error, connection: name }, 'todo event bus: no Redis connection, retrying');
      });
      client.on('ready', () => {
        if (down) this.logger.info({ connection: name }, 'todo event bus: Redis connection back');
        down = false;
      });
    }
    this.subscriber.on('ready', () => this.resubscribe());
    this.connected = Promise.all([this.publisher.connect(), this.subscriber.connect()]).then(
      () => undefined,
      (error: unknown) => {
        this.logger.error({ err: error }, 'todo event bus: cannot connect to Redis');
      },
    );
  }

  private readonly onMessage = (message: string): void => {
    let notice: ChangeNotice;
    try {
      notice = Notice.parse(JSON.parse(message));
    } catch {
      this.logger.warn('todo event bus: ignored a malformed notice');
      return;
    }
    this.deliver(notice.userId, notice);
  };

  private deliver(userId: string, notice: ChangeNotice | null): void {
    for (const listener of this.channels.get(userId)?.listeners ?? []) listener(notice);
  }

  /** (Re)connected: make sure every wanted channel is subscribed, then let every stream catch up. */
  private resubscribe(): void {
    for (const [userId, channel] of this.channels) {
      // Idempotent: a channel the client already re-subscribed by itself only gets its listener re-added.
      channel.subscribed = this.subscribeChannel(userId);
      this.deliver(userId, null);
    }
  }

  private subscribeChannel(userId: string): Promise<void> {
    return this.subscriber.subscribe(todoEventsChannel(userId), this.onMessage).catch((error: unknown) => {
      if (!this.closed) this.logger.warn({ err: error }, 'todo event bus: subscribe failed; retried on reconnect');
    });
  }

  /** How many local listeners `userId` has; the channel is subscribed exactly while this is above 0. */
  listenerCount(userId: string): number {
    return this.channels.get(userId)?.listeners.size ?? 0;
  }

  publish(notice: ChangeNotice): void {
    this.deliver(notice.userId, notice);
    if (this.closed) return;
    this.publisher.publish(todoEventsChannel(notice.userId), JSON.stringify(notice)).then(
      () => {
        if (this.publishFailing) this.logger.info('todo event bus: publishing again');
        this.publishFailing = false;
      },
      (error: unknown) => {
        // Logged once per outage: the write committed; streams elsewhere catch up on their heartbeat.
        if (!this.publishFailing) this.logger.warn({ err: error }, 'todo event bus: publish failed; streams will catch up');
        this.publishFailing = true;
      },
    );
  }

  async subscribe(userId: string, listener: WakeListener): Promise<() => void> {
    let channel = this.channels.get(userId);
    if (!channel) {
      channel = { listeners: new Set(), subscribed: this.subscribeChannel(userId) };
      this.channels.set(userId, channel);
    }
    channel.listeners.add(listener);
    const current = channel;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      current.subscribed,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.subscribeWaitMs);
      }),
    ]);
    clearTimeout(timer);
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.channels.get(userId) !== current) return;
      this.channels.delete(userId);
      if (this.closed) return;
      this.subscriber.unsubscribe(todoEventsChannel(userId), this.onMessage).catch((error: unknown) => {
        if (!this.closed) this.logger.warn({ err: error }, 'todo event bus: unsubscribe failed');
      });
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.channels.clear();
    // Nothing here is worth waiting for (notices are hints), and a Redis that is down would never answer.
    for (const client of [this.publisher, this.subscriber]) {
      if (client.isOpen) client.destroy();
    }
  }
}

/** The bus the configuration asks for: Redis pub/sub when `redisUrl` is set, else in-process. */
export function createTodoEventBus(redisUrl: string | undefined, logger: Logger): TodoEventBus {
  return redisUrl ? new RedisTodoEventBus({ url: redisUrl, logger }) : new InProcessTodoEventBus();
}
