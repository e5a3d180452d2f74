import { asSessionEndReason, currentUserQuery, explainSessionEnd, rememberSessionEnd, todosQuery, type PublicUser, type SessionEndReason } from '@tm/api-client';
import { hashKey, type QueryClient } from '@tanstack/react-query';
import { isLiveSyncConnected } from './live-sync.js';
import { endingReason, endSession, isSignedIn } from './session.js';

/** The BroadcastChannel every tab of the app shares (same origin only, by the platform's rules). */
export const TAB_CHANNEL = 'task-manager';

/** `signed-out` says why when the tab knows: a logout there is `signed-out`, a 401 the server's reason. */
export type TabMessage = { type: 'signed-in' } | { type: 'signed-out'; reason?: SessionEndReason } | { type: 'user-changed' } | { type: 'todos-changed' };

/** How long a burst of task changes in other tabs is gathered into one refetch here. */
export const TODOS_REFETCH_COALESCE_MS = 150;

type UserState = PublicUser | null | undefined;

function transition(before: UserState, after: UserState, reason: SessionEndReason | undefined): TabMessage | undefined {
  if (before === undefined || after === undefined) return undefined;
  if (before && !after) return reason ? { type: 'signed-out', reason } : { type: 'signed-out' };
  if (after && before?._id !== after._id) return { type: 'signed-in' };
  // The same user with a new name or email (the account page, PRODUCT §10.10).
  if (after && before && (before.fullName !== after.fullName || before.email !== after.email)) return { type: 'user-changed' };
  return undefined;
}

/**
 * Keeps the tabs of one browser in step (docs/PRODUCT.md §10.3, §10.8):
 * - this tab's user going from signed in to signed out (logout, a 401) or the other way (login, signup) is
 *   told to the other tabs, which follow at once: to /login, or from /login to `/`. A sign-out says why
 *   when this tab knows, and a tab that was signed in shows that on its sign-in screen too
 *   ("You signed out in another tab.", "Your password was changed on another device." …);
 * - the same user's new name or email is told too: the other tabs check the current user again;
 * - a task change that succeeded here makes the other tabs refetch their list, one refetch per burst, unless
 *   their live stream is connected: it brings them the change itself, with no refetch (PRODUCT §10.11.5).
 * Returns the disconnect function. Without BroadcastChannel (old browsers) tabs catch up on focus only.
 */
export function connectTabs(queryClient: QueryClient): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(TAB_CHANNEL);
  const userKey = currentUserQuery().queryKey;
  const userHash = hashKey(userKey);
  const todosRoot = todosQuery().queryKey[0];
  let user: UserState = queryClient.getQueryData(userKey);
  // A change this tab makes because another tab said so is not announced back.
  let echo: TabMessage['type'] | undefined;
  let refetchTimer: ReturnType<typeof setTimeout> | undefined;

  channel.onmessage = (event: MessageEvent<TabMessage>) => {
    switch (event.data?.type) {
      case 'signed-out': {
        // A message of another version may carry a reason this one does not know: then it says none.
        const reason = asSessionEndReason(event.data.reason);
        if (reason && isSignedIn(queryClient)) rememberSessionEnd(reason);
        // Already signed out by a refused call of its own, which could not say why: now it can.
        else if (reason) explainSessionEnd(reason);
        // The cache reports the change synchronously, so the flag covers exactly this change.
        echo = 'signed-out';
        endSession(queryClient, reason);
        echo = undefined;
        break;
      }
      case 'signed-in':
        echo = 'signed-in';
        queryClient.removeQueries({ queryKey: todosQuery().queryKey });
        void queryClient.invalidateQueries({ queryKey: userKey }).finally(() => {
          if (echo === 'signed-in') echo = undefined;
        });
        break;
      case 'user-changed':
        echo = 'user-changed';
        void queryClient.invalidateQueries({ queryKey: userKey }).finally(() => {
          if (echo === 'user-changed') echo = undefined;
        });
        break;
      case 'todos-changed':
        if (isLiveSyncConnected(queryClient)) break;
        clearTimeout(refetchTimer);
        refetchTimer = setTimeout(() => {
          if (!isLiveSyncConnected(queryClient)) void queryClient.invalidateQueries({ queryKey: todosQuery().queryKey });
        }, TODOS_REFETCH_COALESCE_MS);
        break;
    }
  };

  const stopQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== userHash) return;
    const next = event.query.state.data as UserState;
    const message = transition(user, next, endingReason(queryClient));
    user = next;
    if (!message) return;
    if (echo === message.type) echo = undefined;
    else channel.postMessage(message);
  });

  const stopMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    if (event.mutation.options.mutationKey?.[0] === todosRoot) channel.postMessage({ type: 'todos-changed' } satisfies TabMessage);
  });

  return () => {
    stopQueries();
    stopMutations();
    clearTimeout(refetchTimer);
    channel.close();
  };
}
