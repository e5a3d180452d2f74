import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { takeEarlyResponse } from '@tm/api-client';
import { checkRemoteCatalog, type RemoteCatalog, type RemoteRoute } from '@tm/contracts';
import type { ExposedPageModule } from '@tm/remote-kit';
import { RemoteFallback } from './remote-fallback';
import { overridesAsked } from './override-keys';
import type { PageOverrides } from './remote-overrides';

export type { RemoteCatalog, RemoteRoute };

/** The catalog of this page load, as this browser uses it (remote-overrides.ts: a local remote in place of one). */
export type LoadedCatalog = PageOverrides;

// Production reads /remotes.json (served by the gateway from its configuration, replaced per deployment
// without rebuilding the shell); in development the dev server makes /remotes.dev.json from the workspace's remotes.
export const CATALOG_URL = process.env.NODE_ENV === 'development' ? '/remotes.dev.json' : '/remotes.json';

/** The shell's own rule: a visitor on a signed-in route is sent to the first signed-out route (sign-in). */
function shellProblems(catalog: RemoteCatalog): string[] {
  const guards = Object.values(catalog.remotes).flatMap((remote) => remote.routes.map((route) => route.guard));
  return guards.includes('signed-in') && !guards.includes('signed-out') ? ['a catalog with signed-in routes needs a signed-out route, where visitors sign in'] : [];
}

/**
 * The overrides of this page (remote-overrides.ts): only those the catalog just sent allows. Their
 * code is loaded only when this browser has or is asked for one; everyone else's first load has only the check.
 */
async function applyOverrides(deployed: RemoteCatalog): Promise<LoadedCatalog> {
  if (!overridesAsked()) return { catalog: deployed, overrides: [], proposed: [] };
  return (await import('./remote-overrides')).applyPageOverrides(deployed);
}

async function fetchCatalog(): Promise<LoadedCatalog> {
  let body: unknown;
  try {
    // Index.html asked for it before any bundle arrived (src/app/early-requests.ts).
    const response = await (takeEarlyResponse(CATALOG_URL) ?? fetch(CATALOG_URL, { cache: 'no-cache' }));
    if (!response.ok) throw new Error(`${CATALOG_URL} answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    console.error(`The remote catalog ${CATALOG_URL} could not be read`, error);
    throw error;
  }
  const check = checkRemoteCatalog(body);
  const problems = check.ok ? shellProblems(check.catalog) : check.problems;
  if (!check.ok || problems.length > 0) {
    console.error(`The remote catalog ${CATALOG_URL} is not valid:\n- ${problems.join('\n- ')}`);
    throw new Error(`${CATALOG_URL} is not valid`);
  }
  return applyOverrides(check.catalog);
}

let catalog: Promise<LoadedCatalog> | undefined;

/**
 * The catalog, fetched once per page load. A failed attempt is forgotten, so the next call (Retry) fetches
 * it again.
 */
export function loadCatalog(): Promise<LoadedCatalog> {
  catalog ??= fetchCatalog().catch((error: unknown) => {
    catalog = undefined;
    throw error;
  });
  return catalog;
}

let registered: RemoteCatalog | undefined;

/** Registers every remote of the catalog with the federation runtime, once, before the first page loads. */
function register(current: RemoteCatalog): void {
  if (registered === current) return;
  registerRemotes(Object.entries(current.remotes).map(([name, remote]) => ({ name, entry: remote.manifest })));
  registered = current;
}

/** Thrown when a remote cannot be loaded; the boundary around the remote shows it with a retry. */
class RemoteUnavailableError extends Error {
  constructor(
    readonly remote: string,
    cause?: unknown,
  ) {
    super(`The ${remote} module could not be loaded`, { cause });
    this.name = 'RemoteUnavailableError';
  }
}

/** The remotes whose page loaded on this page (for the About dialog). */
const loaded = new Set<string>();

/** Whether a page of this remote loaded on this page. */
export function isRemoteLoaded(remote: string): boolean {
  return loaded.has(remote);
}

/** `mfe_tasks/TaskListPage` for the route's remote and `./TaskListPage`. */
export function remoteModuleId(remote: string, route: Pick<RemoteRoute, 'module'>): string {
  return `${remote}/${route.module.replace(/^\.\//, '')}`;
}

/**
 * Loads an exposed page of a remote. On a retry the remote is registered again with `force`, which
 * drops the runtime's cached manifest and entry, so a remote that came back online really loads.
 * What it loads is typed by the contract of @tm/remote-kit ({@link ExposedPageModule}: a default export the
 * shell renders with no props), which every remote's exposed modules are checked against at type-check time.
 */
export async function loadRemotePage(remote: string, route: Pick<RemoteRoute, 'module'>, retry: boolean): Promise<ExposedPageModule> {
  const current = (await loadCatalog()).catalog;
  const description = current.remotes[remote];
  if (!description) throw new RemoteUnavailableError(remote, new Error(`${remote} is not in ${CATALOG_URL}`));
  register(current);
  if (retry) registerRemotes([{ name: remote, entry: description.manifest }], { force: true });
  // Checked at run time too: a remote deployed from another build may not keep the contract.
  const module = await loadRemote<Partial<ExposedPageModule>>(remoteModuleId(remote, route));
  if (!module?.default) throw new RemoteUnavailableError(remote);
  // The runtime plugin answers a failed load with the fallback: that remote is not loaded.
  if (module.default !== RemoteFallback) loaded.add(remote);
  return { default: module.default };
}
