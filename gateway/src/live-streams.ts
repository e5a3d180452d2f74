import { ErrorCode } from '@tm/contracts';
import { HttpError, ServiceUnavailableError, type Logger } from '@tm/service-kit';
import { Counter, Gauge, type Registry } from 'prom-client';
import { sessionExpiry, type SessionLifetime } from './session.middleware.js';
import type { SessionStore } from './session.repository.js';

/** The caps on live task streams (GET /api/todo/events) in one gateway process, and how often their sessions are checked. */
export interface LiveStreamLimits {
  /** Streams one session may hold at once (429 beyond). */
  maxPerSession: number;
  /** Streams one user may hold at once in this process, all their sessions together (429 beyond; SECURITY.md "Limits and timeouts"). */
  maxPerUser: number;
  /** Streams one client address (IPv4, or IPv6 /64) may hold at once in this process (429 beyond; SECURITY.md "Limits and timeouts"). */
  maxPerAddress: number;
  /** Streams this process holds at most (503 beyond). */
  maxStreams: number;
  /** How often every open stream's session is read again from the store. */
  sessionCheckMs: number;
}

/** Why a stream was ended by the gateway (logged, and the answer when it had not started yet). */
export type EndReason =
  | 'logout'
  | 'user sessions ended'
  | 'session ended'
  | 'session expired'
  | 'draining'
  | 'closing'
  | 'client gone'
  | 'upstream ended';

export interface OpenStream {
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
   * with many accounts, from taking every place of the process (SECURITY.md "Limits and timeouts"); the per-process cap is checked
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
