import { login } from '@tm/api-client';
import { useSessionMutation } from './session-mutation';

/** Shown when a failed login carries no server message (docs/PRODUCT.md §2, §8). */
export const LOGIN_FALLBACK = 'Login failed';

/** POST /user/login (PRODUCT §7); on success the user lands on `/`. */
export function useLogin() {
  return useSessionMutation({ mutationFn: login, redirectTo: '/' });
}
