import { ErrorCode, exportFileName, importRefusedText, LIMITS, TRANSFER_FORMAT, TRANSFER_VERSION, type ExportFormat, type ImportProblem, type ImportRefusal, type ImportResponse, type TransferDocument } from '@tm/contracts';
import type { IdempotentRequest, StoredAnswer } from './todos.domain.js';
import type { TodosRepository } from './todos.repository.js';
import type { TodosService } from './todos.service.js';
import { exportCsv, readImportFile, type ImportOutcome } from './transfer.domain.js';

/** A file to download: its name, its media type and its bytes. */
export interface Download {
  fileName: string;
  type: string;
  body: Buffer;
}

/**
 * A refused import's body (400 VALIDATION_FAILED, docs/PRODUCT.md §10.23): the first problems and how many there
 * are, and the same as the usual `issues` (path: the line or the JSON path, then the field).
 */
export function refusalOf(problems: readonly ImportProblem[]): ImportRefusal {
  const shown = problems.slice(0, LIMITS.import.problemsShown);
  return {
    message: importRefusedText(problems.length),
    code: ErrorCode.validation,
    issues: shown.map(({ line, path, field, message }) => ({ path: [...(line === undefined ? [] : [`line ${line}`]), ...(path === undefined ? [] : [path]), field], message })),
    problems: shown,
    problemCount: problems.length,
  };
}

/** An import's answer: 200 with what it did (or, dry, would do), or 400 with the problems (nothing written). */
function importAnswer(outcome: ImportOutcome, dryRun: boolean): StoredAnswer {
  if (outcome.kind === 'refused') return { status: 400, body: refusalOf(outcome.problems) };
  const { message, tasks, lists, newLists, keptAsText } = outcome;
  return { status: 200, body: { message, dryRun, tasks, lists, newLists, keptAsText } satisfies ImportResponse };
}

/**
 * Import and export of one signed-in user (docs/PRODUCT.md §10.23). Inputs arrive validated (contracts); the
 * rules are transfer.domain.ts's; an import is a task write like the others (TodosService.write): one
 * transaction, and under an `Idempotency-Key` applied once, a retry answered as the first call was.
 */
export class TransferService {
  constructor(
    private readonly repository: TodosRepository,
    private readonly todos: TodosService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Everything of the user as a file: the versioned JSON document, or the CSV of the tasks (UTF-8 with its BOM, for spreadsheets). */
  async export(userId: string, format: ExportFormat): Promise<Download> {
    const at = this.now();
    const { todos, lists } = await this.repository.list(userId);
    const fileName = exportFileName(format, at);
    if (format === 'csv') return { fileName, type: 'text/csv; charset=utf-8', body: Buffer.from(`\uFEFF${exportCsv(lists, todos)}`) };
    const history = await this.repository.historyOfUser(userId);
    const document: TransferDocument = { format: TRANSFER_FORMAT, version: TRANSFER_VERSION, exportedAt: at.toISOString(), lists, tasks: todos, history };
    return { fileName, type: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(document)) };
  }

  /**
   * Reads the file whole; with a problem, answers them all and writes nothing; else stores it in one
   * transaction (`dryRun`: only says what it would do). A dry run is never kept under a key: it writes nothing.
   */
  async import(userId: string, origin: string | null, { fileName, content, dryRun }: { fileName: string; content: string; dryRun: boolean }, request: IdempotentRequest | null): Promise<StoredAnswer> {
    const draft = readImportFile(fileName, content);
    if ('problems' in draft) return importAnswer({ kind: 'refused', problems: draft.problems }, dryRun);
    return this.todos.write(userId, origin, { call: 'importTasks', draft, dryRun }, (outcome) => importAnswer(outcome, dryRun), dryRun ? null : request);
  }
}
