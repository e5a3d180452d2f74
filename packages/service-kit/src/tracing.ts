import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { withoutCalendarFeedToken } from '@tm/contracts';
import { suppressTracing, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { Context } from 'koa';
import type { Logger } from 'pino';

/*
 * Traces across the gateway and the services (docs/OPERATIONS.md "Traces").
 *
 * Why explicit spans, and not @opentelemetry/auto-instrumentations-node: auto-instrumentation patches
 * `http`, `koa`, the Redis and MongoDB drivers through require hooks. Every request would then pay for a span
 * per Koa middleware and per driver call whether anyone reads them or not, named after the library's
 * internals, and the cost would hide inside patched modules where `pnpm bench` cannot point at it. Here the
 * handful of spans an operator asks about (the request, the session look-up, the XSRF and throttle checks,
 * the upstream call, the service's route and its store call, the live stream's relay) are started by our own
 * code where the work happens, under the names docs/OPERATIONS.md lists.
 *
 * Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. Off, the SDK is
 * never started: the @opentelemetry/api calls below reach its no-op tracer, and the helpers here do not even
 * call those: they check one flag and run the work directly (the cost of "off" is that flag).
 */

const TRACER_NAME = '@tm/service-kit';
/** The request id of our logs (logger.ts), on the server span: from a complaint's id to its trace. */
export const REQUEST_ID_ATTRIBUTE = 'tm.request_id';
/** Paths never traced: probes and scrapes, every few seconds, say nothing about a user's request. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

let provider: NodeTracerProvider | undefined;
let tracer: Tracer | undefined;
/** The server span of each request being served (the Koa middleware renames it once the route is known). */
const serverSpans = new WeakMap<IncomingMessage, Span>();
/** Server spans already named by {@link nameServerSpan}: the first, most specific, name stays. */
const namedSpans = new WeakSet<Span>();

export interface TracingStatus {
  enabled: boolean;
  /** Where spans go (the endpoint variable's value), when enabled. */
  endpoint?: string;
}

/** Whether this process exports traces (startTracing found an endpoint). */
export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

function endpointOf(env: NodeJS.ProcessEnv): string | undefined {
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
}

/**
 * The endpoint checked (an http(s) URL, else the process stops at start-up, as for any bad variable:
 * config.ts) and made fit to log: without a user name or password, should the URL carry one.
 */
function checkedEndpoint(endpoint: string, env: NodeJS.ProcessEnv): string {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Invalid configuration:\n  ${variable}: must be an http:// or https:// URL (an OTLP/HTTP receiver, e.g. http://otel-collector:4318)`);
  }
  url.username = '';
  url.password = '';
  return url.toString();
}

/**
 * Starts the OpenTelemetry SDK for this process when an OTLP endpoint is configured; else does nothing.
 * `serviceName` is the default `service.name` (`OTEL_SERVICE_NAME` overrides it, as do
 * `OTEL_RESOURCE_ATTRIBUTES`). Spans leave in batches over OTLP/HTTP as JSON (`OTEL_BSP_*` tune the batches,
 * `OTEL_TRACES_SAMPLER` the sampling: parent-based always-on by default). Only the W3C `traceparent` /
 * `tracestate` headers are read and written: no baggage is taken from a browser.
 */
export function startTracing(serviceName: string, logger?: Logger, env: NodeJS.ProcessEnv = process.env): TracingStatus {
  const endpoint = endpointOf(env);
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return { enabled: false };
  if (provider) return { enabled: true, endpoint };
  const shown = checkedEndpoint(endpoint, env);
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && protocol !== 'http/json') {
    // Every OTLP/HTTP receiver (the collector, Jaeger, Tempo) takes JSON on the same port as protobuf; the
    // protobuf and gRPC exporters would add their encoders to every image for no gain here.
    logger?.warn({ protocol }, 'OTLP protocol not supported here: traces are sent as http/json');
  }
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }).merge(detectResources({ detectors: [envDetector] }));
  provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  tracer = trace.getTracer(TRACER_NAME);
  logger?.info({ endpoint: shown, serviceName: resource.attributes[ATTR_SERVICE_NAME] }, 'tracing on: spans exported over OTLP/HTTP');
  return { enabled: true, endpoint };
}

/** How long a stopping process waits for its last spans to leave: a receiver that is down must not hold the exit. */
const FLUSH_AT_EXIT_MS = 2_000;

/**
 * Sends the spans still queued and stops the SDK (graceful shutdown), waiting {@link FLUSH_AT_EXIT_MS} at
 * most; nothing when tracing is off.
 */
export async function stopTracing(): Promise<void> {
  const running = provider;
  if (!running) return;
  provider = undefined;
  tracer = undefined;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FLUSH_AT_EXIT_MS);
    timer.unref();
  });
  try {
    await Promise.race([running.shutdown(), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** Marks the span failed by `error`: a client error (a 4xx the caller answers) is an outcome, not a failure. */
function recordError(span: Span, error: unknown): void {
  const status = (error as { status?: unknown } | null)?.status;
  const code = (error as { code?: unknown } | null)?.code;
  span.setAttribute(ATTR_ERROR_TYPE, typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown');
  if (typeof status === 'number' && status < 500) return;
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * Runs `work` inside a new span named `name`, child of the active one, which ends when `work` settles (a
 * thrown error is recorded on it). Tracing off: runs `work` at once, with no span.
 */
export function withSpan<T>(name: string, work: (span: Span | undefined) => T, options: SpanOptions = {}): T {
  const active = tracer;
  if (!active) return work(undefined);
  return active.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} }, (span) => {
    let result: T;
    try {
      result = work(span);
    } catch (error) {
      recordError(span, error);
      span.end();
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          recordError(span, error);
          span.end();
          throw error;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

/** A span the caller ends itself (a stream's life), and runs work inside. */
export interface OpenSpan {
  /** Runs `work` with this span active (its child spans, its log lines). */
  run<T>(work: () => T): T;
  setAttribute(key: string, value: string | number | boolean): void;
  /** Ends it; with an error, recorded as for {@link withSpan}. Later calls do nothing. */
  end(error?: unknown): void;
}

const NO_SPAN: OpenSpan = { run: (work) => work(), setAttribute: () => undefined, end: () => undefined };

/** Starts a span that lives until {@link OpenSpan.end}: a live stream's relay. Tracing off: a no-op. */
export function openSpan(name: string, options: SpanOptions = {}): OpenSpan {
  const active = tracer;
  if (!active) return NO_SPAN;
  const span = active.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} });
  const inside = trace.setSpan(context.active(), span);
  let ended = false;
  return {
    run: (work) => context.with(inside, work),
    setAttribute: (key, value) => span.setAttribute(key, value),
    end: (error) => {
      if (ended) return;
      ended = true;
      if (error !== undefined) recordError(span, error);
      span.end();
    },
  };
}

/**
 * Writes the active span's context as `traceparent` (and `tracestate`) into the headers of an outgoing
 * request, so the next process continues the trace. Nothing when tracing is off.
 */
export function injectTraceHeaders(headers: Record<string, unknown>): void {
  if (tracer) propagation.inject(context.active(), headers);
}

/** Headers a client may send that only this process's own propagation may set on a request to a service. */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

/**
 * Runs `work` with no active span and tracing suppressed: background work (a live stream's wake-ups, one a
 * heartbeat per stream) is not a part of whichever request happened to wake it, and would otherwise add a
 * span per stream per heartbeat.
 */
export function untraced<T>(work: () => T): T {
  return tracer ? context.with(suppressTracing(ROOT_CONTEXT), work) : work();
}

/**
 * Wraps the methods `methods` of `target` (a store, a hasher) so that each call is a span `<prefix>.<method>`
 * with `attributes`; the other members are untouched. Tracing off: `target` itself, unchanged.
 */
export function traceMethods<T extends object>(
  target: T,
  prefix: string,
  methods: readonly (keyof T & string)[],
  attributes: Attributes = {},
): T {
  if (!tracer) return target;
  /** The wrappers, and the other methods bound to `target` once (its code may rely on its own `this`). */
  const wrapped = new Map<PropertyKey, unknown>();
  for (const method of methods) {
    const original = target[method];
    if (typeof original !== 'function') throw new Error(`traceMethods: ${prefix}.${method} is not a method`);
    const name = `${prefix}.${method}`;
    const callable = original as (...args: unknown[]) => unknown;
    wrapped.set(method, (...args: unknown[]) => withSpan(name, () => callable.apply(target, args), { attributes }));
  }
  return new Proxy(target, {
    get: (object, key) => {
      if (wrapped.has(key)) return wrapped.get(key);
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      wrapped.set(key, bound);
      return bound;
    },
  });
}

/**
 * The server span of every request `listener` serves (the request of docs/OPERATIONS.md "Traces"): it
 * continues the trace of a valid W3C `traceparent` (a browser's at the gateway, the gateway's at a service)
 * or starts one, and the whole request runs inside it, answer and log lines included (the context is set
 * around Koa's own handler, so pino-http's closing line carries the trace id too). It ends when the response
 * closes, with the status and, set by the Koa middleware {@link nameServerSpan}, the route. Tracing off:
 * `listener` itself.
 */
export function traceRequests(listener: (req: IncomingMessage, res: ServerResponse) => unknown): (req: IncomingMessage, res: ServerResponse) => void {
  const active = tracer;
  // Koa's listener returns a promise nobody waits for (its own error handling settles it), as with app.listen.
  if (!active) return listener;
  return (req, res) => {
    // A calendar feed's token is its only key: never in a trace (SECURITY.md "Calendar feed").
    const path = withoutCalendarFeedToken((req.url ?? '/').split('?', 1)[0] ?? '/');
    if (UNTRACED_PATHS.has(path)) {
      void listener(req, res);
      return;
    }
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = active.startSpan(method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: path } }, parent);
    serverSpans.set(req, span);
    const endSpan = () => {
      const status = res.statusCode;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      const requestId = res.getHeader('x-request-id');
      if (typeof requestId === 'string') span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!res.writableFinished) span.setAttribute(ATTR_ERROR_TYPE, 'response not finished');
      span.end();
    };
    // Ended after the response's other 'close' listeners, which end the spans they own (a stream's relay).
    res.once('close', () => setImmediate(endSpan));
    void context.with(trace.setSpan(parent, span), () => listener(req, res));
  };
}

/**
 * Names the request's server span `<METHOD> <route>` (`POST /todo/add-todo`) and sets `http.route`: a
 * route pattern, never the raw path, so ids in paths do not become span names. The first name given
 * stays: the code that knows the route best names it first (the gateway's forwarding, from the API
 * table), the metrics middleware (Koa's matched route) last, on the way out. Does nothing when the request
 * is not traced.
 */
export function nameServerSpan(ctx: Context, route: string): void {
  const span = tracer ? serverSpans.get(ctx.req) : undefined;
  if (!span || namedSpans.has(span)) return;
  namedSpans.add(span);
  span.updateName(`${ctx.method} ${route}`);
  span.setAttribute(ATTR_HTTP_ROUTE, route);
}

export { SpanKind };
