import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
// Its own entry point, with no imports: this plugin runs before the shared modules (axios, React) are negotiated.
import { takeEarlyResponse } from '@tm/api-client/early';

/**
 * Federation runtime plugin: the manifest of the page's remote is fetched by index.html before
 * any bundle runs (src/app/early-requests.ts); the runtime takes that answer instead of fetching it again.
 * Once only: a retry, or any later load, fetches afresh.
 */
export default function earlyManifestPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'early-manifest-plugin',
    fetch(manifestUrl) {
      return takeEarlyResponse(manifestUrl);
    },
  };
}
