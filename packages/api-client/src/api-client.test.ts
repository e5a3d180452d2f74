import { AxiosError } from 'axios';
import { addTodo, deleteTodo, errorMessage, fetchCurrentUser, fetchTodos, http, login, logout, signup, updateTodo } from './index.js';

const account = { fullName: 'Client Test', email: `client-${Date.now()}@example.com`, password: 'correct horse battery' };

describe('the api client against the real gateway', () => {
  it('is configured as PRODUCT §7 and §9 say', () => {
    expect(http.defaults.baseURL).toBe('/api');
    expect(http.defaults.withCredentials).toBe(true);
    // The 10 s are a timeout of silence, not of the whole call (silence.ts): axios' own is off.
    expect(http.defaults.timeout ?? 0).toBe(0);
    expect(http.defaults.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(http.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN');
  });

  it('treats a signed-out visitor as no user, then signs up, works with tasks and logs out', async () => {
    expect(await fetchCurrentUser()).toBeNull();
    expect(document.cookie).toMatch(/XSRF-TOKEN=/);
    const created = await signup(account);
    expect(created.user).toMatchObject({ fullName: 'Client Test', email: account.email });
    expect(await fetchCurrentUser()).toMatchObject({ email: account.email });

    const { todo } = await addTodo('  through axios  ');
    expect(todo.title).toBe('through axios');
    expect((await updateTodo(todo._id, { completed: true })).todo.completed).toBe(true);
    expect((await fetchTodos()).map((t) => t._id)).toEqual([todo._id]);
    expect((await deleteTodo(todo._id)).message).toEqual(expect.any(String));

    expect((await logout()).message).toBe('Logged out successfully');
    expect(await fetchCurrentUser()).toBeNull();
    await expect(login({ email: account.email, password: 'wrong password' })).rejects.toMatchObject({ response: { status: 401 } });
    expect((await login({ email: account.email, password: account.password })).user.email).toBe(account.email);
  });

  it('reads the server message of a failed call, or falls back', async () => {
    const failure = await addTodo('x'.repeat(501)).catch((error: unknown) => error);
    expect(errorMessage(failure, 'fallback')).toMatch(/at most 500/);
    expect(errorMessage(new AxiosError('Network Error'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new Error('boom'), 'Login failed')).toBe('Login failed');
  });
});
