import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { loadCatalog, type LoadedCatalog } from './remote-catalog';

export type CatalogState =
  | { status: 'pending' }
  /** The catalog as this browser uses it, with the remote overrides in force and proposed (remote-overrides.ts). */
  | ({ status: 'ready' } & LoadedCatalog)
  /** Unreachable or not valid (the console says which, and lists the problems). */
  | { status: 'error' };

let state: CatalogState = { status: 'pending' };
let started = false;
const listeners = new Set<() => void>();

function set(next: CatalogState) {
  state = next;
  for (const listener of listeners) listener();
}

function start() {
  if (started) return;
  started = true;
  if (state.status === 'error') set({ status: 'pending' });
  loadCatalog().then(
    (loaded) => set({ status: 'ready', ...loaded }),
    () => {
      started = false;
      set({ status: 'error' });
    },
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The remote catalog of this page load (fetched once, in parallel with the current-user check); `retry`
 * fetches it again after a failure.
 */
export function useRemoteCatalog(): CatalogState & { retry: () => void } {
  useEffect(start, []);
  const current = useSyncExternalStore(subscribe, () => state);
  const retry = useCallback(start, []);
  return { ...current, retry };
}
