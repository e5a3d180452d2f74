import { currentUserQuery, describeError, logout, statusOf } from '@tm/api-client';
import { PlatformProviders } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { signUpNewUser, testQueryClient } from '@tm/web-test-support';
import type { ReactNode } from 'react';
import toast, { useToasterStore } from 'react-hot-toast';
import { MemoryRouter, useLocation, useNavigationType } from 'react-router-dom';
import { LOGIN_FALLBACK, useLogin } from './login';

function renderUseLogin() {
  const queryClient = testQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PlatformProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={['/login']}>{children}</MemoryRouter>
    </PlatformProviders>
  );
  // The active current-user query stands for the shell's route guard, which observes it.
  const hook = renderHook(
    () => ({
      login: useLogin(),
      me: useQuery(currentUserQuery()),
      path: useLocation().pathname,
      navigationType: useNavigationType(),
      toasts: useToasterStore().toasts,
    }),
    { wrapper },
  );
  return { ...hook, queryClient };
}

beforeEach(() => toast.remove());

describe('useLogin against the real gateway', () => {
  it('settles only once the current user is known, then replaces the route with /', async () => {
    const user = await signUpNewUser('Hook Tester');
    await logout();
    const { result, queryClient } = renderUseLogin();
    await waitFor(() => expect(result.current.me.isFetched).toBe(true));
    expect(result.current.me.data).toBeNull();

    await act(() => result.current.login.mutateAsync({ email: user.email, password: user.password }));

    // Already there when the mutation settles: the refresh is awaited, not fired and forgotten.
    expect(queryClient.getQueryData(currentUserQuery().queryKey)).toMatchObject({ email: user.email });
    expect(result.current.path).toBe('/');
    expect(result.current.navigationType).toBe('REPLACE');
    expect(result.current.toasts).toEqual([expect.objectContaining({ type: 'success', message: 'Logged in successfully' })]);
  });

  it('leaves a failure to the form (no toast): the error is on the mutation for the banner, and it stays put', async () => {
    const user = await signUpNewUser('Hook Tester');
    await logout();
    const { result } = renderUseLogin();
    await waitFor(() => expect(result.current.me.isFetched).toBe(true));

    await act(() => result.current.login.mutateAsync({ email: user.email, password: 'wrong password' }).catch(() => undefined));

    await waitFor(() => expect(result.current.login.isError).toBe(true)); // observers hear of it a tick later
    expect(statusOf(result.current.login.error)).toBe(401);
    expect(describeError(result.current.login.error, LOGIN_FALLBACK)).toBe('Invalid email or password');
    expect(result.current.path).toBe('/login');
    expect(result.current.navigationType).toBe('POP');
    expect(result.current.me.data).toBeNull();
    expect(result.current.toasts).toEqual([]);
  });
});
