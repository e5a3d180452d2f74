import { isSessionEnded, sessionEndReason } from '@tm/api-client';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { sessionEnded } from './session.js';

/**
 * The one QueryClient setup of every frontend: the shell's (shared with the remotes through the federated
 * @tanstack/react-query singleton), each remote's standalone app, and the component tests.
 *
 * - docs/PRODUCT.md §9: cached data is discarded after 5 minutes; the library's query retry default (3,
 *   doubling from 1 s, capped at 30 s) stays for queries that do not opt out; the current user and the
 *   task list both opt out. Mutations are never retried.
 * - `networkMode: 'always'`: the library would otherwise pause calls while the browser is offline and
 *   replay them all when it comes back, a logout included. Here an offline call fails at once with a
 *   clear message (the HTTP client refuses it) and the library replays nothing; task changes are kept and
 *   sent later by the sync engine (task-sync.ts, PRODUCT §10.4).
 * - Any 401 of a query or mutation while signed in ends the session in one place, with why the server says
 *   it ended (PRODUCT §10.3). Nothing is logged here: each caller reports its own failures.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: unknown): void => {
    if (isSessionEnded(error)) sessionEnded(queryClient, sessionEndReason(error));
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { gcTime: 5 * 60 * 1000, refetchOnWindowFocus: false, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  return queryClient;
}
