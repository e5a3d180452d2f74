import { API_BASE, EVENTS_AFTER_PARAM, ROUTES, type StreamPosition, type Todo, type TodoChangeEvent } from '@tm/contracts';

/** EventSource.CLOSED: the browser gave up (an answer that is not a stream: 401, 429, 503…) and will not retry. */
const CLOSED = 2;

export interface TodoStreamHandlers {
  /** One committed change, whatever its origin (the caller skips its own echo). */
  onChange: (change: TodoChangeEvent) => void;
  /** The server no longer holds the changes since the page's position: the page fetches its list once. */
  onReset: (position: StreamPosition) => void;
  /** The stream is live and stands at `position` (sent first on every connection). */
  onReady?: (position: StreamPosition) => void;
  /** Live (events flow) or not (connecting, reconnecting, given up): without it the page falls back (PRODUCT §10.8). */
  onConnectedChange?: (connected: boolean) => void;
  /**
   * The stream was given up (the browser's, on an answer that is not a stream, or ours, on a stream that
   * keeps failing before it is ready); it is opened again after a growing pause.
   */
  onGaveUp?: () => void;
}

interface TodoStreamOptions {
  /**
   * The page's position (its list's cursor), read when the stream is opened (first, and again after giving
   * up); a position the stream itself has reached since (its last `ready`, `change` or `reset`) wins when it
   * is later.
   */
  after: () => string | undefined;
  /** `/api` unless told. */
  baseURL?: string;
  /** The EventSource implementation (the browser's by default; tests pass their own). */
  EventSource?: typeof EventSource;
  /** Pause before opening again after giving up, by attempt since the last `ready` (1, 2…): 1 s doubling, at most 30 s. */
  reopenDelayMs?: (attempt: number) => number;
}

/**
 * Connections in a row that may fail before the stream is `ready` while the browser reconnects by itself;
 * past that the stream is given up and opened again after a growing pause, so a failure that repeats is
 * retried more and more slowly, never in a loop at the browser's `retry:` pace.
 */
const FAILURES_BEFORE_BACKING_OFF = 2;

interface TodoStream {
  readonly connected: boolean;
  close: () => void;
}

const defaultReopenDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1));

/** Whether change-feed position `a` comes after `b` (decimal strings of up to 16 digits, compared exactly). */
export function cursorAfter(a: string, b: string | undefined): boolean {
  if (b === undefined) return true;
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length !== y.length ? x.length > y.length : x > y;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isCursor = (value: unknown): value is string => typeof value === 'string' && /^\d{1,16}$/.test(value);
const isTodo = (value: unknown): value is Todo => isObject(value) && typeof value._id === 'string' && typeof value.title === 'string';

function isPosition(value: unknown): value is StreamPosition {
  return isObject(value) && isCursor(value.cursor);
}

function isChange(value: unknown): value is TodoChangeEvent {
  return (
    isObject(value) &&
    isCursor(value.id) &&
    (value.origin === null || typeof value.origin === 'string') &&
    Array.isArray(value.saved) &&
    value.saved.every(isTodo) &&
    Array.isArray(value.removed) &&
    value.removed.every((id) => typeof id === 'string')
  );
}

function parse<T>(event: Event, check: (value: unknown) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(String((event as MessageEvent).data));
    if (check(value)) return value;
  } catch {
    // reported below
  }
  console.warn(`Ignored a malformed "${event.type}" event of the live stream`);
  return undefined;
}

/**
 * The live stream of the signed-in user's task changes (docs/PRODUCT.md §10.11.5): `GET /api/todo/events?after=…`
 * as Server-Sent Events. The browser reconnects a dropped stream by itself and resumes with `Last-Event-ID`.
 * When it gives up (the answer was not a stream: the session ended, too many streams, a gateway going away),
 * or a second connection in a row fails before `ready`, the stream is opened again after a pause that grows
 * with each attempt (1 s doubling, at most 30 s; back to the start once a stream is ready), from the later
 * of the page's position and the stream's own: a failure that repeats is never retried in a loop, and after
 * a `reset` the new stream never asks for the old gap again. Without EventSource (old browsers, tests) it
 * never connects, and the page keeps its fallback.
 */
export function openTodoStream(handlers: TodoStreamHandlers, options: TodoStreamOptions): TodoStream {
  const Source = options.EventSource ?? (typeof EventSource === 'undefined' ? undefined : EventSource);
  const url = `${options.baseURL ?? API_BASE}${ROUTES.todoEvents.path}`;
  const reopenDelay = options.reopenDelayMs ?? defaultReopenDelay;
  let source: EventSource | undefined;
  let connected = false;
  let closed = false;
  /** Times the stream was given up since it was last `ready`. */
  let attempts = 0;
  /** Connection failures since the stream was last `ready`. */
  let failures = 0;
  /** The latest position the stream itself reported (`ready`, `change` id, `reset`). */
  let reached: string | undefined;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;

  const setConnected = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    handlers.onConnectedChange?.(value);
  };
  const reach = (cursor: string) => {
    if (cursorAfter(cursor, reached)) reached = cursor;
  };
  /** Where a new stream starts: the page's position, or the stream's own when that is later (after a `reset`, never the old gap again). */
  const startAfter = (): string | undefined => {
    const page = options.after();
    return reached !== undefined && (page === undefined || cursorAfter(reached, page)) ? reached : page;
  };

  const giveUp = (es: EventSource) => {
    es.close();
    source = undefined;
    handlers.onGaveUp?.();
    attempts += 1;
    reopenTimer = setTimeout(open, reopenDelay(attempts));
  };

  const open = () => {
    if (!Source || closed) return;
    const after = startAfter();
    const es = new Source(after === undefined ? url : `${url}?${EVENTS_AFTER_PARAM}=${encodeURIComponent(after)}`);
    source = es;
    es.addEventListener('ready', (event) => {
      attempts = 0;
      failures = 0;
      setConnected(true);
      const position = parse(event, isPosition);
      if (!position) return;
      reach(position.cursor);
      handlers.onReady?.(position);
    });
    es.addEventListener('change', (event) => {
      // Whatever the server sends on this connection proves it live.
      setConnected(true);
      const change = parse(event, isChange);
      if (!change) return;
      reach(change.id);
      handlers.onChange(change);
    });
    es.addEventListener('reset', (event) => {
      setConnected(true);
      const position = parse(event, isPosition);
      if (!position) return;
      reach(position.cursor);
      handlers.onReset(position);
    });
    es.addEventListener('error', () => {
      if (source !== es) return;
      setConnected(false);
      failures += 1;
      // The browser reconnects by itself (with Last-Event-ID) unless it gave up; a stream that keeps failing
      // before it is ready is given up here too.
      if (es.readyState !== CLOSED && failures < FAILURES_BEFORE_BACKING_OFF) return;
      giveUp(es);
    });
  };

  open();
  return {
    get connected() {
      return connected;
    },
    close: () => {
      closed = true;
      clearTimeout(reopenTimer);
      source?.close();
      source = undefined;
      setConnected(false);
    },
  };
}
