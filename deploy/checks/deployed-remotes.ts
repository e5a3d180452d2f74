// The remotes of the split deployments (compose, Kubernetes), as the deployments get them: written by
// `pnpm deploy:render` (deploy/render-remotes.mjs) from the workspace's remotes into deploy/generated/ (not
// committed). Each remote is served at /remotes/<key>/ by its own image, named after its federation name
// (mfe_tasks → mfe-tasks), and the key is that name without `mfe-`: one Dockerfile
// (deploy/docker/remote.Dockerfile), one nginx location (lb.conf: /remotes/<key>/ → mfe-<key>) and one
// kustomize component serve them all by that convention.
//
// The checks run the generator themselves, into a temporary folder standing for deploy/generated/, and
// iterate over what it wrote: they check the output for the workspace as it is now, never a stale render.
// DEPLOY_EXTRA_REMOTES (package folders, separated by the path delimiter, `:`) adds remotes from outside the
// workspace, as `pnpm deploy:render --with <folder>` does: the whole deploy suite then checks a scaffold
// (`pnpm new:remote stats --route /stats --dir /tmp/x`) before it is moved into the workspace.
//
// The generator is an ES module and jest runs these checks as CommonJS, in which it cannot be loaded: it is
// run as a process (a few tens of milliseconds), exactly as `pnpm deploy:render --out <folder>` runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../..');
/** The generator. */
export const RENDER_SCRIPT = path.join(REPO, 'deploy/render-remotes.mjs');
/** Where `pnpm deploy:render` writes, the folder deploy/compose.yaml and deploy/k8s/kustomization.yaml name. */
export const GENERATED_DIR = path.join(REPO, 'deploy/generated');
/** Its files, relative to it (OUTPUT of the generator). */
export const GENERATED = { catalog: 'remotes-catalog.json', compose: 'compose.remotes.yaml', k8s: 'k8s' } as const;
/** Package folders of remotes from outside the workspace, to check with the workspace's (see above). */
export const EXTRA_REMOTES = (process.env.DEPLOY_EXTRA_REMOTES ?? '').split(path.delimiter).filter(Boolean).map((folder) => path.resolve(folder));

export interface DeployedRemote {
  /** The federation name, the catalog's key: `mfe_tasks`. */
  name: string;
  /** Its path segment: `/remotes/tasks/`. */
  key: string;
  /** Its image, compose service, Deployment and Service: `mfe-tasks`. */
  service: string;
  /** Its package folder: the workspace's `mfe-tasks/`, or one of EXTRA_REMOTES. */
  dir: string;
}

export interface CatalogRoute {
  path: string;
  [field: string]: unknown;
}

export interface Catalog {
  remotes: Record<string, { manifest: string; routes: CatalogRoute[] }>;
}

/** The path segment lb.conf's one remote location matches (`/remotes/<key>/` → service `mfe-<key>`). */
export const REMOTE_KEY = /^[a-z][a-z0-9-]*$/;

/**
 * Every remote of a catalog. Throws on a manifest that is not `/remotes/<key>/mf-manifest.json`, or a name that
 * is not `mfe_<key>` (the convention remote.Dockerfile, lb.conf and the Ingress rely on).
 */
export function remotesOf(catalog: Catalog, where: string, extra: string[] = EXTRA_REMOTES): DeployedRemote[] {
  return Object.entries(catalog.remotes).map(([name, { manifest }]) => {
    const key = /^\/remotes\/([^/]+)\/mf-manifest\.json$/.exec(manifest)?.[1];
    if (!key || !REMOTE_KEY.test(key)) throw new Error(`${where}: ${name}'s manifest ${manifest} is not /remotes/<key>/mf-manifest.json on this origin`);
    const service = name.replaceAll('_', '-');
    if (service !== `mfe-${key}`) throw new Error(`${where}: ${name} is served at /remotes/${key}/, so it must be named mfe_${key.replaceAll('-', '_')}`);
    return { name, key, service, dir: extra.find((folder) => path.basename(folder) === service) ?? path.join(REPO, service) };
  });
}

export interface Rendered {
  /** A temporary folder whose `generated/` stands for deploy/generated/ (a sibling `k8s/` can hold the base). */
  parent: string;
  /** The output folder: what deploy/generated/ would hold. */
  dir: string;
  /** What the generator printed. */
  output: string;
  catalogFile: string;
  catalog: Catalog;
  composeFile: string;
  k8sDir: string;
  remotes: DeployedRemote[];
  /** Deletes the temporary folder. */
  remove(): void;
}

/**
 * Runs the generator into a new temporary folder (`--with` each extra folder) and reads what it wrote. Throws
 * with the generator's message when it refuses the remotes.
 */
export function renderRemotes({ extra = EXTRA_REMOTES }: { extra?: string[] } = {}): Rendered {
  const parent = mkdtempSync(path.join(tmpdir(), 'tm-deploy-render-'));
  const dir = path.join(parent, 'generated');
  try {
    const output = execFileSync(process.execPath, [RENDER_SCRIPT, '--out', dir, ...extra.flatMap((folder) => ['--with', folder])], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const catalogFile = path.join(dir, GENERATED.catalog);
    const catalog = JSON.parse(readFileSync(catalogFile, 'utf8')) as Catalog;
    return {
      parent,
      dir,
      output,
      catalogFile,
      catalog,
      composeFile: path.join(dir, GENERATED.compose),
      k8sDir: path.join(dir, GENERATED.k8s),
      remotes: remotesOf(catalog, catalogFile, extra),
      remove: () => rmSync(parent, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    const stderr = (error as { stderr?: unknown }).stderr;
    throw new Error(`deploy/render-remotes.mjs failed: ${typeof stderr === 'string' && stderr ? stderr.trim() : String(error)}`);
  }
}
