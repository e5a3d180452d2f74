import { request, type IncomingHttpHeaders } from 'node:http';
import { createParser } from 'eventsource-parser';

/** One item of a Server-Sent Events stream, in the order it arrived. */
export type SseFrame =
  | { kind: 'event'; event: string; id: string | undefined; data: string }
  | { kind: 'retry'; ms: number }
  | { kind: 'comment'; text: string };
export type SseEvent = Extract<SseFrame, { kind: 'event' }>;

export interface RawStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed body of a non-200 answer (read in full). */
  body: unknown;
  /** Every frame received so far, in order. */
  readonly frames: readonly SseFrame[];
  /** Every event received so far (comments such as `: ping` are counted in `comments`). */
  readonly events: readonly SseEvent[];
  readonly comments: number;
  /** The `retry:` the stream asked for, once received. */
  readonly retry: number | undefined;
  /** Everything received so far, as text. */
  readonly raw: string;
  /** Resolves with the first event (past or future) that matches; rejects after `timeoutMs`. */
  waitFor(match: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** The frame after the last one `next` returned (comments included); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** Like `next`, skipping comments and `retry`. */
  nextEvent(timeoutMs?: number): Promise<SseEvent>;
  /** Waits `ms` and fails if an event arrived meanwhile (beyond those `next` already returned). */
  expectSilence(ms: number): Promise<void>;
  /** Resolves when the server ends the stream (cleanly or not); rejects after `timeoutMs`. */
  ended(timeoutMs?: number): Promise<'end' | 'error'>;
  readonly isEnded: boolean;
  /** The client goes away. */
  close(): void;
}

/**
 * Opens `GET url` as a browser's EventSource would, without reconnecting (each test sees exactly what one
 * connection gets), and resolves once the answer's head arrived. The wire format is parsed by
 * `eventsource-parser` (the parser of the `eventsource` package that `openEventStream` uses).
 */
export function openRawEventStream(url: string, headers: Record<string, string> = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      const frames: SseFrame[] = [];
      const waiters = new Set<() => void>();
      let raw = '';
      let read = 0;
      let endedAs: 'end' | 'error' | undefined;
      const notify = () => {
        for (const waiter of [...waiters]) waiter();
      };
      const events = () => frames.filter((frame): frame is SseEvent => frame.kind === 'event');
      const wait = <T>(check: () => T | undefined, timeoutMs: number, what: string) => until(check, timeoutMs, () => `${what} did not happen within ${timeoutMs} ms; received so far:\n${raw}`, waiters);
      const next = (timeoutMs = 5000) =>
        wait(
          () => {
            if (read < frames.length) return frames[read++];
            if (endedAs) throw new Error(`the stream ended; received so far:\n${raw}`);
            return undefined;
          },
          timeoutMs,
          'the next frame',
        );
      const stream: RawStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        frames,
        get events() {
          return events();
        },
        get comments() {
          return frames.filter((frame) => frame.kind === 'comment').length;
        },
        get retry() {
          return frames.findLast((frame): frame is Extract<SseFrame, { kind: 'retry' }> => frame.kind === 'retry')?.ms;
        },
        get raw() {
          return raw;
        },
        waitFor: (match, timeoutMs = 5000) => wait(() => events().find(match), timeoutMs, 'the awaited event'),
        next,
        async nextEvent(timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const frame = await next(Math.max(1, deadline - Date.now()));
            if (frame.kind === 'event') return frame;
          }
        },
        async expectSilence(ms) {
          await new Promise((done) => setTimeout(done, ms));
          const unexpected = frames.slice(read).filter((frame) => frame.kind === 'event');
          if (unexpected.length > 0) throw new Error(`expected no event, got ${JSON.stringify(unexpected)}`);
        },
        ended: (timeoutMs = 5000) => wait(() => endedAs, timeoutMs, 'the end of the stream'),
        get isEnded() {
          return endedAs !== undefined;
        },
        close: () => req.destroy(),
      };
      const finish = (how: 'end' | 'error') => {
        endedAs ??= how;
        notify();
      };
      res.on('error', () => finish('error'));
      res.on('aborted', () => finish('error'));
      res.on('close', () => finish(res.complete ? 'end' : 'error'));
      res.on('end', () => finish('end'));
      res.setEncoding('utf8');
      if (stream.status !== 200) {
        res.on('data', (chunk: string) => (raw += chunk));
        res.on('end', () => {
          try {
            stream.body = JSON.parse(raw);
          } catch {
            stream.body = raw;
          }
          resolve(stream);
        });
        return;
      }
      const parser = createParser({
        onEvent: ({ event, id, data }) => frames.push({ kind: 'event', event: event ?? 'message', id, data }),
        onRetry: (ms) => frames.push({ kind: 'retry', ms }),
        onComment: (text) => frames.push({ kind: 'comment', text: text.trim() }),
      });
      res.on('data', (chunk: string) => {
        raw += chunk;
        parser.feed(chunk);
        notify();
      });
      resolve(stream);
    });
    req.end();
  });
}

/** Resolves with `check()`'s first defined value (checked now and on every notice); rejects after `timeoutMs`. */
export function until<T>(check: () => T | undefined, timeoutMs: number, failure: () => string, waiters: Set<() => void>): Promise<T> {
  return new Promise((resolve, reject) => {
    const settle = (): boolean => {
      try {
        const value = check();
        if (value === undefined) return false;
        resolve(value);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
      return true;
    };
    if (settle()) return;
    const waiter = () => {
      if (!settle()) return;
      clearTimeout(timer);
      waiters.delete(waiter);
    };
    const timer = setTimeout(() => {
      waiters.delete(waiter);
      reject(new Error(failure()));
    }, timeoutMs);
    waiters.add(waiter);
  });
}
