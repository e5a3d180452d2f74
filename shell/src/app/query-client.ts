import { QueryClient } from '@tanstack/react-query';

/**
 * The one QueryClient (shared with the remotes through the federated @tanstack/react-query singleton).
 * SPEC §9: cached data is discarded after 5 minutes; the library's retry default (3, doubling from 1 s,
 * capped at 30 s) stays for queries that do not opt out — the current user and the task list both do.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: 5 * 60 * 1000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
