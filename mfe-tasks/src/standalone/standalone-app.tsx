import { currentUserQuery } from '@tm/api-client';
import { ConnectionProblem, OfflineBanner, PlatformProviders } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import TaskListPage from '../expose/task-list-page';

const SHELL_URL = 'http://localhost:3000';

/** Shows the page to a signed-in user; signing in is the shell's job. */
function SignedInOnly() {
  const { data: user, isPending, isError, isFetching, refetch } = useQuery(currentUserQuery());
  if (isPending) return <p role="status">Checking your session…</p>;
  // docs/PRODUCT.md §10.1: a check that failed is not a sign-out.
  if (isError) return <ConnectionProblem onRetry={() => void refetch()} retrying={isFetching} />;
  if (user) return <TaskListPage />;
  return (
    <p className="standalone-notice">
      Sign in through the shell (<a href={SHELL_URL}>{SHELL_URL}</a>) to use the task list standalone.
    </p>
  );
}

/**
 * The remote on its own (`pnpm --filter mfe-tasks dev`, port 3002, /api proxied to the gateway), with the
 * providers the shell gives it (one platform package). The session cookie of localhost is shared with the
 * shell's port.
 */
export function StandaloneApp() {
  return (
    <PlatformProviders>
      <BrowserRouter>
        <OfflineBanner />
        <main>
          <SignedInOnly />
        </main>
      </BrowserRouter>
    </PlatformProviders>
  );
}
