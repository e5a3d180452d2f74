/**
 * Router state of the navigation to `/` after a sign-in or sign-up: the task screen then puts the focus
 * in the new-task input (docs/PRODUCT.md §10.9), and only then (a plain visit does not steal the focus).
 */
export const AFTER_SIGN_IN_STATE = { afterSignIn: true } as const;

export function isAfterSignIn(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { afterSignIn?: unknown }).afterSignIn === true;
}
