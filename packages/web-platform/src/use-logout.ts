import { describeError, isSessionEnded, logout, type SessionEndReason } from '@tm/api-client';
import { forgetDevicePush } from './device-push.js';
import { useMutation, useQueryClient, type MutationKey } from '@tanstack/react-query';
import { forgetDrafts } from './drafts.js';
import { notifyError, notifySuccess } from './notify.js';
import { endSession } from './session.js';

interface SessionEndingOptions<TVariables> {
  mutationKey: MutationKey;
  /** The call whose success ends this session on the server (logout, sign out everywhere, delete account). */
  mutationFn: (variables: TVariables) => Promise<{ message: string }>;
  /**
   * Why the session ends, as the other tabs of this browser are told: their sign-in screen says
   * "You signed out in another tab." (`signed-out`), "You were signed out everywhere." … This tab shows the
   * server's message instead.
   */
  reason: SessionEndReason;
  /** How a failure is reported, when not by the caller of `mutate` (a form puts it next to a field). */
  onError?: (error: unknown) => void;
}

/**
 * A call after which this page is signed out, ended the one way: the server's message is shown and the
 * session is forgotten on this page, so the user becomes "signed out" (the route guards go to /login) and the
 * cached tasks are dropped; the other tabs follow through tab-sync, told `reason` (docs/PRODUCT.md §10.3,
 * §11). A failure changes nothing here.
 */
export function useSessionEndingMutation<TVariables = void>({ mutationKey, mutationFn, reason, onError }: SessionEndingOptions<TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey,
    mutationFn,
    onSuccess: ({ message }) => {
      notifySuccess(message);
      // Ended here on purpose: nothing written on this tab is kept for whoever uses it next.
      forgetDrafts();
      endSession(queryClient, reason);
    },
    onError,
  });
}

/**
 * The one logout flow (the shell's header, each remote's standalone app), a session-ending call. A logout
 * that fails (offline, timeout, server down) says why in a toast and changes nothing (docs/PRODUCT.md §8).
 * One whose session had already ended elsewhere (a 401) is not a failure to report: the page goes to the
 * sign-in screen, which says why (the QueryClient's session-ended handling).
 */
export function useLogout() {
  return useSessionEndingMutation({
    mutationKey: ['user', 'logout'],
    mutationFn: () => {
      // This browser's push subscription ends with the session (PRODUCT §10.17); the logout never waits for it.
      forgetDevicePush().catch(() => undefined);
      return logout();
    },
    reason: 'signed-out',
    onError: (error) => {
      if (!isSessionEnded(error)) notifyError(describeError(error, 'Logout failed'));
    },
  });
}
