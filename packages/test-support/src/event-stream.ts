import { EventSource, type EventSourceFetchInit } from 'eventsource';
import { until } from './sse-reader.js';

/** One Server-Sent Event as a client received it. */
export interface ReceivedEvent {
  type: string;
  id: string;
  data: string;
  /** `Date.now()` when the event arrived. */
  at: number;
}

export interface EventStreamOptions {
  /** Extra request headers per connection attempt (cookies, a signed identity); gets the URL being fetched. */
  headers?: (url: string) => Record<string, string>;
  /** Event types to record besides the default `message` (for example `change`, `ready`, `reset`). */
  types?: string[];
  /**
   * Open a new stream (with `?after=<last event id>`) when the server refused a reconnect, as the app's page
   * does: an EventSource gives up for good on a non-200 answer, such as a draining gateway's 503.
   */
  reopenAfterMs?: number;
}

export interface EventStream {
  readonly events: ReceivedEvent[];
  /** How many times the stream opened (1 + reconnects). */
  readonly opens: number;
  /** Status codes of failed connection attempts, in order. */
  readonly failures: (number | undefined)[];
  /** Resolves with the first recorded event (past or future) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (event: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Resolves when the server ended the stream or refused it (the client then reconnects by itself). */
  waitForError(timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * A real EventSource client (the `eventsource` package follows the WHATWG spec: reconnects by itself and
 * sends `Last-Event-ID`) that records what it receives, for tests and the multi-instance proof.
 */
export function openEventStream(url: string, options: EventStreamOptions = {}): EventStream {
  const events: ReceivedEvent[] = [];
  const failures: (number | undefined)[] = [];
  const waiters = new Set<() => void>();
  let opens = 0;
  let errors = 0;
  let closed = false;
  let source: EventSource;
  let reopenTimer: NodeJS.Timeout | undefined;
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const record = (type: string) => (event: Event) => {
    const message = event as MessageEvent;
    events.push({ type, id: message.lastEventId, data: String(message.data), at: Date.now() });
    notify();
  };
  function connect(target: string): void {
    source = new EventSource(target, {
      fetch: (input: string | URL, init: EventSourceFetchInit) =>
        fetch(input, { ...init, headers: { ...init.headers, ...options.headers?.(String(input)) } }),
    });
    for (const type of ['message', ...(options.types ?? [])]) source.addEventListener(type, record(type));
    source.addEventListener('open', () => {
      opens += 1;
    });
    source.addEventListener('error', (event) => {
      errors += 1;
      failures.push(event.code);
      notify();
      if (options.reopenAfterMs === undefined || closed || source.readyState !== EventSource.CLOSED) return;
      reopenTimer = setTimeout(() => {
        const last = events.findLast((e) => e.id !== '');
        const next = new URL(url);
        if (last) next.searchParams.set('after', last.id);
        if (!closed) connect(String(next));
      }, options.reopenAfterMs);
    });
  }
  connect(url);

  const wait = (check: () => boolean, timeoutMs: number, what: string): Promise<void> =>
    until(() => (check() ? true : undefined), timeoutMs, () => `${what} did not happen within ${timeoutMs} ms`, waiters).then(() => undefined);

  return {
    events,
    get opens() {
      return opens;
    },
    failures,
    async waitFor(match, timeoutMs = 5_000) {
      await wait(() => events.some(match), timeoutMs, 'the awaited event');
      return events.find(match) as ReceivedEvent;
    },
    waitForError(timeoutMs = 5_000) {
      const seen = errors;
      return wait(() => errors > seen, timeoutMs, 'a stream error');
    },
    close() {
      closed = true;
      clearTimeout(reopenTimer);
      source.close();
      for (const waiter of [...waiters]) waiters.delete(waiter);
    },
  };
}
