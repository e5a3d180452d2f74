// Singletons shared by the shell and its remotes (ARCHITECTURE: Frontends): one React, one router, one
// QueryClient context and one toast store, so a remote's toast() reaches the shell's <Toaster/> and a
// remote's queries use the shell's cache. requiredVersion comes from the app's own package.json.
export const SINGLETONS = ['react', 'react-dom', 'react-router-dom', '@tanstack/react-query', 'react-hot-toast'];

/** @param {Record<string, string>} dependencies */
export function sharedSingletons(dependencies) {
  return Object.fromEntries(
    SINGLETONS.map((name) => {
      const version = dependencies[name];
      if (!version) throw new Error(`${name} must be a dependency of every federated app`);
      return [name, { singleton: true, requiredVersion: version }];
    }),
  );
}
