import { signup } from '@tm/api-client';
import { useSessionMutation } from './session-mutation';

/** POST /user/signup (SPEC §7). The server signs the new user in, so on success the user lands on `/`. */
export function useSignup() {
  return useSessionMutation({ mutationFn: signup, fallback: 'Signup failed', redirectTo: '/' });
}
