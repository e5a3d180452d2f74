/**
 * Registers the shell's service worker (shell/build/service-worker.mjs, repeat visits from the
 * cache) once the page has loaded, so it never competes with the first load for the network. Production
 * builds only: the dev servers' files change under the same names. A browser without service workers, or
 * one that refuses this one, just loads from the network as before (logged).
 */
export function registerServiceWorker(): void {
  if (process.env.NODE_ENV !== 'production' || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.info('The offline cache is not available', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
