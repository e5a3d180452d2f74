import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser believes it is online, following its online/offline events. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/** Calls `onOnline` each time the network comes back. */
export function onNetworkBack(onOnline: () => void): () => void {
  window.addEventListener('online', onOnline);
  return () => window.removeEventListener('online', onOnline);
}
