import toast from 'react-hot-toast';

/**
 * Toasts of the server's messages (docs/PRODUCT.md §3: every add, update, delete, login, signup and logout
 * message is shown). Identical messages share one toast, which restarts its timer instead of stacking:
 * a burst of ticks shows one "Task updated successfully", a flapping network one error.
 */
export function notifySuccess(message: string): void {
  toast.success(message, { id: `success:${message}` });
}

export function notifyError(message: string): void {
  toast.error(message, { id: `error:${message}` });
}
