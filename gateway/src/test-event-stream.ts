import { request, type IncomingHttpHeaders } from 'node:http';

/** One Server-Sent Event as read off the wire. */
export interface SseEvent {
  event: string;
  id: string;
  data: string;
}

export interface RawStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed body of a non-200 answer (read in full). */
  body: unknown;
  /** Every event received so far (comments such as `: ping` are counted in `comments`). */
  events: SseEvent[];
  comments: number;
  /** The `retry:` the stream asked for, once received. */
  retry?: number;
  /** Resolves with the first event (past or future) that matches; rejects after `timeoutMs`. */
  waitFor(match: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream (cleanly or not); rejects after `timeoutMs`. */
  ended(timeoutMs?: number): Promise<'end' | 'error'>;
  readonly isEnded: boolean;
  /** The client goes away. */
  close(): void;
}

/**
 * Opens `GET url` as a browser's EventSource would (no reconnecting: each test sees exactly what one
 * connection gets) and resolves once the answer's head arrived. Events are parsed as the SSE spec says.
 */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: SseEvent[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let endedAs: 'end' | 'error' | undefined;
      let pending: { event: string; id: string; data: string[] } = { event: '', id: '', data: [] };
      const notify = () => {
        for (const waiter of [...waiters]) waiter();
      };
      const stream: RawStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        events,
        comments: 0,
        waitFor: (match, timeoutMs = 5000) =>
          until(() => events.find(match), timeoutMs, 'the awaited event', waiters),
        ended: (timeoutMs = 5000) => until(() => endedAs, timeoutMs, 'the end of the stream', waiters),
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
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            stream.body = JSON.parse(text);
          } catch {
            stream.body = text;
          }
          resolve(stream);
        });
        return;
      }
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (pending.data.length > 0 || pending.event) {
              events.push({ event: pending.event || 'message', id: pending.id, data: pending.data.join('\n') });
            }
            pending = { event: '', id: pending.id, data: [] };
            continue;
          }
          if (line.startsWith(':')) {
            stream.comments += 1;
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') pending.event = value;
          else if (field === 'id') pending.id = value;
          else if (field === 'data') pending.data.push(value);
          else if (field === 'retry') stream.retry = Number(value);
        }
        notify();
      });
      resolve(stream);
    });
    req.end();
  });
}

function until<T>(check: () => T | undefined, timeoutMs: number, what: string, waiters: Set<() => void>): Promise<T> {
  return new Promise((resolve, reject) => {
    const now = check();
    if (now !== undefined) return resolve(now);
    const waiter = () => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      waiters.delete(waiter);
      resolve(value);
    };
    const timer = setTimeout(() => {
      waiters.delete(waiter);
      reject(new Error(`${what} did not happen within ${timeoutMs} ms`));
    }, timeoutMs);
    waiters.add(waiter);
  });
}

/** Waits `ms` (to show that nothing arrives meanwhile). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
