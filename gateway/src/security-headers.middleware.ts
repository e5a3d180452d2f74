import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';

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
 * The powerful browser features the app never uses, each turned off for the page and anything it could
 * embed (`feature=()`): a script that got in still cannot ask for the camera, the microphone, the location,
 * a payment or a device. The app needs none of them: its sounds play after a click (no autoplay needed),
 * and notifications and push, which reminders will use, are not Permissions-Policy features (the browser
 * asks the person). Only names Chromium knows, so it logs no warning for the header.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * Security headers (helmet) with a Content-Security-Policy that allows only this origin, plus the hashed
 * inline theme script; framing denied by both CSP `frame-ancestors 'none'` and `X-Frame-Options: DENY`; and
 * the {@link PERMISSIONS_POLICY}. Styles allow inline because react-hot-toast and framer-motion set style
 * attributes. With `REMOTE_OVERRIDES` (docs/DEPLOY.md "Local remotes for one browser") the origins a local
 * remote may come from are allowed too, for what a remote loads (scripts, styles, its manifest, images,
 * fonts), and nothing else: without the setting, a stored override could not load a byte even if a shell were
 * fooled into trying. (They are CSP host sources as they are: `http://127.0.0.1:*`,
 * `https://preview.example.com`; gateway/src/config.ts checked them.)
 */
export function securityHeaders(shellRoot: string | undefined, overrideOrigins: string[] = []): Middleware {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(shellRoot), ...overrideOrigins],
        styleSrc: ["'self'", "'unsafe-inline'", ...overrideOrigins],
        imgSrc: ["'self'", 'data:', 'blob:', ...overrideOrigins],
        mediaSrc: ["'self'"],
        connectSrc: ["'self'", ...overrideOrigins],
        fontSrc: ["'self'", ...overrideOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // The same rule as frame-ancestors 'none', for browsers that only know this header.
    xFrameOptions: { action: 'deny' },
  });
  return async (ctx, next) => {
    ctx.res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    await headers(ctx, next);
  };
}
