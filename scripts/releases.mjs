#!/usr/bin/env node
// Releases of the workspace remotes under `npm start` (docs/ADDING_A_REMOTE.md "Releasing and rolling back
// under npm start"). The gateway serves each remote from the folder a REMOTES_FILE names and reads that file
// again when it changes (docs/DEPLOY.md "The remote catalog"); this module keeps such a file for the
// all-in-one mode:
//
// - every complete build of `mfe-<key>/dist` (its remote.json and mf-manifest.json written, its files still
//   for one look) is copied once to `<DATA_DIR>/releases/<key>/<release>/`, and the file points at it, so a
//   remote built after `npm start` began is served by the next page load, with no restart;
// - the copies are what is served, never `dist/` itself: a rebuild (which empties `dist/` first) cannot take
//   files away from a page opened on the previous build, and the gateway still answers the hashed files of
//   the release before (its `keepPrevious` folders);
// - the last RELEASES_KEPT releases of each remote stay on disk; `node scripts/releases.mjs rollback <key>`
//   (`pnpm remotes:rollback <key>`) points the file at the release before the current one, in one step, and
//   a later build is released again as usual.
//
// A release is named `<sequence>-<content hash>`: the build id in remote.json is the commit's, the same for
// every rebuild of uncommitted work, so the content decides whether a build is new.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { workspaceRemotes } from '../packages/build-config/workspace-remotes.mjs';

/** How many releases of a remote stay on disk (the current one always does). */
export const RELEASES_KEPT = 5;
/** How often the remotes' dist folders are looked at (ms): a build is served about a second after it ends. */
export const WATCH_INTERVAL_MS = 500;

/** Every file under `dir`, by path relative to it, sorted. */
function filesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** What changes while a build writes: each file's path, size and modification time. Empty when `dir` is not a complete build. */
export function buildSignature(dir) {
  if (!existsSync(path.join(dir, 'remote.json')) || !existsSync(path.join(dir, 'mf-manifest.json'))) return '';
  try {
    return filesOf(dir)
      .map((file) => {
        const stat = statSync(path.join(dir, file));
        return `${file}:${stat.size}:${stat.mtimeMs}`;
      })
      .join('\n');
  } catch {
    return ''; // a file went away while we looked: a build is under way
  }
}

/** The content hash of a build: every file's path and bytes. */
export function contentHash(dir) {
  const hash = createHash('sha256');
  for (const file of filesOf(dir)) hash.update(file).update('\0').update(readFileSync(path.join(dir, file))).update('\0');
  return hash.digest('hex').slice(0, 12);
}

export class Releases {
  /**
   * @param {{ root: string, dir: string, kept?: number, log?: (level: 'info' | 'warn' | 'error', msg: string, fields?: object) => void }} options
   *   `root`: the workspace; `dir`: where releases and `remotes.json` live.
   */
  constructor({ root, dir, kept = RELEASES_KEPT, log = () => undefined }) {
    this.root = root;
    this.dir = dir;
    this.kept = kept;
    this.log = log;
    this.file = path.join(dir, 'remotes.json');
    /** key → the build's signature at the last look. */
    this.lastLook = new Map();
    /** key → the signature of the build last released (or found released already). */
    this.handled = new Map();
    this.timer = undefined;
  }

  /** Key → release folder name, as the file says now. */
  current() {
    if (!existsSync(this.file)) return {};
    const list = JSON.parse(readFileSync(this.file, 'utf8'));
    return Object.fromEntries(Object.entries(list).map(([key, folder]) => [key, path.basename(folder)]));
  }

  /** The releases of `key` on disk, oldest first. */
  releasesOf(key) {
    const folder = path.join(this.dir, key);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((name) => /^\d{4,}-[0-9a-f]{12}$/.test(name))
      .sort();
  }

  /** Writes the file at once (elsewhere, then renamed): the gateway never reads half of it. */
  write(list) {
    mkdirSync(this.dir, { recursive: true });
    const text = `${JSON.stringify(Object.fromEntries(Object.entries(list).map(([key, release]) => [key, `${key}/${release}`])), null, 2)}\n`;
    writeFileSync(`${this.file}.tmp`, text);
    renameSync(`${this.file}.tmp`, this.file);
  }

  /**
   * Releases each complete build not released yet and points the file at it; writes the file even when
   * nothing changed, so that the gateway finds one at start. A build's folder must have looked the same
   * twice in a row (`settled`) unless `now` is set (at start, when no build is running).
   */
  sync({ now = false } = {}) {
    const list = this.current();
    let changed = !existsSync(this.file);
    for (const { folder } of workspaceRemotes(this.root)) {
      const key = folder.slice('mfe-'.length);
      const dist = path.join(this.root, folder, 'dist');
      const signature = buildSignature(dist);
      const lastLook = this.lastLook.get(key);
      this.lastLook.set(key, signature);
      if (!signature || signature === this.handled.get(key)) continue;
      // A build still writing changes its files between two looks; one that has ended does not.
      if (!now && signature !== lastLook) continue;
      this.handled.set(key, signature);
      const hash = contentHash(dist);
      const releases = this.releasesOf(key);
      const existing = releases.find((name) => name.endsWith(`-${hash}`));
      if (existing) {
        // Released before (an earlier npm start): served unless the file names another (a rollback holds).
        if (!(key in list)) {
          list[key] = existing;
          changed = true;
        }
        continue;
      }
      const sequence = releases.length > 0 ? Number(releases.at(-1).split('-')[0]) + 1 : 1;
      const name = `${String(sequence).padStart(4, '0')}-${hash}`;
      const target = path.join(this.dir, key, name);
      rmSync(`${target}.partial`, { recursive: true, force: true });
      cpSync(dist, `${target}.partial`, { recursive: true });
      renameSync(`${target}.partial`, target);
      const previous = list[key];
      list[key] = name;
      changed = true;
      this.log('info', `released ${folder} as ${name}${previous ? ` (was ${previous}; to roll back: pnpm remotes:rollback ${key})` : ''}`, { remote: key, release: name, previous });
      this.prune(key, name);
    }
    if (changed) this.write(list);
    return list;
  }

  /** Keeps the newest `kept` releases of `key`, and the current one whatever its age. */
  prune(key, current) {
    const releases = this.releasesOf(key);
    for (const name of releases.slice(0, Math.max(0, releases.length - this.kept))) {
      if (name !== current) rmSync(path.join(this.dir, key, name), { recursive: true, force: true });
    }
  }

  /** Points `key` at the release before the current one; returns [from, to]. */
  rollback(key) {
    const list = this.current();
    const releases = this.releasesOf(key);
    const at = releases.indexOf(list[key]);
    if (at === -1) throw new Error(`${key} has no current release in ${this.file}${releases.length ? '' : ' (none released yet)'}`);
    if (at === 0) throw new Error(`${key}: ${list[key]} is the oldest release kept; nothing to roll back to (releases: ${releases.join(', ')})`);
    const to = releases[at - 1];
    this.write({ ...list, [key]: to });
    return [list[key], to];
  }

  /** Looks at the builds every WATCH_INTERVAL_MS; a failed look is logged and tried again. */
  watch(intervalMs = WATCH_INTERVAL_MS) {
    this.timer = setInterval(() => {
      try {
        this.sync();
      } catch (error) {
        this.log('error', `releasing remotes failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }
}

/** Where `npm start` keeps its releases: `<DATA_DIR>/releases` (DATA_DIR as the services read it, `.data` by default). */
export function releasesDir(root, env = process.env) {
  return path.resolve(root, env.DATA_DIR || '.data', 'releases');
}

// The command line: `node scripts/releases.mjs <rollback <key> | list | release> [--root <workspace>]
// [--kept <n>]` (`pnpm remotes:rollback <key>`, `pnpm remotes:list`). `release` releases the settled builds now,
// as a running `npm start` does within a second; DATA_DIR says where the releases are, as for `npm start`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { root: { type: 'string' }, kept: { type: 'string' } } });
  const workspace = path.resolve(values.root ?? root);
  const releases = new Releases({ root: workspace, dir: releasesDir(root), kept: values.kept ? Number(values.kept) : RELEASES_KEPT, log: (_level, msg) => console.log(msg) });
  const [command, key] = positionals;
  try {
    if (command === 'rollback' && key) {
      const [from, to] = releases.rollback(key);
      console.log(`${key}: ${from} → ${to}. A running npm start serves it from the next page load; pages open now keep working.`);
    } else if (command === 'release') {
      releases.sync({ now: true });
    } else if (command === 'list') {
      const current = releases.current();
      const keys = [...new Set([...workspaceRemotes(workspace).map(({ folder }) => folder.slice('mfe-'.length)), ...Object.keys(current)])].sort();
      for (const name of keys) console.log(`${name}: ${releases.releasesOf(name).map((r) => (r === current[name] ? `[${r}]` : r)).join(' ') || '(none)'}`);
    } else {
      console.error('usage: node scripts/releases.mjs rollback <key> | list | release [--root <workspace>] [--kept <n>]');
      process.exit(2);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
