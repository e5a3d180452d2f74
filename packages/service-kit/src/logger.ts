import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

declare module 'koa' {
  interface DefaultContext {
    /** Request-scoped pino logger carrying `reqId`. */
    log: Logger;
    /** The request id the gateway created (x-request-id). */
    requestId: string;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/;

/** JSON logger for one process; `LOG_LEVEL` picks the level (`silent` in tests). */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}

export interface RequestLoggerOptions {
  logger: Logger;
  /**
   * Whether to keep a well-formed incoming `x-request-id`. The gateway creates ids (false); services keep
   * the gateway's (true), so one id follows a request through every process.
   */
  trustIncomingId: boolean;
}

/** Assigns the request id, echoes it in the response and logs one line per request (pino-http). */
export function requestLogger({ logger, trustIncomingId }: RequestLoggerOptions): Middleware {
  const httpLogger = pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers[REQUEST_ID_HEADER];
      const id = trustIncomingId && typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
        ? incoming
        : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: { id: unknown; method: unknown; url: unknown }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: unknown }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
  });
  return async (ctx, next) => {
    httpLogger(ctx.req, ctx.res);
    ctx.log = ctx.req.log;
    ctx.requestId = ctx.req.id as string; // genReqId above makes every id a string
    // The gateway forwards the raw request to services: make sure they see the id it chose.
    ctx.req.headers[REQUEST_ID_HEADER] = ctx.requestId;
    await next();
  };
}

export type { Logger };
