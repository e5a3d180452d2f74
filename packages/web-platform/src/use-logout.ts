import { describeError, logout } from '@tm/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifyError, notifySuccess } from './notify.js';
import { endSession } from './session.js';

/**
 * The one logout flow (the shell's header, each remote's standalone app). On success the server's message
 * is shown and the session is forgotten on this page: the user becomes "signed out" and the cached tasks
 * are dropped, so the next person on this browser never sees them; the other tabs follow (tab-sync).
 * A logout that fails (offline, timeout, server down) says why and changes nothing (docs/PRODUCT.md §8).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['user', 'logout'],
    mutationFn: logout,
    onSuccess: ({ message }) => {
      notifySuccess(message);
      endSession(queryClient);
    },
    onError: (error) => notifyError(describeError(error, 'Logout failed')),
  });
}
