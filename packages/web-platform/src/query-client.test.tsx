import { addTodo, currentUserQuery, fetchCurrentUser, login, logout, todosQuery } from '@tm/api-client';
import { QueryClientProvider, useMutation, type QueryClient } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { cachedTodo, signUpNewUser } from '@tm/web-test-support';
import type { ReactNode } from 'react';
import toast, { useToasterStore } from 'react-hot-toast';
import { createQueryClient } from './query-client';
import { SESSION_ENDED_MESSAGE } from './session';

/**
 * The one QueryClient (createQueryClient) against the real gateway: a 401 of any query or mutation while
 * the cache holds a signed-in user ends the session on this page, once; other failures change nothing.
 */

const userKey = currentUserQuery().queryKey;
const todosKey = todosQuery().queryKey;
const someTodo = cachedTodo('seen before');

/** The toasts react-hot-toast holds right now (what the Toaster would show). */
function toastsNow() {
  const { result, unmount } = renderHook(() => useToasterStore());
  const toasts = result.current.toasts.map(({ type, message }) => ({ type, message }));
  unmount();
  return toasts;
}

function wrapperFor(queryClient: QueryClient) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  };
}

/** A signed-up user whose server session was then ended (logout), with a cache that still believes in it. */
async function cacheOfAnEndedSession(queryClient: QueryClient) {
  const user = await signUpNewUser();
  const me = await fetchCurrentUser();
  expect(me).toMatchObject({ _id: user._id });
  queryClient.setQueryData(userKey, me);
  queryClient.setQueryData(todosKey, { todos: [someTodo], cursor: '0' });
  await logout();
  return user;
}

describe('createQueryClient', () => {
  let queryClient: QueryClient;
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    act(() => toast.remove());
  });

  it('has the product defaults: no retry of mutations, 5 minute gcTime, calls never paused offline', () => {
    const { queries, mutations } = queryClient.getDefaultOptions();
    expect(queries).toMatchObject({ gcTime: 300_000, networkMode: 'always', refetchOnWindowFocus: false });
    expect(mutations).toMatchObject({ retry: false, networkMode: 'always' });
  });

  it('a real 401 of a query while signed in ends the session: user null, tasks removed, one toast', async () => {
    await cacheOfAnEndedSession(queryClient);

    const failure: unknown = await queryClient.query(todosQuery()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ response: { status: 401 } });

    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    expect(toastsNow()).toEqual([{ type: 'error', message: SESSION_ENDED_MESSAGE }]);
    expect(SESSION_ENDED_MESSAGE).toBe('Your session has ended. Please sign in again.');

    // A second 401 (now signed out) says nothing more.
    await queryClient.query(todosQuery()).catch(() => undefined);
    expect(toastsNow()).toHaveLength(1);
  });

  it('a real 401 of a mutation while signed in ends the session too', async () => {
    await cacheOfAnEndedSession(queryClient);
    const { result } = renderHook(() => useMutation({ mutationKey: ['todos', 'add'], mutationFn: addTodo }), { wrapper: wrapperFor(queryClient) });

    act(() => result.current.mutate('after the session ended'));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 401 } });
    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryData(todosKey)).toBeUndefined();
    expect(toastsNow()).toEqual([{ type: 'error', message: SESSION_ENDED_MESSAGE }]);
  });

  it('a real 401 while the cache has no signed-in user changes nothing and shows no toast', async () => {
    await signUpNewUser();
    await logout();
    queryClient.setQueryData(userKey, null);
    queryClient.setQueryData(todosKey, { todos: [someTodo], cursor: '0' });

    const failure: unknown = await queryClient.query({ ...todosQuery(), staleTime: 0 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ response: { status: 401 } });

    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryData(todosKey)).toEqual({ todos: [someTodo], cursor: '0' });
    expect(toastsNow()).toEqual([]);
  });

  it('a 401 of a wrong password while signed in does not end the session', async () => {
    const user = await signUpNewUser();
    queryClient.setQueryData(userKey, await fetchCurrentUser());
    const { result } = renderHook(() => useMutation({ mutationKey: ['user', 'login'], mutationFn: login }), { wrapper: wrapperFor(queryClient) });

    act(() => result.current.mutate({ email: user.email, password: 'not the password' }));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 401, data: { code: 'AUTH.INVALID_CREDENTIALS' } } });
    expect(queryClient.getQueryData(userKey)).toMatchObject({ _id: user._id });
    expect(toastsNow()).toEqual([]);
  });

  it('a real 400 of a mutation while signed in does not end the session, and is not retried', async () => {
    const user = await signUpNewUser();
    queryClient.setQueryData(userKey, await fetchCurrentUser());
    queryClient.setQueryData(todosKey, { todos: [], cursor: '0' });
    let calls = 0;
    const { result } = renderHook(
      () =>
        useMutation({
          mutationKey: ['todos', 'add'],
          mutationFn: (title: string) => {
            calls += 1;
            return addTodo(title);
          },
        }),
      { wrapper: wrapperFor(queryClient) },
    );

    act(() => result.current.mutate('\u200B'));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 400 } });
    expect(calls).toBe(1);
    expect(queryClient.getQueryData(userKey)).toMatchObject({ _id: user._id });
    expect(queryClient.getQueryData(todosKey)).toEqual({ todos: [], cursor: '0' });
    expect(toastsNow()).toEqual([]);
  });
});
