import { ErrorCode, type SessionEndReason, type ValidationIssue } from '@tm/contracts';
import axios, { AxiosError, AxiosHeaders } from 'axios';
import { asSessionEndReason } from './session-end.js';

/** docs/PRODUCT.md §8: what the user reads when the browser is offline, or the server is too slow. */
export const OFFLINE_MESSAGE = "You're offline. Check your connection and try again.";
export const TIMEOUT_MESSAGE = 'The server did not answer in time. Please try again.';

/** The axios error code of a request refused before it left, because the browser is offline. */
const OFFLINE_CODE = 'ERR_OFFLINE';

export function browserIsOffline(): boolean {
  return typeof navigator !== 'undefined' && !navigator.onLine;
}

/** The error a request gets when it is refused at once because the browser is offline (never queued). */
export function offlineError(config?: ConstructorParameters<typeof AxiosError>[2]): AxiosError {
  return new AxiosError(OFFLINE_MESSAGE, OFFLINE_CODE, config);
}

interface ApiErrorBody {
  message?: unknown;
  code?: unknown;
  issues?: unknown;
  reason?: unknown;
}

function bodyOf(error: unknown): ApiErrorBody | undefined {
  if (!axios.isAxiosError(error)) return undefined;
  const data: unknown = error.response?.data;
  return data && typeof data === 'object' ? data : undefined;
}

export function statusOf(error: unknown): number | undefined {
  return axios.isAxiosError(error) ? error.response?.status : undefined;
}

/** The request never got an answer because the browser is (or went) offline. */
export function isOffline(error: unknown): boolean {
  if (!axios.isAxiosError(error) || error.response) return false;
  return error.code === OFFLINE_CODE || (error.code === AxiosError.ERR_NETWORK && browserIsOffline());
}

/** The 10 s client timeout (docs/PRODUCT.md §9) ran out. */
export function isTimeout(error: unknown): boolean {
  return axios.isAxiosError(error) && !error.response && (error.code === AxiosError.ECONNABORTED || error.code === AxiosError.ETIMEDOUT);
}

/**
 * A 401 that means "your session is gone" (logged out elsewhere, expired, revoked). A login answered
 * 401 for a wrong password is not one of these: its code says the credentials were wrong.
 */
export function isSessionEnded(error: unknown): boolean {
  return statusOf(error) === 401 && bodyOf(error)?.code !== ErrorCode.invalidCredentials;
}

/**
 * Why the session ended, as the gateway's 401 `AUTH.UNAUTHENTICATED` says (`password-changed`,
 * `signed-out-everywhere` …); undefined for any other error, or when it does not say (no session cookie was
 * sent, or one the gateway does not know).
 */
export function sessionEndReason(error: unknown): SessionEndReason | undefined {
  const body = bodyOf(error);
  if (statusOf(error) !== 401 || body?.code !== ErrorCode.unauthenticated) return undefined;
  return asSessionEndReason(body.reason);
}

/** A 400 of the server's validation: its message says what to fix in the input. */
export function isValidationError(error: unknown): boolean {
  return statusOf(error) === 400 && bodyOf(error)?.code === ErrorCode.validation;
}

/** A 403 for a wrong current password (changing the password, deleting the account): the session is fine. */
export function isWrongPassword(error: unknown): boolean {
  return statusOf(error) === 403 && bodyOf(error)?.code === ErrorCode.wrongPassword;
}

/**
 * The issues an error answer carries, each with the field path it concerns: a 400 validation, a 403 wrong
 * password (on `currentPassword` or `password`). None when the answer has no well-formed `issues`.
 */
export function fieldIssues(error: unknown): ValidationIssue[] {
  const issues = bodyOf(error)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is ValidationIssue => Array.isArray((issue as ValidationIssue | null)?.path) && typeof (issue as ValidationIssue).message === 'string',
  );
}

/** The issues of a 400 validation answer (each with the field path it concerns); none for any other error. */
export function validationIssues(error: unknown): ValidationIssue[] {
  return isValidationError(error) ? fieldIssues(error) : [];
}

/** Seconds to wait that a 429 (or 503) answer names in its Retry-After header: seconds or an HTTP date. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!axios.isAxiosError(error) || !error.response) return undefined;
  const headers = error.response.headers as { get?: (name: string) => unknown; [name: string]: unknown } | undefined;
  const raw = typeof headers?.get === 'function' ? headers.get('Retry-After') : headers?.['retry-after'];
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const text = String(raw).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * "Too many attempts. Try again in 4 minutes." (docs/PRODUCT.md §10.10): the gateway's sentence for a 429, rebuilt from Retry-After
 * when its body carries no message. Minutes are rounded up; under a minute it counts seconds.
 */
export function tooManyAttemptsMessage(seconds: number): string {
  const wait = Math.max(1, Math.ceil(seconds));
  const [count, unit] = wait < 60 ? [wait, 'second'] : [Math.ceil(wait / 60), 'minute'];
  return `Too many attempts. Try again in ${count} ${unit}${count === 1 ? '' : 's'}.`;
}

/** The server's `message` for a failed call, or `fallback` when it gave none (network error, timeout). */
export function errorMessage(error: unknown, fallback: string): string {
  const message = bodyOf(error)?.message;
  return typeof message === 'string' && message.trim() ? message : fallback;
}

/**
 * What to tell a person about a failed call: offline and timeout have their own words; otherwise the
 * server's message, or `fallback` when the server said nothing usable (a 429 without a message says how
 * long to wait when its Retry-After header does).
 */
export function describeError(error: unknown, fallback: string): string {
  if (isOffline(error)) return OFFLINE_MESSAGE;
  if (isTimeout(error)) return TIMEOUT_MESSAGE;
  const retryAfter = statusOf(error) === 429 ? retryAfterSeconds(error) : undefined;
  return errorMessage(error, retryAfter === undefined ? fallback : tooManyAttemptsMessage(retryAfter));
}

/**
 * Logs a failed call for whoever reads the console. An answer the app expects and explains on
 * screen (a 4xx: signed out, refused input, an email already taken, too many attempts) or an offline browser
 * is one quiet line with no stack trace; a call the page cancelled is nothing; anything else (a 5xx, no
 * answer, a timeout, a bug) is an error with all its detail. The browser's own line for a 4xx answer in its network log is not the page's to silence.
 */
export function logFailure(what: string, error: unknown): void {
  // A call the page gave up itself (it no longer needs the answer) failed at nothing.
  if (axios.isCancel(error)) return;
  const status = statusOf(error);
  if ((status !== undefined && status >= 400 && status < 500) || isOffline(error)) console.info(`${what}: ${status ?? OFFLINE_MESSAGE}`);
  else console.error(what, error);
}

/**
 * The error of a write answered inside a sync call (PRODUCT §10.4) with a refusal: the same AxiosError the
 * call alone would have thrown (its status and body), so every check above reads it alike.
 */
export function answerError(status: number, body: unknown): AxiosError {
  const message = typeof (body as ApiErrorBody | null)?.message === 'string' ? String((body as ApiErrorBody).message) : `Request failed with status code ${status}`;
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(message, status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST, config, undefined, {
    status,
    statusText: '',
    data: body,
    headers: {},
    config,
  });
}
