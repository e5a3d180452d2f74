import { randomUUID } from 'node:crypto';
import {
  DEFAULT_LIST_COLOUR,
  INBOX_NAME,
  dueProblem,
  EXPORT_CSV_COLUMNS,
  importCountText,
  importedText,
  IsoDateString,
  LABELS_TOO_MANY_MESSAGE,
  labelNameProblem,
  LIMITS,
  ListColourField,
  ListName,
  listNameKey,
  listNameProblem,
  listNameValue,
  LISTS_FULL_MESSAGE,
  NOTE_TOO_LONG_MESSAGE,
  noteValue,
  orderKeyBetween,
  PRIORITY_MESSAGE,
  RepeatFromField,
  SUBTASKS_TOO_MANY_MESSAGE,
  subtaskTitleProblem,
  taskDetails,
  taskMarks,
  TodoDue,
  TodoLabels,
  TodoNote,
  TodoPriority,
  TodoReminders,
  TodoRepeat,
  TodoSubtasks,
  TodoTitle,
  todoTitleProblem,
  todoTitleValue,
  TRANSFER_FORMAT,
  TRANSFER_VERSION,
  type ImportProblem,
  type Subtask,
} from '@tm/contracts';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { z } from 'zod';
import { datedProblem, listsInPlace, type Decision, type StoredList, type StoredTask } from './todos.domain.js';
import type { ListRecord, TodoRecord } from './todos.repository.js';
import type { DraftList, DraftTask, ImportDraft, ImportOutcome } from './transfer.types.js';

// Import and export (docs/PRODUCT.md §10.23), the rules only: reading a file into the tasks and lists it holds
// (every problem collected, none written), placing them among the person's lists, and writing the CSV export.
// No store, no Koa: the store runs `importDecision` in one transaction, the routes call the rest.

export type { DraftList, DraftTask, ImportDraft, ImportOutcome } from './transfer.types.js';

export const NOT_JSON_MESSAGE = 'The file is not valid JSON.';
export const NOT_OURS_MESSAGE = `This JSON is not a Task Manager export: it must start with "format": "${TRANSFER_FORMAT}" and "version": ${TRANSFER_VERSION}.`;
export const NO_TASKS_MESSAGE = 'The file holds no tasks.';
export const TOO_MANY_TASKS_MESSAGE = `A file may hold at most ${LIMITS.import.tasks} tasks; split it and import the parts one by one.`;
export const UNKNOWN_LIST_MESSAGE = 'listId names no list of this file.';
export const OUR_CSV_MESSAGE = "This is a Task Manager CSV export, which is for spreadsheets: import the JSON export instead.";
export const TYPE_MESSAGE = 'TYPE is task, section or note.';
export const NOTE_WITHOUT_TASK_MESSAGE = 'A note row belongs to the task above it, and there is none.';
export const SUBTASK_WITHOUT_TASK_MESSAGE = 'An indented row is a subtask of the task above it, and there is none.';
export const INDENT_MESSAGE = 'INDENT is a whole number from 1 to 5.';

/** The columns a Todoist project's CSV export has (TYPE and CONTENT are the ones an import needs). */
export const TODOIST_COLUMNS = ['TYPE', 'CONTENT', 'DESCRIPTION', 'PRIORITY', 'INDENT', 'AUTHOR', 'RESPONSIBLE', 'DATE', 'DATE_LANG', 'TIMEZONE', 'DURATION', 'DURATION_UNIT', 'DEADLINE', 'DEADLINE_LANG'] as const;
const REQUIRED_COLUMNS = ['TYPE', 'CONTENT'] as const;

/** The problem of a task's field, with its path in the JSON document. */
const atPath = (path: string, field: string, message: string): ImportProblem => ({ path, field, message });
const atLine = (line: number, field: string, message: string): ImportProblem => ({ line, field, message });

/** The first issue of a failed schema as a problem at `path`. */
function issuesAt(path: string, error: z.ZodError): ImportProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || path.split('.').at(-1) || 'value';
    const where = issue.path.length === 0 ? path : `${path}.${issue.path.map(String).join('.')}`;
    return atPath(where, field, issue.message);
  });
}

/**
 * Reads a file (§10.23): text starting with `{` as our JSON, anything else as a Todoist CSV named `fileName`.
 * Resolves what it holds, or every problem found (file order), so the person can mend them all at once.
 */
export function readImportFile(fileName: string, content: string): ImportDraft | { problems: ImportProblem[] } {
  const text = content.replace(/^\uFEFF/, '');
  const draft = text.trimStart().startsWith('{') ? readOurJson(text) : readTodoistCsv(projectName(fileName), text);
  if ('problems' in draft) return draft;
  if (draft.tasks.length === 0) return { problems: [{ field: 'file', message: NO_TASKS_MESSAGE }] };
  if (draft.tasks.length > LIMITS.import.tasks) return { problems: [{ field: 'file', message: TOO_MANY_TASKS_MESSAGE }] };
  return draft;
}

/** The list a Todoist project's file goes in: its file name without the folder and `.csv`, as a list name is kept. */
export function projectName(fileName: string): string {
  const base = fileName.split(/[\\/]/).at(-1) ?? fileName;
  return listNameValue(base.replace(/\.csv$/i, '')) || 'Imported';
}

// ---------------------------------------------------------------------------------------------------------
// Our JSON (TransferDocument): each list and task checked by the contracts' own schemas.

/** A task of our JSON as the import takes it: the rules of an add (title, dates, marks, details) on each field. */
const ImportedTask = z.object({
  title: TodoTitle,
  completed: z.boolean().optional(),
  isPinned: z.boolean().optional(),
  createdAt: IsoDateString.optional(),
  completedAt: IsoDateString.nullable().optional(),
  due: TodoDue.optional(),
  repeat: TodoRepeat.optional(),
  repeatFrom: RepeatFromField.optional(),
  repeatDone: z.array(IsoDateString).max(400).optional(),
  reminders: TodoReminders.optional(),
  listId: z.string().optional(),
  priority: TodoPriority.optional(),
  labels: TodoLabels.optional(),
  note: TodoNote.optional(),
  subtasks: TodoSubtasks.optional(),
});

const ImportedList = z.object({ _id: z.string(), name: ListName, colour: ListColourField.optional(), archived: z.boolean().optional() });

const DocumentHead = z.object({
  format: z.literal(TRANSFER_FORMAT),
  version: z.literal(TRANSFER_VERSION),
  lists: z.array(z.unknown()).optional(),
  tasks: z.array(z.unknown()),
});

function readOurJson(text: string): ImportDraft | { problems: ImportProblem[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problems: [{ field: 'file', message: `${NOT_JSON_MESSAGE} ${error instanceof Error ? error.message : ''}`.trim() }] };
  }
  const head = DocumentHead.safeParse(data);
  if (!head.success) return { problems: [{ field: 'format', message: NOT_OURS_MESSAGE }] };
  const problems: ImportProblem[] = [];
  const listNames = new Map<string, string>();
  const lists: DraftList[] = [];
  (head.data.lists ?? []).forEach((raw, index) => {
    const parsed = ImportedList.safeParse(raw);
    if (!parsed.success) return void problems.push(...issuesAt(`lists[${index}]`, parsed.error));
    const { _id, name, colour, archived } = parsed.data;
    listNames.set(_id, name);
    lists.push({ name, ...(colour === undefined ? {} : { colour }), ...(archived === undefined ? {} : { archived }) });
  });
  const tasks: DraftTask[] = [];
  head.data.tasks.forEach((raw, index) => {
    const path = `tasks[${index}]`;
    const parsed = ImportedTask.safeParse(raw);
    if (!parsed.success) return void problems.push(...issuesAt(path, parsed.error));
    const { title, completed = false, isPinned = false, createdAt, completedAt, due, repeat, repeatFrom, repeatDone, reminders, listId, priority, labels, note, subtasks } = parsed.data;
    const dated = datedProblem({ due, repeat, repeatFrom, reminders });
    if (dated !== null) return void problems.push(atPath(`${path}.${dated.path.join('.')}`, dated.path.join('.'), dated.message));
    const list = listId === undefined ? null : listNames.get(listId);
    if (list === undefined) return void problems.push(atPath(`${path}.listId`, 'listId', UNKNOWN_LIST_MESSAGE));
    const todo: DraftTask['todo'] = {
      title,
      completed,
      isPinned,
      completedAt: completed ? (completedAt ?? createdAt ?? null) : null,
      ...(createdAt === undefined ? {} : { createdAt }),
      ...(due === undefined ? {} : { due }),
      ...(repeat === undefined ? {} : { repeat, ...(repeatFrom === undefined ? {} : { repeatFrom }) }),
      ...(repeat === undefined || repeatDone === undefined || repeatDone.length === 0 ? {} : { repeatDone }),
      ...(reminders === undefined || reminders.length === 0 ? {} : { reminders }),
      ...taskMarks({ priority, labels }),
      ...taskDetails({ note, subtasks }),
    };
    tasks.push({ where: { path }, list, todo });
  });
  return problems.length > 0 ? { problems } : { tasks, lists, keptAsText: [] };
}

// ---------------------------------------------------------------------------------------------------------
// Todoist's CSV (a project's "Export as CSV"): its documented columns, read row by row.

/**
 * A Todoist CSV PRIORITY as ours: Todoist's CSV writes the priority as its apps show it, 1 for p1, the most
 * urgent, to 4 for p4, none ("Type 1 to add p1 to the task (highest priority) … Type 4 to add p4 to the task
 * (lowest priority)", https://todoist.com/help/articles/format-a-csv-file-to-import-into-todoist-UVUXTmm6).
 * That is our scale (docs/PRODUCT.md §10.20), so the number is kept. Only Todoist's REST and Sync APIs count
 * the other way (4 = p1); their CSV does not. An empty cell is none.
 */
export function todoistPriority(cell: string): 1 | 2 | 3 | 4 | null {
  const value = cell.trim();
  if (value === '') return 4;
  return value === '1' || value === '2' || value === '3' || value === '4' ? (Number(value) as 1 | 2 | 3 | 4) : null;
}

/** A day `2026-12-24`, or a day and time `2026-12-24 09:00` / `2026-12-24T09:00(:00)`: what a DATE cell may hold to become a due date. */
const ISO_LOOKING = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2})?)?$/;

/**
 * A DATE cell as a due date, or as text (§10.23): a date written as ISO is the task's due date (held to the due
 * date's rule: a real day); anything else ("every monday", "tomorrow", "24 Dec") is never guessed: it is kept
 * in the task's note, and the answer says so.
 */
export function todoistDate(cell: string): { due: string } | { text: string } | { problem: string } | null {
  const value = cell.trim();
  if (value === '') return null;
  const match = ISO_LOOKING.exec(value);
  if (match === null) return { text: value };
  const due = match[2] === undefined ? (match[1] as string) : `${match[1]}T${match[2]}`;
  const problem = dueProblem(due);
  return problem === null ? { due } : { problem };
}

/** "@name" words of a Todoist CONTENT: the labels, and the title without them. */
export function splitLabels(content: string): { title: string; labels: string[] } {
  const labels: string[] = [];
  const title = content.replace(/(^|\s)@(\S+)/gu, (_whole, space: string, name: string) => {
    labels.push(name);
    return space;
  });
  return { title: title.replace(/\s+/g, ' ').trim(), labels };
}

/** One row of the file: its cells by column name, and the line it starts on. */
interface CsvRow {
  line: number;
  cell: (column: string) => string;
}

function csvRows(text: string): { header: string[]; rows: CsvRow[] } | { problems: ImportProblem[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(text, { info: true, relax_column_count: true, bom: true }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line = typeof (error as { lines?: unknown }).lines === 'number' ? (error as { lines: number }).lines : undefined;
    const reason = error instanceof Error ? error.message : String(error);
    return { problems: [{ ...(line === undefined ? {} : { line }), field: 'file', message: `The file is not a well-formed CSV: ${reason}` }] };
  }
  const [first, ...rest] = records;
  if (first === undefined) return { problems: [{ field: 'file', message: NO_TASKS_MESSAGE }] };
  const header = first.record.map((name) => name.trim().toUpperCase());
  const rows: CsvRow[] = [];
  let endOfPrevious = first.info.lines;
  for (const { record, info } of rest) {
    const line = endOfPrevious + 1;
    endOfPrevious = info.lines;
    if (record.every((cell) => cell.trim() === '')) continue;
    rows.push({ line, cell: (column) => record[header.indexOf(column)] ?? '' });
  }
  return { header, rows };
}

/** What is wrong with a CSV's columns as a Todoist export's, or `null`. */
export function columnsProblem(header: readonly string[]): ImportProblem | null {
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length === 0) return null;
  if (EXPORT_CSV_COLUMNS.every((column) => header.includes(column.toUpperCase()))) return atLine(1, 'columns', OUR_CSV_MESSAGE);
  const found = header.filter((name) => name !== '').join(', ') || 'none';
  return atLine(
    1,
    'columns',
    `This CSV is not a Todoist export: it has no ${missing.join(' and ')} ${missing.length === 1 ? 'column' : 'columns'} (its columns: ${found}). A Todoist project's CSV starts with ${TODOIST_COLUMNS.slice(0, 5).join(', ')}.`,
  );
}

/** The task the rows are filling in: its draft and the line it started on (notes and subtasks below it join it). */
interface OpenTask {
  draft: DraftTask;
  note: string[];
  subtasks: Subtask[];
  /** The row had problems (already reported): the rows below it still join it, so they add none of their own, but it is not kept. */
  broken: boolean;
}

function readTodoistCsv(project: string, text: string): ImportDraft | { problems: ImportProblem[] } {
  const read = csvRows(text);
  if ('problems' in read) return read;
  const columns = columnsProblem(read.header);
  if (columns !== null) return { problems: [columns] };
  const problems: ImportProblem[] = [];
  const keptAsText: ImportProblem[] = [];
  const tasks: DraftTask[] = [];
  // Todoist's own Inbox project is ours (§10.19): its tasks go in no list. Any other project is a list of its name.
  const inbox = listNameKey(project) === listNameKey(INBOX_NAME);
  const projectProblem = inbox ? null : listNameProblem(project);
  if (projectProblem !== null) problems.push({ field: 'fileName', message: `The file's name is the list's name: ${projectProblem}` });
  const lists = new Map<string, DraftList>(inbox ? [] : [[listNameKey(project), { name: project }]]);
  let list: string | null = inbox ? null : project;
  let open: OpenTask | null = null;
  const close = (): void => {
    if (open === null) return;
    const { draft, note, subtasks, broken } = open;
    open = null;
    if (broken) return;
    const line = draft.where.line ?? 1;
    const details = taskDetails({ note: note.join('\n\n'), subtasks });
    if (details.note !== undefined && details.note.length > LIMITS.note.max) problems.push(atLine(line, 'DESCRIPTION', NOTE_TOO_LONG_MESSAGE));
    if (subtasks.length > LIMITS.subtasksPerTask) problems.push(atLine(line, 'INDENT', SUBTASKS_TOO_MANY_MESSAGE));
    tasks.push({ ...draft, todo: { ...draft.todo, ...details } });
  };
  for (const row of read.rows) {
    const { line, cell } = row;
    const type = cell('TYPE').trim();
    const content = cell('CONTENT');
    if (type === 'meta') continue;
    if (type === 'section') {
      close();
      const name = listNameValue(`${project} / ${listNameValue(content)}`);
      const problem = listNameValue(content) === '' ? 'A section needs a name.' : listNameProblem(name);
      if (problem !== null) problems.push(atLine(line, 'CONTENT', problem));
      else if (!lists.has(listNameKey(name))) lists.set(listNameKey(name), { name });
      list = name;
      continue;
    }
    if (type === 'note') {
      const target: OpenTask | null = open;
      if (target === null) problems.push(atLine(line, 'TYPE', NOTE_WITHOUT_TASK_MESSAGE));
      else if (noteValue(content) !== '') target.note.push(noteValue(content));
      continue;
    }
    if (type !== 'task') {
      problems.push(atLine(line, 'TYPE', TYPE_MESSAGE));
      continue;
    }
    const indentCell = cell('INDENT').trim();
    const indent = indentCell === '' ? 1 : /^[1-5]$/.test(indentCell) ? Number(indentCell) : null;
    if (indent === null) {
      problems.push(atLine(line, 'INDENT', INDENT_MESSAGE));
      continue;
    }
    if (indent > 1) {
      const parent: OpenTask | null = open;
      if (parent === null) {
        problems.push(atLine(line, 'INDENT', SUBTASK_WITHOUT_TASK_MESSAGE));
        continue;
      }
      const problem = subtaskTitleProblem(content);
      if (problem !== null) problems.push(atLine(line, 'CONTENT', problem));
      else parent.subtasks.push({ id: randomUUID(), title: todoTitleValue(content), done: false });
      if (indent > 2) keptAsText.push(atLine(line, 'INDENT', 'Kept as a subtask of the task above it: a task has one level of subtasks.'));
      continue;
    }
    close();
    open = taskRow(row, list, problems, keptAsText);
  }
  close();
  return problems.length > 0 ? { problems } : { tasks, lists: [...lists.values()], keptAsText };
}

/** One `task` row at the top level as a task being filled in; its problems pushed to `problems` (then it is `broken`). */
function taskRow({ line, cell }: CsvRow, list: string | null, problems: ImportProblem[], keptAsText: ImportProblem[]): OpenTask {
  const before = problems.length;
  const { title: rawTitle, labels } = splitLabels(cell('CONTENT'));
  const title = todoTitleValue(rawTitle);
  const titleProblem = todoTitleProblem(title);
  if (titleProblem !== null) problems.push(atLine(line, 'CONTENT', titleProblem));
  for (const label of labels) {
    const problem = labelNameProblem(label);
    if (problem !== null) problems.push(atLine(line, 'CONTENT', `@${label}: ${problem}`));
  }
  const parsedLabels = TodoLabels.safeParse(labels);
  if (labels.length > 0 && !parsedLabels.success && problems.length === before) problems.push(atLine(line, 'CONTENT', LABELS_TOO_MANY_MESSAGE));
  const priority = todoistPriority(cell('PRIORITY'));
  if (priority === null) problems.push(atLine(line, 'PRIORITY', PRIORITY_MESSAGE));
  const note: string[] = [];
  const description = noteValue(cell('DESCRIPTION'));
  if (description !== '') note.push(description);
  let due: string | undefined;
  for (const column of ['DATE', 'DEADLINE'] as const) {
    const date = todoistDate(cell(column));
    if (date === null) continue;
    if ('problem' in date) problems.push(atLine(line, column, date.problem));
    else if ('due' in date && column === 'DATE') due = date.due;
    else {
      const words = 'due' in date ? date.due : date.text;
      note.push(`${column === 'DATE' ? 'Todoist date' : 'Todoist deadline'}: ${words}`);
      const why = column === 'DATE' ? 'only dates written as 2026-12-24 become due dates' : 'a task has one due date, its DATE';
      keptAsText.push(atLine(line, column, `Kept “${words}” as text in the task's note: ${why}.`));
    }
  }
  const broken = problems.length > before || priority === null || !parsedLabels.success;
  const todo: DraftTask['todo'] = {
    title,
    completed: false,
    isPinned: false,
    completedAt: null,
    ...(due === undefined ? {} : { due }),
    ...taskMarks({ priority: priority ?? undefined, labels: parsedLabels.success ? parsedLabels.data : [] }),
  };
  return { draft: { where: { line }, list, todo }, note, subtasks: [], broken };
}

// ---------------------------------------------------------------------------------------------------------
// Placing a read file among the person's lists, in the import's transaction.

/**
 * The import's rule (§10.23), run by the store in its one transaction on the person's lists: a list the file
 * names is the person's live list of that name (case aside, listNameKey) or a new one after their last (grey
 * unless the file says a colour); the lists full (LIMITS.lists) refuse the whole file. Every task is stored
 * new with an id of `ids` (drawn outside the rule, first for the lists, then the tasks: the tasks' in reverse,
 * so the file's first task comes first in the list, whose order is newest first, then the higher id),
 * `createdAt` its own or now. One event holds every task and new list. `dryRun`: the same answer, nothing stored.
 */
export function importDecision(draft: ImportDraft, stored: readonly StoredList[], now: Date, ids: readonly string[], dryRun: boolean): Decision<ImportOutcome> {
  const at = now.toISOString();
  const live = listsInPlace(stored);
  const byKey = new Map(live.map((list) => [listNameKey(list.name), list]));
  const used = new Set(draft.tasks.map((task) => (task.list === null ? null : listNameKey(task.list))));
  const made: ListRecord[] = [];
  let nextId = 0;
  let last = live.at(-1)?.order ?? null;
  for (const wanted of draft.lists) {
    const key = listNameKey(wanted.name);
    if (byKey.has(key) || !used.has(key)) continue;
    const order = orderKeyBetween(last, null);
    last = order;
    const list: ListRecord = { _id: ids[nextId++] as string, name: wanted.name, colour: wanted.colour ?? DEFAULT_LIST_COLOUR, order, archived: wanted.archived ?? false, createdAt: at, updatedAt: at };
    made.push(list);
    byKey.set(key, list);
  }
  if (live.length + made.length > LIMITS.lists) return { result: { kind: 'refused', problems: [{ field: 'lists', message: LISTS_FULL_MESSAGE }] }, writes: null };
  const count = draft.tasks.length;
  const todos: TodoRecord[] = draft.tasks.map(({ list, todo }, index) => {
    const listId = list === null ? undefined : byKey.get(listNameKey(list))?._id;
    const { createdAt = at, ...values } = todo;
    return { _id: ids[nextId + count - 1 - index] as string, ...values, createdAt, updatedAt: at, ...(listId === undefined ? {} : { listId }) };
  });
  const listCount = used.size;
  const result: ImportOutcome = {
    kind: 'imported',
    message: dryRun ? importCountText(count, listCount) : importedText(count, listCount),
    tasks: count,
    lists: listCount,
    newLists: made.map((list) => list.name),
    keptAsText: draft.keptAsText,
  };
  if (dryRun) return { result, writes: null };
  const tasks: StoredTask[] = todos.map((todo) => ({ todo, deletedAt: null }));
  const lists: StoredList[] = made.map((list) => ({ list, deletedAt: null }));
  return { result, writes: { tasks, lists, event: { saved: todos, removed: [], ...(made.length === 0 ? {} : { savedLists: made }) } } };
}

/** How many ids an import of `draft` draws: one per task, one per list it may make. */
export function idsNeeded(draft: ImportDraft): number {
  return draft.tasks.length + draft.lists.length;
}

// ---------------------------------------------------------------------------------------------------------
// The CSV export.

/**
 * A cell as the export writes it: one starting with = + - @ (or a tab or carriage return) gets a leading `'`,
 * so a spreadsheet shows it as text and never runs it as a formula (OWASP "CSV Injection").
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * The export's CSV (§10.23): a header row (EXPORT_CSV_COLUMNS), then one row per task; RFC 4180: CRLF between
 * records, and a cell with a comma, a quote or any line break quoted (a note's lines are LF).
 */
export function exportCsv(lists: readonly ListRecord[], todos: readonly TodoRecord[]): string {
  const names = new Map(lists.map((list) => [list._id, list.name]));
  const rows = todos.map((todo) =>
    [
      todo.listId === undefined ? 'Inbox' : (names.get(todo.listId) ?? ''),
      todo.title,
      todo.note ?? '',
      (todo.subtasks ?? []).map((item) => `[${item.done ? 'x' : ' '}] ${item.title}`).join('\n'),
      todo.completed ? 'yes' : 'no',
      todo.isPinned ? 'yes' : 'no',
      todo.due ?? '',
      todo.repeat ?? '',
      todo.priority === undefined ? '' : `P${todo.priority}`,
      (todo.labels ?? []).join(' '),
      todo.createdAt,
      todo.completedAt ?? '',
    ].map(safeCell),
  );
  return stringifyCsv([[...EXPORT_CSV_COLUMNS], ...rows], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
