import { LIMITS, type TaskList } from '@tm/contracts';
import { columnsProblem, exportCsv, importDecision, projectName, readImportFile, safeCell, splitLabels, todoistDate, todoistPriority, type ImportDraft } from './transfer.domain.js';
import type { StoredList } from './todos.domain.js';

// The rules of import and export (docs/PRODUCT.md §10.23), pure: Todoist's cells read as ours, a file's problems
// collected, the lists placed, the CSV export's cells kept from running as formulas.

const NOW = new Date('2026-12-07T08:00:00.000Z');
const ids = (n: number) => Array.from({ length: n }, (_, index) => (index + 1).toString(16).padStart(24, '0'));
const storedList = (name: string, order: string): StoredList => ({
  list: { _id: `${'f'.repeat(23)}${order}`, name, colour: 'grey', order, archived: false, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() } satisfies TaskList,
  deletedAt: null,
});

describe("Todoist's cells", () => {
  test('PRIORITY is kept as written (1 = p1, the most urgent, as Todoist’s CSV writes it); empty is none; anything else is refused', () => {
    expect(['1', '2', '3', '4', '', ' 2 '].map(todoistPriority)).toEqual([1, 2, 3, 4, 4, 2]);
    expect(['0', '5', 'p1', 'high'].map(todoistPriority)).toEqual([null, null, null, null]);
  });

  test('DATE: an ISO day or day and time is a due date, a wrong day a problem, words are never guessed', () => {
    expect(todoistDate('2026-12-24')).toEqual({ due: '2026-12-24' });
    expect(todoistDate('2026-12-24 09:30')).toEqual({ due: '2026-12-24T09:30' });
    expect(todoistDate('2026-12-24T09:30:00')).toEqual({ due: '2026-12-24T09:30' });
    expect(todoistDate('2026-02-30')).toEqual({ problem: expect.any(String) });
    expect(todoistDate('every monday')).toEqual({ text: 'every monday' });
    expect(todoistDate('tomorrow')).toEqual({ text: 'tomorrow' });
    expect(todoistDate('  ')).toBeNull();
  });

  test('"@name" words are labels; an address with @ inside a word stays in the title', () => {
    expect(splitLabels('Buy milk @errand  @Home today')).toEqual({ title: 'Buy milk today', labels: ['errand', 'Home'] });
    expect(splitLabels('Mail ann@example.com')).toEqual({ title: 'Mail ann@example.com', labels: [] });
  });

  test('the project is the file name without folder and extension', () => {
    expect(projectName('C:\\Downloads\\Work stuff.csv')).toBe('Work stuff');
    expect(projectName('Groceries.CSV')).toBe('Groceries');
  });

  test('columns: TYPE and CONTENT are needed; our own CSV export is named as such', () => {
    expect(columnsProblem(['TYPE', 'CONTENT'])).toBeNull();
    expect(columnsProblem(['TITLE', 'DUE'])?.message).toContain('no TYPE and CONTENT columns (its columns: TITLE, DUE)');
    expect(columnsProblem(['TYPE', 'TITLE'])?.message).toContain('no CONTENT column');
    expect(columnsProblem(['LIST', 'TITLE', 'NOTE', 'SUBTASKS', 'DONE', 'PINNED', 'DUE', 'REPEAT', 'PRIORITY', 'LABELS', 'CREATED', 'COMPLETED'])?.message).toContain('import the JSON export instead');
  });
});

describe('reading a file', () => {
  test('every problem of a CSV at once, in file order, with its line (a quoted line break counted)', () => {
    const file = 'TYPE,CONTENT,DESCRIPTION,PRIORITY\ntask,One,"two\nlines",9\nnote,orphan? no: joins One,,\ntask,,,\n';
    const read = readImportFile('x.csv', file);
    expect('problems' in read && read.problems.map(({ line, field }) => [line, field])).toEqual([
      [2, 'PRIORITY'],
      [5, 'CONTENT'],
    ]);
  });

  test('a note before any task, an indented row before any task, an unclosed quote', () => {
    const orphan = readImportFile('x.csv', 'TYPE,CONTENT,INDENT\nnote,hello,\ntask,sub,2\n');
    expect('problems' in orphan && orphan.problems.map(({ line, field }) => [line, field])).toEqual([
      [2, 'TYPE'],
      [3, 'INDENT'],
    ]);
    const broken = readImportFile('x.csv', 'TYPE,CONTENT\ntask,"never closed\n');
    expect('problems' in broken && broken.problems[0]).toMatchObject({ field: 'file', message: expect.stringContaining('not a well-formed CSV') });
  });

  test("Todoist's Inbox project goes into the Inbox; a file name too long for a list is a problem", () => {
    const inbox = readImportFile('Inbox.csv', 'TYPE,CONTENT\ntask,Loose end\n');
    expect('tasks' in inbox && [inbox.tasks.map((task) => task.list), inbox.lists]).toEqual([[null], []]);
    const long = readImportFile(`${'n'.repeat(61)}.csv`, 'TYPE,CONTENT\ntask,Loose end\n');
    expect('problems' in long && long.problems).toEqual([expect.objectContaining({ field: 'fileName' })]);
  });

  test('too many tasks, or none, is one problem for the file', () => {
    const none = readImportFile('x.csv', 'TYPE,CONTENT\nsection,Empty\n');
    expect('problems' in none && none.problems).toEqual([{ field: 'file', message: 'The file holds no tasks.' }]);
    const many = readImportFile('x.csv', `TYPE,CONTENT\n${'task,t\n'.repeat(LIMITS.import.tasks + 1)}`);
    expect('problems' in many && many.problems[0]?.message).toContain(`at most ${LIMITS.import.tasks} tasks`);
  });
});

describe('placing an import', () => {
  const draft: ImportDraft = {
    tasks: [
      { where: { line: 2 }, list: 'Work', todo: { title: 'first', completed: false, isPinned: false, completedAt: null } },
      { where: { line: 3 }, list: 'New', todo: { title: 'second', completed: false, isPinned: false, completedAt: null } },
      { where: { line: 4 }, list: null, todo: { title: 'third', completed: false, isPinned: false, completedAt: null } },
    ],
    lists: [{ name: 'Work' }, { name: 'New', colour: 'red' }, { name: 'Unused' }],
    keptAsText: [],
  };

  test('a named list is the person’s (case aside) or a new one after their last; unused lists are not made; one event', () => {
    const { result, writes } = importDecision(draft, [storedList('work', 'a0')], NOW, ids(6), false);
    expect(result).toMatchObject({ kind: 'imported', tasks: 3, lists: 3, newLists: ['New'], message: 'Imported 3 tasks into 3 lists.' });
    expect(writes?.lists?.map(({ list }) => [list.name, list.colour, list.order > 'a0'])).toEqual([['New', 'red', true]]);
    expect(writes?.tasks.map(({ todo }) => [todo.title, todo.listId])).toEqual([
      ['first', `${'f'.repeat(23)}a0`],
      ['second', ids(6)[0]],
      ['third', undefined],
    ]);
    // The file's first task has the highest id: first in a list ordered newest, then higher id, first.
    const taskIds = writes?.tasks.map(({ todo }) => todo._id) ?? [];
    expect([...taskIds].sort().reverse()).toEqual(taskIds);
    expect(writes?.event?.saved).toHaveLength(3);
  });

  test('a dry run answers the same and writes nothing; lists over the limit refuse the whole file', () => {
    expect(importDecision(draft, [], NOW, [], true)).toMatchObject({ result: { kind: 'imported', message: '3 tasks in 3 lists', newLists: ['Work', 'New'] }, writes: null });
    const full = Array.from({ length: LIMITS.lists }, (_, index) => storedList(`L${index}`, `a${index}`));
    expect(importDecision(draft, full, NOW, ids(6), false)).toMatchObject({ result: { kind: 'refused' }, writes: null });
  });
});

describe('the CSV export', () => {
  test('a cell that would start a formula gets a leading quote; others stay as they are', () => {
    expect(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', 'plain', '2026-12-24', ''].map(safeCell)).toEqual(["'=1+1", "'+1", "'-2", "'@SUM(A1)", "'\tx", 'plain', '2026-12-24', '']);
  });

  test('RFC 4180: CRLF between rows, a cell with a comma, a quote or a line break quoted', () => {
    const csv = exportCsv([], [{ _id: 'a'.repeat(24), title: 'Say "hi", twice', completed: true, isPinned: false, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), completedAt: NOW.toISOString(), subtasks: [{ id: 's', title: 'one', done: true }, { id: 't', title: 'two', done: false }] }]);
    expect(csv.split('\r\n')[1]).toBe(`Inbox,"Say ""hi"", twice",,"[x] one\n[ ] two",yes,no,,,,,${NOW.toISOString()},${NOW.toISOString()}`);
  });
});
