import { useCallback, useSyncExternalStore } from 'react';

const canMatch = (): boolean => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

/**
 * One MediaQueryList per query and matchMedia function: asked for on every render (React reads the snapshot
 * each time), it must not make a new list each time (docs/PERFORMANCE.md "Smooth on a phone"). Keyed by the
 * function too, so a test that installs its own matchMedia gets fresh lists.
 */
const lists = new WeakMap<typeof window.matchMedia, Map<string, MediaQueryList>>();
function listFor(query: string): MediaQueryList {
  // The function is only the cache's key here, never called detached.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const match = window.matchMedia;
  let byQuery = lists.get(match);
  if (!byQuery) {
    byQuery = new Map();
    lists.set(match, byQuery);
  }
  let list = byQuery.get(query);
  if (!list) {
    list = window.matchMedia(query);
    byQuery.set(query, list);
  }
  return list;
}

/** Whether a CSS media query matches now, following changes. `false` where `matchMedia` is missing. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!canMatch()) return () => undefined;
      const list = listFor(query);
      list.addEventListener?.('change', onChange);
      return () => list.removeEventListener?.('change', onChange);
    },
    [query],
  );
  const matches = useCallback(() => canMatch() && listFor(query).matches, [query]);
  return useSyncExternalStore(subscribe, matches, () => false);
}
