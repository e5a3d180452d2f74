// The remote catalog in component tests. The gateway that config/jest/global-setup.js starts serves no web
// files (no catalog) and jsdom has no fetch: the shell's one fetch, of /remotes.json, is answered here with
// a catalog, and every other fetch fails as it would without a server. The API calls (XHR) still reach
// the real gateway. The remotes themselves are not built into these tests: every remote page shows the
// shell's fallback, which is enough to see which page a route chose.
import type { RemoteCatalog } from '@tm/contracts';

/** Today's catalog, as the gateway serves it for the two remotes. */
export const TODAYS_CATALOG = {
  remotes: {
    mfe_auth: {
      manifest: '/remotes/auth/mf-manifest.json',
      version: '0.1.0',
      buildId: 'auth-build-1',
      routes: [
        { path: '/login', module: './LoginPage', guard: 'signed-out', title: 'Sign in', name: 'sign-in screen' },
        { path: '/signup', module: './SignupPage', guard: 'signed-out', title: 'Create account', name: 'sign-up screen' },
        { path: '/account', module: './AccountPage', guard: 'signed-in', title: 'Account', name: 'account screen', accountMenuLink: { label: 'Account settings' } },
      ],
    },
    mfe_tasks: {
      manifest: '/remotes/tasks/mf-manifest.json',
      version: '0.1.0',
      buildId: 'tasks-build-1',
      routes: [{ path: '/', module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list' }],
    },
  },
} satisfies RemoteCatalog;

/**
 * Answers the catalog's fetch with `catalog()` (read on each fetch, so a test can change it before a
 * Retry) and returns the spy, whose calls are the fetched URLs.
 */
export function serveCatalog(catalog: () => unknown): jest.Mock {
  const fetch = jest.fn((input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url !== '/remotes.json') return Promise.reject(new TypeError(`Failed to fetch ${url}`));
    return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(catalog()) } as Response);
  });
  Object.defineProperty(globalThis, 'fetch', { configurable: true, writable: true, value: fetch });
  return fetch;
}
