import path from 'node:path';
import { Readable } from 'node:stream';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import etag from 'etag';
import type { RemoteCatalog } from '@tm/contracts';
import { API_PREFIX } from './api-prefix.js';
import { REMOTE_KEY, type RemoteFolders } from './remote-folders.js';

/** Built frontends served by the gateway in all-in-one mode (`pnpm start`); each part is optional. */
export interface WebSite {
  /** The shell's dist/: `/`, its assets, and index.html for client routes. */
  shell?: string;
  /** The remotes, each under /remotes/<key>/; their remote.json files make /remotes.json. */
  remotes?: RemoteFolders;
  /** A whole catalog given as configuration (`REMOTES_CATALOG`): served as /remotes.json instead. */
  catalog?: RemoteCatalog;
  /**
   * `REMOTE_OVERRIDES`: the origins a browser may load a remote from instead of the catalog's
   * build, for itself only. Said in /remotes.json (`overrides`), which is what the shell goes by, and allowed
   * by the Content-Security-Policy ({@link securityHeaders}). Unset: overrides are off.
   */
  overrideOrigins?: string[];
}

/**
 * The catalog as served: its remotes, and `overrides` from this deployment's setting alone; a catalog given
 * as configuration cannot turn overrides on by itself.
 */
function servedCatalog(catalog: RemoteCatalog, overrideOrigins: string[] | undefined): RemoteCatalog {
  return { remotes: catalog.remotes, ...(overrideOrigins?.length ? { overrides: { origins: overrideOrigins } } : {}) };
}

interface Target {
  root: string;
  file: string;
}

/**
 * Revalidated on every load (docs/DEPLOY.md's cache table, which static.test.ts compares with this): the
 * names a build writes at its top level (Module Federation's manifest and its stats are `mf-manifest.json` and
 * `mf-manifest-stats.json`) and the catalog the gateway writes.
 */
const NO_CACHE = new Set(['index.html', 'sw.js', 'sw-reminders.js', 'remotes.json', 'remote.json', 'mf-manifest.json', 'mf-manifest-stats.json', 'remoteEntry.js']);
const HASHED = /\.[0-9a-f]{8,}\.(js|css|mp3|svg|png|woff2?)$/;
/** Paths that are files or nothing: never answered with the SPA's index.html (nor is any path with a file extension). */
const NOT_SPA = /^\/(api|remotes|assets|sounds|svgs|healthz|readyz|metrics)(\/|$)|\.[A-Za-z0-9]+$/;
/** A remote's files: /remotes/<key>/<file>. */
const REMOTE_PATH = /^\/remotes\/([^/]+)(\/.*)$/;
/** Media a remote's pages load from the origin's root (the task sounds and illustration), looked up in every remote. */
const MEDIA_PATH = /^\/(sounds|svgs)\//;

/**
 * Where a path may be, in order: a remote's folder (then, for hashed assets only, the folders it pointed at
 * before, so a page opened before a redeploy still loads its lazy chunks), the remotes' media folders, or
 * the shell.
 */
async function resolveTargets(urlPath: string, site: WebSite): Promise<Target[]> {
  const remote = REMOTE_PATH.exec(urlPath);
  if (remote) {
    const [, key = '', file = '/'] = remote;
    const location = REMOTE_KEY.test(key) ? await site.remotes?.locate(key) : undefined;
    if (!location) return [];
    const roots = HASHED.test(path.basename(file)) ? [location.current, ...location.previous] : [location.current];
    return roots.filter((root): root is string => !!root).map((root) => ({ root, file }));
  }
  if (MEDIA_PATH.test(urlPath)) {
    const folders = (await site.remotes?.currentFolders()) ?? [];
    return folders.map((root) => ({ root, file: urlPath }));
  }
  if (!site.shell) return [];
  return [{ root: site.shell, file: urlPath === '/' ? '/index.html' : urlPath }];
}

/** Hashed assets are immutable for a year; manifests, entries and index.html are revalidated every time. */
function cacheControl(file: string): string {
  // `file` is what @koa/send sends: the precompressed copy (`main.js.br`) when the browser accepts it.
  const name = path.basename(file).replace(/\.(br|gz)$/, '');
  if (NO_CACHE.has(name)) return 'no-cache';
  if (HASHED.test(name)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

/**
 * Sends a file, or its brotli or gzip copy written at build time when the browser accepts it
 * (`Vary: Accept-Encoding` so no cache along the way hands a compressed copy to a browser that cannot read
 * it). A revalidation of an unchanged file is a 304 with no body. By ETag (size and time of the file sent),
 * never by date: a rollback puts an older file back, which "modified since" would wrongly call unchanged.
 */
async function sendFile(ctx: Parameters<Middleware>[0], target: Target): Promise<boolean> {
  try {
    // A folder (`/assets/`, `/remotes/auth/`) is not a file: nothing sent, and the caller answers 404.
    const sent = await send(ctx, target.file, {
      root: target.root,
      index: false,
      hidden: false,
      brotli: true,
      gzip: true,
      setHeaders: (res, file, stats) => {
        res.setHeader('Cache-Control', cacheControl(file));
        res.setHeader('ETag', etag(stats, { weak: true }));
      },
    });
    if (!sent) return false;
    ctx.remove('Last-Modified');
    ctx.vary('Accept-Encoding');
    if (ctx.fresh) {
      // The file stream @koa/send opened is not sent: close it now rather than leave its descriptor to GC.
      if (ctx.body instanceof Readable) ctx.body.destroy();
      ctx.status = 304;
      ctx.body = null;
    }
    return true;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 404 || status === 400) return false;
    throw error;
  }
}

/**
 * Serves the shell at `/` (with SPA fallback to its index.html for client routes), the catalog at
 * `/remotes.json`, each configured remote under `/remotes/<key>/`, and the remotes' media at `/sounds/`
 * and `/svgs/`. An unknown key is a 404.
 */
export function staticSite(site: WebSite): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path === API_PREFIX || ctx.path.startsWith(`${API_PREFIX}/`)) {
      await next();
      return;
    }
    if (ctx.path === '/remotes.json' && (site.catalog || site.remotes)) {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'application/json';
      const catalog = site.catalog ?? (await site.remotes?.catalog());
      ctx.body = catalog && servedCatalog(catalog, site.overrideOrigins);
      return;
    }
    for (const target of await resolveTargets(ctx.path, site)) {
      if (await sendFile(ctx, target)) return;
    }
    if (site.shell && !NOT_SPA.test(ctx.path) && ctx.accepts('html')) {
      if (await sendFile(ctx, { root: site.shell, file: '/index.html' })) return;
    }
    await next();
  };
}
