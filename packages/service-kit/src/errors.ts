import { ErrorCode, type ValidationIssue } from '@tm/contracts';
import type { z } from 'zod';

/**
 * An error that knows its HTTP status and stable code. Handlers throw these; the error middleware is the
 * only place that turns them into `{message, code, issues?}` responses.
 */
export class HttpError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly issues?: ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends HttpError {
  constructor(issues: ValidationIssue[], message = describeIssues(issues)) {
    super(400, message, ErrorCode.validation, issues);
  }

  static fromZod(error: z.ZodError): ValidationError {
    return new ValidationError(
      error.issues.map((issue) => ({
        path: issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
        message: issue.message,
      })),
    );
  }
}

/**
 * The message for people: the first issue's message alone, without a field prefix (the issues still carry
 * their paths for programs). Our schemas word their own messages; {@link parseOr400} words zod's generic
 * ones with the field's name (see plainIssueMessage).
 */
function describeIssues(issues: ValidationIssue[]): string {
  return issues[0]?.message ?? 'Invalid request';
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Not signed in', code: string = ErrorCode.unauthenticated) {
    super(401, message, code);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message: string, code: string) {
    super(403, message, code);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string, code: string = ErrorCode.routeNotFound) {
    super(404, message, code);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, code: string) {
    super(409, message, code);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, `Request body is larger than ${limitBytes} bytes`, ErrorCode.bodyTooLarge);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = 'Request body must be JSON (Content-Type: application/json)') {
    super(415, message, ErrorCode.unsupportedMediaType);
  }
}

export class LengthRequiredError extends HttpError {
  constructor() {
    super(411, 'Send the request body with a Content-Length header', ErrorCode.lengthRequired);
  }
}

/** "4 minutes", "1 minute", "30 seconds": a wait in the words the login screen shows (docs/PRODUCT.md §10.10). */
function describeWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** 429 with `Retry-After` (whole seconds, at least 1) and a message that says when to try again. */
export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, `Too many attempts. Try again in ${describeWait(seconds)}.`, ErrorCode.rateLimited, undefined, {
      'Retry-After': String(seconds),
    });
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(message = 'Service temporarily unavailable, please try again', code: string = ErrorCode.unavailable) {
    super(503, message, code);
  }
}
