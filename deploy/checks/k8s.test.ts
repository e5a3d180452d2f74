/**
 * Checks of the Kubernetes manifests in deploy/k8s, without a cluster, together with the remotes' component
 * that `pnpm deploy:render` writes into deploy/generated/k8s (run here into a temporary folder,
 * deployed-remotes.ts): its resources join the others and its patches are applied as kustomize applies them.
 * - every YAML document is validated against the Kubernetes OpenAPI schema of its kind (kubernetes-models),
 *   and checked for fields its kind does not have (the typed models, through the TypeScript compiler: the
 *   schemas alone accept unknown fields, a real API server with `--validate=strict` does not);
 * - the kustomization lists exactly the manifests present and the component, and `kubectl kustomize` renders
 *   them (when kubectl is installed), to what these checks model;
 * - cross-references a schema cannot see: selectors, Service ports, Ingress backends, HPA/PDB targets,
 *   Secret/ConfigMap references, probes, resources, security settings, shutdown timing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { INamespace } from 'kubernetes-models/v1/Namespace';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { Secret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { Service } from 'kubernetes-models/v1/Service';
import { GENERATED, GENERATED_DIR, renderRemotes } from './deployed-remotes';
import { unreadByGateway } from './gateway-settings';

const REPO = path.resolve(__dirname, '../..');
const K8S_DIR = path.join(REPO, 'deploy/k8s');
const EXAMPLE_SECRET = 'secret.example.yaml';
const KUSTOMIZATION = 'kustomization.yaml';
/** What `pnpm deploy:render` writes for the workspace's remotes (and DEPLOY_EXTRA_REMOTES). */
const rendered = renderRemotes();
afterAll(() => rendered.remove());
/** The remotes' kustomize Component, as written into deploy/generated/k8s (here, its temporary twin). */
const COMPONENT_DIR = rendered.k8sDir;
/** How kustomization.yaml names it: deploy/generated/k8s, relative to deploy/k8s. */
const COMPONENT_REF = path.relative(K8S_DIR, path.join(GENERATED_DIR, GENERATED.k8s));
/** The component's files are reported as generated/k8s/<file>. */
const COMPONENT_LABEL = `generated/${GENERATED.k8s}/`;

const NODE_PROCESSES = ['gateway', 'svc-users', 'svc-todos'] as const;
/** The variable each process listens on: PORT is the app's public port (the gateway's) only. */
const PORT_VARIABLE = { gateway: 'PORT', 'svc-users': 'USERS_PORT', 'svc-todos': 'TODOS_PORT' } as const;
/** The remotes of the generated catalog: a Deployment, Service and Ingress path each. */
const REMOTES = rendered.remotes;
const FRONTENDS = ['shell', ...REMOTES.map((remote) => remote.service)];
const COMPONENTS = [...NODE_PROCESSES, ...FRONTENDS];
const SCALED = NODE_PROCESSES; // HPAs and replicas >= 2
/** The graceful stop of a Node process after the drain (service-kit runServer: 9 s hard limit). */
const SHUTDOWN_TIMEOUT_S = 9;

/** Every kind the manifests may use. An unknown apiVersion/kind fails the schema test: nothing is skipped. */
interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: never): { validate(): void };
}
const MODELS: ModelClass[] = [Namespace, ConfigMap, Secret, Service, Deployment, HorizontalPodAutoscaler, PodDisruptionBudget, Ingress];
const modelOf = (apiVersion: unknown, kind: unknown) => MODELS.find((m) => m.apiVersion === apiVersion && m.kind === kind);

// ---------------------------------------------------------------------------------------------- loading

interface Manifest {
  /** `file.yaml#n` (n counts from 1): where to look when a check fails. */
  where: string;
  file: string;
  object: { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } & Record<string, unknown>;
}

/** All documents of a YAML stream; any YAML error (including a duplicate key) fails loudly. */
function parseYamlStream(text: string, where: string): unknown[] {
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return [];
  return documents.flatMap((doc, index) => {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) throw new Error(`${where}#${index + 1}: ${problems.map((p) => p.message).join('; ')}`);
    return doc.contents === null ? [] : [doc.toJS() as unknown];
  });
}

/** The documents of a file of deploy/k8s, or (`dir` COMPONENT_DIR) of the component, named `label`. */
function loadManifests(file: string, dir = K8S_DIR, label = file): Manifest[] {
  return parseYamlStream(readFileSync(path.join(dir, file), 'utf8'), label).map((object, index) => {
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      throw new Error(`${label}#${index + 1} is not a mapping`);
    }
    return { where: `${label}#${index + 1}`, file: label, object: object as Manifest['object'] };
  });
}

type ImageEntry = { name: string; newName?: string; newTag?: string; digest?: string };
interface Patch {
  path: string;
  target?: { group?: string; version?: string; kind?: string; name?: string };
}
interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

const yamlFiles = readdirSync(K8S_DIR)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();
const manifestFiles = yamlFiles.filter((name) => name !== KUSTOMIZATION && name !== EXAMPLE_SECRET);
const kustomization = parseYamlStream(readFileSync(path.join(K8S_DIR, KUSTOMIZATION), 'utf8'), KUSTOMIZATION)[0] as {
  apiVersion?: unknown;
  kind?: unknown;
  namespace?: unknown;
  resources?: unknown;
  components?: unknown;
  images?: ImageEntry[];
} & Record<string, unknown>;
const component = parseYamlStream(readFileSync(path.join(COMPONENT_DIR, KUSTOMIZATION), 'utf8'), `${COMPONENT_LABEL}${KUSTOMIZATION}`)[0] as {
  apiVersion?: unknown;
  kind?: unknown;
  resources?: string[];
  images?: ImageEntry[];
  patches?: Patch[];
} & Record<string, unknown>;
/** The component's resources: one file per remote. */
const componentFiles = component.resources ?? [];
const componentSources = componentFiles.map((file) => ({ label: `${COMPONENT_LABEL}${file}`, docs: loadManifests(file, COMPONENT_DIR, `${COMPONENT_LABEL}${file}`) }));

/** Adds `op.value` at `op.path` (RFC 6902 `add`: an object member set, an array item inserted, `-` appended). */
function jsonPatchAdd(object: unknown, op: JsonPatchOperation, where: string): void {
  if (op.op !== 'add') throw new Error(`${where}: "${op.op}" is not modelled by these checks (only add)`);
  const tokens = op.path.split('/').slice(1).map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = tokens.pop();
  let node = object;
  for (const token of tokens) {
    node = Array.isArray(node) ? (node as unknown[])[Number(token)] : (node as Record<string, unknown> | undefined)?.[token];
    if (typeof node !== 'object' || node === null) throw new Error(`${where}: ${op.path} names nothing (at ${token})`);
  }
  if (last === undefined) throw new Error(`${where}: ${op.path} is not a path`);
  if (Array.isArray(node)) {
    const index = last === '-' ? node.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > node.length) throw new Error(`${where}: ${op.path}: no index ${last}`);
    node.splice(index, 0, op.value);
  } else {
    (node as Record<string, unknown>)[last] = op.value;
  }
}

/**
 * The component's patches, applied to the documents as kustomize applies them (the `kubectl kustomize` check
 * compares): a patch with a target is a JSON 6902 patch (add operations only), one without a strategic merge
 * patch (a ConfigMap's data only, which merges key by key). Anything else fails: it is not modelled here.
 */
function applyPatches(docs: Manifest[], patches: Patch[]): Manifest[] {
  const out = structuredClone(docs);
  for (const patch of patches) {
    const where = `${COMPONENT_LABEL}${patch.path}`;
    const [body] = parseYamlStream(readFileSync(path.join(COMPONENT_DIR, patch.path), 'utf8'), where);
    const matching = (test: (object: Manifest['object']) => boolean) => {
      const found = out.filter((m) => test(m.object));
      if (found.length !== 1) throw new Error(`${where}: its target matches ${found.length} documents`);
      return found[0]!.object;
    };
    if (patch.target) {
      const { group, version, kind, name } = patch.target;
      const target = matching((o) => o.apiVersion === (group ? `${group}/${version}` : version) && o.kind === kind && o.metadata?.name === name);
      if (!Array.isArray(body)) throw new Error(`${where}: a JSON 6902 patch is a list of operations`);
      for (const op of body as JsonPatchOperation[]) jsonPatchAdd(target, op, where);
    } else {
      const merge = body as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown }; data?: Record<string, string> } & Record<string, unknown>;
      const extra = Object.keys(merge).filter((key) => !['apiVersion', 'kind', 'metadata', 'data'].includes(key));
      if (merge.kind !== 'ConfigMap' || extra.length > 0 || Object.keys(merge.metadata ?? {}).join() !== 'name') {
        throw new Error(`${where}: only a strategic merge patch of a ConfigMap's data is modelled by these checks`);
      }
      const target = matching((o) => o.apiVersion === merge.apiVersion && o.kind === 'ConfigMap' && o.metadata?.name === merge.metadata?.name) as { data?: Record<string, string> };
      target.data = { ...target.data, ...merge.data };
    }
  }
  return out;
}

/** Every document kustomize applies: deploy/k8s's, then the component's, patched by the component. */
const manifests = applyPatches([...manifestFiles.flatMap((file) => loadManifests(file)), ...componentSources.flatMap((source) => source.docs)], component.patches ?? []);
const exampleSecretDocs = loadManifests(EXAMPLE_SECRET);
const readme = readFileSync(path.join(K8S_DIR, 'README.md'), 'utf8');

const ofKind = <T>(kind: string) => manifests.filter((m) => m.object.kind === kind).map((m) => m.object as unknown as T);
const deployments = ofKind<IDeployment>('Deployment');
const services = ofKind<IService>('Service');
const configMaps = ofKind<IConfigMap>('ConfigMap');
const ingresses = ofKind<IIngress>('Ingress');
const hpas = ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
const pdbs = ofKind<IPodDisruptionBudget>('PodDisruptionBudget');
const namespaces = ofKind<INamespace>('Namespace');
const exampleSecret = exampleSecretDocs[0]?.object as unknown as ISecret;

const nameOf = (object: { metadata?: { name?: unknown } }) => String(object.metadata?.name);
const deployment = (name: string): IDeployment => {
  const found = deployments.find((d) => nameOf(d) === name);
  if (!found) throw new Error(`no Deployment ${name}`);
  return found;
};
const podSpec = (d: IDeployment) => d.spec?.template.spec ?? { containers: [] };
const containersOf = (d: IDeployment) => podSpec(d).containers;
const podLabels = (d: IDeployment) => d.spec?.template.metadata?.labels ?? {};
const mainContainer = (name: string): IContainer => {
  const container = containersOf(deployment(name)).find((c) => c.name === name);
  if (!container) throw new Error(`Deployment ${name} has no container ${name}`);
  return container;
};

/** True when every label of `selector` is on `labels` (an empty selector matches nothing here). */
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);
const deploymentsSelectedBy = (selector: Record<string, string> | undefined) =>
  deployments.filter((d) => selects(selector, podLabels(d))).map(nameOf);

/** Kubernetes quantities in base units: CPU in cores, memory in bytes. */
function quantity(value: string | number | undefined): number {
  if (value === undefined) return Number.NaN;
  const match = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(value));
  if (!match) return Number.NaN;
  const factors: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(match[1]) * (factors[match[2] ?? ''] ?? Number.NaN);
}

/** The container port a probe or Service names (by name or number), if the container declares it. */
const containerPort = (container: IContainer, port: string | number | undefined) =>
  container.ports?.find((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));

/** A container's environment as the pod will see it: literal values, and references to their sources. */
type EnvValue = { value: string } | { secret: string; key: string } | { configMap: string; key: string };
function effectiveEnv(container: IContainer): Map<string, EnvValue> {
  const env = new Map<string, EnvValue>();
  for (const source of container.envFrom ?? []) {
    const cm = configMaps.find((c) => nameOf(c) === source.configMapRef?.name);
    for (const [key, value] of Object.entries(cm?.data ?? {})) env.set(`${source.prefix ?? ''}${key}`, { value });
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    if (from?.secretKeyRef) env.set(variable.name, { secret: String(from.secretKeyRef.name), key: from.secretKeyRef.key });
    else if (from?.configMapKeyRef) env.set(variable.name, { configMap: String(from.configMapKeyRef.name), key: from.configMapKeyRef.key });
    else env.set(variable.name, { value: variable.value ?? '' });
  }
  return env;
}
const literal = (env: Map<string, EnvValue>, name: string) => {
  const value = env.get(name);
  return value && 'value' in value ? value.value : undefined;
};

// ---------------------------------------------------------------------------------------------- schema

/** The problems of documents against the schemas of their kinds (none: valid). */
function schemaProblems(docs: Manifest[]): string[] {
  return docs.flatMap(({ where, object }) => {
    const Model = modelOf(object.apiVersion, object.kind);
    if (!Model) return [`${where}: unknown apiVersion/kind ${String(object.apiVersion)}/${String(object.kind)} (add its model to MODELS)`];
    if (typeof object.metadata?.name !== 'string' || object.metadata.name === '') return [`${where}: metadata.name missing`];
    try {
      new Model(object as never).validate();
      return [];
    } catch (error) {
      return [`${where} (${String(object.kind)} ${object.metadata.name}): ${(error as Error).message}`];
    }
  });
}

describe('Kubernetes manifests (deploy/k8s): schemas', () => {
  const sources: [string, Manifest[]][] = [
    ...manifestFiles.map((file): [string, Manifest[]] => [file, loadManifests(file)]),
    ...componentSources.map(({ label, docs }): [string, Manifest[]] => [label, docs]),
    [EXAMPLE_SECRET, exampleSecretDocs],
  ];
  it.each(sources)('%s: every document validates against its Kubernetes schema', (_file, docs) => {
    expect(docs.length).toBeGreaterThan(0);
    expect(schemaProblems(docs)).toEqual([]);
  });

  it('every document still validates once the component has patched it (its Ingress paths, the catalog in shell-config)', () => {
    expect(schemaProblems(manifests)).toEqual([]);
    // The check can fail: a path the Ingress schema refuses.
    const broken = structuredClone(manifests.filter((m) => m.object.kind === 'Ingress'));
    jsonPatchAdd(broken[0]!.object, { op: 'add', path: '/spec/rules/0/http/paths/-', value: { path: '/x', pathType: 'Sometimes', backend: {} } }, 'test');
    expect(schemaProblems(broken)).not.toEqual([]);
  });

  it('no document has a field its kind does not define (as `kubectl apply --validate=strict` would refuse)', () => {
    // The kubernetes-models JSON schemas allow unknown properties, so a misspelt optional field (say
    // `readinesProbe`) would pass validate() and be dropped or refused by the API server. The models'
    // TypeScript interfaces are exact: type-check each document as an object literal of its interface,
    // whose excess-property check reports any unknown field at any depth.
    const all = [...manifests, ...exampleSecretDocs];
    const lines: string[] = [];
    const starts: { line: number; where: string }[] = [];
    all.forEach(({ where, object }, index) => {
      const Model = modelOf(object.apiVersion, object.kind);
      if (!Model) return; // reported by the schema test
      lines.push(`import type { I${Model.kind} as T${index} } from 'kubernetes-models/${Model.apiVersion}/${Model.kind}';`);
      starts.push({ line: lines.length, where });
      lines.push(`export const doc${index}: T${index} = ${JSON.stringify(object, null, 1)};`.replace(/\n/g, ' '));
    });
    const fileName = path.join(REPO, 'deploy/checks/__k8s_manifests__.ts');
    const source = lines.join('\n');
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, languageVersion, ...rest) =>
      path.resolve(name) === fileName ? ts.createSourceFile(name, source, languageVersion, true) : getSourceFile(name, languageVersion, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => path.resolve(name) === fileName || fileExists(name);
    const program = ts.createProgram([fileName], options, host);
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const problems = diagnostics.map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      if (!d.file || d.start === undefined) return message;
      const line = d.file.getLineAndCharacterOfPosition(d.start).line;
      const doc = starts.find((s) => s.line === line);
      const snippet = d.file.text.slice(d.start, d.start + (d.length ?? 0));
      return `${doc?.where ?? `line ${line + 1}`}: ${message} (at ${snippet})`;
    });
    expect(problems).toEqual([]);
    expect(starts).toHaveLength(all.length);
  });
});

// ---------------------------------------------------------------------------------------------- kustomize

describe('Kubernetes manifests (deploy/k8s): kustomization', () => {
  it('lists exactly the manifests present, each once, and not the example Secret; the remotes come from the generated component', () => {
    expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
    expect(kustomization.kind).toBe('Kustomization');
    const known = ['apiVersion', 'kind', 'namespace', 'labels', 'commonAnnotations', 'resources', 'components', 'images', 'patches'];
    expect(Object.keys(kustomization).filter((key) => !known.includes(key))).toEqual([]);
    const resources = kustomization.resources as string[];
    expect(Array.isArray(resources)).toBe(true);
    expect(new Set(resources).size).toBe(resources.length);
    expect([...resources].sort()).toEqual(manifestFiles);
    expect(resources).not.toContain(EXAMPLE_SECRET);
    expect(readdirSync(K8S_DIR).filter((name) => !/\.ya?ml$/.test(name) && !['README.md', 'remote.yaml.template'].includes(name))).toEqual([]);
    expect(kustomization.components).toEqual([COMPONENT_REF]);
    expect(COMPONENT_REF).toBe('../generated/k8s');
  });

  it('the component `pnpm deploy:render` writes holds every remote: its manifests, image tag, Ingress path and the catalog', () => {
    expect([component.apiVersion, component.kind]).toEqual(['kustomize.config.k8s.io/v1alpha1', 'Component']);
    expect(Object.keys(component).sort()).toEqual(['apiVersion', 'images', 'kind', 'patches', 'resources']);
    expect([...componentFiles].sort()).toEqual(REMOTES.map((remote) => `${remote.service}.yaml`).sort());
    expect(readdirSync(COMPONENT_DIR).sort()).toEqual([...componentFiles, 'ingress-paths.yaml', KUSTOMIZATION, 'shell-config.yaml'].sort());
    expect(component.images).toEqual(REMOTES.map((remote) => ({ name: `task-manager/${remote.service}`, newTag: 'local' })));
    expect(component.patches).toEqual([
      { path: 'ingress-paths.yaml', target: { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', name: 'task-manager' } },
      { path: 'shell-config.yaml' },
    ]);
    // Each file of the component is one remote's: its Deployment, Service and PodDisruptionBudget, named after it.
    for (const { label, docs } of componentSources) {
      expect([label, docs.map((m) => `${String(m.object.kind)} ${nameOf(m.object)}`)]).toEqual([
        label,
        ['Deployment', 'Service', 'PodDisruptionBudget'].map((kind) => `${kind} ${path.basename(label, '.yaml')}`),
      ]);
    }
    // The ingress patch's target is the one Ingress there is, and the first of its rules is the one it has.
    expect(manifests.filter((m) => m.object.kind === 'Ingress').map((m) => nameOf(m.object))).toEqual(['task-manager']);
  });

  it('puts everything in the Namespace it defines', () => {
    expect(namespaces.map(nameOf)).toEqual([kustomization.namespace]);
    expect(exampleSecret.metadata?.namespace).toBe(kustomization.namespace);
    expect(readme).toContain(`-n ${String(kustomization.namespace)}`);
  });

  it('sets a tag for every image the Deployments use, and every image entry is used', () => {
    const used = deployments.flatMap((d) => containersOf(d).map((c) => String(c.image)));
    // The component's entries (the remotes), then this kustomization's, which apply after them.
    const entries = [...(component.images ?? []), ...(kustomization.images ?? [])];
    expect(used.filter((image) => !entries.some((entry) => entry.name === image))).toEqual([]);
    expect(entries.filter((entry) => !used.includes(entry.name)).map((entry) => entry.name)).toEqual([]);
    expect(entries.filter((entry) => !entry.newTag && !entry.digest).map((entry) => entry.name)).toEqual([]);
    // One image per component, named task-manager/<component>.
    expect([...used].sort()).toEqual(COMPONENTS.map((name) => `task-manager/${name}`).sort());
  });

  const kubectl = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'kubectl'))
    .find((candidate) => candidate.startsWith('/') && existsSync(candidate));
  if (!kubectl) console.info('kubectl not found on PATH: the `kubectl kustomize deploy/k8s` render check is skipped');
  (kubectl ? it : it.skip)('renders with `kubectl kustomize`: namespaced, labelled, images tagged, still valid, patched as modelled here', () => {
    // deploy/k8s as it is, beside the component (its kustomization names ../generated/k8s).
    const base = path.join(rendered.parent, 'k8s');
    mkdirSync(base, { recursive: true });
    for (const file of yamlFiles) copyFileSync(path.join(K8S_DIR, file), path.join(base, file));
    const rendering = parseYamlStream(
      execFileSync(kubectl ?? 'kubectl', ['kustomize', base], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
      'kubectl kustomize',
    ) as Manifest['object'][];
    expect(rendering).toHaveLength(manifests.length);
    const problems = rendering.flatMap((object) => {
      const label = `${String(object.kind)} ${nameOf(object)}`;
      const metadata = object.metadata as { namespace?: string; labels?: Record<string, string> };
      const out: string[] = [];
      if (object.kind !== 'Namespace' && metadata.namespace !== kustomization.namespace) out.push(`${label}: namespace ${metadata.namespace}`);
      if (metadata.labels?.['app.kubernetes.io/part-of'] !== 'task-manager') out.push(`${label}: no part-of label`);
      const Model = modelOf(object.apiVersion, object.kind);
      try {
        if (!Model) throw new Error('unknown kind');
        new Model(object as never).validate();
      } catch (error) {
        out.push(`${label}: ${(error as Error).message}`);
      }
      if (object.kind === 'Deployment') {
        const d = object as unknown as IDeployment;
        for (const c of containersOf(d)) {
          if (!/^[\w./-]+\/[\w.-]+(:[\w.-]+|@sha256:[0-9a-f]{64})$/.test(String(c.image))) out.push(`${label}: image ${c.image} not tagged`);
        }
        if (!selects(d.spec?.selector.matchLabels, podLabels(d))) out.push(`${label}: selector does not match its pods`);
        if (d.spec?.selector.matchLabels?.['app.kubernetes.io/part-of']) out.push(`${label}: part-of must stay out of the (immutable) selector`);
      }
      return out;
    });
    expect(problems).toEqual([]);
    // The same documents as modelled here, and the patches give what the model gives.
    const ids = (objects: Manifest['object'][]) => objects.map((object) => `${String(object.kind)} ${nameOf(object)}`).sort();
    expect(ids(rendering)).toEqual(ids(manifests.map((m) => m.object)));
    const pathsOf = (objects: Manifest['object'][]) =>
      (objects.find((object) => object.kind === 'Ingress') as IIngress | undefined)?.spec?.rules?.map((rule) => rule.http?.paths.map((p) => `${p.path} ${p.backend.service?.name}`).sort());
    expect(pathsOf(rendering)).toEqual(pathsOf(manifests.map((m) => m.object)));
    const shellConfig = (objects: Manifest['object'][]) => (objects.find((object) => object.kind === 'ConfigMap' && nameOf(object) === 'shell-config') as IConfigMap | undefined)?.data;
    expect(shellConfig(rendering)).toEqual(shellConfig(manifests.map((m) => m.object)));
    expect(JSON.parse(shellConfig(rendering)?.REMOTES_CATALOG ?? 'null')).toEqual(rendered.catalog);
  });
});

// ---------------------------------------------------------------------------------------------- workloads

describe('Kubernetes manifests (deploy/k8s): one generated file per remote', () => {
  const template = readFileSync(path.join(K8S_DIR, 'remote.yaml.template'), 'utf8');
  const fill = (service: string) => template.replaceAll('@SERVICE@', service).replaceAll('@KEY@', service.replace(/^mfe-/, ''));

  it('has mfe-<key>.yaml in the component for every remote of the catalog, exactly the template filled in, and none in deploy/k8s', () => {
    expect([...componentFiles].sort()).toEqual(REMOTES.map((remote) => `${remote.service}.yaml`).sort());
    for (const remote of REMOTES) {
      // A difference: the generator (deploy/render-remotes.mjs) fills the template otherwise than described.
      expect([remote.service, readFileSync(path.join(COMPONENT_DIR, `${remote.service}.yaml`), 'utf8')]).toEqual([remote.service, fill(remote.service)]);
    }
    expect(template).not.toMatch(/mfe-(?!@)|\/remotes\/(?!@KEY@)/);
    // Nothing per remote is committed: every remote's manifests are rendered from the workspace.
    expect(yamlFiles.filter((name) => name.startsWith('mfe-'))).toEqual([]);
  });
});

describe('Kubernetes manifests (deploy/k8s): Deployments', () => {
  it('one Deployment per component, selecting its own pods, rolling with maxUnavailable 0', () => {
    expect(deployments.map(nameOf).sort()).toEqual([...COMPONENTS].sort());
    for (const d of deployments) {
      const name = nameOf(d);
      expect({ name, selected: deploymentsSelectedBy(d.spec?.selector.matchLabels) }).toEqual({ name, selected: [name] });
      expect({ name, strategy: d.spec?.strategy?.type, maxUnavailable: d.spec?.strategy?.rollingUpdate?.maxUnavailable }).toEqual({
        name,
        strategy: 'RollingUpdate',
        maxUnavailable: 0,
      });
      expect(Number(d.spec?.strategy?.rollingUpdate?.maxSurge)).toBeGreaterThanOrEqual(1);
      // Two pods at least, so a PDB with maxUnavailable 1 never blocks a node drain and one pod can fail.
      expect({ name, replicas: (d.spec?.replicas ?? 1) >= 2 }).toEqual({ name, replicas: true });
      expect({ name, tokens: podSpec(d).automountServiceAccountToken }).toEqual({ name, tokens: false });
    }
  });

  it('every pod runs as non-root, without privileges or capabilities, seccomp RuntimeDefault, read-only root', () => {
    const problems = deployments.flatMap((d) => {
      const spec = podSpec(d);
      const pod = spec.securityContext ?? {};
      const out: string[] = [];
      if (pod.runAsNonRoot !== true) out.push(`${nameOf(d)}: pod runAsNonRoot`);
      // A numeric user, so the kubelet can check runAsNonRoot whatever USER the image names.
      if (!(typeof pod.runAsUser === 'number' && pod.runAsUser > 0)) out.push(`${nameOf(d)}: pod runAsUser`);
      if (pod.seccompProfile?.type !== 'RuntimeDefault') out.push(`${nameOf(d)}: seccomp`);
      if (spec.hostNetwork || spec.hostPID || spec.hostIPC) out.push(`${nameOf(d)}: host namespaces`);
      for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
        const sc = c.securityContext ?? {};
        const where = `${nameOf(d)}/${c.name}`;
        if (sc.runAsNonRoot === false || sc.runAsUser === 0) out.push(`${where}: runs as root`);
        if (sc.allowPrivilegeEscalation !== false) out.push(`${where}: allowPrivilegeEscalation`);
        if (sc.privileged) out.push(`${where}: privileged`);
        if (sc.readOnlyRootFilesystem !== true) out.push(`${where}: readOnlyRootFilesystem`);
        if (JSON.stringify(sc.capabilities?.drop) !== '["ALL"]' || (sc.capabilities?.add ?? []).length > 0) out.push(`${where}: capabilities`);
        for (const mount of c.volumeMounts ?? []) {
          if (!spec.volumes?.some((v) => v.name === mount.name)) out.push(`${where}: mount of undefined volume ${mount.name}`);
        }
        if (!c.volumeMounts?.some((m) => m.mountPath === '/tmp')) out.push(`${where}: no writable /tmp`);
      }
      return out;
    });
    expect(problems).toEqual([]);
  });

  it('every container requests and limits CPU and memory (requests <= limits); svc-users fits four scrypt-era password checks', () => {
    const problems = deployments.flatMap((d) =>
      containersOf(d).flatMap((c) =>
        (['cpu', 'memory'] as const).flatMap((resource) => {
          const request = quantity(c.resources?.requests?.[resource]);
          const limit = quantity(c.resources?.limits?.[resource]);
          if (!(request > 0 && limit > 0)) return [`${nameOf(d)}/${c.name}: ${resource} request and limit`];
          return request <= limit ? [] : [`${nameOf(d)}/${c.name}: ${resource} request above limit`];
        }),
      ),
    );
    expect(problems).toEqual([]);
    const users = mainContainer('svc-users');
    // A scrypt-era password check (N=2^17, r=8): 128 MiB each, 4 at once in the libuv pool.
    expect(quantity(users.resources?.limits?.memory)).toBeGreaterThanOrEqual(768 * 2 ** 20);
    expect(quantity(users.resources?.requests?.memory)).toBeGreaterThanOrEqual(256 * 2 ** 20);
    expect(Number(literal(effectiveEnv(users), 'UV_THREADPOOL_SIZE') ?? 4) * 128 * 2 ** 20).toBeLessThan(quantity(users.resources?.limits?.memory));
  });

  it('probes: liveness on /healthz, readiness on /readyz (nginx: /healthz), on a declared container port', () => {
    const problems: string[] = [];
    const check = (component: string, kind: string, probe: IProbe | undefined, expectedPath: string) => {
      const container = mainContainer(component);
      if (!probe?.httpGet) return problems.push(`${component}: no ${kind} httpGet probe`);
      if (probe.httpGet.path !== expectedPath) problems.push(`${component}: ${kind} probe on ${probe.httpGet.path}, not ${expectedPath}`);
      if (!containerPort(container, probe.httpGet.port)) problems.push(`${component}: ${kind} probe port ${probe.httpGet.port} not declared`);
      return undefined;
    };
    for (const name of NODE_PROCESSES) {
      const c = mainContainer(name);
      check(name, 'liveness', c.livenessProbe, '/healthz');
      check(name, 'readiness', c.readinessProbe, '/readyz');
      // Start-up connects to MongoDB/Redis first: the startup probe keeps liveness from killing a slow start.
      check(name, 'startup', c.startupProbe, '/healthz');
    }
    for (const name of FRONTENDS) {
      const c = mainContainer(name);
      check(name, 'liveness', c.livenessProbe, '/healthz');
      check(name, 'readiness', c.readinessProbe, '/healthz');
    }
    expect(problems).toEqual([]);
  });

  it('environment: every Secret/ConfigMap reference resolves; each process gets what production requires', () => {
    const secretName = nameOf(exampleSecret);
    const secretKeys = Object.keys(exampleSecret.stringData ?? {});
    const problems: string[] = [];
    for (const d of deployments) {
      for (const c of containersOf(d)) {
        const where = `${nameOf(d)}/${c.name}`;
        for (const source of c.envFrom ?? []) {
          if (source.secretRef) problems.push(`${where}: envFrom secretRef (name the keys with secretKeyRef instead)`);
          if (!configMaps.some((cm) => nameOf(cm) === source.configMapRef?.name)) problems.push(`${where}: envFrom names no defined ConfigMap`);
        }
        for (const [name, value] of effectiveEnv(c)) {
          if ('secret' in value && (value.secret !== secretName || !secretKeys.includes(value.key))) {
            problems.push(`${where}: ${name} from secret ${value.secret}/${value.key}, not defined`);
          }
          if ('configMap' in value && !configMaps.some((cm) => nameOf(cm) === value.configMap && value.key in (cm.data ?? {}))) {
            problems.push(`${where}: ${name} from configMap ${value.configMap}/${value.key}, not defined`);
          }
        }
      }
    }
    expect(problems).toEqual([]);

    const required: Record<(typeof NODE_PROCESSES)[number], { secrets: string[]; config: string[] }> = {
      gateway: { secrets: ['SESSION_KEYS', 'INTERNAL_SECRET', 'REDIS_URL'], config: ['USERS_URL', 'TODOS_URL', 'AUTH_RATE_LIMIT', 'PUBLIC_URL'] },
      'svc-users': { secrets: ['INTERNAL_SECRET', 'MONGO_URL'], config: ['MONGO_DB'] },
      // The reminders' VAPID pair: in production only from the environment (SECURITY.md "Reminders").
      'svc-todos': { secrets: ['INTERNAL_SECRET', 'MONGO_URL', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'], config: ['MONGO_DB', 'VAPID_SUBJECT'] },
    };
    for (const name of NODE_PROCESSES) {
      const container = mainContainer(name);
      const env = effectiveEnv(container);
      const port = container.ports?.[0]?.containerPort;
      const portVariable = PORT_VARIABLE[name];
      expect({ name, NODE_ENV: literal(env, 'NODE_ENV'), HOST: literal(env, 'HOST'), [portVariable]: literal(env, portVariable) }).toEqual({
        name,
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
        [portVariable]: String(port),
      });
      if (portVariable !== 'PORT') expect({ name, PORT: env.has('PORT') }).toEqual({ name, PORT: false });
      for (const key of required[name].secrets) expect({ name, key, value: env.get(key) }).toEqual({ name, key, value: { secret: secretName, key } });
      for (const key of required[name].config) expect({ name, key, set: !!literal(env, key) }).toEqual({ name, key, set: true });
    }
    // Behind the ingress controller: client IPs and https come from X-Forwarded-*.
    expect(literal(effectiveEnv(mainContainer('gateway')), 'TRUST_PROXY')).toBe('true');
    // Every variable given to the gateway is one it reads: none it would silently ignore.
    expect(unreadByGateway(effectiveEnv(mainContainer('gateway')).keys())).toEqual([]);
    // The services never see the cookie keys; only svc-todos (change notifications) joins the gateway on
    // Redis; the gateway never sees MongoDB.
    for (const name of ['svc-users', 'svc-todos']) expect(effectiveEnv(mainContainer(name)).has('SESSION_KEYS')).toBe(false);
    // Only svc-todos signs pushes: no other container gets the VAPID keys.
    for (const d of deployments) {
      for (const c of containersOf(d)) {
        if (c.name === 'svc-todos') continue;
        const vapidKeys = [...effectiveEnv(c).keys()].filter((key) => /^VAPID_(PUBLIC|PRIVATE)_KEY$/.test(key));
        expect({ container: c.name, vapidKeys }).toEqual({ container: c.name, vapidKeys: [] });
      }
    }
    expect(effectiveEnv(mainContainer('svc-users')).has('REDIS_URL')).toBe(false);
    expect(effectiveEnv(mainContainer('svc-todos')).has('REDIS_URL')).toBe(true);
    expect(effectiveEnv(mainContainer('gateway')).has('MONGO_URL')).toBe(false);
    // The shell writes /remotes.json from REMOTES_CATALOG: the generated catalog (deploy/generated/remotes-catalog.json).
    const shellEnv = effectiveEnv(mainContainer('shell'));
    expect(JSON.parse(literal(shellEnv, 'REMOTES_CATALOG') ?? 'null')).toEqual(rendered.catalog);
  });

  it('svc-todos: its environment, with the Secret filled in, is one its config accepts and pushes reminders with', async () => {
    type TodosSettings = { DATA_DIR: string; NODE_ENV?: string; VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT: string };
    const { loadTodosConfig } = (await import(path.join(REPO, 'svc-todos/src/config.ts'))) as { loadTodosConfig: (env: Record<string, string>) => TodosSettings };
    const { vapidKeys } = (await import(path.join(REPO, 'svc-todos/src/push-sender.ts'))) as { vapidKeys: (config: TodosSettings) => unknown };
    // The `web-push` svc-todos sends with, resolved from svc-todos: a key pair of this run only, as an
    // operator makes one with `npx web-push generate-vapid-keys`.
    const webPush = createRequire(path.join(REPO, 'svc-todos/package.json'))('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } };
    const vapid = webPush.generateVAPIDKeys();
    const secret: Record<string, string> = {
      INTERNAL_SECRET: randomBytes(32).toString('hex'),
      MONGO_URL: 'mongodb://user:password@mongo.example.internal:27017/?replicaSet=rs0&authSource=admin',
      REDIS_URL: 'redis://:password@redis.example.internal:6379/0',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    };
    const env: Record<string, string> = {};
    for (const [name, value] of effectiveEnv(mainContainer('svc-todos'))) {
      if ('value' in value) env[name] = value.value;
      else if ('secret' in value) env[name] = secret[value.key] ?? '';
    }
    const config = loadTodosConfig(env);
    expect(config.NODE_ENV).toBe('production');
    expect(vapidKeys(config)).toEqual({ publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: literal(effectiveEnv(mainContainer('svc-todos')), 'VAPID_SUBJECT') });
    // Without the pair a production svc-todos sends no push: what the required Secret keys prevent.
    const { VAPID_PUBLIC_KEY: _public, VAPID_PRIVATE_KEY: _private, ...withoutPair } = env;
    expect(vapidKeys(loadTodosConfig(withoutPair))).toBeNull();
  });

  it("the gateway's USERS_URL and TODOS_URL name the services' Services and ports", () => {
    const env = effectiveEnv(mainContainer('gateway'));
    for (const [variable, target] of [
      ['USERS_URL', 'svc-users'],
      ['TODOS_URL', 'svc-todos'],
    ] as const) {
      const url = new URL(literal(env, variable) ?? 'http://missing');
      const service = services.find((s) => nameOf(s) === url.hostname);
      expect({ variable, service: service && nameOf(service) }).toEqual({ variable, service: target });
      expect(deploymentsSelectedBy(service?.spec?.selector)).toEqual([target]);
      expect(service?.spec?.ports?.map((p) => p.port)).toContain(Number(url.port));
    }
  });

  it('graceful shutdown: the grace period covers the preStop pause, SHUTDOWN_DRAIN_MS and the in-flight limit', () => {
    for (const name of NODE_PROCESSES) {
      const drainMs = Number(literal(effectiveEnv(mainContainer(name)), 'SHUTDOWN_DRAIN_MS'));
      expect({ name, drainMs: drainMs >= 1000 }).toEqual({ name, drainMs: true });
      // SIGTERM closes the listener at once: the pod must leave the endpoints before it arrives.
      const command = mainContainer(name).lifecycle?.preStop?.exec?.command ?? [];
      expect({ name, command: command[0] }).toEqual({ name, command: 'sleep' });
      const pause = Number(command[1]);
      const grace = podSpec(deployment(name)).terminationGracePeriodSeconds ?? 30;
      expect({ name, graceCovers: grace >= pause + drainMs / 1000 + SHUTDOWN_TIMEOUT_S + 1 }).toEqual({ name, graceCovers: true });
    }
    for (const name of FRONTENDS) {
      // nginx: a short pause before SIGQUIT so endpoints drop the pod first, well inside the grace period.
      const command = mainContainer(name).lifecycle?.preStop?.exec?.command ?? [];
      expect({ name, command: command[0] }).toEqual({ name, command: 'sleep' });
      expect(Number(command[1])).toBeLessThan(podSpec(deployment(name)).terminationGracePeriodSeconds ?? 30);
    }
  });

  it('the Node processes are scraped by Prometheus on their metrics port', () => {
    for (const name of NODE_PROCESSES) {
      const d = deployment(name);
      const annotations = d.spec?.template.metadata?.annotations ?? {};
      expect({ name, annotations }).toEqual({
        name,
        annotations: expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' }) as unknown,
      });
      expect(mainContainer(name).ports?.map((p) => String(p.containerPort))).toContain(annotations['prometheus.io/port']);
    }
  });

  it('the gateway (and every other component) is spread softly across nodes', () => {
    for (const d of deployments) {
      const spec = podSpec(d);
      const spread = (spec.topologySpreadConstraints ?? []).filter(
        (t) => t.topologyKey === 'kubernetes.io/hostname' && t.whenUnsatisfiable === 'ScheduleAnyway' && selects(t.labelSelector?.matchLabels, podLabels(d)),
      );
      const antiAffinity = (spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).filter(
        (term) => term.podAffinityTerm.topologyKey === 'kubernetes.io/hostname' && selects(term.podAffinityTerm.labelSelector?.matchLabels, podLabels(d)),
      );
      expect({ name: nameOf(d), soft: spread.length + antiAffinity.length > 0 }).toEqual({ name: nameOf(d), soft: true });
      // Soft only: a hard rule would leave pods pending on a small cluster.
      expect(spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------------------------------------- routing

describe('Kubernetes manifests (deploy/k8s): Services and Ingress', () => {
  it('one ClusterIP Service per component; its selector picks exactly that Deployment and targets a container port', () => {
    expect(services.map(nameOf).sort()).toEqual([...COMPONENTS].sort());
    for (const s of services) {
      const name = nameOf(s);
      expect({ name, type: s.spec?.type ?? 'ClusterIP' }).toEqual({ name, type: 'ClusterIP' });
      expect({ name, selects: deploymentsSelectedBy(s.spec?.selector) }).toEqual({ name, selects: [name] });
      for (const port of s.spec?.ports ?? []) {
        expect({ name, port: port.port, target: !!containerPort(mainContainer(name), port.targetPort ?? port.port) }).toEqual({
          name,
          port: port.port,
          target: true,
        });
      }
      expect(s.spec?.ports?.length).toBeGreaterThan(0);
    }
  });

  it('the Ingress (class nginx, TLS) routes each path prefix to the right Service and an existing port', () => {
    expect(ingresses).toHaveLength(1);
    const ingress = ingresses[0]!;
    expect(ingress.spec?.ingressClassName).toBe('nginx');
    const rules = ingress.spec?.rules ?? [];
    const hosts = rules.map((r) => r.host);
    expect(ingress.spec?.tls?.[0]?.secretName).toBeTruthy();
    expect(ingress.spec?.tls?.flatMap((t) => t.hosts ?? [])).toEqual(hosts);
    const routes = rules.flatMap((r) => r.http?.paths ?? []);
    expect(Object.fromEntries(routes.map((p) => [p.path, p.backend.service?.name]))).toEqual({
      '/api': 'gateway',
      ...Object.fromEntries(REMOTES.map((remote) => [`/remotes/${remote.key}`, remote.service])),
      '/sounds': 'mfe-tasks',
      '/svgs': 'mfe-tasks',
      '/': 'shell',
    });
    expect(routes).toHaveLength(4 + REMOTES.length);
    for (const route of routes) {
      expect({ path: route.path, pathType: route.pathType }).toEqual({ path: route.path, pathType: 'Prefix' });
      const backend = route.backend.service;
      const service = services.find((s) => nameOf(s) === backend?.name);
      const port = service?.spec?.ports?.find((p) => (backend?.port?.name ? p.name === backend.port.name : p.port === backend?.port?.number));
      expect({ path: route.path, service: !!service, port: !!port }).toEqual({ path: route.path, service: true, port: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------- scaling

describe('Kubernetes manifests (deploy/k8s): autoscaling and disruption budgets', () => {
  it('an autoscaling/v2 HPA on CPU for the gateway and each service: min 2, a sensible max, slow scale-down', () => {
    expect(hpas.map((h) => h.spec?.scaleTargetRef.name).sort()).toEqual([...SCALED].sort());
    for (const h of hpas) {
      const target = h.spec?.scaleTargetRef;
      const name = String(target?.name);
      expect({ name, apiVersion: target?.apiVersion, kind: target?.kind }).toEqual({ name, apiVersion: 'apps/v1', kind: 'Deployment' });
      const d = deployment(name);
      const min = h.spec?.minReplicas ?? 1;
      const max = h.spec?.maxReplicas ?? 0;
      expect({ name, min, sensibleMax: max > min && max <= 20, replicasAtMin: d.spec?.replicas === min }).toEqual({
        name,
        min: 2,
        sensibleMax: true,
        replicasAtMin: true,
      });
      const cpu = h.spec?.metrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      const utilization = cpu?.resource?.target.averageUtilization ?? 0;
      expect({ name, cpuUtilization: cpu?.resource?.target.type === 'Utilization' && utilization > 0 && utilization <= 90 }).toEqual({
        name,
        cpuUtilization: true,
      });
      // Utilization is relative to the CPU request: every container of the target needs one.
      expect(containersOf(d).every((c) => quantity(c.resources?.requests?.cpu) > 0)).toBe(true);
      expect({ name, scaleDownWindow: (h.spec?.behavior?.scaleDown?.stabilizationWindowSeconds ?? 0) >= 120 }).toEqual({ name, scaleDownWindow: true });
    }
  });

  it('a policy/v1 PodDisruptionBudget per Deployment that never blocks a drain', () => {
    const covered = pdbs.flatMap((p) => deploymentsSelectedBy(p.spec?.selector?.matchLabels));
    expect(covered.sort()).toEqual([...COMPONENTS].sort());
    for (const p of pdbs) {
      const selected = deploymentsSelectedBy(p.spec?.selector?.matchLabels);
      expect({ pdb: nameOf(p), selected: selected.length }).toEqual({ pdb: nameOf(p), selected: 1 });
      const replicas = deployment(selected[0]!).spec?.replicas ?? 1;
      const { minAvailable, maxUnavailable } = p.spec ?? {};
      const ok = minAvailable !== undefined ? Number(minAvailable) >= 1 && Number(minAvailable) < replicas : Number(maxUnavailable) === 1;
      expect({ pdb: nameOf(p), minAvailable, maxUnavailable, ok }).toEqual({ pdb: nameOf(p), minAvailable, maxUnavailable, ok: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------- secret + docs

describe('Kubernetes manifests (deploy/k8s): the Secret template and the README', () => {
  /** Keys every deployment has (read without `optional`): the pods wait for them. */
  const keys = ['SESSION_KEYS', 'INTERNAL_SECRET', 'MONGO_URL', 'REDIS_URL', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'];
  /** Keys a deployment may leave out (the Deployments read them with `optional: true`). */
  const optionalKeys = ['SMTP_URL'];

  it('secret.example.yaml is a template: the required keys and the optional ones, every value a REPLACE_ME placeholder', () => {
    expect(exampleSecretDocs).toHaveLength(1);
    expect(exampleSecret.kind).toBe('Secret');
    expect(nameOf(exampleSecret)).toBe('task-manager-secrets');
    expect(exampleSecret.data).toBeUndefined();
    expect(Object.keys(exampleSecret.stringData ?? {}).sort()).toEqual([...keys, ...optionalKeys].sort());
    expect(Object.values(exampleSecret.stringData ?? {}).filter((value) => !value.includes('REPLACE_ME'))).toEqual([]);
    // Every key is used by some Deployment, so nothing in the template is stale.
    const referenced = new Set(
      deployments.flatMap((d) => containersOf(d).flatMap((c) => (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.key).filter(Boolean))),
    );
    expect([...referenced].sort()).toEqual([...keys, ...optionalKeys].sort());
    const optional = deployments.flatMap((d) => containersOf(d).flatMap((c) => (c.env ?? []).filter((e) => e.valueFrom?.secretKeyRef?.optional === true).map((e) => e.name)));
    expect(optional.sort()).toEqual([...optionalKeys].sort());
  });

  it('the README shows how to create the Secret, apply, set images, roll out one remote, scale, and what is left out', () => {
    const create = /kubectl -n task-manager create secret generic task-manager-secrets((?:[^\n]*\\\n)*[^\n]*)/.exec(readme);
    expect(create).not.toBeNull();
    for (const key of keys) expect(create?.[1]).toContain(`--from-literal=${key}=`);
    for (const text of [
      'npx web-push generate-vapid-keys',
      'pnpm deploy:render',
      'kubectl apply -k deploy/k8s',
      'kustomize edit set image',
      'kubectl -n task-manager rollout restart deployment/mfe-tasks',
      'kubectl -n task-manager set image deployment/mfe-tasks',
      'kubectl -n task-manager scale deployment/',
      'cert-manager',
      'metrics-server',
    ]) {
      expect({ text, found: readme.includes(text) }).toEqual({ text, found: true });
    }
  });
});
