#!/usr/bin/env node
// `pnpm deploy:render`: writes the per-remote part of the split deployments from the workspace's
// remotes, so that adding a remote touches nothing outside its package. Every `mfe-<key>` package that
// declares a remote ("remote" in its package.json: federation name mfe_<key> and its routes;
// packages/build-config/workspace-remotes.mjs finds them) gets, in deploy/generated/ (gitignored, rewritten
// whole on each run):
//   remotes-catalog.json   the catalog the shell loads its remotes from: each remote's manifest at
//                          /remotes/<key>/mf-manifest.json and the routes its package declares, in folder order
//                          (header links are placed by their `order`, then by this order);
//   compose.remotes.yaml   one compose service per remote, mfe-<key>, from deploy/compose.remote.yaml.template;
//                          deploy/compose.yaml includes this file (`include:`) and mounts the catalog above;
//   k8s/                   a kustomize Component, listed under `components:` in deploy/k8s/kustomization.yaml:
//                          each remote's Deployment, Service and PodDisruptionBudget (mfe-<key>.yaml, from
//                          deploy/k8s/remote.yaml.template), its image tag, its /remotes/<key> path added to
//                          the Ingress, and the catalog as REMOTES_CATALOG of the ConfigMap shell-config.
// Run it before `docker compose -f deploy/compose.yaml …` and `kubectl apply -k deploy/k8s`, which fail
// without it (the files they name are missing), and again after a remote is added or its routes change.
// The images do not need it: the shell reads the catalog at start, never at build.
//
//   --out <folder>    writes there instead of deploy/generated, the same files (their relative paths are still
//                     those of deploy/generated/: the deploy checks render into a temporary folder)
//   --with <folder>   adds the remote of a package folder outside the workspace, as if it were in it (a
//                     scaffold in a scratch folder: `pnpm new:remote … --dir`); repeatable
//   --root <folder>   takes the mfe-<key> packages of that folder instead of this repository's (a scratch
//                     folder holding scaffolds only); the build context stays this repository
//
// Node built-ins only (and the workspace's own discovery), so a deploy host can run it without `pnpm install`.
// deploy/checks/*.test.ts run it for the workspace's remotes and hold its output to every deployment rule.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { workspaceRemotes } from '../packages/build-config/workspace-remotes.mjs';

const DEPLOY_DIR = import.meta.dirname;
const ROOT = path.dirname(DEPLOY_DIR);
/** Where the output goes: the folder deploy/compose.yaml and deploy/k8s/kustomization.yaml name. */
export const OUT_DIR = path.join(DEPLOY_DIR, 'generated');
/** The files of the output, relative to it. */
export const OUTPUT = { catalog: 'remotes-catalog.json', compose: 'compose.remotes.yaml', k8s: 'k8s' };
const COMPOSE_TEMPLATE = path.join(DEPLOY_DIR, 'compose.remote.yaml.template');
const K8S_TEMPLATE = path.join(DEPLOY_DIR, 'k8s/remote.yaml.template');
/** What marks a folder as this script's output, which it may replace whole. */
const MARKER = '.rendered-by-deploy-render';
/** A remote's package folder: mfe-<key>, the key a path segment lb.conf and the Ingress route by. */
const SERVICE = /^mfe-([a-z][a-z0-9]*(?:-[a-z0-9]+)*)$/;

/**
 * @typedef {object} DeployRemote
 * @property {string} dir       the package folder
 * @property {string} service   `mfe-stats`: its folder, image, compose service, Deployment and Service
 * @property {string} key       `stats`: its path segment, /remotes/stats/
 * @property {string} name      `mfe_stats`: its federation name, the catalog's key
 * @property {string} tagVariable  `MFE_STATS_TAG`: its image tag in compose
 * @property {unknown[]} routes the routes its package declares
 */

/** One remote, checked against the naming every deployment file relies on. @returns {DeployRemote} */
function deployRemote(dir, service, name, routes) {
  const key = SERVICE.exec(service)?.[1];
  if (!key) throw new Error(`${dir}: "${service}" is not a remote's folder: mfe-<key>, such as mfe-stats`);
  const expected = `mfe_${key.replaceAll('-', '_')}`;
  if (name !== expected) {
    throw new Error(`${dir}/package.json: its remote is named ${JSON.stringify(name)}, but the folder ${service} is served at /remotes/${key}/ by the service ${service}, so it must be "${expected}"`);
  }
  if (!Array.isArray(routes) || routes.length === 0) throw new Error(`${dir}/package.json: its remote declares no route ("remote": { "routes": [...] })`);
  return { dir, service, key, name, tagVariable: `${service.toUpperCase().replaceAll('-', '_')}_TAG`, routes };
}

/** The remote of a package folder given with --with (outside the workspace). @returns {DeployRemote} */
function folderRemote(folder) {
  const dir = path.resolve(folder);
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) throw new Error(`--with ${folder}: no package.json there`);
  const { remote } = JSON.parse(readFileSync(file, 'utf8'));
  if (!remote) throw new Error(`--with ${folder}: its package.json declares no remote ("remote": { "name", "routes" })`);
  return deployRemote(dir, path.basename(dir), remote.name, remote.routes);
}

/**
 * The remotes to deploy: every workspace package that declares one, plus those of `extra` folders, by folder
 * name. Throws on a name that breaks the convention, a folder given twice, or a route path two remotes claim.
 * @returns {{ remotes: DeployRemote[], skipped: string[] }}
 */
export function deployRemotes({ root = ROOT, extra = [] } = {}) {
  const found = workspaceRemotes(root);
  const skipped = found.filter((remote) => !remote.name).map((remote) => remote.folder);
  const remotes = [
    ...found.filter((remote) => remote.name).map((remote) => deployRemote(path.join(root, remote.folder), remote.folder, remote.name, remote.routes)),
    ...extra.map(folderRemote),
  ].sort((a, b) => (a.service < b.service ? -1 : a.service > b.service ? 1 : 0));
  if (remotes.length === 0) throw new Error(`no remote in ${root} (no mfe-<key> package declaring "remote"): nothing to deploy`);
  const owners = new Map();
  for (const [index, remote] of remotes.entries()) {
    if (remotes[index + 1]?.service === remote.service) throw new Error(`${remote.service} twice: ${remote.dir} and ${remotes[index + 1].dir}`);
    for (const route of remote.routes) {
      const owner = owners.get(route?.path);
      if (owner) throw new Error(`the route ${route.path} is both ${owner}'s and ${remote.service}'s`);
      owners.set(route?.path, remote.service);
    }
  }
  return { remotes, skipped };
}

/** The catalog the shell gets (packages/contracts/src/remote-catalog.ts). */
export function catalogOf(remotes) {
  return { remotes: Object.fromEntries(remotes.map((remote) => [remote.name, { manifest: `/remotes/${remote.key}/mf-manifest.json`, routes: remote.routes }])) };
}

/** The Kubernetes manifests of remote `service` (mfe-<key>): the template with its name and path segment. */
export function remoteManifests(service, template = readFileSync(K8S_TEMPLATE, 'utf8')) {
  const key = SERVICE.exec(service)?.[1];
  if (!key) throw new Error(`"${service}" is not a remote's name: mfe-<key>, such as mfe-stats`);
  return template.replaceAll('@SERVICE@', service).replaceAll('@KEY@', key);
}

const HEADER = (what) =>
  [
    `# GENERATED by \`pnpm deploy:render\` (deploy/render-remotes.mjs): ${what}.`,
    "# From the workspace's remotes, rewritten on each run, not committed: edit the template or a remote's",
    '# package.json instead, then render again.',
  ].join('\n');

/** The compose services of the remotes, the file deploy/compose.yaml includes (paths relative to its folder). */
function composeFile(remotes, template) {
  const context = path.relative(OUT_DIR, ROOT).split(path.sep).join('/');
  const services = remotes.map((remote) =>
    template
      .replaceAll('@SERVICE@', remote.service)
      .replaceAll('@KEY@', remote.key)
      .replaceAll('@NAME@', remote.name)
      .replaceAll('@TAG_VARIABLE@', remote.tagVariable)
      .replaceAll('@CONTEXT@', context)
      .trimEnd(),
  );
  return [
    HEADER('one service per remote, from deploy/compose.remote.yaml.template'),
    '# Included by deploy/compose.yaml (`include:`): loaded as its own Compose model, so relative paths here are',
    '# relative to this folder, and interpolated with the variables of `--env-file deploy/.env`.',
    'services:',
    services.join('\n\n'),
    '',
  ].join('\n');
}

/** The kustomize Component of the remotes (deploy/k8s/kustomization.yaml lists it under `components:`). */
function k8sFiles(remotes, catalog, template) {
  const files = {};
  for (const remote of remotes) files[`${remote.service}.yaml`] = remoteManifests(remote.service, template);
  files['ingress-paths.yaml'] = [
    HEADER('a JSON 6902 patch of the Ingress task-manager (deploy/k8s/ingress.yaml)'),
    "# Each remote's /remotes/<key> path, appended to the first (only) rule. The longest matching Prefix wins,",
    '# so the order among the paths does not matter.',
    ...remotes.flatMap((remote) => [
      '- op: add',
      '  path: /spec/rules/0/http/paths/-',
      '  value:',
      `    path: /remotes/${remote.key}`,
      '    pathType: Prefix',
      '    backend:',
      '      service:',
      `        name: ${remote.service}`,
      '        port:',
      '          name: http',
    ]),
    '',
  ].join('\n');
  files['shell-config.yaml'] = [
    HEADER('a strategic merge patch of the ConfigMap shell-config (deploy/k8s/configmap.yaml)'),
    '# The catalog the shell writes into /remotes.json at start (the same JSON as remotes-catalog.json). After a',
    '# change: `kubectl apply -k deploy/k8s`, then `kubectl -n task-manager rollout restart deployment/shell`.',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: shell-config',
    'data:',
    // The catalog's JSON on one line, as a YAML single-quoted scalar (in which only ' is escaped, as '').
    `  REMOTES_CATALOG: '${JSON.stringify(catalog).replaceAll("'", "''")}'`,
    '',
  ].join('\n');
  files['kustomization.yaml'] = [
    HEADER('the remotes as a kustomize Component'),
    '# deploy/k8s/kustomization.yaml lists this folder under `components:`: its resources join the others, and the',
    "# namespace, labels and images of that kustomization apply to them too (an image set there with",
    '# `kustomize edit set image task-manager/mfe-<key>=…` overrides the tag below).',
    'apiVersion: kustomize.config.k8s.io/v1alpha1',
    'kind: Component',
    'resources:',
    ...remotes.map((remote) => `  - ${remote.service}.yaml`),
    '# `local`: the tag the compose build gives (deploy/compose.yaml, IMAGE_TAG).',
    'images:',
    ...remotes.flatMap((remote) => [`  - name: task-manager/${remote.service}`, '    newTag: local']),
    'patches:',
    '  - path: ingress-paths.yaml',
    '    target:',
    '      group: networking.k8s.io',
    '      version: v1',
    '      kind: Ingress',
    '      name: task-manager',
    '  - path: shell-config.yaml',
    '',
  ].join('\n');
  return files;
}

/** Every file of the output, by path relative to the output folder. */
export function render(remotes) {
  const catalog = catalogOf(remotes);
  const files = {
    [MARKER]: 'deploy/render-remotes.mjs may replace this folder whole.\n',
    'README.md': [
      '# deploy/generated',
      '',
      'Written by `pnpm deploy:render` (deploy/render-remotes.mjs) from the workspace\'s remotes; not committed,',
      'rewritten whole on each run: never edit it. See docs/DEPLOY.md, "The remote catalog".',
      '',
      ...remotes.map((remote) => `- \`${remote.service}\`: \`${remote.name}\` at \`/remotes/${remote.key}/\``),
      '',
    ].join('\n'),
    [OUTPUT.catalog]: `${JSON.stringify(catalog, null, 2)}\n`,
    [OUTPUT.compose]: composeFile(remotes, readFileSync(COMPOSE_TEMPLATE, 'utf8')),
  };
  for (const [name, text] of Object.entries(k8sFiles(remotes, catalog, readFileSync(K8S_TEMPLATE, 'utf8')))) files[`${OUTPUT.k8s}/${name}`] = text;
  return files;
}

/**
 * Writes `files` as the whole content of `outDir`: into a fresh folder beside it, then swapped in, so no file of
 * a removed remote stays behind. Refuses to replace a folder this script did not write.
 */
export function writeOutput(files, outDir = OUT_DIR) {
  if (existsSync(outDir) && readdirSync(outDir).length > 0 && !existsSync(path.join(outDir, MARKER))) {
    throw new Error(`${outDir} exists and was not written by this script (no ${MARKER}): not replacing it`);
  }
  // Beside it, so that the rename stays on one file system (deploy/generated.next/ is ignored by git too).
  const next = `${outDir}.next`;
  rmSync(next, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(next, name)), { recursive: true });
    writeFileSync(path.join(next, name), text);
  }
  rmSync(outDir, { recursive: true, force: true });
  renameSync(next, outDir);
}

function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, with: { type: 'string', multiple: true, default: [] }, root: { type: 'string' } },
  });
  const outDir = path.resolve(values.out ?? OUT_DIR);
  const { remotes, skipped } = deployRemotes({ root: path.resolve(values.root ?? ROOT), extra: values.with });
  writeOutput(render(remotes), outDir);
  const where = path.relative(process.cwd(), outDir) || outDir;
  const lines = [
    `deploy:render: ${remotes.length} remote(s) in ${where}: ${remotes.map((remote) => `${remote.service} (/remotes/${remote.key}/)`).join(', ')}`,
    `  ${OUTPUT.catalog} (the shell's catalog), ${OUTPUT.compose} (included by deploy/compose.yaml), ${OUTPUT.k8s}/ (a Component of deploy/k8s/kustomization.yaml)`,
    ...skipped.map((folder) => `  ${folder}: no "remote" in its package.json, not deployed`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`deploy:render: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
