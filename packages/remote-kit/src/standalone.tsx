import '@tm/design-tokens/tokens.css';
import { currentUserQuery } from '@tm/api-client';
import { ConnectionProblem, OfflineBanner, PlatformProviders } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';

/** Set by the remote preset of @tm/build-config from `SHELL_URL` when the dev server or build starts. */
declare const __TM_SHELL_URL__: string | undefined;

/** Where the shell runs, for the standalone app's "sign in through the shell" link (env `SHELL_URL`). */
export const SHELL_URL: string = typeof __TM_SHELL_URL__ === 'string' && __TM_SHELL_URL__ ? __TM_SHELL_URL__ : 'http://localhost:3000';

/**
 * A remote on its own (`pnpm --filter mfe-<name> dev`, its port from `REMOTE_PORT`, /api forwarded to the gateway at `PORT` or `GATEWAY_URL`)
 * with the providers the shell gives it (one platform package), so standalone behaves as inside the shell.
 * The session cookie of localhost is shared with the shell's port.
 */
export function StandaloneFrame({ children }: { children: ReactNode }) {
  return (
    <PlatformProviders>
      <BrowserRouter>
        <OfflineBanner />
        <main>{children}</main>
      </BrowserRouter>
    </PlatformProviders>
  );
}

/**
 * Shows its children to a signed-in user (the `signed-in` guard of the shell); signing in is the shell's job.
 * `purpose` completes "Sign in through the shell (…) to use …": "the task list".
 */
export function SignedInOnly({ children, purpose }: { children: ReactNode; purpose: string }) {
  const { data: user, isPending, isError, isFetching, refetch } = useQuery(currentUserQuery());
  if (isPending) return <p role="status">Checking your session…</p>;
  // docs/PRODUCT.md §10.1: a check that failed is not a sign-out.
  if (isError) return <ConnectionProblem onRetry={() => void refetch()} retrying={isFetching} />;
  if (user) return children;
  return (
    <p className="standalone-notice">
      Sign in through the shell (<a href={SHELL_URL}>{SHELL_URL}</a>) to use {purpose} standalone.
    </p>
  );
}

/** The standalone bootstrap (behind the remote's async boundary, src/index.ts): renders `app` into #root. */
export function mountStandalone(app: ReactNode): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(<StrictMode>{app}</StrictMode>);
}
