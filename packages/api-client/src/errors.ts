import { ErrorCode, type ValidationIssue } from '@tm/contracts';
import axios, { AxiosError } from 'axios';

/** docs/PRODUCT.md §8: what the user reads when the browser is offline, or the server is too slow. */
export const OFFLINE_MESSAGE = "You're offline. Check your connection and try again.";
export const TIMEOUT_MESSAGE = 'The server did not answer in time. Please try again.';

/** The axios error code of a request refused before it left, because the browser is offline. */
export const OFFLINE_CODE = 'ERR_OFFLINE';

export function browserIsOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** The error a request gets when it is refused at once because the browser is offline (never queued). */
export function offlineError(config?: ConstructorParameters<typeof AxiosError>[2]): AxiosError {
  return new AxiosError(OFFLINE_MESSAGE, OFFLINE_CODE, config);
}

interface ApiErrorBody {
  message?: unknown;
  code?: unknown;
  issues?: unknown;
}

function bodyOf(error: unknown): ApiErrorBody | undefined {
  if (!axios.isAxiosError(error)) return undefined;
  const data: unknown = error.response?.data;
  return data && typeof data === 'object' ? (data as ApiErrorBody) : undefined;
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

/** A 400 of the server's validation: its message says what to fix in the input. */
export function isValidationError(error: unknown): boolean {
  return statusOf(error) === 400 && bodyOf(error)?.code === ErrorCode.validation;
}

/** The issues of a 400 validation answer (each with the field path it concerns); none for any other error. */
export function validationIssues(error: unknown): ValidationIssue[] {
  const issues = bodyOf(error)?.issues;
  if (!isValidationError(error) || !Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is ValidationIssue => Array.isArray((issue as ValidationIssue | null)?.path) && typeof (issue as ValidationIssue).message === 'string',
  );
}

/** The server's `message` for a failed call, or `fallback` when it gave none (network error, timeout). */
export function errorMessage(error: unknown, fallback: string): string {
  const message = bodyOf(error)?.message;
  return typeof message === 'string' && message.trim() ? message : fallback;
}

/**
 * What to tell a person about a failed call: offline and timeout have their own words; otherwise the
 * server's message, or `fallback` when the server said nothing usable.
 */
export function describeError(error: unknown, fallback: string): string {
  if (isOffline(error)) return OFFLINE_MESSAGE;
  if (isTimeout(error)) return TIMEOUT_MESSAGE;
  return errorMessage(error, fallback);
}
