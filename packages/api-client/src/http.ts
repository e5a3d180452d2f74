import {
  API_BASE,
  CLIENT_ID_HEADER,
  CLIENT_TIMEOUT_MS,
  IDEMPOTENCY_KEY_HEADER,
  XSRF_COOKIE,
  XSRF_HEADER,
  apiPath,
  type API,
  type ApiName,
  type ApiRequest,
  type ApiResponse,
  type ROUTES,
} from '@tm/contracts';
import axios, { type AxiosInstance } from 'axios';
import { earlyAnswer, takeEarlyResponse } from './early.js';
import { browserIsOffline, offlineError } from './errors.js';
import { settleSilence, watchSilence } from './silence.js';

const IOS = /iPad|iPhone|iPod/;

// One id per page, shared by every bundle of it (the shell and each remote carry their own copy of this
// package): a global registered under a well-known symbol. Never stored: a duplicated tab gets its own.
const CLIENT_ID = Symbol.for('@tm/api-client/client-id');

function randomClientId(): string {
  const bytes = new Uint8Array(16);
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * This page's random id (32 hex characters, within CLIENT_ID_PATTERN), sent as `X-Client-Id` with every
 * call. The live stream's change events carry it back as `origin`, so the page skips the echo of its own
 * writes (docs/PRODUCT.md §10.11.5). It lives as long as the page: a reload or another tab is another client.
 */
export function clientId(): string {
  const holder = globalThis as typeof globalThis & { [CLIENT_ID]?: string };
  holder[CLIENT_ID] ??= randomClientId();
  return holder[CLIENT_ID];
}

/**
 * A new `Idempotency-Key` (docs/PRODUCT.md §7): a random UUID, `crypto.randomUUID()`; where the page is no
 * secure context (no randomUUID), a version-4 UUID from `crypto.getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const hex = randomClientId();
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The one HTTP client of the frontends (PRODUCT §7): base `/api` on the app's origin, cookies sent, a 10 s
 * timeout of silence (no bytes either way: silence.ts), and axios' built-in XSRF double-submit
 * with the gateway's cookie and header names.
 */
export function createHttpClient(baseURL: string = API_BASE, { silenceMs = CLIENT_TIMEOUT_MS }: { silenceMs?: number } = {}): AxiosInstance {
  const client = axios.create({
    baseURL,
    withCredentials: true,
    xsrfCookieName: XSRF_COOKIE,
    xsrfHeaderName: XSRF_HEADER,
    headers: { Accept: 'application/json' },
  });
  // Registered first, so it runs last (axios runs request interceptors newest first): the count starts as
  // the request leaves.
  client.interceptors.request.use(watchSilence(silenceMs));
  // docs/PRODUCT.md §8: a call made offline fails at once with a clear message; the HTTP client never queues
  // it (the data library's online-only mode is off too, see @tm/web-platform's QueryClient). Task changes are
  // kept for later by the sync engine instead, one level up (§10.4).
  client.interceptors.request.use((config) => {
    if (browserIsOffline()) throw offlineError(config);
    config.headers.set(CLIENT_ID_HEADER, clientId());
    return config;
  });
  const silence = settleSilence();
  client.interceptors.response.use(silence.fulfilled, silence.rejected);
  client.interceptors.response.use((response) => {
    // PRODUCT §7: on iOS a Set-Cookie value is mirrored into document.cookie. Browsers never expose
    // Set-Cookie to scripts, so with our first-party cookies this is a no-op kept for fidelity.
    const setCookie = response.headers['set-cookie'] as unknown;
    if (typeof navigator !== 'undefined' && IOS.test(navigator.userAgent) && Array.isArray(setCookie)) {
      for (const cookie of setCookie) document.cookie = String(cookie);
    }
    return response;
  });
  return client;
}

export const http = createHttpClient();

// The calls with one JSON answer (the change feed is a stream: todo-stream.ts), and the name of each route.
type JsonCall = { [N in ApiName]: (typeof API)[N] extends { stream: true } ? never : N }[ApiName];
type JsonRoute = (typeof ROUTES)[JsonCall];
type NameOf<R extends JsonRoute> = { [N in JsonCall]: (typeof ROUTES)[N] extends R ? N : never }[JsonCall];
// Its `:todoId` when the path has one, its body when it sends one.
type CallOptions<N extends JsonCall> = { signal?: AbortSignal; silenceMs?: number; idempotencyKey?: string } & ((typeof ROUTES)[N]['path'] extends `${string}:todoId${string}`
  ? { todoId: string }
  : { todoId?: never }) &
  ([ApiRequest<N>] extends [never] ? { body?: never } : { body: ApiRequest<N> });
type Args<O> = Partial<O> extends O ? [options?: O] : [options: O];

/**
 * `call(ROUTES.login, { body })`: method and path from the route table, body and answer typed by API (PRODUCT §7).
 * A task write carries an `Idempotency-Key` (PRODUCT §7): `idempotencyKey` when given (a retry of the same
 * action passes the key of its first attempt), else a new one, so each call is one action applied once.
 */
export async function call<R extends JsonRoute>(
  { method, path }: R,
  ...[options]: Args<CallOptions<NameOf<R>>>
): Promise<ApiResponse<NameOf<R>>> {
  const { body, signal, silenceMs, idempotencyKey } = (options ?? {}) as { body?: unknown; signal?: AbortSignal; silenceMs?: number; idempotencyKey?: string };
  const url = apiPath(path, options);
  // A read the page's HTML already started (the current user, the route's first reads) is taken
  // from there instead of asked again; its answer and its errors are the same as through axios.
  const early = method === 'GET' ? takeEarlyResponse(`${API_BASE}${url}`) : undefined;
  if (early) return earlyAnswer<ApiResponse<NameOf<R>>>(early, `${API_BASE}${url}`, silenceMs);
  // A sync call's commands carry their own keys (PRODUCT §10.4): the call itself needs none.
  const keyed = method !== 'GET' && path.startsWith('/todo/') && path !== '/todo/sync';
  const headers = keyed ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey ?? newIdempotencyKey() } : undefined;
  // A call's own `timeout` is its length of silence (silence.ts).
  return (await http.request<ApiResponse<NameOf<R>>>({ method, url, data: body, signal, timeout: silenceMs, headers })).data;
}
