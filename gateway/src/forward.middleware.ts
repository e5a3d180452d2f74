import { API, CLIENT_ID_HEADER, CLIENT_ID_PATTERN, ErrorCode, IDEMPOTENCY_KEY_HEADER } from '@tm/contracts';
import { IDENTITY_HEADERS, nameServerSpan, NotFoundError, REQUEST_ID_HEADER, signIdentity, TRACE_HEADERS, tracingEnabled } from '@tm/service-kit';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { API_PREFIX } from './api-prefix.js';
import { checkAnswer, checkDownload, contractOf, relay, relayDownload } from './upstream-answer.js';
import type { Upstream, UpstreamCall } from './upstream.proxy.js';

/**
 * The only headers of a client's request a service is sent: what the service reads (the body's
 * type and length, what answer is accepted, where a live stream resumes, a write's retry key) and the
 * gateway's own request id.
 * Everything else stays at the gateway: cookies and the XSRF token, `Authorization`, `Forwarded` and
 * `X-Forwarded-*` (a client's claims about itself), and any number of other headers, which would otherwise
 * reach the service as sent (and a service refusing too many of them looked like a 502 of ours). The
 * gateway's signed identity is added after.
 */
const FORWARDED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  // Set by the proxy itself for its own connection to the service (keep-alive), never the client's.
  'connection',
  'accept',
  'content-type',
  'content-length',
  // A body the client says is compressed: the service refuses it (415) rather than read it as JSON.
  'content-encoding',
  'last-event-id',
  REQUEST_ID_HEADER.toLowerCase(),
  CLIENT_ID_HEADER.toLowerCase(),
  // A task write's retry key: svc-todos applies a write once per user and key (docs/PRODUCT.md §7).
  IDEMPOTENCY_KEY_HEADER.toLowerCase(),
  ...Object.values(IDENTITY_HEADERS),
  // The gateway's own trace context (upstream.proxy.ts writes it); a client's is dropped in prepareForUpstream.
  ...TRACE_HEADERS,
]);

/**
 * Whether a header of the client's request goes on to a service. Applied to the outgoing request only
 * (upstream.proxy.ts): the gateway itself still reads the request as the client sent it (its
 * Accept-Encoding, for one, decides how the answer is compressed).
 */
export function forwardedHeader(name: string): boolean {
  return FORWARDED_HEADERS.has(name.toLowerCase());
}

/** `.` and `..` segments (plain or percent-encoded), empty segments and encoded slashes: nothing a real client sends. */
const PATH_TRICKS = /(^|\/)(\.|%2e){1,2}(\/|$)|\/\/|%2f|%5c|\\/i;

export interface ForwardOptions {
  /** Pass the page's `X-Client-Id` on (svc-todos: the change events carry it back as `origin`); else it is dropped. */
  clientId?: boolean;
}

/** The page's `X-Client-Id` when it is well-formed (CLIENT_ID_PATTERN), else undefined. */
function clientIdOf(ctx: Context): string | undefined {
  const value = ctx.get(CLIENT_ID_HEADER);
  return CLIENT_ID_PATTERN.test(value) ? value : undefined;
}

/**
 * Prepares the raw request for a service: the /api prefix removed, the client's identity headers dropped
 * (and `X-Client-Id` unless wanted and well-formed), and the gateway's signed statement of who is calling
 * added. Only the headers of FORWARDED_HEADERS then leave for the service (upstream.proxy.ts). A path with dot segments or encoded slashes is refused with 404 here,
 * so a forwarded path always stays under the service's public prefix (`/user/…`, `/todo/…`) and never
 * reaches `/internal`.
 */
function prepareForUpstream(ctx: Context, secret: string, userId: string, options: ForwardOptions = {}): void {
  const req = ctx.req;
  if (PATH_TRICKS.test(ctx.path)) throw new NotFoundError(`Route not found: ${ctx.method} ${ctx.path}`, ErrorCode.routeNotFound);
  req.url = (req.url ?? '/').slice(API_PREFIX.length) || '/';
  // Identity headers a client sent are replaced below; an X-Client-Id goes on only when wanted and well-formed.
  for (const header of Object.values(IDENTITY_HEADERS)) Reflect.deleteProperty(req.headers, header);
  // A browser's trace context continues in the gateway's server span; only the gateway's goes on (or none).
  for (const header of TRACE_HEADERS) Reflect.deleteProperty(req.headers, header);
  if (!(options.clientId && clientIdOf(ctx))) Reflect.deleteProperty(req.headers, CLIENT_ID_HEADER.toLowerCase());
  Object.assign(
    req.headers,
    signIdentity(secret, { method: req.method ?? 'GET', url: req.url, userId, requestId: ctx.requestId }),
  );
}

export interface OwnCall {
  method: UpstreamCall['method'];
  path: string;
  /** '' for an anonymous call (signup, login). */
  userId: string;
  body?: unknown;
  /** The contract of a successful answer. */
  contract: z.ZodType;
}

/**
 * A call the gateway makes itself, vouching for `userId`; the answer is checked like a forwarded one.
 * Resolves to the answer and its parsed body (4xx and 5xx answers included: the caller decides).
 */
export async function callService(ctx: Context, upstream: Upstream, secret: string, call: OwnCall) {
  const { method, path, userId, body, contract } = call;
  const headers = { [REQUEST_ID_HEADER]: ctx.requestId, ...signIdentity(secret, { method, url: path, userId, requestId: ctx.requestId }) };
  const answer = await upstream.call({ method, path, headers, body });
  return { answer, body: checkAnswer(upstream.name, answer, contract) };
}

/** The public API table's paths as the gateway serves them, for naming a forwarded request's span. */
const TRACED_ROUTES = Object.values(API).map(({ method, path }) => ({
  method,
  route: `${API_PREFIX}${path}`,
  pattern: new RegExp(`^${API_PREFIX}${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
}));

/**
 * Names the server span of a forwarded request after its route in the API table (`PUT
 * /api/todo/update-todo/:todoId`) rather than the catch-all it matched (`/api/todo/{*rest}`). Only when
 * tracing is on.
 */
function nameForwardedSpan(ctx: Context): void {
  if (!tracingEnabled()) return;
  const found = TRACED_ROUTES.find(({ method, pattern }) => method === ctx.method && pattern.test(ctx.path));
  if (found) nameServerSpan(ctx, found.route);
}

/**
 * Forwards the request to `upstream` as `userId` (or anonymously with ''), checks the answer against the
 * route's contract, and sends it on. HEAD answers carry no body to check.
 */
export function forwardTo(upstream: Upstream, secret: string, userOf: (ctx: Context) => string, options: ForwardOptions = {}): Middleware {
  return async (ctx) => {
    nameForwardedSpan(ctx);
    prepareForUpstream(ctx, secret, userOf(ctx), options);
    const answer = await upstream.capture(ctx.req, ctx.res);
    if (ctx.method === 'HEAD') {
      ctx.status = answer.status;
      return;
    }
    checkAnswer(upstream.name, answer, contractOf(ctx.method, ctx.req.url ?? '/'));
    relay(ctx, answer);
  };
}

/**
 * Forwards a download (GET /api/todo/export, docs/PRODUCT.md §10.23) as {@link forwardTo} forwards a call, its
 * answer checked as a download (checkDownload: an attachment, JSON by the route's contract or CSV) and sent
 * on with its type and file name.
 */
export function forwardDownload(upstream: Upstream, secret: string, userOf: (ctx: Context) => string): Middleware {
  return async (ctx) => {
    nameForwardedSpan(ctx);
    prepareForUpstream(ctx, secret, userOf(ctx), {});
    const answer = await upstream.capture(ctx.req, ctx.res);
    checkDownload(upstream.name, answer, contractOf(ctx.method, ctx.req.url ?? '/'));
    relayDownload(ctx, answer);
  };
}
