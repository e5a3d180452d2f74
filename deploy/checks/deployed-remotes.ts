// The remotes of the split deployments (compose, Kubernetes), declared in one place: the catalog the shell
// gets, deploy/remotes-catalog.json. Each remote there is served at /remotes/<key>/ by its own image,
// named after its federation name (mfe_tasks → mfe-tasks), and the key is that name without `mfe-`: one
// Dockerfile (deploy/docker/remote.Dockerfile), one nginx location (lb.conf: /remotes/<key>/ → mfe-<key>) and
// one kustomize component serve them all by that convention. The checks iterate over this list, so a new
// remote fails them until it has its compose service, Kubernetes entry and Ingress path.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const REMOTES_CATALOG_FILE = path.resolve(__dirname, '../remotes-catalog.json');

export interface DeployedRemote {
  /** The federation name, the catalog's key: `mfe_tasks`. */
  name: string;
  /** Its path segment: `/remotes/tasks/`. */
  key: string;
  /** Its image, compose service, Deployment and Service: `mfe-tasks`. */
  service: string;
}

/** The committed catalog, parsed (its full check is in compose.test.ts, with the shell's own function). */
export function remotesCatalog(): { remotes: Record<string, { manifest: string }> } {
  return JSON.parse(readFileSync(REMOTES_CATALOG_FILE, 'utf8')) as { remotes: Record<string, { manifest: string }> };
}

/** The path segment lb.conf's one remote location matches (`/remotes/<key>/` → service `mfe-<key>`). */
export const REMOTE_KEY = /^[a-z][a-z0-9-]*$/;

/**
 * Every remote of the committed catalog. Throws on a manifest that is not `/remotes/<key>/mf-manifest.json`, or
 * a name that is not `mfe_<key>` (the convention remote.Dockerfile, lb.conf and the Ingress rely on).
 */
export function deployedRemotes(): DeployedRemote[] {
  return Object.entries(remotesCatalog().remotes).map(([name, { manifest }]) => {
    const key = /^\/remotes\/([^/]+)\/mf-manifest\.json$/.exec(manifest)?.[1];
    if (!key || !REMOTE_KEY.test(key)) throw new Error(`${REMOTES_CATALOG_FILE}: ${name}'s manifest ${manifest} is not /remotes/<key>/mf-manifest.json on this origin`);
    const service = name.replaceAll('_', '-');
    if (service !== `mfe-${key}`) throw new Error(`${REMOTES_CATALOG_FILE}: ${name} is served at /remotes/${key}/, so it must be named mfe_${key.replaceAll('-', '_')}`);
    return { name, key, service };
  });
}
