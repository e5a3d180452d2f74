// The remote catalog (`/remotes.json`): which remotes the shell loads, where their manifests are, and the
// routes each one brings (docs/ARCHITECTURE.md "Remotes and their routes"). The shell reads it at run time,
// the gateway serves it from configuration, and a new screen ships by adding an entry here, with no change
// to the shell. Hand-written (no zod): the shell validates it on every page load, and its first-load
// JavaScript budget has no room for a schema library; the gateway uses the same function at start-up.

/** Who may open a route: a signed-in user, a signed-out visitor (sent to `/` when signed in), or anyone. */
export const ROUTE_GUARDS = ['signed-in', 'signed-out', 'public'] as const;
export type RouteGuard = (typeof ROUTE_GUARDS)[number];

/** A header link as a route declares it. */
export interface HeaderLinkDeclaration {
  label: string;
  order?: number;
}

export interface RemoteRoute {
  /** The address, as React Router matches it: `/`, `/login`, `/stats`, or `/lists/*` for it and the addresses below it (ROUTE_PATH). Unique across the catalog. */
  path: string;
  /** The module the remote exposes for this page, as in its Module Federation `exposes`: `./TaskListPage`. */
  module: string;
  guard: RouteGuard;
  /** The screen's part of the tab title: "Tasks" gives "Tasks · Task Manager". */
  title: string;
  /** How the fallback names the page when it cannot be loaded: "The task list could not be loaded." */
  name: string;
  /**
   * A link in the shell's header, shown to those the guard lets in. `order` places it: links are
   * shown by `order`, lowest first (0 to 1000), then in catalog order; a link without one comes after every
   * link with one. The task list's link, added once any other screen has one, has order 0.
   */
  headerLink?: HeaderLinkDeclaration;
  /** A link in the signed-in account menu (for a signed-in route: "Account settings"). */
  accountMenuLink?: { label: string };
  /**
   * API reads (GET paths under /api/) the page makes first, for a signed-in user: the shell's page starts
   * them as soon as it knows who is signed in, before the page's code has arrived, and the page's
   * own first call takes the answer. `["/api/todo/fetch-todo"]` for the task list. At most four.
   */
  prefetch?: string[];
}

export interface RemoteDescription {
  /** Where the remote's Module Federation manifest is (`/remotes/tasks/mf-manifest.json` or a full URL). */
  manifest: string;
  /** The remote's package version, for the About dialog and for debugging version skew. */
  version?: string;
  /** The build that is deployed (a commit, a CI run): the About dialog shows it. */
  buildId?: string;
  routes: RemoteRoute[];
}

/**
 * The deployment lets a browser load a remote from elsewhere (a team's machine) for itself only
 * (REMOTE_OVERRIDES; remote-overrides.ts): only from these origins. Absent: overrides are refused. Written
 * by whoever serves the catalog from its own setting (the gateway, the shell image), never taken from a
 * catalog file.
 */
export interface RemoteOverridePolicy {
  origins: string[];
}

/** `remotes` by federation name (`mfe_tasks`): the name the remote was built with. */
export interface RemoteCatalog {
  remotes: Record<string, RemoteDescription>;
  overrides?: RemoteOverridePolicy;
}

export type CatalogCheck = { ok: true; catalog: RemoteCatalog } | { ok: false; problems: string[] };

const REMOTE_NAME = /^[a-z][a-z0-9_]{0,62}$/;
/**
 * A route of the catalog: an absolute path of plain segments (no parameters, no query), which may end in `/*`:
 * the route then also serves every address below it, its page reading the rest (`/lists/*` serves `/lists`
 * and `/lists/<id>`, docs/PRODUCT.md §10.19). `/` itself cannot take it: the home screen is not a catch-all.
 */
export const ROUTE_PATH = /^\/(?:[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*(?:\/\*)?)?$/;

/** Where a link to a route goes: its path without a trailing `/*` (`/lists/*` → `/lists`). */
export function routeAddress(path: string): string {
  return path.endsWith('/*') ? path.slice(0, -2) : path;
}

/** Whether the route of `path` serves the pathname `address` (exactly as written, a trailing slash aside). */
export function routeServes(path: string, address: string): boolean {
  const base = routeAddress(path);
  const here = address.replace(/\/+$/, '') || '/';
  return here === base || (path.endsWith('/*') && here.startsWith(`${base}/`));
}
const EXPOSED_MODULE = /^\.\/[A-Za-z0-9_][A-Za-z0-9_/-]*$/;
/** A read of this origin's API: a plain path, no query, no `..`. */
const API_READ = /^\/api(?:\/[a-z0-9][a-z0-9_-]*)+$/;
const MAX_PREFETCH = 4;
/** The most origins `overrides` may name (remote-overrides.ts). */
const MAX_OVERRIDE_ORIGINS = 10;
const MAX_TEXT = 80;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, where: string, problems: string[], optional = false): string | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT) {
    problems.push(`${where} must be a non-empty string of at most ${MAX_TEXT} characters`);
    return undefined;
  }
  return value;
}

function manifestUrl(value: unknown, where: string, problems: string[]): string | undefined {
  if (typeof value === 'string' && (value.startsWith('/') || /^https?:\/\/[^\s]+$/.test(value)) && !value.startsWith('//') && value.length <= 2048) return value;
  problems.push(`${where} must be a path starting with / or an http(s) URL`);
  return undefined;
}

/** An optional `{ label }` (a header or account-menu link). */
function labelled(value: unknown, where: string, problems: string[]): { label: string } | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    problems.push(`${where} must be an object with a label`);
    return undefined;
  }
  const label = text(value.label, `${where}.label`, problems);
  return label ? { label } : undefined;
}

/** The largest `order` a header link may declare. */
export const MAX_HEADER_LINK_ORDER = 1000;

/** An optional header link: `{ label }` and, to place it, a whole `order` from 0 to 1000. */
function headerLinkOf(value: unknown, where: string, problems: string[]): HeaderLinkDeclaration | undefined {
  const link = labelled(value, where, problems);
  if (!link || !isRecord(value) || value.order === undefined) return link;
  const { order } = value;
  if (typeof order !== 'number' || !Number.isInteger(order) || order < 0 || order > MAX_HEADER_LINK_ORDER) {
    problems.push(`${where}.order must be a whole number from 0 to ${MAX_HEADER_LINK_ORDER}`);
    return undefined;
  }
  return { ...link, order };
}

/** An optional list of API reads to start early: only for a signed-in route (they read the user's data). */
function prefetchOf(value: unknown, guard: unknown, where: string, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_PREFETCH || !value.every((item) => typeof item === 'string' && API_READ.test(item))) {
    problems.push(`${where} must be a list of at most ${MAX_PREFETCH} API paths such as /api/todo/fetch-todo`);
    return undefined;
  }
  if (guard !== 'signed-in') {
    problems.push(`${where} is only for a signed-in route (the reads are the signed-in user's)`);
    return undefined;
  }
  return value as string[];
}

function checkRoute(value: unknown, where: string, problems: string[]): RemoteRoute | undefined {
  if (!isRecord(value)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  const before = problems.length;
  const { path, module, guard, title, name, headerLink, accountMenuLink, prefetch } = value;
  if (typeof path !== 'string' || !ROUTE_PATH.test(path)) problems.push(`${where}.path must be an absolute path such as /stats (or /stats/* for it and the addresses below it)`);
  if (typeof module !== 'string' || !EXPOSED_MODULE.test(module)) problems.push(`${where}.module must name an exposed module such as ./StatsPage`);
  if (typeof guard !== 'string' || !(ROUTE_GUARDS as readonly string[]).includes(guard)) problems.push(`${where}.guard must be one of ${ROUTE_GUARDS.join(', ')}`);
  text(title, `${where}.title`, problems);
  text(name, `${where}.name`, problems);
  const link = headerLinkOf(headerLink, `${where}.headerLink`, problems);
  const menuLink = labelled(accountMenuLink, `${where}.accountMenuLink`, problems);
  if (menuLink && guard !== 'signed-in') problems.push(`${where}.accountMenuLink is only for a signed-in route (the account menu is shown to signed-in users)`);
  const reads = prefetchOf(prefetch, guard, `${where}.prefetch`, problems);
  if (problems.length > before) return undefined;
  return {
    path,
    module,
    guard,
    title,
    name,
    ...(link ? { headerLink: link } : {}),
    ...(menuLink ? { accountMenuLink: menuLink } : {}),
    ...(reads ? { prefetch: reads } : {}),
  } as RemoteRoute;
}

/**
 * Checks a parsed `/remotes.json`. Every problem is listed (with where it is), so whoever edits the catalog
 * learns all of them at once; unknown fields are dropped. Paths must be unique across all remotes.
 */
export function checkRemoteCatalog(value: unknown): CatalogCheck {
  const problems: string[] = [];
  if (!isRecord(value) || !isRecord(value.remotes)) return { ok: false, problems: ['the catalog must be an object with a "remotes" object'] };
  const remotes: Record<string, RemoteDescription> = {};
  const seenPaths = new Map<string, string>();
  for (const [remoteName, description] of Object.entries(value.remotes)) {
    const where = `remotes.${remoteName}`;
    if (!REMOTE_NAME.test(remoteName)) problems.push(`${where}: a remote's name is its federation name, lower-case letters, digits and _ (mfe_tasks)`);
    if (!isRecord(description)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    const manifest = manifestUrl(description.manifest, `${where}.manifest`, problems);
    const version = text(description.version, `${where}.version`, problems, true);
    const buildId = text(description.buildId, `${where}.buildId`, problems, true);
    if (!Array.isArray(description.routes)) {
      problems.push(`${where}.routes must be a list (it may be empty)`);
      continue;
    }
    const routes: RemoteRoute[] = [];
    description.routes.forEach((route: unknown, index) => {
      const checked = checkRoute(route, `${where}.routes[${index}]`, problems);
      if (!checked) return;
      const owner = seenPaths.get(checked.path);
      if (owner) problems.push(`${where}.routes[${index}].path ${checked.path} is already a route of ${owner}`);
      seenPaths.set(checked.path, remoteName);
      routes.push(checked);
    });
    if (manifest) remotes[remoteName] = { manifest, ...(version ? { version } : {}), ...(buildId ? { buildId } : {}), routes };
  }
  // Only the shape: an origin that is not a valid pattern never matches (overrideOriginAllowed, loaded only
  // when a browser asks for an override), and whoever writes `overrides` checked its own setting
  // (checkOverrideOrigins); the first load of the shell carries no more than this.
  let overrides: RemoteOverridePolicy | undefined;
  if (value.overrides !== undefined) {
    const origins = isRecord(value.overrides) ? value.overrides.origins : undefined;
    if (Array.isArray(origins) && origins.length > 0 && origins.length <= MAX_OVERRIDE_ORIGINS && origins.every((origin) => typeof origin === 'string' && origin.length <= MAX_TEXT)) {
      overrides = { origins: origins as string[] };
    } else problems.push(`overrides must be an object with "origins", a list of 1 to ${MAX_OVERRIDE_ORIGINS} origins such as http://127.0.0.1:*`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, catalog: { remotes, ...(overrides ? { overrides } : {}) } };
}

/**
 * What a remote's build writes next to its manifest (`dist/remote.json`): its federation name, version,
 * build id and the routes it brings. A gateway in all-in-one mode makes its catalog entries from these, with
 * the manifest at `/remotes/<key>/mf-manifest.json`.
 */
export interface RemoteBuildInfo {
  name: string;
  version?: string;
  buildId?: string;
  routes: RemoteRoute[];
}

export type BuildInfoCheck = { ok: true; info: RemoteBuildInfo } | { ok: false; problems: string[] };

/** Checks a parsed `remote.json` with the catalog's own rules. */
export function checkRemoteBuildInfo(value: unknown): BuildInfoCheck {
  if (!isRecord(value) || typeof value.name !== 'string') return { ok: false, problems: ['remote.json must be an object with a "name"'] };
  const { name, ...rest } = value;
  const check = checkRemoteCatalog({ remotes: { [name]: { manifest: '/mf-manifest.json', ...rest } } });
  if (!check.ok) return check;
  const { manifest: _manifest, ...described } = check.catalog.remotes[name] as RemoteDescription;
  return { ok: true, info: { name, ...described } };
}
