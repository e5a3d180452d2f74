import { randomUUID } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import { withoutCalendarFeedToken } from '@tm/contracts';
import type { Middleware } from 'koa';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import pinoPretty from 'pino-pretty';

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

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * How a process writes its log: `LOG_FORMAT` (`json` or `pretty`) when set; otherwise readable lines when
 * stdout is a terminal and one JSON object per line when it is not (a file, a pipe, a container runtime, a
 * log shipper). `npm start` runs the processes under its supervisor (scripts/serve.mjs), whose pipes are not
 * terminals, so it sets `LOG_FORMAT=pretty` itself when its own output is one.
 */
export function chooseLogFormat(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal: boolean = process.stdout.isTTY): LogFormat {
  const chosen = env.LOG_FORMAT;
  if (chosen === 'json' || chosen === 'pretty') return chosen;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

type LogRecord = Record<string, unknown>;

/** One readable line per request: `GET /api/todo/fetch-todo 200 4 ms`, the rest of the line as usual. */
function readableMessage(log: LogRecord, messageKey: string): string {
  const req = log.req as LogRecord | undefined;
  const res = log.res as LogRecord | undefined;
  const raw = log[messageKey];
  const message = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  if (!req || !res) return message;
  return `${String(req.method)} ${String(req.url)} ${String(res.statusCode)} ${String(log.responseTime)} ms`;
}

/** The terminal form: time, level, process and message on one line; synchronous, so nothing is lost at exit. */
function prettyStream(destination?: NodeJS.WritableStream) {
  return pinoPretty({
    ...(destination ? { destination } : {}),
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,req,res,responseTime',
    messageFormat: readableMessage,
  });
}

/**
 * `trace_id` and `span_id` of the active span (tracing.ts), on every line logged while a traced request is
 * served: from a log line to its trace, and back (docs/OPERATIONS.md "Traces"). With tracing off there is
 * never an active span: the API's no-op context answers at once and the line is unchanged. (A new object
 * each time: pino merges the line's own fields into it.)
 */
export function traceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * The logger of one process; `LOG_LEVEL` picks the level (`silent` in tests) and {@link chooseLogFormat}
 * the form: JSON lines (what a log shipper reads, and what the tests parse) or readable lines.
 */
export function createLogger(
  name: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  format: LogFormat = chooseLogFormat(),
  /** Where the lines go: stdout unless a test collects them. */
  destination?: NodeJS.WritableStream,
): Logger {
  const options = { name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime, mixin: traceFields };
  if (format === 'pretty') return pino(options, prettyStream(destination));
  return destination ? pino(options, destination) : pino(options);
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
      // A calendar feed's token is its only key: never in a log line (SECURITY.md "Calendar feed").
      req: (req: { id: unknown; method: unknown; url: unknown }) => ({ id: req.id, method: req.method, url: typeof req.url === 'string' ? withoutCalendarFeedToken(req.url) : req.url }),
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
