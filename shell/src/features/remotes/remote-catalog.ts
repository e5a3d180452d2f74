import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

/** Federation names of the remotes; their manifest URLs come from `/remotes.json` at run time. */
type RemoteName = 'mfe_auth' | 'mfe_tasks';
export type RemoteModuleId = `${RemoteName}/${string}`;

// Production reads /remotes.json (replaced per deployment without rebuilding the shell); the dev server
// serves remotes.dev.json pointing at the remotes' own dev servers.
const CATALOG_URL = process.env.NODE_ENV === 'development' ? '/remotes.dev.json' : '/remotes.json';

type Catalog = Partial<Record<RemoteName, string>>;

let catalog: Promise<Catalog> | undefined;

async function fetchCatalog(): Promise<Catalog> {
  const response = await fetch(CATALOG_URL, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${CATALOG_URL} answered ${response.status}`);
  const entries = (await response.json()) as Catalog;
  registerRemotes(Object.entries(entries).map(([name, entry]) => ({ name, entry })));
  return entries;
}

/** Registers the remotes once; a failed attempt is forgotten so the next one tries again. */
function ensureCatalog(): Promise<Catalog> {
  catalog ??= fetchCatalog().catch((error: unknown) => {
    catalog = undefined;
    throw error;
  });
  return catalog;
}

/** Thrown when a remote cannot be loaded; the boundary around the remote shows it with a retry. */
class RemoteUnavailableError extends Error {
  constructor(readonly remote: string, cause?: unknown) {
    super(`The ${remote} module could not be loaded`, { cause });
    this.name = 'RemoteUnavailableError';
  }
}

/**
 * Loads an exposed page of a remote. On a retry the remote is registered again with `force`, which
 * drops the runtime's cached manifest and entry, so a remote that came back online really loads.
 */
export async function loadRemotePage(id: RemoteModuleId, retry: boolean): Promise<{ default: ComponentType }> {
  const entries = await ensureCatalog();
  const name = id.split('/')[0] as RemoteName;
  const entry = entries[name];
  if (!entry) throw new RemoteUnavailableError(name, new Error(`${name} is not in ${CATALOG_URL}`));
  if (retry) registerRemotes([{ name, entry }], { force: true });
  const module = await loadRemote<{ default?: ComponentType }>(id);
  if (!module?.default) throw new RemoteUnavailableError(name);
  return { default: module.default };
}
