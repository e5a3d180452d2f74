import { Agent, request, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@tm/contracts';
import { injectTraceHeaders, SpanKind, tracingEnabled, withSpan, type HttpError } from '@tm/service-kit';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { UpstreamFailure } from './upstream-failures.js';

/** A response read in full from an upstream, checked by the gateway before anything is sent on. */
export interface CapturedResponse {
  status: number;
  contentType: string;
  /** `Retry-After`, when the service sent one. */
  retryAfter?: string;
  /** `Content-Disposition`, when the service sent one (a download, docs/PRODUCT.md §10.23). */
  contentDisposition?: string;
  body: Buffer;
}

/** A request the gateway makes itself (account deletion, password checks), not one it forwards. */
export interface UpstreamCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Upstream {
  /** Human name for messages: "users", "todos". */
  readonly name: string;
  /** Forwards the client's request and reads the answer into memory; nothing reaches the client yet. */
  capture(req: IncomingMessage, res: ServerResponse): Promise<CapturedResponse>;
  /** Makes a request of the gateway's own and reads the answer. */
  call(call: UpstreamCall): Promise<CapturedResponse>;
  /**
   * Opens a long-lived request (the live stream): resolves with the answer as soon as its head arrives,
   * within the timeout (else the usual 504/503/502); after that there is no time limit, and the body is the
   * caller's to read. `signal` aborts it at any point. Streams use sockets of their own, so they never
   * hold the keep-alive pool the other calls share.
   */
  open(call: Omit<UpstreamCall, 'body'>, signal: AbortSignal): Promise<IncomingMessage>;
  close(): void;
}

export interface UpstreamOptions {
  /** Human name for messages: "users", "todos". */
  name: string;
  target: string;
  timeoutMs: number;
  /** Which headers of a forwarded request go on to the service (all when absent). */
  forwardsHeader?: (name: string) => boolean;
}

/** Largest answer the gateway reads from a service: 10 000 tasks of 500 characters fit, with room to spare. */
const MAX_CAPTURED_BYTES = 32 * 1024 * 1024;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

class UpstreamTimeout extends Error {
  readonly code = 'UPSTREAM_TIMEOUT';
}

interface Pending {
  resolve: (captured: CapturedResponse) => void;
  reject: (error: Error) => void;
}

/** Maps a proxy failure to an honest status: 503 unreachable, 504 too slow, 502 anything else. */
function upstreamError(name: string, error: NodeJS.ErrnoException): HttpError {
  if (error instanceof UpstreamTimeout) {
    return new UpstreamFailure(name, 'timeout', 504, `The ${name} service took too long to answer`, ErrorCode.upstreamTimeout);
  }
  if (error.code && UNREACHABLE.has(error.code)) {
    return new UpstreamFailure(name, 'unreachable', 503, `The ${name} service is unavailable, please try again shortly`, ErrorCode.upstreamUnavailable);
  }
  return new UpstreamFailure(name, 'failed', 502, `The ${name} service failed to answer`, ErrorCode.badGateway);
}

/**
 * Runs one call to the service `name` as the span `upstream <name>` of the request's trace (a client span),
 * its context written into `headers` as `traceparent` so the service's own spans join the trace
 * (docs/OPERATIONS.md "Traces"). Tracing off: the call alone.
 */
function traced<T>(
  name: string,
  target: URL,
  call: { method: string; path: string; headers: Record<string, unknown> },
  statusOf: (answer: T) => number | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return work();
  const attributes = {
    'http.request.method': call.method,
    'server.address': target.hostname,
    'server.port': Number(target.port) || 80,
    'url.path': call.path.split('?', 1)[0] ?? '/',
    'tm.upstream': name,
  };
  return withSpan(
    `upstream ${name}`,
    async (span) => {
      injectTraceHeaders(call.headers);
      const answer = await work();
      const status = statusOf(answer);
      if (status !== undefined) span?.setAttribute('http.response.status_code', status);
      return answer;
    },
    { kind: SpanKind.CLIENT, attributes },
  );
}

/**
 * One upstream service. Client requests are forwarded by http-proxy-middleware (which streams the request
 * body and handles hop-by-hop headers); the answer is always read in full, so the gateway can check it
 * before the client sees anything (docs/ARCHITECTURE.md "Upstream answers"). The gateway's own calls use
 * plain `http.request` on the same keep-alive agent, with the same timeout and error mapping.
 */
export function createUpstream({ name, target, timeoutMs, forwardsHeader }: UpstreamOptions): Upstream {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const streamAgent = new Agent({ keepAlive: false });
  const pending = new WeakMap<IncomingMessage, Pending>();
  const fail = (error: Error) => upstreamError(name, error);
  const targetUrl = new URL(target);
  const capturedStatus = (answer: CapturedResponse) => answer.status;
  const proxy = createProxyMiddleware({
    target,
    agent,
    // No X-Forwarded-* for the services: they do not use the client's address (the gateway does the
    // counting), and a client's own X-Forwarded-For must never travel on.
    xfwd: false,
    changeOrigin: false,
    selfHandleResponse: true,
    on: {
      proxyReq: (proxyReq: ClientRequest) => {
        // The allow-list, on the outgoing copy of the headers only.
        if (forwardsHeader) for (const header of proxyReq.getHeaderNames()) if (!forwardsHeader(header)) proxyReq.removeHeader(header);
        proxyReq.setTimeout(timeoutMs, () => proxyReq.destroy(new UpstreamTimeout('upstream timeout')));
      },
      proxyRes: (proxyRes, req) => {
        const waiting = pending.get(req);
        if (waiting) collect(proxyRes, waiting, fail);
      },
      error: (error: Error, req: IncomingMessage, res: ServerResponse | Socket) => {
        const waiting = pending.get(req);
        if (waiting) waiting.reject(fail(error));
        else res.destroy();
      },
    },
  });

  return {
    name,
    capture: (req, res) =>
      traced(name, targetUrl, { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers }, capturedStatus, () =>
        new Promise<CapturedResponse>((resolve, reject) => {
          pending.set(req, { resolve, reject });
          void proxy(req, res, (error?: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
        }),
      ),
    // `headers` are built per call by the caller: the trace context is written into them.
    call: ({ method, path, headers, body }) => {
      return traced(name, targetUrl, { method, path, headers }, capturedStatus, () => new Promise<CapturedResponse>((resolve, reject) => {
        const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const outgoing = request(new URL(path, target), {
          method,
          agent,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
        });
        outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new UpstreamTimeout('upstream timeout')));
        outgoing.on('response', (answer) => collect(answer, { resolve, reject }, fail));
        outgoing.on('error', (error) => reject(fail(error)));
        outgoing.end(payload);
      }));
    },
    open: ({ method, path, headers }, signal) => {
      return traced(name, targetUrl, { method, path, headers }, (answer: IncomingMessage) => answer.statusCode, () => new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = request(new URL(path, target), { method, agent: streamAgent, headers, signal });
        const timer = setTimeout(() => outgoing.destroy(new UpstreamTimeout('upstream timeout')), timeoutMs);
        outgoing.on('response', (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        outgoing.on('error', (error) => {
          clearTimeout(timer);
          reject(fail(error));
        });
        outgoing.end();
      }));
    },
    close: () => {
      agent.destroy();
      streamAgent.destroy();
    },
  };
}

/** Reads an answer of {@link Upstream.open} in full (an error answer, not a stream), as the other calls are read. */
export function captureAnswer(name: string, answer: IncomingMessage): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => collect(answer, { resolve, reject }, (error) => upstreamError(name, error)));
}

function collect(answer: IncomingMessage, waiting: Pending, fail: (error: Error) => HttpError): void {
  const chunks: Buffer[] = [];
  let size = 0;
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_CAPTURED_BYTES) answer.destroy(new Error('upstream response too large'));
    else chunks.push(chunk);
  });
  answer.on('error', (error) => waiting.reject(fail(error)));
  answer.on('end', () => {
    const retryAfter = answer.headers['retry-after'];
    const contentDisposition = answer.headers['content-disposition'];
    waiting.resolve({
      status: answer.statusCode ?? 502,
      contentType: answer.headers['content-type'] ?? '',
      ...(retryAfter ? { retryAfter } : {}),
      ...(contentDisposition ? { contentDisposition } : {}),
      // A small answer arrives in one chunk: no copy then; else one copy of a known size.
      body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
    });
  });
}
