import { currentUserQuery } from '@tm/api-client';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Toaster } from 'react-hot-toast';
import { BrowserRouter } from 'react-router-dom';
import TaskListPage from '../expose/task-list-page';

export const SHELL_URL = 'http://localhost:3000';

/** Shows the page to a signed-in user; signing in is the shell's job. */
function SignedInOnly() {
  const { data: user, isPending } = useQuery(currentUserQuery());
  if (isPending) return <p role="status">Checking your session…</p>;
  if (user) return <TaskListPage />;
  return (
    <p className="standalone-notice">
      Sign in through the shell (<a href={SHELL_URL}>{SHELL_URL}</a>) to use the task list standalone.
    </p>
  );
}

/**
 * The remote on its own (`pnpm --filter mfe-tasks dev`, port 3002, /api proxied to the gateway), with the
 * providers the shell would give it. The session cookie of localhost is shared with the shell's port.
 */
export function StandaloneApp() {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <main>
          <SignedInOnly />
        </main>
        <Toaster position="bottom-left" />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
