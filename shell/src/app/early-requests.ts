// The page's first requests, started by index.html itself before any bundle has arrived (a short
// critical path; docs/ARCHITECTURE.md "Delivery to the browser"). Without it every request waits for the one
// before: HTML → shell scripts → /remotes.json → manifest → remote entry → page chunks → /api/user/me → the
// list. With it, at once: the current-user check, the catalog, and (from what this browser saw last time:
// the catalog, the route's remote entry and page files, whether someone was signed in) the current route's
// manifest, remote entry and page files, and its first API reads (the route's `prefetch`: the task list for
// `/`). Whatever was not known from last time starts as soon as it is: the files once the manifest is in,
// the reads once the current user is. Reads started on a guess are dropped when the check says nobody is
// signed in. The bundles then take these answers instead of asking again: the current user and the route's
// reads through @tm/api-client's early.ts, the manifest through the federation runtime's fetch hook
// (features/remotes/early-manifest.plugin.ts).
//
// What it keeps in localStorage: the catalog (public), the file names of the pages it preloaded (public),
// and "someone was signed in here at the last check" (removed at sign-out; never who). SECURITY.md says so.
//
// shell/rspack.config.mjs writes `startEarlyRequests`'s source into index.html, so the function must use
// nothing from outside itself but its arguments (types are fine: they are erased).
import type { EarlyRequests, KeptScreen } from '@tm/api-client/early';
import type { RemoteCatalog, RemoteRoute } from '@tm/contracts';

export interface EarlyRequestOptions {
  /** The current-user check: `/api/user/me`. */
  userUrl: string;
  /** The remote catalog: `/remotes.json`. */
  catalogUrl: string;
  /** localStorage key of the catalog this browser read last (to guess the route's remote at once). */
  catalogKey: string;
  /** localStorage key of the files each page needed last time (remote entry, first scripts and styles). */
  plansKey: string;
  /** localStorage key of "the last check found someone signed in" (web-platform removes it at sign-out). */
  signedInKey: string;
  /** The global the bundles find the responses under (`__tmEarly`). */
  globalName: string;
  /** localStorage key of the person whose tasks the device keeps (api-client's device-user.ts). */
  deviceUserKey: string;
  /** localStorage key of the screen kept to paint at once (api-client's early-store.ts `KeptScreen`). */
  keptScreenKey: string;
}

/** The files a page of a remote needs first: its remote entry, its first styles and scripts. */
interface PagePlan {
  entry: string;
  css: string[];
  js: string[];
}

interface Manifest {
  metaData?: { publicPath?: string; remoteEntry?: { path?: string; name?: string } };
  exposes?: { path?: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }[];
}

/** Starts the page's first requests; see the file's comment. Self-contained: it runs as an inline script. */
export function startEarlyRequests(win: Window, options: EarlyRequestOptions): void {
  const doc = win.document;
  const early: EarlyRequests = { responses: {} };
  (win as unknown as Record<string, unknown>)[options.globalName] = early;
  const absolute = (url: string, base?: string) => new URL(url, base ?? win.location.href).href;

  const request = (url: string, init?: RequestInit): Promise<Response> => {
    const key = absolute(url);
    const started = early.responses[key];
    if (started) return started.response;
    const response = win.fetch(key, { credentials: 'same-origin', headers: { Accept: 'application/json' }, ...init });
    // The taker handles a failure; an untaken one must not become an unhandled rejection.
    response.catch(() => undefined);
    early.responses[key] = { response, startedAt: win.performance.now() };
    return response;
  };
  const json = (response: Promise<Response>): Promise<unknown> => response.then((answer) => (answer.ok ? answer.clone().json() : undefined)).catch(() => undefined);

  const stored = (key: string): unknown => {
    try {
      const text = win.localStorage.getItem(key);
      return text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return undefined;
    }
  };
  const storedPlans = () => ({ ...(stored(options.plansKey) as Record<string, PagePlan> | undefined) });
  const store = (key: string, value: unknown) => {
    try {
      if (value === undefined) win.localStorage.removeItem(key);
      else win.localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // No storage (private mode, full): the next visit waits for what it would have guessed.
    }
  };

  const preloaded = new Set<string>();
  const preload = (href: string, as: 'script' | 'style') => {
    if (preloaded.has(href)) return;
    preloaded.add(href);
    const link = doc.createElement('link');
    link.rel = 'preload';
    link.as = as;
    link.href = href;
    doc.head.appendChild(link);
  };

  /** The route the shell will show for this address, as its guards decide (features/auth/route-guards.tsx). */
  const routeFor = (catalog: RemoteCatalog, signedIn: boolean | undefined): { manifest: string; route: RemoteRoute } | undefined => {
    const all: { manifest: string; route: RemoteRoute }[] = [];
    for (const name of Object.keys(catalog.remotes)) {
      const remote = catalog.remotes[name];
      if (remote) for (const route of remote.routes) all.push({ manifest: remote.manifest, route });
    }
    // A route whose path ends in `/*` also serves the addresses below it (ROUTE_PATH of the catalog; written
    // out here because this function may use nothing from outside itself).
    const at = (path: string) =>
      all.find(({ route }) => {
        const declared = route.path.toLowerCase();
        if (!declared.endsWith('/*')) return declared === path;
        const base = declared.slice(0, -2);
        return path === base || path.startsWith(`${base}/`);
      });
    const path = win.location.pathname.replace(/\/+$/, '').toLowerCase() || '/';
    let found = at(path) ?? at('/');
    if (found && signedIn === false && found.route.guard === 'signed-in') found = all.find(({ route }) => route.guard === 'signed-out');
    if (found && signedIn === true && found.route.guard === 'signed-out') found = at('/');
    return found;
  };

  const preloadPlan = (plan: PagePlan) => {
    preload(plan.entry, 'script');
    for (const file of plan.css) preload(file, 'style');
    for (const file of plan.js) preload(file, 'script');
  };

  /** What a page needs first, read from its remote's manifest. */
  const planOf = (manifest: Manifest | undefined, manifestUrl: string, module: string): PagePlan | undefined => {
    const meta = manifest?.metaData;
    if (!meta?.remoteEntry?.name) return undefined;
    const base = meta.publicPath && meta.publicPath !== 'auto' ? absolute(meta.publicPath) : manifestUrl;
    const page = manifest?.exposes?.find((expose) => expose.path === module);
    return {
      entry: absolute(`${meta.remoteEntry.path ? `${meta.remoteEntry.path}/` : ''}${meta.remoteEntry.name}`, base),
      css: (page?.assets?.css?.sync ?? []).map((file) => absolute(file, base)),
      js: (page?.assets?.js?.sync ?? []).map((file) => absolute(file, base)),
    };
  };

  /**
   * The route's manifest, and its remote entry and the page's first scripts and styles, preloaded: at once
   * when this browser has seen them before, else as soon as the manifest is in.
   */
  const startRemote = (catalog: RemoteCatalog, signedIn: boolean | undefined) => {
    const found = routeFor(catalog, signedIn);
    if (!found) return;
    const manifestUrl = absolute(found.manifest);
    const id = `${manifestUrl} ${found.route.module}`;
    const known = storedPlans()[id];
    if (known) preloadPlan(known);
    void json(request(manifestUrl)).then((manifest) => {
      const plan = planOf(manifest as Manifest | undefined, manifestUrl, found.route.module);
      if (!plan) return;
      preloadPlan(plan);
      // The few pages last opened here, newest last.
      const others = Object.entries(storedPlans()).filter(([key]) => key !== id);
      store(options.plansKey, Object.fromEntries([...others, [id, plan]].slice(-8)));
    });
  };

  /**
   * The route's first API reads, for a signed-in user only; none when the device keeps the person's tasks: the
   * page shows its copy and asks only for what changed (docs/PRODUCT.md §10.4).
   */
  const reads: string[] = [];
  const startReads = (catalog: RemoteCatalog) => {
    if (stored(options.deviceUserKey) !== undefined) return;
    for (const path of routeFor(catalog, true)?.route.prefetch ?? []) {
      void request(path);
      reads.push(absolute(path));
    }
  };

  // The kept screen (docs/PRODUCT.md §10.4), only the device user's and only for this address: its style
  // sheets are written into the head now, so the parser holds the first paint until they are in (the service
  // worker has them), and the screen is put in the page at once (kept-screen-early.ts checks the sheets).
  const kept = stored(options.keptScreenKey) as KeptScreen | undefined;
  const keeper = stored(options.deviceUserKey) as { _id?: unknown } | undefined;
  const here = (win.location.pathname.replace(/\/+$/, '') || '/') + win.location.search;
  if (kept && typeof kept.html === 'string' && Array.isArray(kept.css) && keeper && kept.user === keeper._id && kept.path === here) {
    early.kept = kept;
    // The loading screen stays hidden meanwhile: no glimpse of it before the kept screen.
    doc.documentElement.setAttribute('data-kept-screen', '');
    const origin = win.location.origin;
    for (const href of kept.css) {
      const url = new URL(typeof href === 'string' ? href : '/', origin);
      // Parser-inserted sheets are the only ones every engine waits for before painting.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      if (url.origin === origin && url.pathname !== '/') doc.write(`<link rel="stylesheet" href="${url.href.replace(/"/g, '%22')}" data-kept-screen="">`);
    }
    // In the page before the body is parsed, so the first paint (held by the sheets) is the kept screen.
    // A picture only: no events, hidden from assistive technology (the app's own screen follows).
    const screen = doc.createElement('div');
    screen.className = 'kept-screen';
    screen.setAttribute('aria-hidden', 'true');
    screen.setAttribute('inert', '');
    screen.innerHTML = kept.html;
    doc.documentElement.appendChild(screen);
  }

  const remembered = stored(options.catalogKey) as RemoteCatalog | undefined;
  const lastCatalog = remembered && typeof remembered.remotes === 'object' ? remembered : undefined;
  const wasSignedIn = stored(options.signedInKey) === true;

  const user = request(options.userUrl).then(
    (answer) => (answer.status === 200 ? true : answer.status === 401 ? false : undefined),
    () => undefined,
  );
  void user.then((signedIn) => {
    if (signedIn !== undefined) store(options.signedInKey, signedIn ? true : undefined);
    // Reads started on a guess that someone is signed in are nobody's answers now.
    if (signedIn !== true) for (const url of reads) if (early.responses[url]) early.responses[url].taken = true;
  });
  const fresh = json(request(options.catalogUrl, { cache: 'no-cache' })).then((value) => {
    const catalog = value && typeof (value as RemoteCatalog).remotes === 'object' ? (value as RemoteCatalog) : undefined;
    if (catalog) store(options.catalogKey, catalog);
    return catalog;
  });

  if (lastCatalog) {
    startRemote(lastCatalog, wasSignedIn ? true : undefined);
    if (wasSignedIn) startReads(lastCatalog);
    else
      void user.then((signedIn) => {
        if (signedIn) startReads(lastCatalog);
      });
  }
  void Promise.all([fresh, user]).then(([catalog, signedIn]) => {
    if (!catalog) return;
    startRemote(catalog, signedIn);
    if (signedIn) startReads(catalog);
  });
}
