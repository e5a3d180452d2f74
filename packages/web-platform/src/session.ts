import { currentUserQuery, dropEarlyResponses, rememberSessionEnd, todosQuery, type SessionEndReason } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { forgetDrafts } from './drafts.js';
import { forgetDeviceTasks } from './device-data.js';

/**
 * Why the session is ending, on the QueryClient while its user is set to "signed out" (endSession), so that
 * the tab sync, which hears of that change as it happens, tells the other tabs why (tab-sync.ts). A
 * registered symbol: the shell's copy of this package and each remote's see the same one.
 */
const ENDING = Symbol.for('@tm/web-platform/session-ending');
type EndingClient = QueryClient & { [ENDING]?: SessionEndReason };

/** Why the session this client is forgetting right now ended (during endSession only). */
export function endingReason(queryClient: QueryClient): SessionEndReason | undefined {
  return (queryClient as EndingClient)[ENDING];
}

/** Whether the cache holds a signed-in user (not merely "unknown" or "signed out"). */
export function isSignedIn(queryClient: QueryClient): boolean {
  return Boolean(queryClient.getQueryData(currentUserQuery().queryKey));
}

/**
 * Forgets the signed-in user on this page: the current user becomes "signed out" (so the route guards
 * send the page to /login) and the cached tasks are dropped, so nobody sees them afterwards. Nothing is
 * fetched: the server already said, or another tab told us. `reason` is why (logout here: `signed-out`),
 * which the other tabs are told with the change (tab-sync.ts).
 */
export function endSession(queryClient: QueryClient, reason?: SessionEndReason): void {
  // Answers the page's HTML fetched for the session that ended are never handed to a later one.
  dropEarlyResponses();
  // Nor the tasks and queued changes kept on the device (SECURITY.md "What is kept on the device").
  void forgetDeviceTasks(queryClient);
  const { queryKey } = todosQuery();
  void queryClient.cancelQueries({ queryKey });
  const client = queryClient as EndingClient;
  client[ENDING] = reason;
  try {
    queryClient.setQueryData(currentUserQuery().queryKey, null);
  } finally {
    client[ENDING] = undefined;
  }
  queryClient.removeQueries({ queryKey });
}

/**
 * A 401 arrived while signed in (docs/PRODUCT.md §10.3): the session ends here, and the page goes to the
 * sign-in screen (the route guards follow the user becoming "signed out"), which says why in a banner that
 * stays: `reason` from the 401, or only that the session ended when the server did not say.
 * The other tabs are told the same. Once: a later 401, now signed out, changes nothing.
 */
export function sessionEnded(queryClient: QueryClient, reason?: SessionEndReason): void {
  if (!isSignedIn(queryClient)) return;
  rememberSessionEnd(reason);
  // A deleted account never signs in again: nothing it was writing is kept (drafts.ts).
  if (reason === 'account-deleted') forgetDrafts();
  endSession(queryClient, reason);
}
