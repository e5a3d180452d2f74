import { overrideOriginAllowed, type RemoteCatalog } from '@tm/contracts';
// A local remote against the real shell (docs/ADDING_A_REMOTE.md "Trying your remote against the
// real shell"). A team runs its remote on its machine and tells this browser, and only this browser, to load
// that remote from there instead of the catalog's build: the override is kept in this browser's storage and
// goes nowhere else. It is used only when the catalog the server sent this page says the deployment allows
// it (`overrides.origins`, the gateway's REMOTE_OVERRIDES): the shell never trusts its own storage alone, and
// a stored override on a deployment that does not allow it is dropped. An override from the address
// (`?remote-override=`) is only proposed: a link cannot switch a page's code without the person's yes.

// Loaded only when an override is stored or asked for (override-keys.ts): the first load of everyone else
// carries none of it.
import { OVERRIDE_PARAM, OVERRIDES_KEY } from './override-keys';

export { OVERRIDE_PARAM, OVERRIDES_KEY };

export interface RemoteOverride {
  /** As it was asked for: `insights` (the key of /remotes/insights/) or the federation name `mfe_insights`. */
  key: string;
  /** The catalog's federation name. */
  remote: string;
  /** The manifest to load instead of the catalog's. */
  manifest: string;
}

export type OverrideCheck = { ok: true; override: RemoteOverride } | { ok: false; problem: string };

/** What a page load uses: the overrides in force, and those the address proposes, awaiting a yes. */
export interface PageOverrides {
  /** The catalog as this browser uses it: an overridden remote has the override's manifest. */
  catalog: RemoteCatalog;
  overrides: RemoteOverride[];
  proposed: RemoteOverride[];
}

/** The catalog's remote a name means: its federation name, or the key it is served under (`insights` → `mfe_insights`). */
export function remoteNamed(catalog: RemoteCatalog, name: string): string | undefined {
  if (Object.hasOwn(catalog.remotes, name)) return name;
  const federated = `mfe_${name.replaceAll('-', '_')}`;
  return Object.hasOwn(catalog.remotes, federated) ? federated : undefined;
}

/**
 * The manifest URL an override names: an absolute http(s) URL of a `.json` manifest; an origin or a folder
 * (ending in `/`) means its `mf-manifest.json`.
 */
export function overrideManifestUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.pathname.endsWith('/')) url.pathname = `${url.pathname}mf-manifest.json`;
  if (!url.pathname.endsWith('.json')) return undefined;
  url.hash = '';
  return url;
}

/** Whether this catalog (this deployment) allows this override; why not, if it does not. */
export function checkOverride(catalog: RemoteCatalog, key: string, manifest: unknown): OverrideCheck {
  const origins = catalog.overrides?.origins;
  if (!origins) return { ok: false, problem: 'this deployment does not allow remote overrides (REMOTE_OVERRIDES is off)' };
  const remote = remoteNamed(catalog, key);
  if (!remote) return { ok: false, problem: `${JSON.stringify(key)} is not a remote of the catalog (${Object.keys(catalog.remotes).join(', ')})` };
  const url = typeof manifest === 'string' ? overrideManifestUrl(manifest) : undefined;
  if (!url) return { ok: false, problem: `${key}: ${JSON.stringify(manifest)} is not an http(s) URL of a manifest (http://127.0.0.1:3101/mf-manifest.json)` };
  if (!overrideOriginAllowed(url, origins)) return { ok: false, problem: `${key}: ${url.origin} is not an origin this deployment allows (${origins.join(' ')})` };
  return { ok: true, override: { key, remote, manifest: url.href } };
}

/** The stored overrides as written (`{key: url}`); anything else in storage counts as none. */
export function parseStoredOverrides(text: string | null): Record<string, string> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** `?remote-override=insights=http://…` (any number of them), or `reset`. */
export function parseOverrideParams(search: string): { reset: boolean; asked: { key: string; manifest: string }[] } {
  const values = new URLSearchParams(search).getAll(OVERRIDE_PARAM);
  const asked = values.flatMap((value) => {
    const at = value.indexOf('=');
    return at > 0 ? [{ key: value.slice(0, at).trim(), manifest: value.slice(at + 1).trim() }] : [];
  });
  return { reset: values.some((value) => value.trim() === 'reset'), asked };
}

/** The catalog with each override's manifest (its version and build id are the deployed build's: dropped). */
export function withOverrides(catalog: RemoteCatalog, overrides: readonly RemoteOverride[]): RemoteCatalog {
  if (overrides.length === 0) return catalog;
  const remotes = { ...catalog.remotes };
  for (const { remote, manifest } of overrides) {
    const description = remotes[remote];
    if (description) remotes[remote] = { manifest, routes: description.routes };
  }
  return { ...catalog, remotes };
}

/**
 * What this page load uses, from the catalog the server sent, what this browser stored and the address.
 * `problems` says what was ignored and why (the console shows it); `keep` is what storage should hold after
 * (only overrides still allowed: a refused one is not kept waiting for a deployment that allows it; none
 * after `?remote-override=reset`).
 */
export function pageOverrides(
  deployed: RemoteCatalog,
  stored: Record<string, string>,
  search: string,
): PageOverrides & { problems: string[]; keep: Record<string, string> } {
  const problems: string[] = [];
  const { reset, asked } = parseOverrideParams(search);
  const overrides: RemoteOverride[] = [];
  const keep: Record<string, string> = {};
  if (!reset) {
    for (const [key, manifest] of Object.entries(stored)) {
      const check = checkOverride(deployed, key, manifest);
      if (!check.ok) problems.push(`stored override ignored and removed: ${check.problem}`);
      else if (!overrides.some((override) => override.remote === check.override.remote)) {
        overrides.push(check.override);
        keep[key] = manifest;
      }
    }
  }
  const proposed: RemoteOverride[] = [];
  for (const { key, manifest } of asked) {
    const check = checkOverride(deployed, key, manifest);
    if (!check.ok) problems.push(`?${OVERRIDE_PARAM} ignored: ${check.problem}`);
    else if (!overrides.some((override) => override.remote === check.override.remote && override.manifest === check.override.manifest)) proposed.push(check.override);
  }
  return { catalog: withOverrides(deployed, overrides), overrides, proposed, problems, keep };
}

/** The address without `?remote-override=…` (what the page shows once a proposal is answered). */
export function withoutOverrideParams(href: string): string {
  const url = new URL(href);
  url.searchParams.delete(OVERRIDE_PARAM);
  return url.href;
}

/** This browser's stored overrides (none when storage cannot be read). */
export function readStoredOverrides(): Record<string, string> {
  try {
    return parseStoredOverrides(window.localStorage.getItem(OVERRIDES_KEY));
  } catch {
    return {};
  }
}

/** Stores these overrides (none: the key is removed). */
export function storeOverrides(overrides: Record<string, string>): void {
  try {
    if (Object.keys(overrides).length === 0) window.localStorage.removeItem(OVERRIDES_KEY);
    else window.localStorage.setItem(OVERRIDES_KEY, JSON.stringify(overrides));
  } catch {
    // No storage (private mode, full): nothing was stored, so nothing is used.
  }
}

/** The stored overrides once these proposals are accepted: each replaces any override of the same remote. */
export function acceptProposed(catalog: RemoteCatalog, stored: Record<string, string>, proposed: readonly RemoteOverride[]): Record<string, string> {
  const replaced = new Set(proposed.map((override) => override.remote));
  const kept = Object.entries(stored).filter(([key]) => !replaced.has(remoteNamed(catalog, key) ?? ''));
  return Object.fromEntries([...kept, ...proposed.map((override) => [override.key, override.manifest] as const)]);
}

/**
 * This page load's overrides (remote-catalog.ts calls it once the catalog is in): what is refused is said in
 * the console and not kept in storage, and the address drops `?remote-override=` unless there is a proposal
 * to answer (the same history entry, the router's state kept), so a reload does not bring it back.
 */
export function applyPageOverrides(deployed: RemoteCatalog): PageOverrides {
  const stored = readStoredOverrides();
  const { problems, keep, ...loaded } = pageOverrides(deployed, stored, window.location.search);
  for (const problem of problems) console.warn(`Remote override: ${problem}`);
  if (Object.keys(keep).length !== Object.keys(stored).length) storeOverrides(keep);
  for (const { key, manifest } of loaded.overrides) console.info(`Remote override: ${key} from ${manifest}, in this browser only`);
  const address = withoutOverrideParams(window.location.href);
  if (loaded.proposed.length === 0 && address !== window.location.href) window.history.replaceState(window.history.state, '', address);
  return loaded;
}
