import { getInstance } from '@module-federation/enhanced/runtime';
import { isRemoteLoaded, type RemoteCatalog } from './remote-catalog';

// Read only by the About dialog, which is loaded on demand: none of this is in the first load.

/** What the About dialog shows of one remote. */
export interface RemoteBuild {
  name: string;
  version?: string;
  buildId?: string;
  manifest: string;
  /** A page of it loaded on this page. */
  loaded: boolean;
}

interface ManifestMetaData {
  name?: unknown;
  buildInfo?: { buildVersion?: unknown; buildId?: unknown };
  buildId?: unknown;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The `metaData` of each manifest the federation runtime fetched on this page, by federation name. */
function loadedManifests(): Map<string, ManifestMetaData> {
  const found = new Map<string, ManifestMetaData>();
  try {
    const cache = getInstance()?.snapshotHandler.manifestCache as Map<string, { metaData?: ManifestMetaData }> | undefined;
    for (const manifest of cache?.values() ?? []) {
      const name = textOf(manifest.metaData?.name);
      if (name && manifest.metaData) found.set(name, manifest.metaData);
    }
  } catch {
    // No federation runtime (component tests): the catalog's figures are all there is.
  }
  return found;
}

/**
 * Each remote of the catalog with its version and build id: from the manifest the runtime loaded when
 * there is one (what actually runs), else from the catalog (what the gateway says is deployed).
 */
export function describeRemotes(current: RemoteCatalog): RemoteBuild[] {
  const manifests = loadedManifests();
  return Object.entries(current.remotes).map(([name, remote]) => {
    const meta = isRemoteLoaded(name) ? manifests.get(name) : undefined;
    const version = textOf(meta?.buildInfo?.buildVersion) ?? remote.version;
    const buildId = textOf(meta?.buildInfo?.buildId) ?? textOf(meta?.buildId) ?? remote.buildId;
    return { name, manifest: remote.manifest, loaded: isRemoteLoaded(name), ...(version ? { version } : {}), ...(buildId ? { buildId } : {}) };
  });
}
