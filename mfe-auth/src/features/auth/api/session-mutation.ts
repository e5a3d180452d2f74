import { currentUserQuery, errorMessage } from '@tm/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';

interface SessionMutationOptions<TVariables> {
  mutationFn: (variables: TVariables) => Promise<{ message: string }>;
  /** Toast text when the server gives no message (network error, timeout): SPEC §8. */
  fallback: string;
  /** Where to go once the session changed; stays put when absent. */
  redirectTo?: string;
}

/**
 * A call that changes who is signed in (login, signup, logout). SPEC §3/§4/§8: the server's message is
 * toasted, the current-user check is refreshed through its own query key, and a failure toasts the server's
 * message or `fallback`. The refresh is awaited so route guards know the new user before the navigation,
 * and the mutation stays pending until then (the button keeps its "…ing" label).
 */
export function useSessionMutation<TVariables = void>({ mutationFn, fallback, redirectTo }: SessionMutationOptions<TVariables>) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn,
    onSuccess: async ({ message }) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
      if (redirectTo) await navigate(redirectTo, { replace: true });
    },
    onError: (error) => {
      toast.error(errorMessage(error, fallback));
    },
  });
}
