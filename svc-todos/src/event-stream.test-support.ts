// Test support (no tests here): a Server-Sent Events client over real HTTP that calls svc-todos as the
// gateway would, with a signed identity, and parses the wire format as browsers do (WHATWG HTML §9.2.6).
import { randomUUID } from 'node:crypto';
import { signIdentity } from '@tm/service-kit';
import { TEST_SECRET } from '@tm/test-support';

/** One parsed message, or a comment line (`: ping`). */
export type SseFrame =
  | { kind: 'event'; event: string; id: string | undefined; data: string }
  | { kind: 'retry'; ms: number }
  | { kind: 'comment'; text: string };

export interface OpenStreamOptions {
  userId: string;
  /** Query string, e.g. `?after=12`. */
  query?: string;
  lastEventId?: string;
  headers?: Record<string, string>;
}

export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** The JSON body when the answer was not a stream. */
  body: unknown;
  /** Everything received so far, byte for byte (as text). */
  readonly raw: string;
  /** The next frame, comments included; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** The next event (comments skipped). */
  nextEvent(timeoutMs?: number): Promise<Extract<SseFrame, { kind: 'event' }>>;
  /** Resolves when nothing arrives for `ms` (and fails the test if something does). */
  expectSilence(ms: number): Promise<void>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(baseUrl: string, options: OpenStreamOptions): Promise<EventStreamClient> {
  const path = `/todo/events${options.query ?? ''}`;
  const requestId = randomUUID();
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    'x-request-id': requestId,
    ...signIdentity(TEST_SECRET, { method: 'GET', url: path, userId: options.userId, requestId }),
    ...options.headers,
  };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const abort = new AbortController();
  const response = await fetch(baseUrl + path, { headers, signal: abort.signal });
  const frames: SseFrame[] = [];
  const waiters: Array<() => void> = [];
  let raw = '';
  let endedResolve: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    endedResolve = resolve;
  });
  let isEnded = false;
  const markEnded = () => {
    isEnded = true;
    endedResolve();
    for (const waiter of waiters.splice(0)) waiter();
  };

  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  let body: unknown;
  if (!isStream) {
    const text = await response.text();
    body = text ? JSON.parse(text) : undefined;
    markEnded();
  } else {
    void (async () => {
      if (!response.body) throw new Error('a stream without a body');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let event = { type: '', data: [] as string[], id: undefined as string | undefined };
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          raw += value;
          buffer += value;
          let newline: number;
          while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
            if (line === '') {
              // As browsers do: a message without data is not dispatched.
              if (event.data.length > 0) {
                frames.push({ kind: 'event', event: event.type || 'message', id: event.id, data: event.data.join('\n') });
              }
              event = { type: '', data: [], id: undefined };
            } else if (line.startsWith(':')) {
              frames.push({ kind: 'comment', text: line.slice(1).trim() });
            } else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const fieldValue = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'event') event.type = fieldValue;
              else if (field === 'data') event.data.push(fieldValue);
              else if (field === 'id') event.id = fieldValue;
              else if (field === 'retry') frames.push({ kind: 'retry', ms: Number(fieldValue) });
            }
            for (const waiter of waiters.splice(0)) waiter();
          }
        }
      } catch {
        // aborted by close()
      }
      markEnded();
    })();
  }

  const next = async (timeoutMs = 5_000): Promise<SseFrame> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = frames.shift();
      if (frame) return frame;
      if (isEnded) throw new Error(`the stream ended; received so far:\n${raw}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms; received so far:\n${raw}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };

  return {
    status: response.status,
    headers: response.headers,
    body,
    get raw() {
      return raw;
    },
    next,
    async nextEvent(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const frame = await next(Math.max(1, deadline - Date.now()));
        if (frame.kind === 'event') return frame;
      }
    },
    async expectSilence(ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const events = frames.filter((frame) => frame.kind === 'event');
      if (events.length > 0) throw new Error(`expected no event, got ${JSON.stringify(events)}`);
    },
    ended,
    close: () => abort.abort(),
  };
}
