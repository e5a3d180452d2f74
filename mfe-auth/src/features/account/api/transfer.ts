import { describeError, http, newIdempotencyKey, statusOf } from '@tm/api-client';
import { IDEMPOTENCY_KEY_HEADER, IMPORT_TOO_LARGE_MESSAGE, ImportRefusal, LIMITS, ROUTES, type ExportFormat, type ImportResponse } from '@tm/contracts';
import { isAxiosError } from 'axios';

/** Shown when an export or an import fails without a message of the server's (network, timeout, a 5xx page). */
export const EXPORT_FALLBACK = 'The export could not be made. Please try again.';
export const IMPORT_FALLBACK = 'The file could not be imported. Please try again.';

/** How long an import may go without a byte before the page gives up: a large file is read whole by the server first. */
const IMPORT_SILENCE_MS = 30_000;

/**
 * GET /todo/export?format= (docs/PRODUCT.md §10.23) through the app's HTTP client (its cookies, XSRF header and
 * client id), as a Blob, saved under the server's file name by a link with `download`.
 */
export async function downloadExport(format: ExportFormat): Promise<string> {
  const answer = await http.get<Blob>(ROUTES.exportTodos.path, { params: { format }, responseType: 'blob', headers: { Accept: format === 'csv' ? 'text/csv' : 'application/json' } });
  const disposition = String(answer.headers['content-disposition'] ?? '');
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `task-manager.${format}`;
  const url = URL.createObjectURL(answer.data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser's download; the address is released after it started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

/** What an import answered: its counts, or the problems of the file (nothing imported), or a failure in words. */
export type ImportAnswer = { kind: 'done'; answer: ImportResponse } | { kind: 'problems'; refusal: ImportRefusal } | { kind: 'failed'; message: string };

/**
 * POST /todo/import through the app's HTTP client (cookies, XSRF header, client id): the file's name and text;
 * `dryRun` says what it would do without writing.
 */
export async function importFile(fileName: string, content: string, dryRun: boolean): Promise<ImportAnswer> {
  if (new Blob([content]).size > LIMITS.import.bodyBytes) return { kind: 'failed', message: IMPORT_TOO_LARGE_MESSAGE };
  try {
    // The import itself is one action, applied once (an Idempotency-Key, as every task write); the dry run writes nothing.
    const headers = dryRun ? {} : { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() };
    const answer = await http.post<ImportResponse>(ROUTES.importTodos.path, { fileName, content, dryRun }, { timeout: IMPORT_SILENCE_MS, headers });
    return { kind: 'done', answer: answer.data };
  } catch (error) {
    if (statusOf(error) === 413) return { kind: 'failed', message: IMPORT_TOO_LARGE_MESSAGE };
    const refusal = isAxiosError(error) ? ImportRefusal.safeParse(error.response?.data) : null;
    if (refusal?.success === true) return { kind: 'problems', refusal: refusal.data };
    return { kind: 'failed', message: describeError(error, IMPORT_FALLBACK) };
  }
}
