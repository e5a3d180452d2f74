import { currentUserQuery, type PublicUser } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';

interface CurrentUser {
  /** The signed-in user, or null when signed out or not known (yet). */
  user: PublicUser | null;
  /** `pending` while the check runs, `error` when it could not be made (docs/PRODUCT.md §10.1). */
  status: 'pending' | 'error' | 'success';
  retry: () => void;
  retrying: boolean;
}

/**
 * The current-user check of docs/PRODUCT.md §4: loading, then signed in (user) or signed out (null). Only a
 * 401 means signed out; a check that failed otherwise is an `error`, not a sign-out.
 */
export function useCurrentUser(): CurrentUser {
  const { data, status, refetch, isFetching, errorUpdatedAt } = useQuery(currentUserQuery());
  // Stable, so the error screen's "network is back" listener is not re-attached on every render.
  const retry = useCallback(() => void refetch(), [refetch]);
  // Once known, a user stays known through a failed re-check: the screens keep working. A check retried
  // after a failure stays an error until it succeeds (the query is `pending` again meanwhile).
  const settled = data !== undefined ? 'success' : status === 'pending' && errorUpdatedAt > 0 ? 'error' : status;
  return { user: data ?? null, status: settled, retry, retrying: isFetching };
}
