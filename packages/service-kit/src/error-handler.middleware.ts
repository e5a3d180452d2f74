import { ErrorCode, type ErrorBody } from '@tm/contracts';
import type { Middleware } from 'koa';
import { HttpError } from './errors.js';
import { StorageNotWritableError, storageFailureOf, type StorageFailure } from './storage.js';

interface ClientError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
  message?: unknown;
}

export interface ErrorHandlerOptions {
  /** Told of every storage failure a request met (the service's StorageWatch: readiness turns on it). */
  onStorageFailure?: (failure: StorageFailure) => void;
}

/**
 * The one place that writes error bodies. Typed {@link HttpError}s keep their status and code; client errors
 * raised by libraries (body parsing: malformed JSON, too large, bad charset) become the same shape; storage
 * that refused a write (disk full, read-only: see storageFailureOf), even wrapped as the `cause` of a 5xx,
 * becomes a 503 `STORAGE.NOT_WRITABLE` that says the change was not saved; anything else is a bug: a
 * generic 500. Every 5xx is logged at error level with the request id, its details never sent to the client.
 */
export function errorHandler({ onStorageFailure }: ErrorHandlerOptions = {}): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const storage = error instanceof StorageNotWritableError ? error.failure : isClientError(error) ? undefined : storageFailureOf(error);
      const { status, body, headers } = toResponse(storage ? new StorageNotWritableError(storage) : error);
      if (storage) {
        onStorageFailure?.(storage);
        ctx.log.error({ err: error, storage }, 'storage refused the write: the change was not saved');
      } else if (status >= 500) {
        ctx.log.error({ err: error }, 'request failed');
      }
      if (ctx.headerSent || !ctx.writable) return;
      ctx.set(headers);
      ctx.status = status;
      ctx.body = body;
    }
  };
}

function toResponse(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof HttpError) {
    const body: ErrorBody = { message: error.message, code: error.code };
    if (error.issues) body.issues = error.issues;
    return { status: error.status, body, headers: error.headers };
  }
  const status = statusOf(error as ClientError);
  if (status >= 400 && status < 500) {
    return { status, body: fromLibraryClientError(status, error as ClientError), headers: {} };
  }
  return { status: 500, body: { message: 'Internal server error', code: ErrorCode.internal }, headers: {} };
}

/** A 4xx, typed or from a library: the request's own fault, whatever it wraps. */
function isClientError(error: unknown): boolean {
  const status = error instanceof HttpError ? error.status : statusOf(error as ClientError);
  return status >= 400 && status < 500;
}

function statusOf(error: ClientError | null | undefined): number {
  const status = error?.status ?? error?.statusCode;
  return typeof status === 'number' ? status : 500;
}

function fromLibraryClientError(status: number, error: ClientError): ErrorBody {
  if (status === 413) return { message: 'Request body is too large', code: ErrorCode.bodyTooLarge };
  if (status === 415) return { message: 'Unsupported request body type', code: ErrorCode.unsupportedMediaType };
  if (status === 400 && typeof error.message === 'string' && /json|unexpected|token/i.test(error.message)) {
    return { message: 'Malformed JSON in request body', code: ErrorCode.malformedJson };
  }
  const message = error.expose && typeof error.message === 'string' ? error.message : 'Bad request';
  return { message, code: ErrorCode.validation };
}
