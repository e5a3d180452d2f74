import { currentUserQuery, fetchCurrentUser, forgetSessionEnd, peekSessionEnd, todosQuery } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { cachedTodo, signUpNewUser } from '@tm/web-test-support';
import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { anotherDevice } from '../../api-client/src/another-device.test-helpers';
import { PlatformProviders } from './platform-providers';
import { createQueryClient } from './query-client';
import { useLogout } from './use-logout';

/** The one logout flow against the real gateway, inside the providers every frontend root uses. */

const userKey = currentUserQuery().queryKey;
const todosKey = todosQuery().queryKey;
const someTodo = cachedTodo('mine');

function renderLogout(queryClient: QueryClient) {
  return renderHook(() => useLogout(), {
    wrapper: ({ children }: { children: ReactNode }) => <PlatformProviders queryClient={queryClient}>{children}</PlatformProviders>,
  });
}

describe('useLogout', () => {
  let queryClient: QueryClient;
  let goOnline: (() => void) | undefined;
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    goOnline?.();
    goOnline = undefined;
    queryClient.clear();
    act(() => toast.remove());
    forgetSessionEnd();
  });

  async function signedInCache() {
    const user = await signUpNewUser();
    const me = await fetchCurrentUser();
    expect(me).toMatchObject({ _id: user._id });
    queryClient.setQueryData(userKey, me);
    queryClient.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    return user;
  }

  it('logs out on the server, shows its message, and forgets the user and the tasks here', async () => {
    await signedInCache();
    const { result } = renderLogout(queryClient);

    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(queryClient.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    // The server session is gone too.
    expect(await fetchCurrentUser()).toBeNull();
    // A logout is not a session that ended: no such toast.
    expect(screen.queryByText('Your session has ended. Please sign in again.')).not.toBeInTheDocument();
  });

  it('a logout of a session already ended elsewhere is no failure to toast: the page is signed out, told why', async () => {
    const user = await signedInCache();
    const phone = await anotherDevice(user.email, user.password);
    expect((await phone('POST', '/api/user/logout-all')).status).toBe(200);
    forgetSessionEnd();
    const { result } = renderLogout(queryClient);

    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(result.current.error).toMatchObject({ response: { status: 401, data: { reason: 'signed-out-everywhere' } } });
    expect(queryClient.getQueryData(userKey)).toBeNull();
    expect(peekSessionEnd()).toEqual({ reason: 'signed-out-everywhere' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('offline, the logout fails at once with the offline message and changes nothing', async () => {
    const user = await signedInCache();
    const { result } = renderLogout(queryClient);

    Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => false });
    goOnline = () => delete (window.navigator as { onLine?: boolean }).onLine;
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toMatchObject({ _id: user._id });
    expect(queryClient.getQueryData(todosKey)).toEqual({ todos: [someTodo], lists: [], cursor: '0' });

    // Back online, nothing replays the logout: the session is still there.
    goOnline();
    goOnline = undefined;
    window.dispatchEvent(new Event('online'));
    expect(await fetchCurrentUser()).toMatchObject({ _id: user._id });
    expect(result.current.isError).toBe(true);
    expect(queryClient.getQueryData(userKey)).toMatchObject({ _id: user._id });
  });
});
