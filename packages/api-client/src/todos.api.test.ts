import { CLIENT_ID_HEADER, CLIENT_ID_PATTERN, IDEMPOTENCY_KEY_HEADER, ROUTES } from '@tm/contracts';
import { signUpNewUser } from '@tm/web-test-support';
import { call } from './http.js';
import { addTodo, clearCompleted, clientId, completeAll, deleteTodo, fetchAgenda, fetchTodoList, fetchTodos, http, newIdempotencyKey, restoreBulk, restoreTodo, updateTodo } from './index.js';

describe('the page\'s client id', () => {
  it('is random, one per page, within the pattern, and goes with every request as X-Client-Id', async () => {
    expect(clientId()).toMatch(CLIENT_ID_PATTERN);
    expect(clientId()).toBe(clientId());
    const response = await http.get('/user/me').catch((error: unknown) => (error as { response: { config: typeof http.defaults } }).response);
    expect(response.config.headers?.[CLIENT_ID_HEADER]).toBe(clientId());
  });
});

describe('the task calls beyond the spec (docs/PRODUCT.md §10.11), against the real gateway', () => {
  beforeEach(async () => {
    await signUpNewUser('Client Test');
  });

  it('reads the list and the lists with the change feed\'s cursor', async () => {
    const list = await fetchTodoList();
    expect(list).toEqual({ todos: [], lists: [], cursor: expect.stringMatching(/^\d{1,16}$/) });
  });

  it('renames a task with updateData.title, trimmed', async () => {
    const { todo } = await addTodo('Old title');
    const { todo: renamed } = await updateTodo(todo._id, { title: '  New title  ' });
    expect(renamed).toMatchObject({ _id: todo._id, title: 'New title', createdAt: todo.createdAt });
    await expect(updateTodo(todo._id, { title: '   ' })).rejects.toMatchObject({
      response: { status: 400, data: { message: 'A task needs a title. Press Escape to keep the old one.' } },
    });
  });

  it('restores a deleted task exactly as it was', async () => {
    const { todo } = await addTodo('Bring me back');
    const { todo: pinned } = await updateTodo(todo._id, { isPinned: true });
    await deleteTodo(todo._id);
    expect(await fetchTodos()).toEqual([]);
    const { todo: restored } = await restoreTodo(todo._id);
    expect(restored).toEqual(pinned);
    expect(await fetchTodos()).toEqual([pinned]);
    await expect(restoreTodo(todo._id)).rejects.toMatchObject({ response: { status: 404 } });
  });

  it("reads Today and Upcoming for the person's own day (PRODUCT §10.15), and a bad day is a 400 naming it", async () => {
    await addTodo('overdue', '2026-12-01');
    await addTodo('today 09:00', '2026-12-06T09:00');
    const done = (await addTodo('done today', '2026-12-06')).todo;
    await updateTodo(done._id, { completed: true });
    await addTodo('tomorrow', '2026-12-07');
    await addTodo('no date');
    const titles = (todos: { title: string }[]) => todos.map((todo) => todo.title);
    const agenda = await fetchAgenda('2026-12-06');
    expect([agenda.today, titles(agenda.overdue), agenda.days.map((day) => [day.date, titles(day.todos)])]).toEqual([
      '2026-12-06',
      ['overdue'],
      [['2026-12-06', ['today 09:00']], ['2026-12-07', ['tomorrow']]],
    ]);
    expect((await fetchAgenda('2026-12-06', 1)).days.map((day) => day.date)).toEqual(['2026-12-06']);
    await expect(fetchAgenda('2026-02-30')).rejects.toMatchObject({ response: { status: 400, data: { issues: [{ path: ['today'] }] } } });
    await expect(fetchAgenda('2026-12-06', 0)).rejects.toMatchObject({ response: { status: 400, data: { issues: [{ path: ['days'] }] } } });
  });

  it('marks all complete or active, and clears the completed ones, one request each', async () => {
    for (const title of ['one', 'two', 'three']) await addTodo(title);
    const marked = await completeAll(true);
    expect(marked).toEqual({ message: expect.any(String), count: 3, undoToken: expect.any(String) });
    expect((await fetchTodos()).every((todo) => todo.completed)).toBe(true);
    expect((await completeAll(true)).count).toBe(0);

    const [first] = await fetchTodos();
    await updateTodo(first!._id, { completed: false });
    const cleared = await clearCompleted();
    expect(cleared).toEqual({ message: expect.any(String), count: 2, undoToken: expect.any(String) });
    expect((await fetchTodos()).map((todo) => todo._id)).toEqual([first!._id]);
    expect((await completeAll(false)).count).toBe(0);
  });
});

describe('the Idempotency-Key of task writes (docs/PRODUCT.md §7), against the real gateway', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  let sent: Array<{ method: string; url: string; key: unknown }>;
  let interceptor: number;

  beforeEach(async () => {
    await signUpNewUser('Client Test');
    sent = [];
    interceptor = http.interceptors.request.use((config) => {
      sent.push({ method: String(config.method).toUpperCase(), url: String(config.url), key: config.headers.get(IDEMPOTENCY_KEY_HEADER) });
      return config;
    });
  });
  afterEach(() => {
    http.interceptors.request.eject(interceptor);
  });

  it('goes with every task write, a new random UUID per call; reads and account calls carry none', async () => {
    const { todo } = await addTodo('Keyed');
    await updateTodo(todo._id, { completed: true });
    const { undoToken } = await clearCompleted();
    await restoreBulk(undoToken ?? '');
    await completeAll(false);
    await deleteTodo(todo._id);
    await restoreTodo(todo._id);
    await fetchTodos();
    const writes = sent.filter((request) => request.method !== 'GET');
    expect(writes.map((request) => request.method)).toEqual(['POST', 'PUT', 'DELETE', 'POST', 'PUT', 'DELETE', 'POST']);
    for (const { key } of writes) expect(key).toMatch(UUID);
    expect(new Set(writes.map((request) => request.key)).size).toBe(writes.length);
    expect(sent.filter((request) => request.method === 'GET').map((request) => request.key)).toEqual([undefined]);
  });

  it('a retry with the key of the first attempt is applied once and answered the same', async () => {
    const idempotencyKey = newIdempotencyKey();
    const first = await call(ROUTES.addTodo, { body: { title: 'Once' }, idempotencyKey });
    expect(await call(ROUTES.addTodo, { body: { title: 'Once' }, idempotencyKey })).toEqual(first);
    expect(await fetchTodos()).toEqual([first.todo]);
    expect(sent.map((request) => request.key)).toEqual([idempotencyKey, idempotencyKey, undefined]);
    await expect(call(ROUTES.addTodo, { body: { title: 'Another action' }, idempotencyKey })).rejects.toMatchObject({
      response: { status: 422, data: { code: 'TODO.IDEMPOTENCY_KEY_REUSED' } },
    });
  });

  it('is a version-4 UUID from getRandomValues where randomUUID is missing (no secure context)', () => {
    const own = Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID');
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = [newIdempotencyKey(), newIdempotencyKey()];
      for (const key of keys) expect(key).toMatch(UUID);
      expect(keys[0]).not.toBe(keys[1]);
    } finally {
      if (own) Object.defineProperty(globalThis.crypto, 'randomUUID', own);
      else Reflect.deleteProperty(globalThis.crypto, 'randomUUID');
    }
  });
});
