import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Federation runtime plugin: when a remote cannot be loaded (offline, bad manifest, failing entry, or built
 * against another major of a shared singleton), the page that asked for it gets a fallback module instead
 * of an unhandled error, so the shell (header, theme, toasts) keeps working and the user can retry. It is
 * evaluated before the shared modules are negotiated, so it must not import React eagerly: the fallback
 * is imported only when needed.
 */
export default function offlineRemotePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'offline-remote-plugin',
    async errorLoadRemote({ id, error, lifecycle }) {
      // Which remote, which shared package, required and provided versions: read from the runtime's message
      // by a module loaded only on a failure (none of it is in the first load).
      const skew = await import('./version-skew').then(({ versionSkewMessage }) => versionSkewMessage(error)).catch(() => undefined);
      if (skew) console.error(`Remote module "${id}" failed to load: ${skew}`, error);
      else console.warn(`Remote module "${id}" failed to load (${lifecycle})`, error);
      // Manifest or entry failures surface again at 'onLoad' for the requested module: answer there.
      if (lifecycle !== 'onLoad') return undefined;
      const { RemoteFallback } = await import('./remote-fallback');
      return { __esModule: true, default: RemoteFallback };
    },
  };
}
