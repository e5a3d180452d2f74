import { fileURLToPath } from 'node:url';

// Singletons shared by the shell and its remotes: one React, one router, one
// QueryClient context and one toast store, so a remote's toast() reaches the shell's <Toaster/> and a
// remote's queries use the shell's cache. requiredVersion comes from the app's own package.json.
export const SINGLETONS = ['react', 'react-dom', 'react-router-dom', '@tanstack/react-query', 'react-hot-toast'];

// Shared but not a singleton: a remote reuses the host's copy when the versions agree (saves ~14 KiB
// gzipped per remote) and falls back to its own otherwise. Each app still makes its own axios instance.
export const SHARED = ['axios'];

// Shared modules provided by a narrower module than the package itself, so the host ships only what the
// apps use (issue #10): see router-exports.mjs. The version is the package's own (the apps pin it exactly).
// narrowed-shared.test.ts fails when an app imports something its narrowed module does not export.
export const NARROWED = {
  'react-router-dom': fileURLToPath(new URL('./router-exports.mjs', import.meta.url)),
  '@tanstack/react-query': fileURLToPath(new URL('./query-exports.mjs', import.meta.url)),
};

/** @param {Record<string, string>} dependencies */
export function sharedModules(dependencies) {
  const entry = (name, singleton) => {
    const version = dependencies[name];
    if (!version) throw new Error(`${name} must be a dependency of every federated app`);
    const narrowed = NARROWED[name] ? { import: NARROWED[name], version } : {};
    return [name, { singleton, requiredVersion: version, ...narrowed }];
  };
  return Object.fromEntries([...SINGLETONS.map((name) => entry(name, true)), ...SHARED.map((name) => entry(name, false))]);
}
