import type { IncomingMessage } from 'node:http';
import { API, ErrorCode, EVENTS_AFTER_PARAM } from '@tm/contracts';
import { HttpError, openSpan, REQUEST_ID_HEADER, ServiceUnavailableError, signIdentity, UnauthorizedError, type Logger } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { Counter, Gauge, type Registry } from 'prom-client';
import { clientOf } from './client-address.js';
import { sessionExpiry, sessionIdOf, sessionOf, type SessionLifetime } from './session.middleware.js';
import type { SessionStore } from './session.repository.js';
import { checkAnswer, invalidAnswer, relay } from './upstream-answer.js';
import { captureAnswer, type Upstream } from './upstream.proxy.js';

export interface LiveStreamLimits {
  /** Streams one session may hold at once (429 beyond). */
  maxPerSession: number;
  /** Streams one user may hold at once in this process, all their sessions together (429 beyond; issue #21). */
  maxPerUser: number;
  /** Streams one client address (IPv4, or IPv6 /64) may hold at once in this process (429 beyond; issue #21). */
  maxPerAddress: number;
  /** Streams this process holds at most (503 beyond). */
  maxStreams: number;
  /** How often every open stream's session is read again from the store. */
  sessionCheckMs: number;
}

/** Why a stream was ended by the gateway (logged, and the answer when it had not started yet). */
type EndReason =
  | 'logout'
  | 'user sessions ended'
  | 'session ended'
  | 'session expired'
  | 'draining'
  | 'closing'
  | 'client gone'
  | 'upstream ended';

interface OpenStream {
  readonly sessionId: string;
  readonly userId: string;
  /** The client's address key (client-address.ts). */
  readonly address: string;
  /** Ends the stream: upstream aborted, the client's response ended (it reconnects if it wants). */
  end(reason: EndReason): void;
}

export interface LiveStreamsOptions {
  limits: LiveStreamLimits;
  sessionStore: SessionStore;
  lifetime: SessionLifetime;
  logger: Logger;
  /** Where the open-stream gauge is registered (the process's /metrics). */
  registry?: Registry;
}

function addTo<K>(index: Map<K, Set<OpenStream>>, key: K, stream: OpenStream): void {
  const set = index.get(key) ?? new Set<OpenStream>();
  set.add(stream);
  index.set(key, set);
}

function removeFrom<K>(index: Map<K, Set<OpenStream>>, key: K, stream: OpenStream): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) index.delete(key);
}

/**
 * The live streams open in this process, by session and by user (docs/PRODUCT.md §10.11.5). A stream ends
 * with its session: the gateway's own logout ends the session's streams, the calls that end every session
 * of a user (sign out everywhere, password change, account deletion) end the user's streams here, and a
 * periodic look-up of each stream's session in the shared store ends the streams whose session ended
 * anywhere else (another gateway instance, expiry by the same idle and absolute rules as every request).
 * Draining ends them all and refuses new ones, so the pages reconnect to another instance.
 */
export class LiveStreams {
  private readonly all = new Set<OpenStream>();
  private readonly bySession = new Map<string, Set<OpenStream>>();
  private readonly byUser = new Map<string, Set<OpenStream>>();
  private readonly byAddress = new Map<string, Set<OpenStream>>();
  private readonly timer: NodeJS.Timeout;
  private draining = false;
  private checking = false;
  private readonly refused?: Counter<'reason'>;

  constructor(private readonly options: LiveStreamsOptions) {
    this.timer = setInterval(() => void this.checkSessions(), options.limits.sessionCheckMs);
    this.timer.unref();
    if (options.registry) {
      const gauge: Gauge = new Gauge({
        name: 'gateway_live_streams',
        help: 'Live task streams (GET /api/todo/events) open in this process',
        registers: [options.registry],
        collect: () => gauge.set(this.size),
      });
      // The cap beside the count, for the saturation alert (deploy/prometheus/alerts.yml): past it, 503.
      new Gauge({
        name: 'gateway_live_streams_max',
        help: 'Live task streams this process holds at most (EVENTS_MAX_STREAMS); more are refused with 503',
        registers: [options.registry],
        collect() {
          this.set(options.limits.maxStreams);
        },
      });
      this.refused = new Counter({
        name: 'gateway_live_streams_refused_total',
        help: 'Live task streams refused: per-session, per-user, per-address or per-process cap, draining',
        labelNames: ['reason'] as const,
        registers: [options.registry],
      });
    }
  }

  get size(): number {
    return this.all.size;
  }

  /** How many streams the session holds in this process. */
  countOf(sessionId: string): number {
    return this.bySession.get(sessionId)?.size ?? 0;
  }

  /**
   * Takes a place for a new stream, or throws the answer that refuses it: 503 draining or full, 429 for the
   * session, the user or the address. The caps per user and per address keep one account, or one client
   * with many accounts, from taking every place of the process (issue #21); the per-process cap is checked
   * last, so what one of them takes is already bounded.
   */
  admit(sessionId: string, userId: string, address: string, end: (reason: EndReason) => void): OpenStream {
    const { maxPerSession, maxPerUser, maxPerAddress, maxStreams } = this.options.limits;
    if (this.draining) {
      this.refused?.inc({ reason: 'draining' });
      throw new ServiceUnavailableError('The gateway is restarting, please reconnect');
    }
    if (this.countOf(sessionId) >= maxPerSession) {
      this.refused?.inc({ reason: 'session' });
      throw new HttpError(429, 'Too many live connections for this session.', ErrorCode.tooManyStreams);
    }
    if ((this.byUser.get(userId)?.size ?? 0) >= maxPerUser) {
      this.refused?.inc({ reason: 'user' });
      throw new HttpError(429, 'Too many live connections for this account.', ErrorCode.tooManyStreams);
    }
    if ((this.byAddress.get(address)?.size ?? 0) >= maxPerAddress) {
      this.refused?.inc({ reason: 'address' });
      throw new HttpError(429, 'Too many live connections from this address.', ErrorCode.tooManyStreams);
    }
    if (this.all.size >= maxStreams) {
      this.refused?.inc({ reason: 'process' });
      throw new ServiceUnavailableError('Too many live connections on this server, please try again shortly.', ErrorCode.tooManyStreams);
    }
    const stream: OpenStream = { sessionId, userId, address, end };
    this.all.add(stream);
    addTo(this.bySession, sessionId, stream);
    addTo(this.byUser, userId, stream);
    addTo(this.byAddress, address, stream);
    return stream;
  }

  /** Gives the place back (the stream ended, whoever ended it). */
  release(stream: OpenStream): void {
    if (!this.all.delete(stream)) return;
    removeFrom(this.bySession, stream.sessionId, stream);
    removeFrom(this.byUser, stream.userId, stream);
    removeFrom(this.byAddress, stream.address, stream);
  }

  private endAll(streams: Iterable<OpenStream> | undefined, reason: EndReason): number {
    const list = [...(streams ?? [])];
    for (const stream of list) {
      this.release(stream);
      stream.end(reason);
    }
    return list.length;
  }

  /** Ends the streams of one session (its logout here). */
  endSession(sessionId: string, reason: EndReason = 'logout'): number {
    return this.endAll(this.bySession.get(sessionId), reason);
  }

  /** Ends every stream of a user in this process (sign out everywhere, password change, account deletion). */
  endUser(userId: string, reason: EndReason = 'user sessions ended'): number {
    return this.endAll(this.byUser.get(userId), reason);
  }

  /** Shutdown begins: every stream ends (the pages reconnect elsewhere) and new ones are refused. */
  drain(): void {
    this.draining = true;
    const ended = this.endAll(this.all, 'draining');
    if (ended > 0) this.options.logger.info({ streams: ended }, 'draining: live streams ended');
  }

  /** Ends every stream and stops the session checks (the process is closing). */
  close(): void {
    clearInterval(this.timer);
    this.draining = true;
    this.endAll(this.all, 'closing');
  }

  /**
   * Reads every open stream's session from the store and ends the streams of sessions that are gone, now
   * belong to nobody (or someone else), or are past the idle or absolute lifetime. A store that cannot be
   * read leaves the streams open until the next check (a blip of the store must not drop every page).
   */
  async checkSessions(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const [sessionId, streams] of [...this.bySession]) {
        const userId = streams.values().next().value?.userId;
        let data;
        try {
          data = await this.options.sessionStore.get(sessionId);
        } catch (error) {
          this.options.logger.warn({ err: error }, 'live streams: the session store could not be read; checking again later');
          return;
        }
        const reason: EndReason | undefined =
          !data || !data.userId || data.userId !== userId
            ? 'session ended'
            : sessionExpiry(data, this.options.lifetime, Date.now())
              ? 'session expired'
              : undefined;
        if (reason) {
          const ended = this.endSession(sessionId, reason);
          this.options.logger.info({ userId, streams: ended, reason }, 'live streams of an ended session closed');
        }
      }
    } finally {
      this.checking = false;
    }
  }
}

export interface EventsRelayOptions {
  todos: Upstream;
  internalSecret: string;
  streams: LiveStreams;
}

/** The query svc-todos gets: only the `after` cursor(s) the page sent, as sent. */
function upstreamPath(ctx: Context): string {
  const params = new URLSearchParams();
  for (const value of [ctx.query[EVENTS_AFTER_PARAM] ?? []].flat()) params.append(EVENTS_AFTER_PARAM, value);
  const query = params.toString();
  return query ? `${API.todoEvents.path}?${query}` : API.todoEvents.path;
}

/**
 * The stream ended before svc-todos answered: nobody to answer when the client left; 503 when the gateway
 * is shutting down (reconnect elsewhere); 401 when the session ended; else the upstream failure itself.
 */
function endedBeforeStart(ctx: Context, reason: EndReason | undefined, error: unknown): void {
  if (reason === 'client gone') {
    ctx.respond = false;
    return;
  }
  if (reason === 'draining' || reason === 'closing') throw new ServiceUnavailableError('The gateway is restarting, please reconnect');
  if (reason) throw new UnauthorizedError();
  throw error;
}

/**
 * GET /api/todo/events: relays svc-todos' Server-Sent Events of the signed-in user, byte for byte and
 * unbuffered. The usual upstream timeout applies to the answer's head only (504/503/502 as for any call);
 * the stream itself lasts until the client goes away, svc-todos ends it, or the gateway ends it
 * ({@link LiveStreams}). A non-200 answer is checked and relayed as the usual JSON error. HEAD gets the
 * stream's head without opening one.
 */
export function eventsRelay({ todos, internalSecret, streams }: EventsRelayOptions): Middleware {
  return async (ctx) => {
    const userId = sessionOf(ctx).userId ?? '';
    const sessionId = sessionIdOf(ctx);
    if (!userId || !sessionId) throw new UnauthorizedError();
    if (ctx.method === 'HEAD') {
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      return;
    }

    const res = ctx.res;
    const abort = new AbortController();
    let endedBy: EndReason | undefined;
    /** The upstream answer once it is being relayed. */
    const relaying: { answer?: IncomingMessage } = {};
    // The span `events.relay` (docs/OPERATIONS.md "Traces"): from here until the stream ends, with why it
    // ended (`tm.stream.end_reason`); the call that opens svc-todos' stream inside it.
    const span = openSpan('events.relay');
    const end = (reason: EndReason) => {
      if (!endedBy) span.setAttribute('tm.stream.end_reason', reason);
      endedBy ??= reason;
      span.end();
      abort.abort();
      const { answer } = relaying;
      answer?.unpipe(res);
      if (answer && !res.writableEnded) res.end();
    };
    let stream: OpenStream;
    try {
      stream = streams.admit(sessionId, userId, clientOf(ctx), end);
    } catch (refused) {
      span.end(refused);
      throw refused;
    }
    const finish = (reason: EndReason) => () => {
      streams.release(stream);
      end(reason);
    };
    // The client went away (before or during the stream): upstream is aborted, the place given back.
    res.once('close', finish('client gone'));

    const path = upstreamPath(ctx);
    const lastEventId = ctx.get('last-event-id');
    const headers: Record<string, string> = {
      [REQUEST_ID_HEADER]: ctx.requestId,
      accept: 'text/event-stream',
      ...signIdentity(internalSecret, { method: 'GET', url: path, userId, requestId: ctx.requestId }),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    };
    let opened: IncomingMessage;
    try {
      opened = await span.run(() => todos.open({ method: 'GET', path, headers }, abort.signal));
    } catch (error) {
      streams.release(stream);
      span.end(error);
      return endedBeforeStart(ctx, endedBy, error);
    }
    if (endedBy) {
      streams.release(stream);
      opened.destroy();
      return endedBeforeStart(ctx, endedBy, undefined);
    }
    if (opened.statusCode !== 200) {
      // svc-todos refused (401, 400 for a bad cursor, 5xx): its answer is checked and sent on like any other.
      streams.release(stream);
      span.setAttribute('http.response.status_code', opened.statusCode ?? 0);
      span.end();
      const captured = await captureAnswer(todos.name, opened);
      checkAnswer(todos.name, captured, undefined);
      relay(ctx, captured);
      return;
    }
    if (!(opened.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      streams.release(stream);
      opened.destroy();
      const invalid = invalidAnswer(todos.name);
      span.end(invalid);
      throw invalid;
    }

    relaying.answer = opened;
    ctx.respond = false;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    opened.on('error', finish('upstream ended'));
    opened.on('close', finish('upstream ended'));
    opened.pipe(res);
  };
}
