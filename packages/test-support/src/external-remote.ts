// A remote in a repository of its own (docs/ADDING_A_REMOTE.md "A remote in its own repository"),
// made for a test as a team outside this workspace has it: examples/external-remote copied to a folder outside
// the repository, the shell's contract packed into its vendor/ (`pnpm pack` of packages/remote-contract, which
// compiles the sources the workspace's remotes use), and its dependencies installed with pnpm, offline.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { REPO_ROOT } from './processes.js';
import { tempDir } from './temp-dir.js';

export const EXTERNAL_REMOTE_TEMPLATE = path.join(REPO_ROOT, 'examples/external-remote');
const CONTRACT_PACKAGE = path.join(REPO_ROOT, 'packages/remote-contract');

export interface CommandResult {
  status: number | null;
  /** stdout and stderr, in the order they came. */
  output: string;
  ms: number;
}

export interface ExternalRemote {
  /** The remote's folder, outside the repository. */
  dir: string;
  /** How long each step of the set-up took (ms): pack, install. */
  timings: Record<string, number>;
  /** Runs a script of its package.json in its folder (`typecheck`, `build`); a failed run is a result, not a throw. */
  run: (script: string, env?: Record<string, string>) => Promise<CommandResult>;
  /** Replaces a file of the remote (a path inside its folder) and returns a function that puts the original back. */
  replaceFile: (file: string, text: string) => () => void;
  remove: () => void;
}

/** Why the external remote cannot be made here (no pnpm on PATH), or undefined when it can. */
export function externalRemoteUnavailable(): string | undefined {
  const version = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  return version.status === 0 ? undefined : 'pnpm is not on PATH (npm i -g pnpm, or corepack enable): the external remote is installed with it';
}

/**
 * The environment of a pnpm run in the remote's folder: this process's, without the npm_* settings a pnpm run
 * of the workspace (`pnpm exec jest`) passes down, which would apply the workspace's configuration there.
 */
function outsideEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'PNPM_SCRIPT_SRC_DIR'));
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/** Runs a command to its end; never throws for a non-zero exit. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = outsideEnv(), timeoutMs = 120_000): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output, ms: Date.now() - started });
    });
  });
}

async function mustRun(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<CommandResult> {
  const result = await runCommand(command, args, cwd, env);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status}:\n${result.output}`);
  return result;
}

interface LockEntry {
  specifier: string;
  version: string;
}
type Importer = Partial<Record<'dependencies' | 'devDependencies', Record<string, LockEntry>>>;
interface Snapshot {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
interface Lockfile {
  lockfileVersion: string;
  settings?: unknown;
  importers: Record<string, Importer>;
  packages: Record<string, unknown>;
  snapshots: Record<string, Snapshot>;
}
interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** `react-dom@19.3.1(react@19.3.1)` → `react-dom@19.3.1`: a snapshot's package (its peers are the part in brackets). */
const packageOf = (snapshot: string) => snapshot.replace(/\(.*$/, '');

/**
 * The remote's pnpm-lock.yaml, made from the repository's: each registry dependency resolved exactly as a
 * workspace package resolves the same version (the same graph, down to the transitive dependencies, and only
 * what the remote reaches), and the packed contract (`file:vendor/….tgz`) with its integrity and its peers.
 * Why: pnpm's offline mode installs from the store, which has every package of the repository's lockfile, but
 * resolving without a lockfile also needs each package's registry metadata, which pnpm keeps only for some
 * (ERR_PNPM_NO_OFFLINE_META). A team outside the repository runs a plain `pnpm install`, online, and commits
 * its own lockfile.
 */
function writeOfflineLockfile(dir: string, lock: Lockfile): void {
  const manifest = readJson(path.join(dir, 'package.json')) as Manifest;
  const resolved = (name: string, specifier: string): LockEntry => {
    for (const importer of Object.values(lock.importers)) {
      for (const entry of [importer.dependencies?.[name], importer.devDependencies?.[name]]) {
        if (entry && entry.specifier === specifier && !entry.version.startsWith('link:')) return entry;
      }
    }
    throw new Error(`${name}@${specifier} (${path.join(dir, 'package.json')}) is not a version the repository uses: use the workspace's exact version`);
  };
  const importer: Importer = {};
  const packages: Record<string, unknown> = {};
  const snapshots: Record<string, Snapshot> = {};
  /** Adds a snapshot and everything it depends on, from the repository's lockfile. */
  const reach = (key: string) => {
    if (key in snapshots) return;
    const snapshot = lock.snapshots[key];
    const described = lock.packages[packageOf(key)];
    if (!snapshot || !described) throw new Error(`${key} is not in the repository's pnpm-lock.yaml`);
    snapshots[key] = snapshot;
    packages[packageOf(key)] = described;
    for (const [name, version] of [...Object.entries(snapshot.dependencies ?? {}), ...Object.entries(snapshot.optionalDependencies ?? {})]) reach(`${name}@${version}`);
  };
  for (const kind of ['dependencies', 'devDependencies'] as const) {
    for (const [name, specifier] of Object.entries(manifest[kind] ?? {})) {
      if (specifier.startsWith('file:')) {
        const tarball = path.join(dir, specifier.slice('file:'.length));
        const packed = readPackedManifest(tarball);
        // A peer resolves to the remote's own version of it, as pnpm does (auto-install-peers): `(react@19.3.1)`.
        const peers = Object.keys(packed.peerDependencies ?? {}).sort().map((peer) => {
          const version = manifest.dependencies?.[peer] ?? manifest.devDependencies?.[peer];
          if (!version) throw new Error(`${name} needs ${peer}: add it to ${path.join(dir, 'package.json')}`);
          return [peer, version] as const;
        });
        const version = `${specifier}${peers.map(([peer, at]) => `(${peer}@${at})`).join('')}`;
        (importer[kind] ??= {})[name] = { specifier, version };
        packages[`${name}@${specifier}`] = {
          resolution: { integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`, tarball: specifier },
          version: packed.version,
          ...(packed.peerDependencies ? { peerDependencies: packed.peerDependencies } : {}),
        };
        snapshots[`${name}@${version}`] = peers.length > 0 ? { dependencies: Object.fromEntries(peers) } : {};
      } else {
        const entry = resolved(name, specifier);
        (importer[kind] ??= {})[name] = entry;
        reach(`${name}@${entry.version}`);
      }
    }
  }
  const remoteLock = { lockfileVersion: lock.lockfileVersion, settings: lock.settings, importers: { '.': importer }, packages, snapshots };
  writeFileSync(path.join(dir, 'pnpm-lock.yaml'), YAML.stringify(remoteLock));
}

/** The package.json inside a packed tarball (`package/package.json`). */
function readPackedManifest(tarball: string): Manifest {
  const listed = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`cannot read package/package.json in ${tarball}: ${listed.stderr}`);
  return JSON.parse(listed.stdout) as Manifest;
}

/**
 * Makes the external remote in a fresh folder under the OS temp dir (never inside the repository, where pnpm
 * would find the workspace): template copied, contract packed into vendor/, `pnpm install --offline`.
 */
export async function prepareExternalRemote(): Promise<ExternalRemote> {
  const temp = tempDir('tm-external-remote-');
  const dir = path.join(temp.dir, 'external-remote');
  if (!path.relative(REPO_ROOT, dir).startsWith('..')) throw new Error(`${dir} is inside the repository: set TMPDIR to a folder outside it`);
  const timings: Record<string, number> = {};
  try {
    cpSync(EXTERNAL_REMOTE_TEMPLATE, dir, { recursive: true, filter: (from) => !/[/\\](node_modules|dist|vendor)$/.test(from) });
    const vendor = path.join(dir, 'vendor');
    mkdirSync(vendor);
    // Packing (a child process) and reading the repository's lockfile (this process) at the same time.
    const packing = mustRun('pnpm', ['pack', '--pack-destination', vendor], CONTRACT_PACKAGE, { ...process.env, NO_COLOR: '1' });
    // The store the repository was installed from (the same packages, hard-linked or copied from there).
    const storing = mustRun('pnpm', ['store', 'path'], REPO_ROOT, { ...process.env, NO_COLOR: '1' });
    const lock = YAML.parse(readFileSync(path.join(REPO_ROOT, 'pnpm-lock.yaml'), 'utf8')) as Lockfile;
    const [packed, stored] = await Promise.all([packing, storing]);
    timings.pack = packed.ms;
    const contract = readJson(path.join(CONTRACT_PACKAGE, 'package.json')) as Manifest;
    const tarball = `${contract.name.replace(/^@/, '').replace('/', '-')}-${contract.version}.tgz`;
    const declared = (readJson(path.join(dir, 'package.json')) as Manifest).dependencies?.[contract.name];
    if (declared !== `file:vendor/${tarball}` || !existsSync(path.join(vendor, tarball))) {
      throw new Error(`examples/external-remote/package.json must depend on ${contract.name} as "file:vendor/${tarball}" (the packed version), not ${declared}`);
    }
    writeOfflineLockfile(dir, lock);
    const store = stored.output.trim().split('\n').pop() ?? '';
    timings.install = (await mustRun('pnpm', ['install', '--offline', '--frozen-lockfile', '--store-dir', store], dir, outsideEnv())).ms;
  } catch (error) {
    temp.remove();
    throw error;
  }
  return {
    dir,
    timings,
    // What `pnpm run <script>` runs (the script's command, the remote's node_modules/.bin first on PATH), without
    // starting pnpm each time.
    run: (script, env = {}) => {
      const command = (readJson(path.join(dir, 'package.json')) as { scripts?: Record<string, string> }).scripts?.[script];
      if (!command) throw new Error(`${path.join(dir, 'package.json')} has no script "${script}"`);
      const PATH = [path.join(dir, 'node_modules/.bin'), process.env.PATH].join(path.delimiter);
      return runCommand('sh', ['-c', command], dir, outsideEnv({ ...env, PATH }));
    },
    replaceFile: (file, text) => {
      const target = path.join(dir, file);
      const original = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
      writeFileSync(target, text);
      return () => (original === undefined ? rmSync(target) : writeFileSync(target, original));
    },
    remove: temp.remove,
  };
}
