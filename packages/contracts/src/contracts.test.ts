import * as lists from './index.js';
import {
  AddTodoRequest,
  applyPatch,
  changeMessage,
  DUE_INVALID_MESSAGE,
  dueProblem,
  TodoPatch,
  isTick,
  patchedFields,
  unchangedMessage,
  BulkTodosResponse,
  LIMITS,
  LoginRequest,
  ObjectIdString,
  RestoreBulkRequest,
  RestoreBulkResponse,
  SignupRequest,
  Todo,
  TODO_TITLE_EMPTY_MESSAGE,
  TODO_TITLE_TOO_LONG_MESSAGE,
  TODO_TITLE_EDIT_EMPTY_MESSAGE,
  UpdateTodoRequest,
  apiPath,
  API,
  todoTitleProblem,
  todoTitleValue,
} from './index.js';

describe('contracts', () => {
  it('normalises email: trimmed and lower-cased before it is checked', () => {
    const parsed = SignupRequest.parse({ fullName: '  Ada  ', email: '  Ada@Example.COM ', password: '12345678' });
    expect(parsed).toEqual({ fullName: 'Ada', email: 'ada@example.com', password: '12345678' });
    expect(LoginRequest.parse({ email: 'A@B.CO', password: 'x' }).email).toBe('a@b.co');
  });

  it('enforces our length rules at their exact bounds', () => {
    const base = { fullName: 'A', email: 'a@example.com', password: 'p'.repeat(LIMITS.password.min) };
    expect(SignupRequest.safeParse(base).success).toBe(true);
    expect(SignupRequest.safeParse({ ...base, password: 'p'.repeat(LIMITS.password.min - 1) }).success).toBe(false);
    expect(SignupRequest.safeParse({ ...base, password: 'p'.repeat(LIMITS.password.max + 1) }).success).toBe(false);
    expect(SignupRequest.safeParse({ ...base, fullName: 'n'.repeat(LIMITS.fullName.max) }).success).toBe(true);
    expect(SignupRequest.safeParse({ ...base, fullName: 'n'.repeat(LIMITS.fullName.max + 1) }).success).toBe(false);
    expect(SignupRequest.safeParse({ ...base, fullName: '   ' }).success).toBe(false);
    const longEmail = `${'e'.repeat(LIMITS.email.max - 12)}@example.com`;
    expect(longEmail).toHaveLength(LIMITS.email.max);
    expect(SignupRequest.safeParse({ ...base, email: longEmail }).success).toBe(true);
    expect(SignupRequest.safeParse({ ...base, email: `e${longEmail}` }).success).toBe(false);
  });

  it('a tick is a patch of completed alone', () => {
    expect(isTick({ completed: true })).toBe(true);
    expect(isTick({ completed: false })).toBe(true);
    expect(isTick({ completed: true, isPinned: true })).toBe(false);
    expect(isTick({ completed: true, title: 'x' })).toBe(false);
    expect(isTick({ isPinned: true })).toBe(false);
    expect(isTick({ title: 'x' })).toBe(false);
  });

  it('words an update by what it changed, and a change still on the device by its patch alike', () => {
    expect(changeMessage(['completed'], { completed: true })).toBe('Task completed');
    expect(changeMessage(['completed'], { completed: false })).toBe('Task marked active');
    expect(changeMessage(['isPinned'], { isPinned: true })).toBe('Task pinned');
    expect(changeMessage(['isPinned'], { isPinned: false })).toBe('Task unpinned');
    expect(changeMessage(['title'], { title: 'x' })).toBe('Title changed');
    expect(changeMessage(['title', 'isPinned'], { title: 'x', isPinned: true })).toBe('Task updated');
    expect(changeMessage(['due'], { due: '2027-01-01' })).toBe('Due date set');
    expect(changeMessage(['due'], { due: null })).toBe('Due date removed');
    expect(changeMessage([], {})).toBe('Task unchanged');
    const patch = { isPinned: false };
    expect(changeMessage(patchedFields(patch), patch)).toBe('Task unpinned');
    const todo = { title: 'A', completed: true, isPinned: false };
    expect(unchangedMessage({ completed: true }, todo)).toBe('Task already completed');
    expect(unchangedMessage({ isPinned: false }, todo)).toBe('Task already unpinned');
    expect(unchangedMessage({ title: 'A' }, todo)).toBe('Title unchanged');
    expect(unchangedMessage({ due: null }, todo)).toBe('Due date unchanged');
    expect(unchangedMessage({ title: 'A', completed: true }, todo)).toBe('Task unchanged');
  });

  it('takes a due date as a real day, or a day and time, and nothing else (PRODUCT §10.14)', () => {
    for (const due of ['2026-12-06', '2028-02-29', '2026-12-31T23:59', '2026-01-01T00:00', '1970-01-01', '2999-12-31']) expect(dueProblem(due)).toBeNull();
    for (const due of ['2026-02-29', '2100-02-29', '2026-00-10', '2026-06-31', '2026-12-06T24:00', '2026-12-06T12:5', '2026-12-06 12:00', '1969-12-31', '3000-01-01', '26-12-06', '']) {
      expect(dueProblem(due)).toBe(DUE_INVALID_MESSAGE);
    }
    // A patch removes a date with null, and sets nothing else by it.
    expect(TodoPatch.parse({ due: null })).toEqual({ due: null });
    expect(TodoPatch.safeParse({ due: '2026-02-30' }).success).toBe(false);
  });

  it('applies a patch as the server does: fields set, a null due date removed, completedAt following completed', () => {
    const task = { title: 'A', completed: false, isPinned: false, due: '2027-01-01', updatedAt: 'then', completedAt: null };
    expect(applyPatch(task, { completed: true, due: null }, 'now')).toEqual({ title: 'A', completed: true, isPinned: false, updatedAt: 'now', completedAt: 'now' });
    expect(applyPatch({ ...task, completed: true, completedAt: 'then' }, { isPinned: true }, 'now')).toMatchObject({ completedAt: 'then', isPinned: true, due: '2027-01-01' });
    expect(applyPatch({ ...task, completed: true, completedAt: 'then' }, { completed: false }, 'now').completedAt).toBeNull();
  });

  it('trims titles and bounds them to 1–500 characters', () => {
    expect(AddTodoRequest.parse({ title: '  buy milk ' }).title).toBe('buy milk');
    expect(AddTodoRequest.safeParse({ title: ' \t ' }).success).toBe(false);
    expect(AddTodoRequest.safeParse({ title: 't'.repeat(500) }).success).toBe(true);
    expect(AddTodoRequest.safeParse({ title: 't'.repeat(501) }).success).toBe(false);
  });

  it('words title problems for people, exactly as todoTitleProblem does', () => {
    const issuesOf = (title: string) => AddTodoRequest.safeParse({ title }).error?.issues.map(({ path, message }) => ({ path, message }));
    expect(issuesOf(' \t ')).toEqual([{ path: ['title'], message: TODO_TITLE_EMPTY_MESSAGE }]);
    expect(issuesOf('\u200B')).toEqual([{ path: ['title'], message: TODO_TITLE_EMPTY_MESSAGE }]);
    expect(issuesOf('t'.repeat(501))).toEqual([{ path: ['title'], message: TODO_TITLE_TOO_LONG_MESSAGE }]);
    expect(AddTodoRequest.parse({ title: ' a\u200Bb ' }).title).toBe('a\u200Bb');
  });

  it('accepts updateData with a title, completed, isPinned and/or due only; a title follows the add rules', () => {
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: true } }).success).toBe(true);
    expect(UpdateTodoRequest.safeParse({ updateData: { isPinned: false, completed: true } }).success).toBe(true);
    expect(UpdateTodoRequest.parse({ updateData: { title: '  Buy oat milk ' } })).toEqual({ updateData: { title: 'Buy oat milk' } });
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: true, title: 'x' } }).success).toBe(true);
    expect(UpdateTodoRequest.safeParse({ updateData: {} }).success).toBe(false);
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: 'true' } }).success).toBe(false);
    expect(UpdateTodoRequest.safeParse({ updateData: { title: '\u200B' } }).success).toBe(false);
    expect(UpdateTodoRequest.safeParse({ updateData: { title: 'a'.repeat(501) } }).success).toBe(false);
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: true, owner: 'x' } }).success).toBe(false);
  });

  it('removes bidi embedding, override and isolate controls from titles, at add and at edit', () => {
    expect(AddTodoRequest.parse({ title: ' \u202Eabc\u202C ' }).title).toBe('abc');
    expect(UpdateTodoRequest.parse({ updateData: { title: '\u2066a\u2069 b\u202A' } })).toEqual({ updateData: { title: 'a b' } });
    const issuesOf = (title: string) => UpdateTodoRequest.safeParse({ updateData: { title } }).error?.issues.map(({ message }) => message);
    expect(issuesOf('\u202E \u202C')).toEqual([TODO_TITLE_EDIT_EMPTY_MESSAGE]);
  });

  it('a task carries completedAt: an ISO time, or null while it is active; never left out', () => {
    const todo = { _id: '0123456789abcdef01234567', title: 't', completed: false, isPinned: false, createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString() };
    expect(Todo.safeParse(todo).success).toBe(false);
    expect(Todo.parse({ ...todo, completedAt: null })).toEqual({ ...todo, completedAt: null });
    expect(Todo.parse({ ...todo, completed: true, completedAt: new Date(5).toISOString() }).completedAt).toBe('1970-01-01T00:00:00.005Z');
    expect(Todo.safeParse({ ...todo, completedAt: 'yesterday' }).success).toBe(false);
  });

  it('bulk answers carry an optional undo token; restore-bulk takes exactly one and answers the restored tasks', () => {
    expect(BulkTodosResponse.parse({ message: 'm', count: 0 })).toEqual({ message: 'm', count: 0 });
    expect(BulkTodosResponse.parse({ message: 'm', count: 2, undoToken: 'abc' }).undoToken).toBe('abc');
    expect(RestoreBulkRequest.safeParse({ undoToken: 'abc' }).success).toBe(true);
    for (const body of [{}, { undoToken: '' }, { undoToken: 7 }, { undoToken: 'x'.repeat(129) }, { undoToken: 'abc', extra: 1 }]) {
      expect([body, RestoreBulkRequest.safeParse(body).success]).toEqual([body, false]);
    }
    expect(RestoreBulkResponse.safeParse({ message: '1 task restored', count: 1, todos: [] }).success).toBe(true);
    expect(RestoreBulkResponse.safeParse({ message: '1 task restored', count: 1 }).success).toBe(false);
  });

  it('accepts only 24-hex ids, lower-cased', () => {
    expect(ObjectIdString.parse('0123456789ABCDEF01234567')).toBe('0123456789abcdef01234567');
    expect(ObjectIdString.safeParse('0123456789abcdef0123456').success).toBe(false);
    expect(ObjectIdString.safeParse('g123456789abcdef01234567').success).toBe(false);
  });

  it('fills path parameters of the API table', () => {
    expect(apiPath(API.updateTodo.path, { todoId: 'abc' })).toBe('/todo/update-todo/abc');
    expect(API.signup.status).toBe(201);
  });
});

describe('todoTitleProblem', () => {
  const max = LIMITS.todoTitle.max;

  it('has the messages in plain words, without a field prefix', () => {
    expect(TODO_TITLE_EMPTY_MESSAGE).toBe('Enter a task before adding it.');
    expect(TODO_TITLE_TOO_LONG_MESSAGE).toBe('A task can be at most 500 characters long.');
  });

  it.each([
    ['empty', ''],
    ['spaces', '     '],
    ['tabs and newlines', ' \t\n\r\t\n '],
    ['no-break spaces (U+00A0)', '\u00A0\u00A0'],
    ['ideographic spaces (U+3000)', '\u3000\u3000'],
    ['a zero-width space (U+200B)', '\u200B'],
    ['zero-width space, BOM and word joiner mixed (U+200B U+FEFF U+2060)', '\u200B\uFEFF\u2060\u200B \uFEFF'],
    ['ZWJ, ZWNJ and bidi marks', '\u200D\u200C\u200E\u200F\u202E\u2066'],
    ['the Hangul filler (U+3164)', '\u3164'],
    ['the other blank fillers (U+115F U+1160 U+FFA0 U+2800 U+034F)', '\u115F\u1160\uFFA0\u2800\u034F'],
    ['control characters', '\u0000\u0007\u007F\u0085'],
    ['line and paragraph separators', '\u2028\u2029'],
    ['more zero-width spaces than the length limit', '\u200B'.repeat(max + 1)],
  ])('refuses %s as empty', (_name, title) => {
    expect(todoTitleProblem(title)).toBe(TODO_TITLE_EMPTY_MESSAGE);
  });

  it('counts the length after trimming, as JS string length', () => {
    expect(todoTitleProblem('a'.repeat(max))).toBeNull();
    expect(todoTitleProblem('a'.repeat(max + 1))).toBe(TODO_TITLE_TOO_LONG_MESSAGE);
    expect(todoTitleProblem(`   ${'a'.repeat(max)} \t\n`)).toBeNull();
    expect(todoTitleProblem(`\u3000${'a'.repeat(max)}\u00A0`)).toBeNull();
    expect(todoTitleValue(`   ${'a'.repeat(max)} \t\n`)).toHaveLength(max);
    // An emoji is two UTF-16 code units, as zod's .max counts them.
    expect(todoTitleProblem('😀'.repeat(max / 2))).toBeNull();
    expect(todoTitleProblem(`${'😀'.repeat(max / 2)}a`)).toBe(TODO_TITLE_TOO_LONG_MESSAGE);
  });

  it.each([
    ['a single character', 'a'],
    ['visible text with a zero-width space inside', 'a\u200Bb'],
    ['visible text wrapped in zero-width characters', '\u200Bmilk\uFEFF'],
    ['Hebrew', 'לקנות חלב'],
    ['Arabic', 'شراء الحليب'],
    ['an emoji', '🥛'],
    ['an emoji sequence joined with ZWJ', '👩\u200D💻'],
    ['a title made of a non-blank Hangul letter', '\u3131'],
  ])('accepts %s', (_name, title) => {
    expect(todoTitleProblem(title)).toBeNull();
  });

  it('stays fast on long runs of invisible characters (no backtracking)', () => {
    const started = performance.now();
    for (const invisible of ['\u034F', '\u200B', ' ', '\u3164', '\u200B\u034F']) {
      expect(todoTitleProblem(invisible.repeat(LIMITS.bodyBytes))).toBe(TODO_TITLE_EMPTY_MESSAGE);
      expect(todoTitleProblem(`a${invisible.repeat(LIMITS.bodyBytes)}a`)).toBe(TODO_TITLE_TOO_LONG_MESSAGE);
      expect(todoTitleProblem(`${invisible.repeat(100)}a`)).toBeNull();
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('gives the trimmed value the server stores', () => {
    expect(todoTitleValue('  \u3000buy milk\t\n')).toBe('buy milk');
    expect(todoTitleValue('a\u200Bb')).toBe('a\u200Bb');
  });

  it.each([
    ['LRE, RLE, PDF, LRO, RLO (U+202A–U+202E)', '\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee', 'abcde'],
    ['LRI, RLI, FSI, PDI (U+2066–U+2069)', '\u2066a\u2067b\u2068c\u2069d', 'abcd'],
    ['controls around white space, then trimmed', ' \u202E  milk \u202C ', 'milk'],
    ['an RLO spoofing a file name', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
  ])('removes the bidi embedding, override and isolate controls: %s', (_name, raw, stored) => {
    expect(todoTitleValue(raw)).toBe(stored);
    expect(todoTitleProblem(raw)).toBeNull();
  });

  it('keeps LRM, RLM and ALM (U+200E, U+200F, U+061C) and the neighbours of the removed range', () => {
    const kept = 'שלום\u200E! a\u200Fb\u061Cc \u2029x\u202Fy\u2065z\u206Aw';
    expect(todoTitleValue(kept)).toBe(kept);
  });

  it.each([
    ['an RLO', '\u202E'],
    ['all nine controls', '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069'],
    ['controls and spaces', ' \u2068 \u2069 '],
  ])('a title of only bidi controls (%s) is empty', (_name, raw) => {
    expect(todoTitleValue(raw)).toBe('');
    expect(todoTitleProblem(raw)).toBe(TODO_TITLE_EMPTY_MESSAGE);
  });

  it('counts the length without the removed controls', () => {
    expect(todoTitleProblem(`\u202E${'a'.repeat(max)}\u202C`)).toBeNull();
    expect(todoTitleProblem(`\u202E${'a'.repeat(max + 1)}`)).toBe(TODO_TITLE_TOO_LONG_MESSAGE);
  });
});

describe('the rules of lists (docs/PRODUCT.md §10.19)', () => {
  const { listNameProblem, listNameKey, listNameValue, isOrderKey, orderKeyBetween, byListPlace, CreateListRequest, ListPatch, CompleteAllRequest, ClearCompletedQuery, TodosResponse, TodoChangeEvent, Todo } = lists;

  it('a name: 1–60 visible characters after trimming, never the Inbox\'s, in the person\'s words', () => {
    expect(listNameProblem('Work')).toBeNull();
    expect(listNameProblem('  Work  ')).toBeNull();
    expect(listNameProblem('')).toBe(lists.LIST_NAME_EMPTY_MESSAGE);
    expect(listNameProblem('   ')).toBe(lists.LIST_NAME_EMPTY_MESSAGE);
    expect(listNameProblem('\u200b\u200b')).toBe(lists.LIST_NAME_EMPTY_MESSAGE);
    expect(listNameProblem('x'.repeat(60))).toBeNull();
    expect(listNameProblem('x'.repeat(61))).toBe(lists.LIST_NAME_TOO_LONG_MESSAGE);
    for (const inbox of ['Inbox', 'inbox', ' INBOX ']) expect([inbox, listNameProblem(inbox)]).toEqual([inbox, lists.LIST_NAME_INBOX_MESSAGE]);
    expect(listNameProblem('Inbox 2')).toBeNull();
    expect(listNameValue('  Work \u202e')).toBe('Work');
    expect(listNameKey(' Work ')).toBe(listNameKey('WORK'));
    expect(listNameKey('Work')).not.toBe(listNameKey('Works'));
    expect(lists.listNameTakenMessage('Work')).toBe('You already have a list named “Work”.');
  });

  it('order keys: between their neighbours, valid, and sorting lists by key then id', () => {
    const first = orderKeyBetween(null, null);
    const second = orderKeyBetween(first, null);
    const before = orderKeyBetween(null, first);
    const middle = orderKeyBetween(first, second);
    expect([before < first, first < middle, middle < second]).toEqual([true, true, true]);
    for (const key of [first, second, before, middle]) expect([key, isOrderKey(key)]).toEqual([key, true]);
    for (const key of ['', 'a0 ', 'a0~', 'a~', 'x'.repeat(129), 'a00', 'b0']) expect([key, isOrderKey(key)]).toEqual([key, false]);
    // Many moves between the same neighbours stay within the limit.
    let low = first;
    for (let i = 0; i < 200; i += 1) low = orderKeyBetween(low, second);
    expect(isOrderKey(low)).toBe(true);
    const a = { _id: 'a', order: 'a1' };
    const b = { _id: 'b', order: 'a0' };
    const c = { _id: 'c', order: 'a0' };
    expect([a, c, b].sort(byListPlace).map((list) => list._id)).toEqual(['b', 'c', 'a']);
  });

  it('the list schemas: a strict create and patch, a colour of nine, an order key, and the issue on the field', () => {
    expect(CreateListRequest.parse({ name: '  Work ' })).toEqual({ name: 'Work' });
    expect(CreateListRequest.safeParse({ name: 'Work', colour: 'mauve' }).error?.issues[0]?.path).toEqual(['colour']);
    expect(CreateListRequest.safeParse({ name: 'Work', order: 'not a key' }).error?.issues[0]).toEqual(expect.objectContaining({ path: ['order'], message: lists.LIST_ORDER_MESSAGE }));
    expect(CreateListRequest.safeParse({ name: 'Inbox' }).error?.issues[0]).toEqual(expect.objectContaining({ path: ['name'], message: lists.LIST_NAME_INBOX_MESSAGE }));
    expect(CreateListRequest.safeParse({ name: 'Work', extra: 1 }).success).toBe(false);
    expect(ListPatch.safeParse({}).success).toBe(false);
    expect(ListPatch.parse({ archived: true })).toEqual({ archived: true });
    expect(lists.LIST_COLOURS).toHaveLength(9);
    expect(lists.LIST_COLOURS).toContain(lists.DEFAULT_LIST_COLOUR);
  });

  it('a task may name its list; the bulk calls may name one or the Inbox; a spec client\'s bodies still parse', () => {
    const id = '0123456789abcdef01234567';
    expect(CompleteAllRequest.parse({ completed: true })).toEqual({ completed: true });
    expect(CompleteAllRequest.parse({ completed: true, listId: 'inbox' })).toEqual({ completed: true, listId: 'inbox' });
    expect(CompleteAllRequest.parse({ completed: true, listId: id.toUpperCase() })).toEqual({ completed: true, listId: id });
    expect(CompleteAllRequest.safeParse({ completed: true, listId: 'work' }).error?.issues[0]?.path).toEqual(['listId']);
    expect(ClearCompletedQuery.parse({})).toEqual({});
    expect(ClearCompletedQuery.safeParse({ listId: 'nope' }).success).toBe(false);
    expect(TodoPatch.parse({ listId: null })).toEqual({ listId: null });
    expect(AddTodoRequest.parse({ title: 't', listId: id })).toEqual({ title: 't', listId: id });
    const todo = { _id: id, title: 't', completed: false, isPinned: false, createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString(), completedAt: null };
    expect(Todo.parse(todo)).toEqual(todo);
    expect(TodosResponse.safeParse({ todos: [todo], cursor: '0' }).success).toBe(false);
    expect(TodosResponse.parse({ todos: [todo], lists: [], cursor: '0' }).lists).toEqual([]);
    expect(TodoChangeEvent.parse({ id: '1', origin: null, saved: [], removed: [] })).toEqual({ id: '1', origin: null, saved: [], removed: [] });
  });

  it('moving a task says so, to a list or to the Inbox', () => {
    expect(changeMessage(['listId'], { listId: '0123456789abcdef01234567' })).toBe('Task moved');
    expect(changeMessage(['listId'], { listId: null })).toBe('Task moved to Inbox');
    expect(unchangedMessage({ listId: null }, { completed: false, isPinned: false })).toBe('Task already in that list');
  });

  it('an archived list keeps its tasks out of the way: only its own scope holds them', () => {
    const { archivedListIds, inListScope, outsideArchivedLists } = lists;
    const work = '0123456789abcdef01234567';
    const old = 'fedcba987654321001234567';
    const archived = archivedListIds([
      { _id: work, archived: false },
      { _id: old, archived: true },
    ]);
    expect([...archived]).toEqual([old]);
    expect(inListScope({ listId: old }, undefined, archived)).toBe(false);
    expect(inListScope({ listId: old }, old, archived)).toBe(true);
    expect(inListScope({ listId: old }, 'inbox', archived)).toBe(false);
    expect(inListScope({ listId: work }, undefined, archived)).toBe(true);
    expect(inListScope({ listId: work }, old, archived)).toBe(false);
    expect(inListScope({}, undefined, archived)).toBe(true);
    expect(inListScope({}, 'inbox', archived)).toBe(true);
    expect(inListScope({}, work, archived)).toBe(false);
    const tasks = [{ listId: work }, { listId: old }, {}];
    expect(outsideArchivedLists(tasks, archived)).toEqual([{ listId: work }, {}]);
    expect(outsideArchivedLists(tasks, new Set())).toEqual(tasks);
  });
});
