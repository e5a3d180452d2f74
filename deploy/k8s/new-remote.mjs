#!/usr/bin/env node
// Kubernetes manifests of a remote (issue #12): `node deploy/k8s/new-remote.mjs mfe-<key>` writes
// deploy/k8s/mfe-<key>.yaml (Deployment, Service, PodDisruptionBudget) from remote.yaml.template and prints the
// two lines each of kustomization.yaml and ingress.yaml that name it (kustomize has no loop without plugins).
// `--all` rewrites the file of every remote of deploy/remotes-catalog.json (after a change to the template).
// `--dir <folder>` writes elsewhere (the check's own test). deploy/checks/k8s.test.ts holds every remote's
// file to the template, and kustomization.yaml and ingress.yaml to the catalog.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const K8S_DIR = import.meta.dirname;
const TEMPLATE = path.join(K8S_DIR, 'remote.yaml.template');
const CATALOG = path.join(K8S_DIR, '../remotes-catalog.json');
const SERVICE = /^mfe-([a-z][a-z0-9-]*)$/;

/** The manifests of remote `service` (mfe-<key>): the template with its name and path segment. */
export function remoteManifests(service, template = readFileSync(TEMPLATE, 'utf8')) {
  const key = SERVICE.exec(service)?.[1];
  if (!key || key.endsWith('-')) throw new Error(`"${service}" is not a remote's name: mfe-<key>, such as mfe-stats`);
  return template.replaceAll('@SERVICE@', service).replaceAll('@KEY@', key);
}

/** The services of the catalog's remotes (mfe_tasks → mfe-tasks). */
export function catalogServices() {
  return Object.keys(JSON.parse(readFileSync(CATALOG, 'utf8')).remotes).map((name) => name.replaceAll('_', '-'));
}

/** What to add by hand to kustomization.yaml and ingress.yaml for `service`. */
export function steps(service) {
  const key = SERVICE.exec(service)[1];
  return [
    `deploy/k8s/kustomization.yaml, under resources:   - ${service}.yaml`,
    `deploy/k8s/kustomization.yaml, under images:      - name: task-manager/${service}`,
    `                                                     newTag: local`,
    `deploy/k8s/ingress.yaml, by the other /remotes/ paths: - path: /remotes/${key}`,
    `                                                     pathType: Prefix`,
    `                                                     backend: { service: { name: ${service}, port: { name: http } } }`,
  ].join('\n');
}

function main(argv) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { all: { type: 'boolean', default: false }, dir: { type: 'string' } } });
  const dir = values.dir ? path.resolve(values.dir) : K8S_DIR;
  const services = values.all ? catalogServices() : positionals;
  if (services.length === 0 || (values.all && positionals.length > 0)) throw new Error('usage: node deploy/k8s/new-remote.mjs mfe-<key> | --all');
  const template = readFileSync(TEMPLATE, 'utf8');
  for (const service of services) {
    const file = path.join(dir, `${service}.yaml`);
    writeFileSync(file, remoteManifests(service, template));
    process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
    if (!values.all) process.stdout.write(`\nThen, by hand (the check fails until they are there):\n${steps(service)}\n`);
  }
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
