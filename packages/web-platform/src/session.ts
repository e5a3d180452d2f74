import { currentUserQuery, dropEarlyResponses, todosQuery } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';

/** docs/PRODUCT.md §10.3: what a person reads when the server no longer knows their session. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

/** Whether the cache holds a signed-in user (not merely "unknown" or "signed out"). */
function isSignedIn(queryClient: QueryClient): boolean {
  return Boolean(queryClient.getQueryData(currentUserQuery().queryKey));
}

/**
 * Forgets the signed-in user on this page: the current user becomes "signed out" (so the route guards
 * send the page to /login) and the cached tasks are dropped, so nobody sees them afterwards. Nothing is
 * fetched: the server already said, or another tab told us.
 */
export function endSession(queryClient: QueryClient): void {
  // Answers the page's HTML fetched for the session that ended are never handed to a later one (issue #17).
  dropEarlyResponses();
  const { queryKey } = todosQuery();
  void queryClient.cancelQueries({ queryKey });
  queryClient.setQueryData(currentUserQuery().queryKey, null);
  queryClient.removeQueries({ queryKey });
}

/** A 401 arrived while signed in: end the session here and say so once (PRODUCT §10.3). */
export function sessionEnded(queryClient: QueryClient): void {
  if (!isSignedIn(queryClient)) return;
  endSession(queryClient);
  toast.error(SESSION_ENDED_MESSAGE, { id: 'session-ended' });
}
