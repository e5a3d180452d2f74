import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';
import { API_PREFIX } from './forward.middleware.js';

/** Built frontends served by the gateway in all-in-one mode (`pnpm start`); each is optional. */
export interface WebRoots {
  shell?: string;
  auth?: string;
  tasks?: string;
}

interface Target {
  root: string;
  file: string;
}

const NO_CACHE = new Set(['index.html', 'remotes.json', 'mf-manifest.json', 'mf-stats.json', 'remoteEntry.js']);
const HASHED = /\.[0-9a-f]{8,}\.(js|css|mp3|svg|png|woff2?)$/;
/** Paths that are files or nothing: never answered with the SPA's index.html. */
const NOT_SPA = /^\/(api|remotes|assets|sounds|svgs|healthz|readyz|metrics)(\/|$)/;

/** Where a path lives: remotes under /remotes/<name>/, the task sounds and illustration, else the shell. */
function resolveTarget(urlPath: string, roots: WebRoots): Target | undefined {
  const remote = /^\/remotes\/(auth|tasks)(\/.*)$/.exec(urlPath);
  if (remote) {
    const root = remote[1] === 'auth' ? roots.auth : roots.tasks;
    return root ? { root, file: remote[2] ?? '/' } : undefined;
  }
  if (/^\/(sounds|svgs)\//.test(urlPath)) return roots.tasks ? { root: roots.tasks, file: urlPath } : undefined;
  if (!roots.shell) return undefined;
  return { root: roots.shell, file: urlPath === '/' ? '/index.html' : urlPath };
}

/** Hashed assets are immutable for a year; manifests, entries and index.html are revalidated every time. */
function cacheControl(file: string): string {
  const name = path.basename(file);
  if (NO_CACHE.has(name)) return 'no-cache';
  if (HASHED.test(name)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

async function sendFile(ctx: Parameters<Middleware>[0], target: Target): Promise<boolean> {
  try {
    await send(ctx, target.file, {
      root: target.root,
      index: false,
      hidden: false,
      setHeaders: (res, file) => res.setHeader('Cache-Control', cacheControl(file)),
    });
    return true;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 404 || status === 400) return false;
    throw error;
  }
}

/**
 * Serves the shell at `/` (with SPA fallback to its index.html for client routes), the remotes under
 * `/remotes/auth/` and `/remotes/tasks/`, and the tasks' media at `/sounds/` and `/svgs/`.
 */
export function staticSite(roots: WebRoots): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path === API_PREFIX || ctx.path.startsWith(`${API_PREFIX}/`)) {
      await next();
      return;
    }
    const target = resolveTarget(ctx.path, roots);
    if (target && (await sendFile(ctx, target))) return;
    if (roots.shell && !NOT_SPA.test(ctx.path) && ctx.accepts('html')) {
      if (await sendFile(ctx, { root: roots.shell, file: '/index.html' })) return;
    }
    await next();
  };
}

/** `'sha256-…'` sources for the inline scripts of the shell's index.html (the pre-paint theme script). */
export function inlineScriptHashes(shellRoot: string | undefined): string[] {
  if (!shellRoot) return [];
  let html: string;
  try {
    html = readFileSync(path.join(shellRoot, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body = '']) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
  );
}

/**
 * Security headers (helmet) with a Content-Security-Policy that allows only this origin, plus the hashed
 * inline theme script. Styles allow inline because react-hot-toast and framer-motion set style attributes.
 */
export function securityHeaders(shellRoot: string | undefined): Middleware {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(shellRoot)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}
