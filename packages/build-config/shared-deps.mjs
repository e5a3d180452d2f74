import { fileURLToPath } from 'node:url';

// Singletons shared by the shell and its remotes: one React, one router, one
// QueryClient context and one toast store, so a remote's toast() reaches the shell's <Toaster/> and a
// remote's queries use the shell's cache.
// Version skew (docs/ARCHITECTURE.md "Remotes and their routes"): an app requires the major of
// its own package.json (`^19.0.0` for react 19.3.1), strictly. A remote built against another minor or
// patch of the same major shares the page's copy; one built against another major fails to load (the
// runtime throws, the shell shows the fallback with Retry and logs why) instead of running on a copy it
// was not built for.
export const SINGLETONS = ['react', 'react-dom', 'react-router-dom', '@tanstack/react-query', 'react-hot-toast'];

// Shared but not a singleton: a remote reuses the host's copy when the versions agree (saves ~14 KiB
// gzipped per remote) and falls back to its own otherwise. Each app still makes its own axios instance.
export const SHARED = ['axios'];

// Shared modules provided by a narrower module than the package itself, so the host ships only what the
// apps use: see router-exports.mjs. The version is the package's own (the apps pin it exactly).
// narrowed-shared.test.ts fails when an app imports something its narrowed module does not export.
export const NARROWED = {
  'react-router-dom': fileURLToPath(new URL('./router-exports.mjs', import.meta.url)),
  '@tanstack/react-query': fileURLToPath(new URL('./query-exports.mjs', import.meta.url)),
};

/**
 * The range a singleton accepts: the same major as the app's pinned version (`19.3.1` gives `^19.0.0`;
 * a 0.x package, whose minors break, gives `~0.4.0`).
 * @param {string} version
 */
export function sameMajor(version) {
  const match = /^(\d+)\.(\d+)\.\d+/.exec(version);
  if (!match) throw new Error(`shared singletons are pinned to an exact version, not ${version}`);
  return match[1] === '0' ? `~0.${match[2]}.0` : `^${match[1]}.0.0`;
}

/** @param {Record<string, string>} dependencies */
export function sharedModules(dependencies) {
  const entry = (name, singleton) => {
    const version = dependencies[name];
    if (!version) throw new Error(`${name} must be a dependency of every federated app`);
    const narrowed = NARROWED[name] ? { import: NARROWED[name], version } : {};
    // A non-singleton (axios) keeps its exact requirement: another version simply uses its own copy.
    const requirement = singleton ? { requiredVersion: sameMajor(version), strictVersion: true } : { requiredVersion: version };
    return [name, { singleton, ...requirement, ...narrowed }];
  };
  return Object.fromEntries([...SINGLETONS.map((name) => entry(name, true)), ...SHARED.map((name) => entry(name, false))]);
}
