import { z } from 'zod';
import { IsoDateString, MessageResponse } from './common.js';
import { ErrorBody } from './errors.js';
import { LIMITS } from './limits.js';
import { TaskList } from './lists.js';
import { HistoryEntry, Todo } from './todos.js';

/**
 * Import and export (docs/PRODUCT.md §10.23): a person's whole account as a file they keep, and tasks brought
 * in from a file (our own JSON, or a Todoist project's CSV export). The shapes both sides share.
 */

/** The `format` and `version` a file of ours starts with: what an import checks before anything else. */
export const TRANSFER_FORMAT = 'task-manager';
export const TRANSFER_VERSION = 1;

/** What GET /todo/export writes: JSON (everything, to import back) or CSV (one row per task, for a spreadsheet). */
export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Query of GET /todo/export. */
export const ExportQuery = z.object({ format: z.enum(EXPORT_FORMATS, { error: 'format is json or csv' }) });
export type ExportQuery = z.infer<typeof ExportQuery>;

/**
 * The export's JSON document (§10.23), versioned: the lists (archived ones too, in their order), every live task
 * as the API answers it (notes, subtasks, labels, priority, dates), and each task's history of the last 30 days.
 */
export const TransferDocument = z.object({
  format: z.literal(TRANSFER_FORMAT),
  version: z.literal(TRANSFER_VERSION),
  exportedAt: IsoDateString,
  lists: z.array(TaskList),
  tasks: z.array(Todo),
  history: z.array(HistoryEntry),
});
export type TransferDocument = z.infer<typeof TransferDocument>;

/** The CSV export's columns, in order (§10.23). */
export const EXPORT_CSV_COLUMNS = ['List', 'Title', 'Note', 'Subtasks', 'Done', 'Pinned', 'Due', 'Repeat', 'Priority', 'Labels', 'Created', 'Completed'] as const;

/** The name of an export's file: `task-manager-2026-12-07.json` (the day of the export, UTC). */
export function exportFileName(format: ExportFormat, at: Date): string {
  return `${TRANSFER_FORMAT}-${at.toISOString().slice(0, 10)}.${format}`;
}

/**
 * POST /todo/import: the file's name (a Todoist project's CSV is named after the project, which becomes the
 * list's name) and its text. A text starting with `{` is read as our JSON, anything else as a Todoist CSV.
 * `dryRun`: check the file and say what it would do, writing nothing (the page's preview).
 */
export const ImportRequest = z.strictObject({
  fileName: z.string().min(1, 'fileName names the file').max(255, 'fileName has at most 255 characters'),
  content: z.string().min(1, 'The file is empty.'),
  dryRun: z.boolean().optional(),
});
export type ImportRequest = z.infer<typeof ImportRequest>;

/**
 * One thing an import found in a file: where (`line`: the CSV line a row starts on; `path`: where in a JSON
 * document, `tasks[3].title`), which field (a column's name, or a property), and what, in words.
 */
export const ImportProblem = z.object({
  line: z.number().int().positive().optional(),
  path: z.string().optional(),
  field: z.string(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof ImportProblem>;

/**
 * The answer of an import (200), or of its dry run: how many tasks, into how many lists (the Inbox counts as
 * one), the lists it makes (names), and what it kept as text rather than guess (a Todoist date in words, kept
 * in the task's note). `message` says it in words: "Imported 312 tasks into 3 lists." / "312 tasks in 3 lists".
 */
export const ImportResponse = MessageResponse.extend({
  dryRun: z.boolean(),
  tasks: z.number().int().nonnegative(),
  lists: z.number().int().nonnegative(),
  newLists: z.array(z.string()),
  keptAsText: z.array(ImportProblem),
});
export type ImportResponse = z.infer<typeof ImportResponse>;

/**
 * A refused import (400 `VALIDATION_FAILED`): nothing was written. `problems`: the first
 * LIMITS.import.problemsShown of them, in file order; `problemCount`: all of them. `issues` says the same for
 * clients that read only the usual error body.
 */
export const ImportRefusal = ErrorBody.extend({ problems: z.array(ImportProblem), problemCount: z.number().int().positive() });
export type ImportRefusal = z.infer<typeof ImportRefusal>;

/** "312 tasks in 3 lists" (one task, one list: singular). */
export function importCountText(tasks: number, lists: number): string {
  return `${tasks} ${tasks === 1 ? 'task' : 'tasks'} in ${lists} ${lists === 1 ? 'list' : 'lists'}`;
}

/** "Imported 312 tasks into 3 lists." */
export function importedText(tasks: number, lists: number): string {
  return `Imported ${tasks} ${tasks === 1 ? 'task' : 'tasks'} into ${lists} ${lists === 1 ? 'list' : 'lists'}.`;
}

/** The words of a refused file: "The file has 3 problems; nothing was imported." */
export function importRefusedText(count: number): string {
  return `The file has ${count} ${count === 1 ? 'problem' : 'problems'}; nothing was imported.`;
}

/** The words of a file over the import's size limit (413). */
export const IMPORT_TOO_LARGE_MESSAGE = `The file is larger than ${LIMITS.import.bodyBytes / (1024 * 1024)} MB. Split it and import the parts one by one.`;
