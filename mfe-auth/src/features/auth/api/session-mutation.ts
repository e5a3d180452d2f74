import { currentUserQuery, forgetSessionEnd } from '@tm/api-client';
import { AFTER_SIGN_IN_STATE, notifySuccess } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

interface SessionMutationOptions<TVariables> {
  mutationFn: (variables: TVariables) => Promise<{ message: string }>;
  /** Where to go once signed in. */
  redirectTo: string;
}

/**
 * A call that signs someone in (login, signup). docs/PRODUCT.md §3/§4: the server's message is toasted and
 * the current-user check refreshed through its own query key. The refresh is awaited so the route guards
 * know the new user before the navigation, and the mutation stays pending until then (the button keeps its
 * "…ing" label). A failure is shown by the form itself, next to what it concerns (PRODUCT §10.7), never as
 * a second toast.
 */
export function useSessionMutation<TVariables>({ mutationFn, redirectTo }: SessionMutationOptions<TVariables>) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationKey: ['user', 'session'],
    mutationFn,
    onSuccess: async ({ message }) => {
      // Why an earlier session ended is no longer news once someone is signed in.
      forgetSessionEnd();
      notifySuccess(message);
      await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
      await navigate(redirectTo, { replace: true, state: AFTER_SIGN_IN_STATE });
    },
  });
}
