import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { TodoResponse } from '@tm/contracts';
import { ApiClient, type RunningStack, signUp, startStack } from '@tm/test-support';

/**
 * Traces across processes (docs/OPERATIONS.md "Traces"): the three built processes (gateway,
 * svc-users, svc-todos) export to an OTLP/HTTP receiver of this test's own, and a request through the
 * gateway is one trace, parent to child, across the processes it touches: a sign-in gateway → svc-users, an
 * add gateway → svc-todos (the session lives at the gateway: an add never reaches svc-users). Log lines of
 * the request carry its trace id, and a browser's valid `traceparent` is kept.
 */

/** The OTLP span kinds (opentelemetry-proto trace.proto, `Span.SpanKind`). */
const KIND = { internal: 1, server: 2, client: 3 } as const;

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  return value.doubleValue;
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
}

/** Ids as hex: the OTLP/JSON encoding asks for hex; a base64 one (protobuf's JSON mapping) is converted. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

/** An OTLP/HTTP receiver (JSON): `POST /v1/traces`, as a collector takes them; keeps every span. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; bodies: () => number; close: () => Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  let bodies = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('application/json')) {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as OtlpExport;
      bodies += 1;
      for (const { resource, scopeSpans } of body.resourceSpans) {
        const service = String(attributesOf(resource.attributes)['service.name']);
        for (const { spans: list } of scopeSpans) {
          for (const span of list) {
            spans.push({
              service,
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              name: span.name,
              kind: span.kind,
              start: BigInt(span.startTimeUnixNano),
              end: BigInt(span.endTimeUnixNano),
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies: () => bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let stack: RunningStack;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startStack({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Spans leave within 50 ms instead of 5 s: the test waits for them.
      OTEL_BSP_SCHEDULE_DELAY: '50',
      // The stack turns the per-IP sign-in limit off; on here, so its check is a span of the sign-in.
      AUTH_RATE_LIMIT: '1000',
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** The spans of `traceId` once `done` holds for them (spans arrive in batches from three processes). */
async function traceOf(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    if (done(spans) || Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The one span named `name` of `service` among `spans` (fails the test, naming what there is, otherwise). */
function only(spans: ReceivedSpan[], service: string, name: string): ReceivedSpan {
  const found = spans.filter((span) => span.service === service && span.name === name);
  if (found.length !== 1) {
    throw new Error(`expected one span ${service} "${name}", found ${found.length} among: ${spans.map((s) => `${s.service} "${s.name}"`).join(', ')}`);
  }
  return found[0] as ReceivedSpan;
}

/**
 * How far two spans' times may be off from each other: the SDK starts a span at `Date.now()` (whole
 * milliseconds) and ends it that plus a precise duration, so an end can read up to 1 ms early.
 */
const CLOCK_STEP_NS = 1_000_000n;

/** `a` ended no later than `b` started, to within the clock's step. */
function before(a: ReceivedSpan, b: ReceivedSpan): boolean {
  return a.end <= b.start + CLOCK_STEP_NS;
}

/** `child` is a child of `parent` and lies within it in time (to within the clock's step). */
function expectChildOf(child: ReceivedSpan, parent: ReceivedSpan): void {
  expect({ child: child.name, parent: child.parentSpanId }).toEqual({ child: child.name, parent: parent.spanId });
  expect(child.traceId).toBe(parent.traceId);
  expect({ child: child.name, startsInside: child.start >= parent.start, endsInside: child.end <= parent.end + CLOCK_STEP_NS }).toEqual({
    child: child.name,
    startsInside: true,
    endsInside: true,
  });
}

/** The trace id of the gateway's server span of the request `requestId`. */
async function traceIdOfRequest(requestId: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const server = receiver.spans.find((span) => span.service === 'gateway' && span.kind === KIND.server && span.attributes['tm.request_id'] === requestId);
    if (server) return server.traceId;
    if (Date.now() > deadline) throw new Error(`no gateway server span with tm.request_id ${requestId} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('traces across the gateway and the services (OTLP to a receiver of our own)', () => {
  let client: ApiClient;
  let account: { email: string; password: string };

  beforeAll(async () => {
    const signedUp = await signUp(stack.url);
    client = signedUp.client;
    account = { email: signedUp.email, password: signedUp.password };
  });

  it('an add is one trace: gateway request → its upstream call → svc-todos route → its store call', async () => {
    const added = await client.post<TodoResponse>('/api/todo/add-todo', { title: 'traced task' });
    expect(added.status).toBe(201);
    const requestId = added.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    const traceId = await traceIdOfRequest(requestId);

    const spans = await traceOf(traceId, (list) => list.some((span) => span.name === 'store.create'));
    // One trace for the request: every server span carrying its request id, in both processes, is in it.
    const ofRequest = receiver.spans.filter((span) => span.attributes['tm.request_id'] === requestId);
    expect(new Set(ofRequest.map((span) => span.service))).toEqual(new Set(['gateway', 'svc-todos']));
    expect(new Set(ofRequest.map((span) => span.traceId))).toEqual(new Set([traceId]));
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['gateway', 'svc-todos']));

    const request = only(spans, 'gateway', 'POST /api/todo/add-todo');
    expect(request.kind).toBe(KIND.server);
    expect(request.parentSpanId).toBe('');
    expect(request.attributes).toMatchObject({ 'http.route': '/api/todo/add-todo', 'http.response.status_code': 201 });
    const session = only(spans, 'gateway', 'session.lookup');
    const xsrf = only(spans, 'gateway', 'xsrf.check');
    const upstream = only(spans, 'gateway', 'upstream todos');
    expect(upstream.kind).toBe(KIND.client);
    expect(upstream.attributes).toMatchObject({ 'http.request.method': 'POST', 'url.path': '/todo/add-todo', 'http.response.status_code': 201 });
    const route = only(spans, 'svc-todos', 'POST /todo/add-todo');
    expect(route.kind).toBe(KIND.server);
    const store = only(spans, 'svc-todos', 'store.create');
    expect(store.attributes).toMatchObject({ 'db.system.name': 'sqlite' });

    for (const step of [session, xsrf, upstream]) expectChildOf(step, request);
    // The session is looked up, then the token checked, then the service called: in that order.
    expect(before(session, xsrf) && before(xsrf, upstream)).toBe(true);
    expect(route.parentSpanId).toBe(upstream.spanId);
    expectChildOf(store, route);
  });

  it('a sign-in is one trace: gateway request, its checks and upstream call → svc-users route → store and hashing', async () => {
    const fresh = new ApiClient(stack.url);
    await fresh.get('/api/user/me');
    const login = await fresh.post('/api/user/login', account);
    expect(login.status).toBe(200);
    const requestId = login.headers.get('x-request-id') ?? '';
    const traceId = await traceIdOfRequest(requestId);
    const spans = await traceOf(traceId, (list) => ['password.verify', 'store.findByEmail', 'session.save'].every((name) => list.some((span) => span.name === name)));
    // svc-users' closing line of the call carries the trace too.
    const usersLine = stack.users.logs.find((line) => (line.req as { id?: unknown } | undefined)?.id === requestId);
    expect(usersLine).toMatchObject({ msg: 'request completed', trace_id: traceId });
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['gateway', 'svc-users']));

    const request = only(spans, 'gateway', 'POST /api/user/login');
    const limit = only(spans, 'gateway', 'rate-limit.check');
    expect(limit.attributes).toMatchObject({ 'tm.limiter': 'tm:rl:auth' });
    const throttle = only(spans, 'gateway', 'account-throttle.check');
    const upstream = only(spans, 'gateway', 'upstream users');
    for (const step of [limit, throttle, upstream, only(spans, 'gateway', 'xsrf.check'), only(spans, 'gateway', 'account-throttle.succeeded')]) {
      expectChildOf(step, request);
    }
    const route = only(spans, 'svc-users', 'POST /user/login');
    expect(route.parentSpanId).toBe(upstream.spanId);
    expectChildOf(only(spans, 'svc-users', 'store.findByEmail'), route);
    expectChildOf(only(spans, 'svc-users', 'password.verify'), route);
  });

  it('puts the trace and span ids in every log line of the request, in each process', async () => {
    const added = await client.post<TodoResponse>('/api/todo/add-todo', { title: 'logged task' });
    expect(added.status).toBe(201);
    const requestId = added.headers.get('x-request-id') ?? '';
    const traceId = await traceIdOfRequest(requestId);
    const spans = await traceOf(traceId, (list) => list.some((span) => span.name === 'POST /todo/add-todo'));
    const spanIds = new Set(spans.map((span) => span.spanId));
    for (const process of [stack.gateway, stack.todos]) {
      // Lines logged during the request carry `reqId`; pino-http's closing line has it as `req.id`.
      const lines = process.logs.filter((line) => line.reqId === requestId || (line.req as { id?: unknown } | undefined)?.id === requestId);
      // At least the "request completed" line, written as the answer leaves.
      expect(lines.some((line) => line.msg === 'request completed')).toBe(true);
      for (const line of lines) {
        expect(line.trace_id).toBe(traceId);
        expect(spanIds.has(String(line.span_id))).toBe(true);
      }
    }
  });

  it("keeps the trace id of a browser's valid traceparent, and starts a trace of its own for an invalid one", async () => {
    const browserTrace = randomBytes(16).toString('hex');
    const browserSpan = randomBytes(8).toString('hex');
    const kept = await client.post<TodoResponse>('/api/todo/add-todo', { title: 'from the page' }, { headers: { traceparent: `00-${browserTrace}-${browserSpan}-01` } });
    expect(kept.status).toBe(201);
    expect(await traceIdOfRequest(kept.headers.get('x-request-id') ?? '')).toBe(browserTrace);
    const spans = await traceOf(browserTrace, (list) => list.some((span) => span.name === 'store.create'));
    const request = only(spans, 'gateway', 'POST /api/todo/add-todo');
    expect(request.parentSpanId).toBe(browserSpan);
    // The service continues the gateway's span, never the browser's header passed on as it came.
    expect(only(spans, 'svc-todos', 'POST /todo/add-todo').parentSpanId).toBe(only(spans, 'gateway', 'upstream todos').spanId);

    const bogusTrace = 'f'.repeat(32);
    const invalid = await client.post<TodoResponse>('/api/todo/add-todo', { title: 'bad header' }, { headers: { traceparent: `00-${bogusTrace}-zzzz-01` } });
    expect(invalid.status).toBe(201);
    const started = await traceIdOfRequest(invalid.headers.get('x-request-id') ?? '');
    expect(started).toMatch(/^[0-9a-f]{32}$/);
    expect(started).not.toBe(bogusTrace);
    const own = await traceOf(started, (list) => list.some((span) => span.name === 'store.create'));
    expect(only(own, 'gateway', 'POST /api/todo/add-todo').parentSpanId).toBe('');
    expect(receiver.spans.some((span) => span.traceId === bogusTrace)).toBe(false);
  });

  it('traces the live stream relay at the gateway until the stream ends, and no probe', async () => {
    const controller = new AbortController();
    const response = await fetch(`${stack.url}/api/todo/events`, { headers: { cookie: client.cookieHeader(), accept: 'text/event-stream' }, signal: controller.signal });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id') ?? '';
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await reader?.cancel().catch(() => undefined);
    const traceId = await traceIdOfRequest(requestId);
    const spans = await traceOf(traceId, (list) => list.some((span) => span.name === 'events.relay') && list.some((span) => span.service === 'svc-todos'));
    const request = only(spans, 'gateway', 'GET /api/todo/events');
    const relay = only(spans, 'gateway', 'events.relay');
    expectChildOf(relay, request);
    expect(relay.attributes['tm.stream.end_reason']).toBe('client gone');
    const upstream = only(spans, 'gateway', 'upstream todos');
    expectChildOf(upstream, relay);
    expect(only(spans, 'svc-todos', 'GET /todo/events').parentSpanId).toBe(upstream.spanId);

    // Probes are not traced: once a later request's spans are in, none of theirs came before them.
    await fetch(`${stack.url}/healthz`);
    await fetch(`${stack.todos.url}/healthz`);
    const after = await client.get('/api/user/me');
    const afterTrace = await traceIdOfRequest(after.headers.get('x-request-id') ?? '');
    const afterSpans = await traceOf(afterTrace, (list) => list.some((span) => span.name === 'GET /user/me'));
    expect(afterSpans.some((span) => span.service === 'svc-users' && span.name === 'GET /user/me')).toBe(true);
    expect(receiver.spans.some((span) => span.attributes['url.path'] === '/healthz')).toBe(false);
  });
});
