import {
  API_BASE,
  CLIENT_ID_HEADER,
  CLIENT_TIMEOUT_MS,
  ChangesResponse,
  ROUTES,
  SyncResponse,
  TodosResponse,
  XSRF_COOKIE,
  XSRF_HEADER,
  type SyncCommand,
} from '@tm/contracts';
import { newCommandId } from './sync.domain.js';

/**
 * The calls the sync engine makes (docs/PRODUCT.md §10.4), injected so the page passes one built on its own
 * HTTP client (@tm/api-client) and Node code the fetch-based one below. Each resolves with the parsed 2xx
 * answer, or rejects with a {@link SyncTransportError}.
 */
export interface SyncTransport {
  /** POST /api/todo/sync with these commands (at most LIMITS.sync.commands, body within LIMITS.sync.bodyBytes). */
  sync(commands: SyncCommand[]): Promise<SyncResponse>;
  /** GET /api/todo/changes?after=`after`. */
  changes(after: string): Promise<ChangesResponse>;
  /** GET /api/todo/fetch-todo: the whole list and its feed cursor. */
  fetchList(): Promise<TodosResponse>;
}

/**
 * A call that failed as a whole: `status` null when no answer came (offline, refused connection, timeout),
 * else the HTTP status (401: signed out; 429, 503, 5xx: try again later). `retryAfterMs` from a Retry-After
 * header, when the answer had one.
 */
export class SyncTransportError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SyncTransportError';
  }
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface FetchTransportOptions {
  /** The gateway's origin (`http://127.0.0.1:8080`); calls go to `<origin>/api/…`. */
  origin: string;
  /**
   * Node: the cookie jar (name → value) to send and to update from Set-Cookie, e.g. test-support's
   * `ApiClient.cookies`, so both share one session. Without it (a browser), the browser sends its own
   * cookies and the XSRF token is read from `document.cookie`.
   */
  cookies?: Map<string, string>;
  /** `X-Client-Id` of this client (the change events carry it back as `origin`); random by default. */
  clientId?: string;
  /** Give up on a call after this long (default CLIENT_TIMEOUT_MS); the commands are sent again later. */
  timeoutMs?: number;
}

function browserCookie(name: string): string | undefined {
  const cookie = (globalThis as { document?: { cookie?: string } }).document?.cookie ?? '';
  const pair = cookie.split('; ').find((entry) => entry.startsWith(`${name}=`));
  return pair === undefined ? undefined : decodeURIComponent(pair.slice(name.length + 1));
}

function absorbCookies(jar: Map<string, string>, setCookies: string[]): void {
  for (const line of setCookies) {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = value === '' || attributes.some((attribute) => /^\s*(expires=Thu, 01 Jan 1970|max-age=0\b)/i.test(attribute));
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
}

/**
 * A {@link SyncTransport} on `fetch`, for Node (tests, the convergence test's clients) and any page without
 * the app's HTTP client: cookies from `cookies` (or the browser's), the XSRF header from the XSRF-TOKEN
 * cookie on writes, `X-Client-Id`, a timeout per call; answers checked against the contracts' schemas.
 */
export function createFetchTransport({ origin, cookies, clientId = newCommandId(), timeoutMs = CLIENT_TIMEOUT_MS }: FetchTransportOptions): SyncTransport {
  async function call<T>(method: string, path: string, schema: { parse: (value: unknown) => T }, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', [CLIENT_ID_HEADER]: clientId };
    if (cookies && cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (method !== 'GET') {
      const xsrf = cookies ? cookies.get(XSRF_COOKIE) : browserCookie(XSRF_COOKIE);
      if (xsrf !== undefined) headers[XSRF_HEADER] = xsrf;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetch(origin + API_BASE + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: cookies ? 'omit' : 'include',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (cookies) absorbCookies(cookies, response.headers.getSetCookie());
      text = await response.text();
    } catch (error) {
      throw new SyncTransportError(`No answer from ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`, null);
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const message = typeof json === 'object' && json !== null && typeof (json as { message?: unknown }).message === 'string' ? (json as { message: string }).message : `HTTP ${response.status}`;
      throw new SyncTransportError(message, response.status, retryAfterMs(response.headers.get('retry-after')));
    }
    try {
      return schema.parse(json);
    } catch {
      // An answer that is not what the contract says: treated as a failed call, tried again later.
      throw new SyncTransportError(`Unexpected answer from ${method} ${path}`, response.status);
    }
  }
  return {
    sync: (commands) => call('POST', ROUTES.syncTodos.path, SyncResponse, { commands: commands.map(({ id, method, path, body }) => (body === undefined ? { id, method, path } : { id, method, path, body })) }),
    changes: (after) => call('GET', `${ROUTES.todoChanges.path}?after=${encodeURIComponent(after)}`, ChangesResponse),
    fetchList: () => call('GET', ROUTES.fetchTodos.path, TodosResponse),
  };
}
