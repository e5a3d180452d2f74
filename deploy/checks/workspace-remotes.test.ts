// A remote of the workspace is deployed without a file to edit outside its package. Every `mfe-*`
// package that declares a remote ("remote" in its package.json) is in what `pnpm deploy:render`
// (deploy/render-remotes.mjs) writes: the catalog, with exactly the routes it declares, its compose service
// and its Kubernetes manifests, image and Ingress path. The compose, Kubernetes, image and nginx checks hold
// each of them to the deployment's rules (they iterate over the same render, deployed-remotes.ts); here, the
// render is compared with the workspace, read independently, and with a remote scaffolded outside it.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { GENERATED, RENDER_SCRIPT, renderRemotes, type Catalog, type Rendered } from './deployed-remotes';

const ROOT = path.resolve(__dirname, '../..');
const K8S_DIR = path.join(ROOT, 'deploy/k8s');

interface DeclaredRemote {
  folder: string;
  name: string;
  routes: unknown[];
}

/** The remotes the workspace declares, by the pattern every tool uses (mfe-<key> folders with a package.json). */
function declaredRemotes(): DeclaredRemote[] {
  return readdirSync(ROOT)
    .filter((folder) => /^mfe-[a-z0-9-]+$/.test(folder) && existsSync(path.join(ROOT, folder, 'package.json')))
    .sort()
    .flatMap((folder) => {
      const { remote } = JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { remote?: { name: string; routes: unknown[] } };
      return remote ? [{ folder, name: remote.name, routes: remote.routes }] : [];
    });
}

interface ComposeServices {
  services: Record<string, unknown>;
}
interface Component {
  apiVersion: string;
  kind: string;
  resources: string[];
  images: { name: string; newTag?: string }[];
  patches: { path: string; target?: Record<string, string> }[];
}
interface PatchOp {
  op: string;
  path: string;
  value: { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } };
}

const readYaml = (file: string): unknown => parse(readFileSync(file, 'utf8'));
const composeServices = (rendered: Rendered) => (readYaml(rendered.composeFile) as ComposeServices).services;
const component = (rendered: Rendered) => readYaml(path.join(rendered.k8sDir, 'kustomization.yaml')) as Component;
const ingressOps = (rendered: Rendered) => readYaml(path.join(rendered.k8sDir, 'ingress-paths.yaml')) as PatchOp[];
const shellCatalog = (rendered: Rendered) =>
  JSON.parse((readYaml(path.join(rendered.k8sDir, 'shell-config.yaml')) as { data: { REMOTES_CATALOG: string } }).data.REMOTES_CATALOG) as Catalog;
/** remote.yaml.template filled in for `service`, independently of the generator. */
const fill = (service: string) =>
  readFileSync(path.join(K8S_DIR, 'remote.yaml.template'), 'utf8').replaceAll('@SERVICE@', service).replaceAll('@KEY@', service.replace(/^mfe-/, ''));

describe('the deploy render holds every remote of the workspace', () => {
  // The workspace alone, whatever DEPLOY_EXTRA_REMOTES says.
  const rendered = renderRemotes({ extra: [] });
  afterAll(() => rendered.remove());

  it('finds the remotes of the workspace (the check would pass on nothing otherwise)', () => {
    expect(declaredRemotes().map((remote) => remote.folder)).toEqual(expect.arrayContaining(['mfe-auth', 'mfe-tasks']));
  });

  it.each(declaredRemotes().map((remote) => [remote.folder, remote] as const))('%s is in the catalog, at /remotes/<key>/, with the routes it declares', (folder, remote) => {
    const deployed = rendered.catalog.remotes[remote.name];
    if (!deployed) throw new Error(`${folder} (${remote.name}) is missing from the catalog pnpm deploy:render writes (${rendered.output.trim()})`);
    expect(deployed.manifest).toBe(`/remotes/${folder.slice('mfe-'.length)}/mf-manifest.json`);
    expect(deployed.routes).toEqual(remote.routes);
  });

  it('holds no other remote, in folder order (header links go by their `order`, then by this one)', () => {
    expect(Object.keys(rendered.catalog.remotes)).toEqual(declaredRemotes().map((remote) => remote.name));
  });

  it.each(declaredRemotes().map((remote) => [remote.folder] as const))('%s has its compose service, Kubernetes manifests, image tag and Ingress path', (folder) => {
    expect(Object.keys(composeServices(rendered))).toContain(folder);
    const k8s = component(rendered);
    expect(k8s.resources).toContain(`${folder}.yaml`);
    expect(readFileSync(path.join(rendered.k8sDir, `${folder}.yaml`), 'utf8')).toBe(fill(folder));
    expect(k8s.images).toContainEqual({ name: `task-manager/${folder}`, newTag: 'local' });
    const ops = ingressOps(rendered).filter((op) => op.value.backend.service.name === folder);
    expect(ops.map((op) => [op.op, op.path, op.value.path])).toEqual([['add', '/spec/rules/0/http/paths/-', `/remotes/${folder.slice('mfe-'.length)}`]]);
  });

  it('gives Kubernetes the same catalog as compose', () => {
    expect(shellCatalog(rendered)).toEqual(rendered.catalog);
  });
});

/** The folders and routes of the workspace's remotes: the remotes made below must not collide with them. */
const takenFolders = new Set(readdirSync(ROOT).filter((folder) => folder.startsWith('mfe-')));
const takenRoutes = new Set(declaredRemotes().flatMap((remote) => (remote.routes as { path: string }[]).map((route) => route.path)));
/** `base`, else base-2, base-3…: a remote name (without mfe-) whose folder and route the workspace does not have. */
function unused(base: string): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!takenFolders.has(`mfe-${name}`) && !takenRoutes.has(`/${name}`)) return name;
  }
}

/**
 * A team's new remote before it is in the workspace: `pnpm new:remote stats --route /stats --dir <scratch>`
 * (another name when the workspace has a stats remote already), with a placed header link, rendered with
 * `--with`. Everything a deployment needs is there, as for the remotes already in the workspace: the proof that
 * nothing outside the package has to be written by hand.
 */
describe('a remote scaffolded outside the workspace (pnpm deploy:render --with <folder>)', () => {
  const NAME = unused('stats');
  const SERVICE = `mfe-${NAME}`;
  const FEDERATION_NAME = `mfe_${NAME.replaceAll('-', '_')}`;
  const TAG_VARIABLE = `${SERVICE.toUpperCase().replaceAll('-', '_')}_TAG`;
  let scratch: string;
  let stats: string;
  let rendered: Rendered;
  let workspace: Rendered;
  const routes = () => (JSON.parse(readFileSync(path.join(stats, 'package.json'), 'utf8')) as { remote: { routes: unknown[] } }).remote.routes;

  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'tm-deploy-scaffold-'));
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/new-remote.mjs'), NAME, '--route', `/${NAME}`, '--dir', scratch], { stdio: 'pipe' });
    stats = path.join(scratch, SERVICE);
    const file = path.join(stats, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { remote: { routes: { headerLink?: unknown }[] } };
    pkg.remote.routes[0]!.headerLink = { label: 'Stats', order: 30 };
    writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
    rendered = renderRemotes({ extra: [stats] });
    workspace = renderRemotes({ extra: [] });
  });
  afterAll(() => {
    rendered?.remove();
    workspace?.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is in the catalog with the routes it declares, the workspace remotes unchanged', () => {
    expect(rendered.catalog.remotes[FEDERATION_NAME]).toEqual({ manifest: `/remotes/${NAME}/mf-manifest.json`, routes: routes() });
    expect(routes()).toEqual([expect.objectContaining({ path: `/${NAME}`, headerLink: { label: 'Stats', order: 30 } })]);
    const { [FEDERATION_NAME]: _stats, ...others } = rendered.catalog.remotes;
    expect(others).toEqual(workspace.catalog.remotes);
    expect(shellCatalog(rendered)).toEqual(rendered.catalog);
  });

  it('gets a compose service made like every other remote: its own name, build argument, image and tag variable', () => {
    const services = composeServices(rendered);
    const others = Object.keys(workspace.catalog.remotes).map((name) => name.replaceAll('_', '-'));
    expect(Object.keys(services).sort()).toEqual([...others, SERVICE].sort());
    // Another remote's service with its name and tag variable replaced: the same settings exactly.
    const model = others[0]!;
    const like = JSON.stringify(services[model]).replaceAll(model, SERVICE).replaceAll(`${model.toUpperCase().replaceAll('-', '_')}_TAG`, TAG_VARIABLE);
    expect(services[SERVICE]).toEqual(JSON.parse(like));
    expect(services[SERVICE]).toMatchObject({
      build: { args: { REMOTE: SERVICE } },
      image: `\${IMAGE_REGISTRY:-task-manager}/${SERVICE}:\${${TAG_VARIABLE}:-\${IMAGE_TAG:-local}}`,
    });
  });

  it('gets its Kubernetes manifests from the template, its image tag, its Ingress path and its catalog entry', () => {
    const k8s = component(rendered);
    expect([k8s.apiVersion, k8s.kind]).toEqual(['kustomize.config.k8s.io/v1alpha1', 'Component']);
    expect([...k8s.resources].sort()).toEqual([...component(workspace).resources, `${SERVICE}.yaml`].sort());
    expect(readFileSync(path.join(rendered.k8sDir, `${SERVICE}.yaml`), 'utf8')).toBe(fill(SERVICE));
    expect(k8s.images).toContainEqual({ name: `task-manager/${SERVICE}`, newTag: 'local' });
    expect(ingressOps(rendered)).toContainEqual({
      op: 'add',
      path: '/spec/rules/0/http/paths/-',
      value: { path: `/remotes/${NAME}`, pathType: 'Prefix', backend: { service: { name: SERVICE, port: { name: 'http' } } } },
    });
    expect(ingressOps(rendered)).toHaveLength(ingressOps(workspace).length + 1);
  });

  const kubectl = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'kubectl'))
    .find((candidate) => candidate.startsWith('/') && existsSync(candidate));
  (kubectl ? it : it.skip)('renders with `kubectl kustomize deploy/k8s`: its Deployment, Service, PodDisruptionBudget, Ingress path and catalog', () => {
    // deploy/k8s as it is, beside the render (its kustomization names ../generated/k8s).
    const base = path.join(rendered.parent, 'k8s');
    mkdirSync(base);
    for (const file of readdirSync(K8S_DIR).filter((name) => /\.ya?ml$/.test(name))) copyFileSync(path.join(K8S_DIR, file), path.join(base, file));
    const docs = parseAllDocuments(execFileSync(kubectl!, ['kustomize', base], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).map(
      (doc) => doc.toJS() as { kind: string; metadata: { name: string; namespace?: string }; spec?: unknown; data?: Record<string, string> },
    );
    const named = (kind: string, name: string) => docs.find((doc) => doc.kind === kind && doc.metadata.name === name);
    for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget']) expect([kind, named(kind, SERVICE)?.metadata.namespace]).toEqual([kind, 'task-manager']);
    const deployment = named('Deployment', SERVICE) as { spec: { template: { spec: { containers: { image: string }[] } } } };
    expect(deployment.spec.template.spec.containers.map((container) => container.image)).toEqual([`task-manager/${SERVICE}:local`]);
    const ingress = named('Ingress', 'task-manager') as { spec: { rules: { http: { paths: { path: string; backend: { service: { name: string } } }[] } }[] } };
    expect(ingress.spec.rules[0]!.http.paths.find((route) => route.path === `/remotes/${NAME}`)?.backend.service.name).toBe(SERVICE);
    expect(JSON.parse(named('ConfigMap', 'shell-config')?.data?.REMOTES_CATALOG ?? 'null')).toEqual(rendered.catalog);
  });

  /** A remote package of its own in the scratch folder, with this "remote" declaration. */
  function fake(folder: string, remote: unknown): string {
    const dir = path.join(scratch, 'fakes', folder);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: folder, ...(remote === undefined ? {} : { remote }) }));
    return dir;
  }
  const route = (routePath: string) => ({ path: routePath, module: './BoardPage', guard: 'signed-in', title: 'Board', name: 'board screen' });

  it('refuses what no deployment could serve: a name against its folder, a route already taken, a remote twice, no remote', () => {
    const board = unused('board');
    const home = unused('home');
    const empty = unused('empty');
    const sound = unused('team-board');
    expect(() => renderRemotes({ extra: [fake(`mfe-${board}`, { name: 'mfe_wrong', routes: [route(`/${board}`)] })] })).toThrow(`must be "mfe_${board.replaceAll('-', '_')}"`);
    expect(() => renderRemotes({ extra: [path.join(ROOT, 'mfe-tasks')] })).toThrow(/mfe-tasks twice/);
    expect(() => renderRemotes({ extra: [fake(`mfe-${home}`, { name: `mfe_${home.replaceAll('-', '_')}`, routes: [route('/')] })] })).toThrow(/the route \/ is both/);
    expect(() => renderRemotes({ extra: [fake(`mfe-${empty}`, undefined)] })).toThrow(/declares no remote/);
    expect(() => renderRemotes({ extra: [fake(board, { name: board, routes: [route(`/${board}`)] })] })).toThrow(/not a remote's folder/);
    // And a sound one passes, so the refusals above are about what they name.
    expect(() => renderRemotes({ extra: [fake(`mfe-${sound}`, { name: `mfe_${sound.replaceAll('-', '_')}`, routes: [route(`/${sound}`)] })] }).remove()).not.toThrow();
  });

  it('rewrites its output whole (a removed remote leaves nothing behind), and never a folder it did not write', () => {
    const out = path.join(scratch, 'out');
    const run = (...args: string[]) => spawnSync(process.execPath, [RENDER_SCRIPT, '--out', out, ...args], { encoding: 'utf8' });
    expect(run('--with', stats).status).toBe(0);
    expect(existsSync(path.join(out, GENERATED.k8s, `${SERVICE}.yaml`))).toBe(true);
    expect(run().status).toBe(0);
    expect(existsSync(path.join(out, GENERATED.k8s, `${SERVICE}.yaml`))).toBe(false);
    expect(readFileSync(path.join(out, GENERATED.compose), 'utf8')).not.toContain(`${SERVICE}:`);
    const foreign = path.join(scratch, 'foreign');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, 'keep.txt'), 'mine');
    const refused = spawnSync(process.execPath, [RENDER_SCRIPT, '--out', foreign], { encoding: 'utf8' });
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringContaining('was not written by this script')]);
    expect(readFileSync(path.join(foreign, 'keep.txt'), 'utf8')).toBe('mine');
  });
});
