import { focusManager, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { keepDraftsOfSignedInUser } from './drafts.js';
import { createQueryClient } from './query-client.js';
import { connectTabs } from './tab-sync.js';
import { AppToaster } from './toaster.js';

interface PlatformProvidersProps {
  children: ReactNode;
  /** A client of the caller's (tests read its cache); a new {@link createQueryClient} otherwise. */
  queryClient?: QueryClient;
}

/**
 * The data library refetches "on window focus" when the tab becomes visible; a window that gets the focus
 * back while it stayed visible (two windows side by side) counts too (docs/PRODUCT.md §10.8).
 */
function listenForFocus(handleFocus: () => void): () => void {
  const onVisibility = () => handleFocus();
  const onFocus = () => handleFocus();
  window.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', onFocus);
  return () => {
    window.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('focus', onFocus);
  };
}

/**
 * What every root of a frontend provides (the shell, a remote standalone, a component test): the one
 * QueryClient setup, the tabs kept in step, a tab's drafts kept for its signed-in person only (drafts.ts),
 * and the Toaster. The router stays the caller's choice.
 */
export function PlatformProviders({ children, queryClient: given }: PlatformProvidersProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  useEffect(() => connectTabs(queryClient), [queryClient]);
  useEffect(() => keepDraftsOfSignedInUser(queryClient), [queryClient]);
  useEffect(() => focusManager.setEventListener(listenForFocus), []);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <AppToaster />
    </QueryClientProvider>
  );
}
