import { addTodo } from '@tm/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { refetchTodosAfterLastMutation, TODO_MUTATION_KEY } from './get-todos';

/** SPEC §8: the one fixed message of a failed add. */
export const ADD_FAILED_MESSAGE = 'Failed to add task. Please try again.';

/**
 * Adds a task. No client-side validation (SPEC §5): an empty title goes to the server, which refuses it.
 * The server's message is toasted on success; `onAdded` lets the form clear itself and play its sound.
 */
export function useAddTodo({ onAdded }: { onAdded?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...TODO_MUTATION_KEY, 'add'],
    mutationFn: (title: string) => addTodo(title),
    onSuccess: (response) => {
      toast.success(response.message);
      onAdded?.();
    },
    onError: (error) => {
      console.error('Adding the task failed', error);
      toast.error(ADD_FAILED_MESSAGE);
    },
    onSettled: () => refetchTodosAfterLastMutation(queryClient),
  });
}
