import { addTodo, currentUserQuery, fetchCurrentUser, forgetSessionEnd, login, logout, peekSessionEnd, todosQuery } from '@tm/api-client';
import { QueryClientProvider, useMutation, type QueryClient } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { cachedTodo, signUpNewUser } from '@tm/web-test-support';
import type { ReactNode } from 'react';
import toast, { useToasterStore } from 'react-hot-toast';
import { anotherDevice } from '../../api-client/src/another-device.test-helpers';
import { createQueryClient } from './query-client';

/**
 * The one QueryClient (createQueryClient) against the real gateway: a 401 of any query or mutation while
 * the cache holds a signed-in user ends the session on this page, once, and leaves why for the sign-in
 * screen (`tm.sessionEnd` in this tab's sessionStorage, no toast); other failures change nothing.
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
  queryClient.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
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
    forgetSessionEnd();
  });

  it('has the product defaults: no retry of mutations, 5 minute gcTime, calls never paused offline', () => {
    const { queries, mutations } = queryClient.getDefaultOptions();
    expect(queries).toMatchObject({ gcTime: 300_000, networkMode: 'always', refetchOnWindowFocus: false });
    expect(mutations).toMatchObject({ retry: false, networkMode: 'always' });
  });

  it('a real 401 of a query while signed in ends the session: user null, tasks removed, the sign-in screen told (no toast)', async () => {
    await cacheOfAnEndedSession(queryClient);
    sessionStorage.setItem('tm:draft:someone', 'a draft being written');

    const failure: unknown = await queryClient.query(todosQuery()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ response: { status: 401 } });

    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    // This page's logout cleared its cookie: the gateway cannot say why, so the screen says only that it ended.
    expect(sessionStorage.getItem('tm.sessionEnd')).toBe('ended');
    expect(peekSessionEnd()).toEqual({});
    expect(toastsNow()).toEqual([]);
    // Only that key: the rest of the tab's storage stays.
    expect(sessionStorage.getItem('tm:draft:someone')).toBe('a draft being written');
    sessionStorage.removeItem('tm:draft:someone');

    // A second 401 (now signed out) changes nothing more.
    forgetSessionEnd();
    await queryClient.query(todosQuery()).catch(() => undefined);
    expect(peekSessionEnd()).toBeUndefined();
  });

  it('a 401 that says why (the password was changed on another device) leaves that reason for the sign-in screen', async () => {
    const user = await signUpNewUser();
    queryClient.setQueryData(userKey, await fetchCurrentUser());
    queryClient.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    const laptop = await anotherDevice(user.email, user.password);
    expect((await laptop('PUT', '/api/user/password', { currentPassword: user.password, newPassword: 'violet tractor sings at midnight' })).status).toBe(200);

    const failure: unknown = await queryClient.query({ ...todosQuery(), staleTime: 0 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ response: { status: 401, data: { code: 'AUTH.UNAUTHENTICATED', reason: 'password-changed' } } });
    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(peekSessionEnd()).toEqual({ reason: 'password-changed' });
    expect(toastsNow()).toEqual([]);
  });

  it('a mutation refused because the session was signed out everywhere says so too', async () => {
    const user = await signUpNewUser();
    queryClient.setQueryData(userKey, await fetchCurrentUser());
    const phone = await anotherDevice(user.email, user.password);
    expect((await phone('POST', '/api/user/logout-all')).status).toBe(200);
    const { result } = renderHook(() => useMutation({ mutationKey: ['todos', 'add'], mutationFn: (title: string) => addTodo(title) }), { wrapper: wrapperFor(queryClient) });

    // A write with the ended session's XSRF token: a 401 that says why, not a 403.
    act(() => result.current.mutate('after everyone was signed out'));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 401, data: { reason: 'signed-out-everywhere' } } });
    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(peekSessionEnd()).toEqual({ reason: 'signed-out-everywhere' });
  });

  it('a real 401 of a mutation while signed in ends the session too', async () => {
    await cacheOfAnEndedSession(queryClient);
    const { result } = renderHook(() => useMutation({ mutationKey: ['todos', 'add'], mutationFn: (title: string) => addTodo(title) }), { wrapper: wrapperFor(queryClient) });

    act(() => result.current.mutate('after the session ended'));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 401 } });
    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryData(todosKey)).toBeUndefined();
    expect(peekSessionEnd()).toEqual({});
    expect(toastsNow()).toEqual([]);
  });

  it('a real 401 while the cache has no signed-in user changes nothing and shows no toast', async () => {
    await signUpNewUser();
    await logout();
    queryClient.setQueryData(userKey, null);
    queryClient.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    forgetSessionEnd();

    const failure: unknown = await queryClient.query({ ...todosQuery(), staleTime: 0 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ response: { status: 401 } });

    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryData(todosKey)).toEqual({ todos: [someTodo], lists: [], cursor: '0' });
    expect(toastsNow()).toEqual([]);
    expect(peekSessionEnd()).toBeUndefined();
  });

  it('a 401 of a wrong password while signed in does not end the session', async () => {
    const user = await signUpNewUser();
    queryClient.setQueryData(userKey, await fetchCurrentUser());
    const { result } = renderHook(() => useMutation({ mutationKey: ['user', 'login'], mutationFn: login }), { wrapper: wrapperFor(queryClient) });
    forgetSessionEnd();

    act(() => result.current.mutate({ email: user.email, password: 'not the password' }));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 401, data: { code: 'AUTH.INVALID_CREDENTIALS' } } });
    expect(queryClient.getQueryData(userKey)).toMatchObject({ _id: user._id });
    expect(toastsNow()).toEqual([]);
    expect(peekSessionEnd()).toBeUndefined();
  });

  it('a real 400 of a mutation while signed in does not end the session, and is not retried', async () => {
    const user = await signUpNewUser();
    queryClient.setQueryData(userKey, await fetchCurrentUser());
    queryClient.setQueryData(todosKey, { todos: [], lists: [], cursor: '0' });
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
    expect(queryClient.getQueryData(todosKey)).toEqual({ todos: [], lists: [], cursor: '0' });
    expect(toastsNow()).toEqual([]);
  });
});
