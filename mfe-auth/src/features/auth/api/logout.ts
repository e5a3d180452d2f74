import { logout } from '@tm/api-client';
import { useSessionMutation } from './session-mutation';

/** POST /user/logout (SPEC §7), used by the standalone app; the shell's header has its own button. */
export function useLogout() {
  return useSessionMutation({ mutationFn: logout, fallback: 'Logout failed' });
}
