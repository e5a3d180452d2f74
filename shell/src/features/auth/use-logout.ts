import { currentUserQuery, errorMessage, logout, todosQuery } from '@tm/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';

/** Logout: on success the message is shown and the current-user check refreshed (SPEC §4, §8). */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: async ({ message }) => {
      toast.success(message);
      // The next person on this browser must not see this user's tasks, even from the cache.
      queryClient.removeQueries({ queryKey: todosQuery().queryKey });
      await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    },
    onError: (error) => {
      toast.error(errorMessage(error, 'Logout failed'));
    },
  });
}
