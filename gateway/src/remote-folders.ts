// The remotes the gateway serves in all-in-one mode (README "Configuration", docs/DEPLOY.md "The remote
// catalog"): a key (`tasks`) per remote, served at /remotes/<key>/ from a folder (a remote's dist/). The
// list is configuration, never code: `REMOTES=auth=mfe-auth/dist,tasks=mfe-tasks/dist` (fixed for the
// process) or `REMOTES_FILE`, a JSON object `{"tasks": "/srv/mfe-tasks/1.4.0"}` read again when it changes,
// so a remote is added, redeployed or rolled back by editing that file, without a restart. The catalog
// (`/remotes.json`) is made from each remote's own `remote.json` (its build info).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkRemoteBuildInfo, checkRemoteCatalog, type RemoteCatalog, type RemoteDescription } from '@tm/contracts';
import type { Logger } from '@tm/service-kit';

/** A remote's key: its path segment under /remotes/. */
export const REMOTE_KEY = /^[a-z][a-z0-9-]{0,62}$/;

/** Key → folder. */
export type RemoteList = Record<string, string>;

/**
 * Parses `REMOTES` (`auth=mfe-auth/dist,tasks=mfe-tasks/dist`); relative folders are resolved against `base`.
 * Throws one message listing every problem.
 */
export function parseRemoteList(text: string, base = process.cwd()): RemoteList {
  const list: RemoteList = {};
  const problems: string[] = [];
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const at = item.indexOf('=');
    const key = at > 0 ? item.slice(0, at).trim() : '';
    const folder = at > 0 ? item.slice(at + 1).trim() : '';
    if (!REMOTE_KEY.test(key) || !folder) problems.push(`"${item}" is not key=folder with a key of lower-case letters, digits and - (tasks=mfe-tasks/dist)`);
    else if (key in list) problems.push(`the key ${key} is listed twice`);
    else list[key] = path.resolve(base, folder);
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return list;
}

/** Parses the text of a `REMOTES_FILE`: a JSON object of key → folder, relative folders resolved against the file's own folder. */
export function parseRemoteFile(text: string, file: string): RemoteList {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${file} must be a JSON object of key → folder ({"tasks": "mfe-tasks/dist"})`);
  const problems: string[] = [];
  const list: RemoteList = {};
  for (const [key, folder] of Object.entries(value)) {
    if (!REMOTE_KEY.test(key)) problems.push(`the key "${key}" must be lower-case letters, digits and -, starting with a letter`);
    else if (typeof folder !== 'string' || folder.trim() === '') problems.push(`${key}: the folder must be a non-empty string`);
    else list[key] = path.resolve(path.dirname(file), folder.trim());
  }
  if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
  return list;
}

export interface RemoteFoldersOptions {
  /** A fixed list (`REMOTES`). */
  list?: RemoteList;
  /** A file read again when it changes (`REMOTES_FILE`); wins over `list`. */
  file?: string;
  logger: Logger;
  /** How often, at most, the file and the remotes' remote.json are read again (ms). */
  recheckMs?: number;
  /** How many earlier folders of a key still answer for hashed assets (pages opened before a switch). */
  keepPrevious?: number;
}

/** Where a key's files are: the folder it points at now (none once it is removed), then the earlier ones, newest first. */
export interface RemoteLocation {
  current: string | undefined;
  previous: string[];
}

/**
 * The configured remotes, as the static middleware asks for them. Reading the file, or a remote's
 * remote.json, never fails a request: a bad file keeps the last good list, a bad remote.json leaves that
 * remote out of the catalog, and both are logged once per change.
 */
export class RemoteFolders {
  private readonly locations = new Map<string, RemoteLocation>();
  private readonly recheckMs: number;
  private readonly keepPrevious: number;
  private fileText: string | undefined;
  private checkedAt = 0;
  private refreshing: Promise<void> | undefined;
  private catalogCache: { at: number; catalog: RemoteCatalog } | undefined;
  private readonly reported = new Map<string, string>();

  /** Reads the file (if any) now: a missing or bad file at start-up throws, with what is wrong. */
  static open(options: RemoteFoldersOptions): RemoteFolders {
    return new RemoteFolders(options);
  }

  private constructor(private readonly options: RemoteFoldersOptions) {
    this.recheckMs = options.recheckMs ?? 1000;
    this.keepPrevious = options.keepPrevious ?? 3;
    if (options.file) {
      let text: string;
      try {
        text = readFileSync(options.file, 'utf8');
      } catch (error) {
        throw new Error(`REMOTES_FILE ${options.file} cannot be read: ${(error as Error).message}`);
      }
      try {
        this.apply(parseRemoteFile(text, options.file));
      } catch (error) {
        throw new Error(`REMOTES_FILE ${(error as Error).message}`);
      }
      this.fileText = text;
      this.checkedAt = Date.now();
    } else {
      this.apply(options.list ?? {});
    }
  }

  /** The folders served now, in their keys' configured order. */
  async currentFolders(): Promise<string[]> {
    await this.refresh();
    return [...this.locations.values()].flatMap(({ current }) => (current ? [current] : []));
  }

  /** Where `key`'s files are; undefined for a key never configured. */
  async locate(key: string): Promise<RemoteLocation | undefined> {
    await this.refresh();
    return this.locations.get(key);
  }

  /**
   * The catalog for `/remotes.json`: each served remote's remote.json, with its manifest at
   * `/remotes/<key>/mf-manifest.json`. A remote whose remote.json is missing or bad, or that clashes with
   * one listed before it (same federation name, same route path), is left out and logged.
   */
  async catalog(): Promise<RemoteCatalog> {
    await this.refresh();
    if (this.catalogCache && Date.now() - this.catalogCache.at < this.recheckMs) return this.catalogCache.catalog;
    const remotes: Record<string, RemoteDescription> = {};
    for (const [key, { current }] of this.locations) {
      if (!current) continue;
      const file = path.join(current, 'remote.json');
      let problem: string | undefined;
      try {
        const check = checkRemoteBuildInfo(JSON.parse(await readFile(file, 'utf8')));
        if (!check.ok) problem = check.problems.join('; ');
        else {
          const { name, ...described } = check.info;
          const entry: RemoteDescription = { manifest: `/remotes/${key}/mf-manifest.json`, ...described };
          const together = name in remotes ? undefined : checkRemoteCatalog({ remotes: { ...remotes, [name]: entry } });
          if (!together) problem = `the federation name ${name} is already in the catalog`;
          else if (!together.ok) problem = together.problems.join('; ');
          else remotes[name] = entry;
        }
      } catch (error) {
        problem = (error as Error).message;
      }
      this.report(`remote:${key}`, problem && `remote ${key} left out of /remotes.json: ${file}: ${problem}`);
    }
    const catalog = { remotes };
    this.catalogCache = { at: Date.now(), catalog };
    return catalog;
  }

  /** Logs a problem once (again only when it changes); a cleared problem is forgotten. */
  private report(topic: string, message: string | undefined): void {
    if (!message) {
      this.reported.delete(topic);
      return;
    }
    if (this.reported.get(topic) === message) return;
    this.reported.set(topic, message);
    this.options.logger.error(message);
  }

  private apply(list: RemoteList): void {
    for (const [key, location] of this.locations) {
      if (!(key in list) && location.current) this.locations.set(key, { current: undefined, previous: [location.current, ...location.previous].slice(0, this.keepPrevious) });
    }
    for (const [key, folder] of Object.entries(list)) {
      const before = this.locations.get(key);
      const earlier = before ? [before.current, ...before.previous].filter((dir): dir is string => !!dir && dir !== folder) : [];
      this.locations.delete(key);
      this.locations.set(key, { current: folder, previous: earlier.slice(0, this.keepPrevious) });
    }
    this.catalogCache = undefined;
  }

  /** Reads the file again if it is time to; concurrent requests share one read. */
  private refresh(): Promise<void> {
    const { file } = this.options;
    if (!file || Date.now() - this.checkedAt < this.recheckMs) return Promise.resolve();
    this.refreshing ??= (async () => {
      try {
        const text = await readFile(file, 'utf8');
        if (text === this.fileText) return;
        this.fileText = text;
        this.apply(parseRemoteFile(text, file));
        this.report('file', undefined);
        this.options.logger.info({ remotes: Object.fromEntries([...this.locations].map(([key, { current }]) => [key, current ?? null])) }, 'REMOTES_FILE read again');
      } catch (error) {
        this.report('file', `REMOTES_FILE: ${(error as Error).message}; the last good list stays`);
      } finally {
        this.checkedAt = Date.now();
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }
}
