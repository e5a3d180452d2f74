// The answers the page's HTML asked for before any bundle arrived (shell/src/app/early-requests.ts
// starts them: the current user, the catalog, the route's manifest and first reads). Its own entry point
// (`@tm/api-client/early`) importing no module: the shell's federation runtime plugin takes the manifest
// from here before any shared module (axios, React) may be loaded.
import EARLY_OPTIONS from './early-options.json';

/** The early requests' settings: the shell writes them into index.html with the script (shell/rspack.config.mjs). */
export { EARLY_OPTIONS };

/**
 * The screen last shown on this device, kept to paint at once on the next visit, before any script has
 * arrived (docs/PRODUCT.md §10.4 "The kept screen"): web-platform's kept-screen.ts writes it, index.html
 * shows it (shell/src/app/early-requests.ts). Only for the person whose tasks the device keeps.
 */
export interface KeptScreen {
  /** The id of the person it shows (`_id` of the device user). */
  user: string;
  /** The address it was shown at: the path without a trailing slash, and the query (`/?filter=active`). */
  path: string;
  /** The markup, cleaned of ids, form values and anything that comes and goes (toasts, dialogs). */
  html: string;
  /** The page's style sheets at the time (this origin's). */
  css: string[];
  /** When it was kept (ms since the epoch). */
  at: number;
}

/** What index.html puts on `window[EARLY_GLOBAL]`. */
export interface EarlyRequests {
  /** By absolute URL; each is for one taker. */
  responses: Record<string, { response: Promise<Response>; startedAt: number; taken?: boolean } | undefined>;
  /** The kept screen this page load may show (its style sheets already requested), if any. */
  kept?: KeptScreen;
}

/** Where index.html puts them. */
export const EARLY_GLOBAL = EARLY_OPTIONS.globalName;

/** An early answer older than this is not used: the data may have changed since (ms). */
const MAX_AGE_MS = 30_000;

function earlyRequests(): EarlyRequests | undefined {
  if (typeof window === 'undefined') return undefined;
  return (window as unknown as Record<string, EarlyRequests | undefined>)[EARLY_GLOBAL];
}

/**
 * The early response for `url` (a path of this origin or a full URL), to the first call that asks; undefined
 * for any later call, when there is none, or when it is too old. A call made without one goes to the server.
 */
export function takeEarlyResponse(url: string): Promise<Response> | undefined {
  const early = earlyRequests();
  if (!early) return undefined;
  const key = new URL(url, window.location.href).href;
  const entry = early.responses[key];
  if (!entry || entry.taken) return undefined;
  entry.taken = true;
  if (performance.now() - entry.startedAt > MAX_AGE_MS) return undefined;
  return entry.response.then((response) => response.clone());
}

/**
 * The session the early answers were fetched for has ended (sign-out, a 401, another tab): every answer not
 * yet taken is dropped, and the next page load no longer guesses that someone is signed in here.
 */
export function dropEarlyResponses(): void {
  try {
    window.localStorage.removeItem(EARLY_OPTIONS.signedInKey);
  } catch {
    // No storage: there is no guess to forget.
  }
  const early = earlyRequests();
  if (!early) return;
  for (const entry of Object.values(early.responses)) if (entry) entry.taken = true;
}
