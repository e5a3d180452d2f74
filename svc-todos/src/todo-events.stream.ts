import { PassThrough } from 'node:stream';
import { ErrorCode, type StreamPosition, type TodoChangeEvent } from '@tm/contracts';
import { ServiceUnavailableError, untraced, type Logger } from '@tm/service-kit';
import type { Context } from 'koa';
import type { TodoEventBus } from './todo-event-bus.js';
import type { ChangeNotice } from './todos.repository.js';
import type { TodosService } from './todos.service.js';

export interface EventStreamOptions {
  /** A `: ping` comment this often keeps proxies from closing an idle stream; each also catches up. */
  heartbeatMs: number;
  /** The `retry:` the stream asks browsers to wait before reconnecting. */
  retryMs: number;
  /** Open streams this process holds at most; more are answered 503 (another instance takes them). */
  maxStreams: number;
  /** Events read from the store per query: at most this many are held in memory per stream at once. */
  pageSize: number;
  /**
   * A client that takes nothing of what waits for it this long is cut off (it resumes from its last event
   * when it reconnects): the stream writes only what the connection takes, so a stuck client holds one
   * page, never its whole backlog.
   */
  stallMs: number;
}

const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = {
  heartbeatMs: 15_000,
  retryMs: 2_000,
  // TODO_EVENTS_MAX_STREAMS's default (config.ts), measured: docs/CAPACITY.md "Open streams, measured".
  maxStreams: 7_000,
  pageSize: 50,
  stallMs: 30_000,
};

const STREAM_MESSAGES = {
  tooMany: 'Too many live streams on this server, please try again',
  draining: 'This server is restarting, please reconnect',
} as const;

/** One Server-Sent Events message (an event with an id and JSON data; JSON has no raw line breaks). */
function message(event: 'change' | 'ready' | 'reset', id: string, data: TodoChangeEvent | StreamPosition): string {
  return `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

const big = (id: string): bigint => BigInt(id);

/**
 * One user's live stream (docs/PRODUCT.md §10.11.5). `position` is the number up to which every change of
 * the user has been written to the client; numbers, cursor and reset watermark are all the user's own
 * (per-user sequence), so nothing the stream sends moves with another user's writes. Every wake-up (a bus
 * notice, the heartbeat, a reconnect of the bus) reads the feed after `position` and writes what it finds,
 * one read at a time: the changes go out in id order, without gaps or repeats, however the notices arrive.
 *
 * A resume replays what the client missed, however much that is, before `ready`: a page of events at a
 * time, each written only as fast as the connection takes it (the next one waits for 'drain'), so a
 * backlog of any size streams through with bounded memory instead of being refused.
 */
class TodoEventStream {
  readonly body = new PassThrough();
  private position = 0n;
  /** The feed's position when the stream started: `ready` never stands before it. */
  private startedAt = 0n;
  private reading = false;
  private again = false;
  private started = false;
  private readySent = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Set while a write waits for the connection to take what came before it; ends that wait. */
  private waiting: (() => void) | undefined;

  constructor(
    private readonly userId: string,
    private readonly service: TodosService,
    private readonly bus: TodoEventBus,
    private readonly options: EventStreamOptions,
    private readonly logger: Logger,
    /** Cuts the connection at once (a stuck client: ending the body would wait for it forever). */
    private readonly cutOff: () => void,
    private readonly onClosed: (stream: TodoEventStream) => void,
  ) {
    // Koa destroys the body when the response closes (the client went away): that ends everything here.
    this.body.once('close', () => this.dispose());
  }

  /**
   * Subscribes, then reads where to start: before anything is written, so a failing store still gets a
   * proper JSON error. Notices arriving meanwhile are kept and served right after. Without a resume point,
   * or with one the feed no longer holds (`reset`), the stream is `ready` at once; a resume replays the
   * missed changes first (see {@link pump}), then says `ready`.
   */
  async start(resumeAfter: string | null): Promise<void> {
    const unsubscribe = await this.bus.subscribe(this.userId, (notice) => this.wake(notice));
    if (this.closed) {
      unsubscribe();
      return;
    }
    this.unsubscribe = unsubscribe;
    const out: string[] = [`retry: ${this.options.retryMs}\n\n`];
    // Read the feed's position before the events: every change up to it is then among those read.
    const feed = await this.service.feedPosition(this.userId);
    this.startedAt = big(feed.cursor);
    if (resumeAfter === null) {
      this.position = big(feed.cursor);
    } else if (big(resumeAfter) < big(feed.trimmedThrough) || big(resumeAfter) > big(feed.cursor)) {
      out.push(this.reset(feed.cursor));
    } else {
      this.position = big(resumeAfter);
      this.again = true;
    }
    if (!this.again) out.push(this.ready());
    if (this.closed) return;
    this.body.write(out.join(''));
    this.started = true;
    this.heartbeat = setInterval(() => {
      // A client still taking a replay needs no ping (and gets nothing more to hold meanwhile).
      if (!this.body.writableNeedDrain) this.body.write(': ping\n\n');
      this.wake(null);
    }, this.options.heartbeatMs);
    if (this.again) this.wake(null);
  }

  /** Starts over from the feed's current position: the client reloads the list (the gap is too old). */
  private reset(cursor: string): string {
    this.position = big(cursor);
    return message('reset', cursor, { cursor });
  }

  /** `ready` at the stream's position (never before where the feed stood when the stream started). */
  private ready(): string {
    if (this.position < this.startedAt) this.position = this.startedAt;
    this.readySent = true;
    const cursor = String(this.position);
    return message('ready', cursor, { cursor });
  }

  /**
   * Writes the changes after `position`, a page at a time, advancing `position` with each one written.
   * A page is dropped for a `reset` when some of its events may already have been trimmed: the watermark
   * is read after the page, so a trim racing the read is seen.
   */
  private async sendChanges(): Promise<void> {
    for (;;) {
      const from = this.position;
      const events = await this.service.changesAfter(this.userId, String(from), this.options.pageSize);
      const feed = await this.service.feedPosition(this.userId);
      if (this.closed) return;
      if (from < big(feed.trimmedThrough)) {
        await this.write(this.reset(feed.cursor));
        continue;
      }
      for (const event of events) {
        if (this.closed) return;
        this.position = big(event.id);
        await this.write(message('change', event.id, event));
      }
      if (events.length < this.options.pageSize) return;
    }
  }

  /** A notice (or a heartbeat) says there may be more to send; reads again unless it is already known. */
  wake(notice: ChangeNotice | null): void {
    if (this.closed) return;
    if (notice && big(notice.id) <= this.position) return;
    this.again = true;
    if (!this.started || this.reading) return;
    // Not traced: a wake-up belongs to no request (a notice arrives inside the writer's request, a heartbeat
    // inside the stream's own), and with tracing on every heartbeat of every stream would be a span.
    void untraced(() => this.pump());
  }

  private async pump(): Promise<void> {
    this.reading = true;
    try {
      while (this.again && !this.closed) {
        this.again = false;
        await this.sendChanges();
        if (!this.readySent && !this.closed) await this.write(this.ready());
      }
    } catch (error) {
      // The store failed: end the stream; the client reconnects and resumes from its last event id.
      this.logger.warn({ err: error, userId: this.userId }, 'todo event stream: reading the feed failed, closing');
      this.end();
    } finally {
      this.reading = false;
    }
  }

  /**
   * Writes one chunk and, when the connection has not taken what came before it yet, waits until it has
   * ('drain'), so at most about one page waits in memory. A client that takes nothing for `stallMs` is cut off.
   */
  private async write(chunk: string): Promise<void> {
    if (this.closed || this.body.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.body.off('drain', done);
        this.waiting = undefined;
        resolve();
      };
      const timer = setTimeout(() => {
        this.logger.warn({ userId: this.userId }, 'todo event stream: client took nothing for too long, cutting it off');
        this.cutOff();
        this.dispose();
      }, this.options.stallMs);
      this.waiting = done;
      this.body.once('drain', done);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Ends the response (the client reconnects: to another instance, when this one drains). */
  end(): void {
    if (this.closed) return;
    this.body.end();
    this.dispose();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.waiting?.();
    this.unsubscribe?.();
    this.onClosed(this);
  }
}

/**
 * The open live streams of this process: serves `GET /todo/events`, caps how many are open, and ends them
 * all when the process drains, so their pages reconnect to another instance at once.
 */
export class TodoEventStreams {
  private readonly open = new Set<TodoEventStream>();
  private readonly options: EventStreamOptions;
  private draining = false;

  constructor(
    private readonly service: TodosService,
    private readonly bus: TodoEventBus,
    private readonly logger: Logger,
    options: Partial<EventStreamOptions> = {},
  ) {
    this.options = { ...DEFAULT_EVENT_STREAM_OPTIONS, ...options };
  }

  /** How many streams are open now. */
  get size(): number {
    return this.open.size;
  }

  /** How many streams this process holds at most (`TODO_EVENTS_MAX_STREAMS`). */
  get maxStreams(): number {
    return this.options.maxStreams;
  }

  /**
   * Answers the request with the user's stream, starting after `resumeAfter` (replaying what came since,
   * or `reset` when that is older than the feed keeps), or at the current position when it is null.
   */
  async serve(ctx: Context, userId: string, resumeAfter: string | null): Promise<void> {
    if (this.draining) throw new ServiceUnavailableError(STREAM_MESSAGES.draining);
    if (this.open.size >= this.options.maxStreams) {
      throw new ServiceUnavailableError(STREAM_MESSAGES.tooMany, ErrorCode.tooManyStreams);
    }
    const cutOff = () => ctx.res.destroy();
    const stream = new TodoEventStream(userId, this.service, this.bus, this.options, this.logger, cutOff, (closed) => {
      this.open.delete(closed);
    });
    this.open.add(stream);
    try {
      await stream.start(resumeAfter);
    } catch (error) {
      stream.dispose();
      throw error;
    }
    if (stream.isClosed) throw new ServiceUnavailableError(STREAM_MESSAGES.draining);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // nginx (and proxies that honour it) must pass every event on at once instead of buffering.
      'X-Accel-Buffering': 'no',
    });
    // Koa pipes the body as soon as the handler returns; the first bytes (retry; ready, unless a replay comes
    // first) are already in it.
    ctx.body = stream.body;
  }

  /** Ends every open stream and refuses new ones (the process is draining before exit). */
  closeAll(): void {
    this.draining = true;
    for (const stream of [...this.open]) stream.end();
  }
}
