import type { QueryClient } from '@tanstack/react-query';

/**
 * Whether the task list's live stream is connected (docs/PRODUCT.md §10.11.5), kept in the QueryClient the
 * shell and its remotes share: each bundle carries its own copy of this package, so module state would not
 * reach the shell's tab sync. Kept for as long as the page lives (no garbage collection of this entry).
 */
const LIVE_SYNC_KEY = ['live-sync', 'todos'] as const;

export function setLiveSyncConnected(queryClient: QueryClient, connected: boolean): void {
  queryClient.setQueryDefaults(LIVE_SYNC_KEY, { gcTime: Infinity, staleTime: Infinity });
  queryClient.setQueryData<boolean>(LIVE_SYNC_KEY, connected);
}

/** While the stream is connected it brings every change, so another tab's change needs no refetch here. */
export function isLiveSyncConnected(queryClient: QueryClient): boolean {
  return queryClient.getQueryData<boolean>(LIVE_SYNC_KEY) === true;
}
