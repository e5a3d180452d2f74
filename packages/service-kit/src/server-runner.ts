import { createServer, type Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '@tm/contracts';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { StartupWatch } from './startup.js';
import { stopTracing, traceRequests } from './tracing.js';

export interface RunOptions {
  app: Koa;
  port: number;
  host: string;
  logger: Logger;
  /** Closes stores and other resources once no request is in flight. */
  close: () => Promise<void>;
  /** Called as soon as shutdown starts (readiness turns to 503). */
  onDrain?: () => void;
  /** Hard limit for a graceful stop; the process exits 0 within it (10 s, inside the grace periods of docs/DEPLOY.md). */
  shutdownTimeoutMs?: number;
  /** After the signal the listener closes; open connections keep being served this long (see config). */
  drainMs?: number;
  /** Limits on what a client may hold (the public gateway's; SECURITY.md "Limits and timeouts"). Services keep Node's defaults. */
  clientLimits?: ClientLimits;
  /** Called with the server before it listens (to watch its connections). */
  prepare?: (server: Server) => void;
  /**
   * The process's start-up bounds (startup.ts): the port is bound within its bound (LISTEN_TIMEOUT_MS), a port
   * already in use is said so, and once listening the start-up is over (the watchdog thread ends).
   */
  startup: StartupWatch;
  /** The variable that sets `port` (`PORT`, `TODOS_PORT`…), named in the line when the port cannot be bound. */
  portVariable: string;
}

/**
 * What one connection may take of a public server (SECURITY.md "Limits and timeouts"): a client
 * that sends its request slowly or never finishes it holds a socket and a file descriptor; these bound how
 * long, and how many the server keeps at once.
 */
export interface ClientLimits {
  /** Time to send a request's whole head; then the connection is closed (408). */
  headersTimeoutMs: number;
  /** Time to send a whole request, head and body. */
  requestTimeoutMs: number;
  /** Connections open at once; beyond, new ones are closed at once (0: no cap). */
  maxConnections: number;
  /** Largest request head in bytes; beyond it the answer is 431. */
  maxHeaderBytes: number;
  /** How long an idle keep-alive connection stays open (a load balancer's pool needs more than its own idle time). */
  keepAliveTimeoutMs: number;
}

/** A request head too large (431) or malformed (400): answered in JSON like every error, then closed. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, text, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', { message: 'The request headers are too large', code: ErrorCode.headersTooLarge }]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { message: 'The request took too long to arrive', code: ErrorCode.requestTimeout }]
        : [400, 'Bad Request', { message: 'The request is malformed', code: ErrorCode.malformedRequest }];
  const json = JSON.stringify(body);
  // Closed once written, whatever the client does: a client still sending (a slow one) must not keep it.
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`, () => socket.destroy());
}

export interface RunningServer {
  server: Server;
  port: number;
  stop: () => Promise<void>;
}

/**
 * Listens, and on SIGTERM/SIGINT stops gracefully: no new connections, idle keep-alive sockets closed,
 * in-flight requests finished, then `close()`, then exit 0. Anything still open after the timeout is cut.
 */
export async function runServer(options: RunOptions): Promise<RunningServer> {
  const { app, port, host, logger, close, onDrain, shutdownTimeoutMs = 9_000, drainMs = 0, clientLimits, prepare, startup, portVariable } = options;
  // The listener Koa gives (a function returning a promise Node does not wait for), as app.listen passes it;
  // each request inside its server span when tracing is on (tracing.ts), Koa's listener itself when not.
  const listener = traceRequests(app.callback());
  const server = clientLimits
    ? createServer(
        {
          maxHeaderSize: clientLimits.maxHeaderBytes,
          headersTimeout: clientLimits.headersTimeoutMs,
          requestTimeout: clientLimits.requestTimeoutMs,
          // How often Node looks for requests past those timeouts (its default, 30 s, would let a slow
          // client hold its socket 30 s longer than the limit says).
          connectionsCheckingInterval: Math.min(1000, clientLimits.headersTimeoutMs),
        },
        listener,
      )
    : createServer(listener);
  // Keep-alive sockets of a load balancer must outlive its own idle timeout (nginx: 60 s upstream keepalive).
  server.keepAliveTimeout = clientLimits?.keepAliveTimeoutMs ?? 65_000;
  if (!clientLimits) server.headersTimeout = 66_000;
  if (clientLimits?.maxConnections) server.maxConnections = clientLimits.maxConnections;
  if (clientLimits) server.on('clientError', answerClientError);
  prepare?.(server);
  const actualPort = await startup.listen(server, { port, host, variable: portVariable });
  startup.done();
  logger.info({ port: actualPort, host }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= shutdown(server, { logger, close, onDrain, drainMs, shutdownTimeoutMs: Math.max(1_000, shutdownTimeoutMs - drainMs) });
    return stopping;
  };
  // A second signal (Ctrl-C reaches both the process group and the launcher, which forwards it) must not
  // cut the graceful stop short, so the handlers stay installed and only the first one acts.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      logger.info({ signal }, 'shutting down');
      void stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { server, port: actualPort, stop };
}

async function shutdown(
  server: Server,
  { logger, close, onDrain, shutdownTimeoutMs, drainMs }: Required<Pick<RunOptions, 'logger' | 'close' | 'shutdownTimeoutMs' | 'drainMs'>> &
    Pick<RunOptions, 'onDrain'>,
): Promise<void> {
  onDrain?.();
  // Stop accepting first: a load balancer's new connection is then refused, which it can safely retry on
  // another instance for any method (nothing was sent). http.Server#close would also cut idle keep-alive
  // sockets at once, racing requests a balancer is writing onto them; net.Server#close leaves them open.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  if (drainMs > 0) {
    // Requests still arriving on open connections are served with `Connection: close`, and a balancer
    // drops its idle ones (its keep-alive idle timeout is shorter than this window).
    logger.info({ drainMs }, 'draining: listener closed, finishing requests on open connections');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
  server.closeIdleConnections();
  // Sockets that finish their in-flight request become idle; keep closing them until the server is done.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => {
    logger.warn('graceful shutdown timed out, closing remaining connections');
    server.closeAllConnections();
  }, shutdownTimeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
  await close();
  // The spans of the last requests, still queued for export, leave before the process does.
  await stopTracing().catch((error: unknown) => logger.warn({ err: error }, 'could not send the last spans'));
  logger.info('stopped');
}
