import { CLIENT_ID_HEADER, CLIENT_ID_PATTERN } from '@tm/contracts';
import { signUpNewUser } from '@tm/web-test-support';
import { addTodo, clearCompleted, clientId, completeAll, deleteTodo, fetchTodoList, fetchTodos, http, restoreTodo, updateTodo } from './index.js';

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

  it('reads the list with the change feed\'s cursor', async () => {
    const list = await fetchTodoList();
    expect(list).toEqual({ todos: [], cursor: expect.stringMatching(/^\d{1,16}$/) });
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
