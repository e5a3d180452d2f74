import type { IncomingMessage } from 'node:http';
import { API, EVENTS_AFTER_PARAM } from '@tm/contracts';
import { openSpan, REQUEST_ID_HEADER, ServiceUnavailableError, signIdentity, UnauthorizedError } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import { clientOf } from './client-address.js';
import type { EndReason, LiveStreams, OpenStream } from './live-streams.js';
import { sessionIdOf, sessionOf } from './session.middleware.js';
import { checkAnswer, invalidAnswer, relay } from './upstream-answer.js';
import { captureAnswer, type Upstream } from './upstream.proxy.js';

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
