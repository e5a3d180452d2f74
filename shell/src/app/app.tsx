import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { RequireGuest, RequireUser } from '../features/auth/route-guards';
import { useCurrentUser } from '../features/auth/use-current-user';
import { AppHeader } from '../features/header/app-header';
import { LoadingScreen } from '../features/loading/loading-screen';
import { RemotePage } from '../features/remotes/remote-page';
import { createQueryClient } from './query-client';
import { AppToaster } from './toaster';

/** Routes of SPEC §2; each screen is a page exposed by a remote. */
export function AppRoutes() {
  const { isLoading } = useCurrentUser();
  if (isLoading) return <LoadingScreen />;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <main id="main" className="app-main">
        <Routes>
          <Route path="/" element={<RequireUser><RemotePage id="mfe_tasks/TaskListPage" title="task list" /></RequireUser>} />
          <Route path="/login" element={<RequireGuest><RemotePage id="mfe_auth/LoginPage" title="sign-in screen" /></RequireGuest>} />
          <Route path="/signup" element={<RequireGuest><RemotePage id="mfe_auth/SignupPage" title="sign-up screen" /></RequireGuest>} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </main>
    </>
  );
}

/** The host: one QueryClient, the router, the toaster; remotes render inside. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <AppToaster />
    </QueryClientProvider>
  );
}
