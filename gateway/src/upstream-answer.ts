import { API, ErrorBody, ErrorCode } from '@tm/contracts';
import type { HttpError } from '@tm/service-kit';
import type { Context } from 'koa';
import type { z } from 'zod';
import { UpstreamFailure } from './upstream-failures.js';
import type { CapturedResponse } from './upstream.proxy.js';

interface Route {
  method: string;
  pattern: RegExp;
  response: z.ZodType;
}

/**
 * The public API table as matchers of the paths the services see (the /api prefix removed). The streaming
 * entry is left out: its answer is relayed as a stream (events.relay.ts), never read whole and checked
 * here, so a stream that reached the capture path would find no contract and be refused with 502.
 */
const ROUTES: Route[] = Object.values(API)
  .filter((endpoint) => !('stream' in endpoint && endpoint.stream))
  .map(({ method, path, response }) => ({
    method,
    // Every path parameter (`:todoId`, `:listId`) is one segment.
    pattern: new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
    response,
  }));

/** The contract of a successful answer to `method url`, or undefined when the route is not in the API table. */
export function contractOf(method: string, url: string): z.ZodType | undefined {
  const path = url.split('?', 1)[0] ?? '';
  return ROUTES.find((route) => route.method === method && route.pattern.test(path))?.response;
}

/** 502: the service's answer is not one the gateway passes on. */
export function invalidAnswer(service: string): HttpError {
  return new UpstreamFailure(service, 'invalid_answer', 502, `The ${service} service gave an invalid answer`, ErrorCode.badGateway);
}

/**
 * An upstream answer is never trusted blindly (docs/ARCHITECTURE.md "Upstream answers"): it must be JSON, a
 * success must match `contract` (the route's response schema), and an error must be the usual error body.
 * Anything else, or any status outside 2xx/4xx/5xx, becomes a 502 with the usual error body. Returns the
 * parsed body; the bytes sent on are the service's own (checked, not serialised again).
 */
export function checkAnswer(service: string, answer: CapturedResponse, contract: z.ZodType | undefined): unknown {
  const { status } = answer;
  if (status < 200 || (status >= 300 && status < 400) || status > 599) throw invalidAnswer(service);
  let body: unknown;
  try {
    if (!answer.contentType.includes('json')) throw new Error('not JSON');
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw invalidAnswer(service);
  }
  const schema = status < 300 ? contract : ErrorBody;
  if (!schema?.safeParse(body).success) throw invalidAnswer(service);
  return body;
}

/** Sends a checked answer on as the service gave it (status, JSON bytes, Retry-After). */
export function relay(ctx: Context, answer: CapturedResponse): void {
  ctx.status = answer.status;
  if (answer.retryAfter) ctx.set('Retry-After', answer.retryAfter);
  ctx.type = 'application/json';
  ctx.body = answer.body;
}

/** A download's file name as a service sends it: `attachment; filename="task-manager-2026-12-07.csv"` (docs/PRODUCT.md §10.23). */
const ATTACHMENT = /^attachment; filename="[\w.-]{1,100}"$/;

/**
 * A download (the API table's `download` entries: GET /todo/export) is checked as every answer is, in its own
 * terms: a success must be an attachment with a plain file name, and either JSON matching `contract` or CSV
 * (`text/csv`); an error is the usual error body ({@link checkAnswer}). Anything else is a 502.
 */
export function checkDownload(service: string, answer: CapturedResponse, contract: z.ZodType | undefined): void {
  if (answer.status >= 300 || !answer.contentType.startsWith('text/csv')) {
    if (answer.status < 300 && !ATTACHMENT.test(answer.contentDisposition ?? '')) throw invalidAnswer(service);
    checkAnswer(service, answer, contract);
    return;
  }
  if (answer.status !== 200 || !ATTACHMENT.test(answer.contentDisposition ?? '')) throw invalidAnswer(service);
}

/** Sends a checked download on as the service gave it: its type, its file name and its bytes. */
export function relayDownload(ctx: Context, answer: CapturedResponse): void {
  if (answer.status >= 300) return relay(ctx, answer);
  ctx.status = answer.status;
  ctx.type = answer.contentType;
  if (answer.contentDisposition) ctx.set('Content-Disposition', answer.contentDisposition);
  ctx.body = answer.body;
}
