import { currentUserQuery, type PublicUser } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';

/** Loading while the current-user check runs, then signed in (user) or signed out (null) — SPEC §4. */
export function useCurrentUser(): { user: PublicUser | null; isLoading: boolean } {
  const { data, isPending } = useQuery(currentUserQuery());
  return { user: data ?? null, isLoading: isPending };
}
