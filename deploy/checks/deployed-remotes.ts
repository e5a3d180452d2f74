// The remotes of the split deployments (compose, Kubernetes), declared in one place: the catalog the shell
// gets, deploy/remotes-catalog.json. Each remote there is served at /remotes/<key>/ by its own image,
// named after its federation name (mfe_tasks → mfe-tasks): the checks iterate over this list, so a new
// remote fails them until it has its service, upstream, location, Deployment and Ingress path.
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
  /** Its nginx upstream in lb.conf: `mfe_tasks`. */
  upstream: string;
}

/** The committed catalog, parsed (its full check is in compose.test.ts, with the shell's own function). */
export function remotesCatalog(): { remotes: Record<string, { manifest: string }> } {
  return JSON.parse(readFileSync(REMOTES_CATALOG_FILE, 'utf8')) as { remotes: Record<string, { manifest: string }> };
}

/** Every remote of the committed catalog; a manifest that is not `/remotes/<key>/mf-manifest.json` throws. */
export function deployedRemotes(): DeployedRemote[] {
  return Object.entries(remotesCatalog().remotes).map(([name, { manifest }]) => {
    const key = /^\/remotes\/([a-z][a-z0-9-]*)\/mf-manifest\.json$/.exec(manifest)?.[1];
    if (!key) throw new Error(`${REMOTES_CATALOG_FILE}: ${name}'s manifest ${manifest} is not /remotes/<key>/mf-manifest.json on this origin`);
    return { name, key, service: name.replaceAll('_', '-'), upstream: name };
  });
}
