// The shell's service worker (repeat visits from cache), generated after each production build by
// Workbox (workbox-build's generateSW; no hand-written caching). docs/ARCHITECTURE.md "Delivery to the
// browser" and SECURITY.md ("What is kept on the device") describe what it keeps:
// - the shell (index.html, its hashed scripts and styles, the app's manifest and icons): precached, served
//   from the cache; a new build of the shell is a new sw.js (its precache list changes), installed in the
//   background and used from the next load on;
// - a remote's hashed files: cached on first use (they never change under their name);
// - the catalog, each remote's manifest, entry and remote.json: from the network every time, the cache only
//   when the network fails or is silent for NETWORK_TIMEOUT_S, so a redeploy or a rollback is seen on the
//   next load;
// - the sounds and the illustration: from the cache, refreshed in the background;
// - nothing under /api, ever.
// It also shows reminders (PRODUCT §10.17): public/sw-reminders.js, imported, handles `push` and `notificationclick`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { generateSW } from 'workbox-build';

const NETWORK_TIMEOUT_S = 4;

/** @param {string} dist the shell's build folder */
export async function writeServiceWorker(dist) {
  const swDest = path.join(dist, 'sw.js');
  const { count, size, warnings } = await generateSW({
    swDest,
    globDirectory: dist,
    // The installed app's manifest and icons too (PRODUCT §10.13): its home-screen start needs no network.
    globPatterns: ['index.html', 'favicon.svg', 'manifest.webmanifest', 'icons/*.png', 'assets/*.{js,css}'],
    // Hashed names need no revision: the name changes with the content.
    dontCacheBustURLsMatching: /\.[0-9a-f]{10}\.(js|css)$/,
    navigateFallback: '/index.html',
    // Addresses that are files or the API are never answered with the page.
    navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/remotes(\/|\.json$)/, /^\/(healthz|readyz|metrics|sounds|svgs|assets)(\/|$)/, /\.[A-Za-z0-9]+$/],
    inlineWorkboxRuntime: true,
    importScripts: ['/sw-reminders.js'],
    mode: 'production',
    sourcemap: false,
    skipWaiting: true,
    clientsClaim: true,
    cleanupOutdatedCaches: true,
    runtimeCaching: [
      {
        urlPattern: ({ url, sameOrigin }) => sameOrigin && /^\/remotes\/[a-z][a-z0-9-]*\/assets\/.+\.[0-9a-f]{8,}\.(js|css)$/.test(url.pathname),
        handler: 'CacheFirst',
        options: { cacheName: 'tm-remote-assets', expiration: { maxEntries: 300, maxAgeSeconds: 60 * 60 * 24 * 30 }, cacheableResponse: { statuses: [200] } },
      },
      {
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin && (url.pathname === '/remotes.json' || /^\/remotes\/[a-z][a-z0-9-]*\/(mf-manifest\.json|remoteEntry\.js|remote\.json)$/.test(url.pathname)),
        handler: 'NetworkFirst',
        options: { cacheName: 'tm-remote-entries', networkTimeoutSeconds: NETWORK_TIMEOUT_S, expiration: { maxEntries: 60 }, cacheableResponse: { statuses: [200] } },
      },
      {
        urlPattern: ({ url, sameOrigin }) => sameOrigin && /^\/(sounds|svgs)\//.test(url.pathname),
        handler: 'StaleWhileRevalidate',
        options: { cacheName: 'tm-media', expiration: { maxEntries: 20 }, cacheableResponse: { statuses: [200] } },
      },
    ],
  });
  // Sent compressed like every other file of the build.
  const source = readFileSync(swDest);
  writeFileSync(`${swDest}.gz`, gzipSync(source, { level: 9 }));
  writeFileSync(`${swDest}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  return { count, size, warnings };
}

/** Rspack plugin: writes the service worker once the production build is emitted. */
export class ServiceWorkerPlugin {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('ServiceWorkerPlugin', async (compilation) => {
      if (compilation.errors.length > 0) return;
      const { count, size, warnings } = await writeServiceWorker(compiler.options.output.path);
      const logger = compiler.getInfrastructureLogger('ServiceWorkerPlugin');
      for (const warning of warnings) logger.warn(warning);
      logger.info(`sw.js precaches ${count} files, ${(size / 1024).toFixed(1)} KiB`);
    });
  }
}
