import { describeError, logout } from '@tm/api-client';
import { useMutation, useQueryClient, type MutationKey } from '@tanstack/react-query';
import { notifyError, notifySuccess } from './notify.js';
import { endSession } from './session.js';

interface SessionEndingOptions<TVariables> {
  mutationKey: MutationKey;
  /** The call whose success ends this session on the server (logout, sign out everywhere, delete account). */
  mutationFn: (variables: TVariables) => Promise<{ message: string }>;
  /** How a failure is reported, when not by the caller of `mutate` (a form puts it next to a field). */
  onError?: (error: unknown) => void;
}

/**
 * A call after which this page is signed out, ended the one way: the server's message is shown and the
 * session is forgotten on this page, so the user becomes "signed out" (the route guards go to /login) and the
 * cached tasks are dropped; the other tabs follow through tab-sync (docs/PRODUCT.md §10.3, §11). A failure
 * changes nothing here.
 */
export function useSessionEndingMutation<TVariables = void>({ mutationKey, mutationFn, onError }: SessionEndingOptions<TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey,
    mutationFn,
    onSuccess: ({ message }) => {
      notifySuccess(message);
      endSession(queryClient);
    },
    onError,
  });
}

/**
 * The one logout flow (the shell's header, each remote's standalone app), a session-ending call. A logout
 * that fails (offline, timeout, server down) says why in a toast and changes nothing (docs/PRODUCT.md §8).
 */
export function useLogout() {
  return useSessionEndingMutation({
    mutationKey: ['user', 'logout'],
    mutationFn: logout,
    onError: (error) => notifyError(describeError(error, 'Logout failed')),
  });
}
