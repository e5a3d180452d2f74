import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@tm/contracts';
import { HttpError } from '@tm/service-kit';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';

/** A response read in full from an upstream, handed back to Koa (login and signup). */
export interface CapturedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Upstream {
  /** Pipes the upstream's answer straight to the client; resolves when the response is closed. */
  stream(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Reads the upstream's answer into memory so the gateway can act on it before replying. */
  capture(req: IncomingMessage, res: ServerResponse): Promise<CapturedResponse>;
  close(): void;
}

export interface UpstreamOptions {
  /** Human name for messages: "users", "todos". */
  name: string;
  target: string;
  timeoutMs: number;
  /** While the gateway drains, proxied answers too must tell the client to close its connection. */
  isDraining?: () => boolean;
}

const MAX_CAPTURED_BYTES = 64 * 1024;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

class UpstreamTimeout extends Error {
  readonly code = 'UPSTREAM_TIMEOUT';
}

interface Pending {
  resolve: (captured?: CapturedResponse) => void;
  reject: (error: Error) => void;
}

/** Maps a proxy failure to an honest status: 503 unreachable, 504 too slow, 502 anything else. */
export function upstreamError(name: string, error: NodeJS.ErrnoException): HttpError {
  if (error instanceof UpstreamTimeout) {
    return new HttpError(504, `The ${name} service took too long to answer`, ErrorCode.upstreamTimeout);
  }
  if (error.code && UNREACHABLE.has(error.code)) {
    return new HttpError(503, `The ${name} service is unavailable, please try again shortly`, ErrorCode.upstreamUnavailable);
  }
  return new HttpError(502, `The ${name} service failed to answer`, ErrorCode.badGateway);
}

/**
 * One upstream service behind http-proxy-middleware, in two modes sharing a keep-alive agent. The proxy
 * owns streaming responses; per-request state travels in a WeakMap keyed by the raw request.
 */
export function createUpstream({ name, target, timeoutMs, isDraining = () => false }: UpstreamOptions): Upstream {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const pending = new WeakMap<IncomingMessage, Pending>();
  const common = {
    target,
    agent,
    xfwd: true,
    changeOrigin: false,
    on: {
      proxyReq: (proxyReq: ClientRequest) => {
        proxyReq.setTimeout(timeoutMs, () => proxyReq.destroy(new UpstreamTimeout('upstream timeout')));
      },
      // http-proxy copies the upstream's Connection header to the client: override it while draining.
      proxyRes: (proxyRes: IncomingMessage) => {
        if (isDraining()) proxyRes.headers.connection = 'close';
      },
      error: (error: Error, req: IncomingMessage, res: ServerResponse | Socket) => {
        const waiting = pending.get(req);
        if (waiting && 'headersSent' in res && !res.headersSent) {
          waiting.reject(upstreamError(name, error));
        } else {
          res.destroy();
          waiting?.resolve();
        }
      },
    },
  };
  const streaming = createProxyMiddleware({ ...common });
  const capturing = createProxyMiddleware({
    ...common,
    selfHandleResponse: true,
    on: { ...common.on, proxyRes: (proxyRes, req) => collect(proxyRes, pending.get(req)) },
  });

  const run = (handler: RequestHandler, req: IncomingMessage, res: ServerResponse, streamed: boolean) =>
    new Promise<CapturedResponse | undefined>((resolve, reject) => {
      pending.set(req, { resolve, reject });
      if (streamed) res.once('close', () => resolve(undefined));
      handler(req, res, (error?: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
    });

  return {
    stream: async (req, res) => {
      await run(streaming, req, res, true);
    },
    capture: async (req, res) => {
      const captured = await run(capturing, req, res, false);
      if (!captured) throw upstreamError(name, new Error('no response'));
      return captured;
    },
    close: () => agent.destroy(),
  };
}

function collect(proxyRes: IncomingMessage, waiting: Pending | undefined): void {
  if (!waiting) return;
  const chunks: Buffer[] = [];
  let size = 0;
  proxyRes.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_CAPTURED_BYTES) proxyRes.destroy(new Error('upstream response too large'));
    else chunks.push(chunk);
  });
  proxyRes.on('error', (error) => waiting.reject(upstreamError('upstream', error)));
  proxyRes.on('end', () =>
    waiting.resolve({
      status: proxyRes.statusCode ?? 502,
      contentType: String(proxyRes.headers['content-type'] ?? ''),
      body: Buffer.concat(chunks),
    }),
  );
}
