import { ConnectionProblem, OfflineBanner, PlatformProviders } from '@tm/web-platform';
import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { RequireGuest, RequireUser } from '../features/auth/route-guards';
import { useCurrentUser } from '../features/auth/use-current-user';
import { AppHeader } from '../features/header/app-header';
import { LoadingScreen } from '../features/loading/loading-screen';
import { Titled, usePageTitle } from '../features/page-title/page-title';
import { RemotePage } from '../features/remotes/remote-page';
import { ThemeToggle } from '../features/theme/theme-toggle';

/** The page around every screen: skip link, header, offline notice, main. */
function Frame({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader user={user} themeToggle={<ThemeToggle />} />
      <OfflineBanner />
      <main id="main" className="app-main">
        {children}
      </main>
    </>
  );
}

function CantReach({ retry, retrying }: { retry: () => void; retrying: boolean }) {
  usePageTitle("Can't reach the server");
  return <ConnectionProblem onRetry={retry} retrying={retrying} />;
}

/** Routes of docs/PRODUCT.md §2; each screen is a page exposed by a remote. */
export function AppRoutes() {
  const { status, retry, retrying } = useCurrentUser();
  if (status === 'pending') return <LoadingScreen />;
  // PRODUCT §10.1: a check that failed (not a 401) is not a sign-out; the header and theme keep working.
  if (status === 'error') {
    return (
      <Frame>
        <CantReach retry={retry} retrying={retrying} />
      </Frame>
    );
  }
  return (
    <Frame>
      <Routes>
        <Route path="/" element={<RequireUser><Titled screen="Tasks"><RemotePage id="mfe_tasks/TaskListPage" title="task list" /></Titled></RequireUser>} />
        <Route path="/account" element={<RequireUser><Titled screen="Account"><RemotePage id="mfe_auth/AccountPage" title="account screen" /></Titled></RequireUser>} />
        <Route path="/login" element={<RequireGuest><Titled screen="Sign in"><RemotePage id="mfe_auth/LoginPage" title="sign-in screen" /></Titled></RequireGuest>} />
        <Route path="/signup" element={<RequireGuest><Titled screen="Create account"><RemotePage id="mfe_auth/SignupPage" title="sign-up screen" /></Titled></RequireGuest>} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Frame>
  );
}

/** The host: the web platform's providers (one QueryClient, tabs in step, the toaster) and the router. */
export function App() {
  return (
    <PlatformProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </PlatformProviders>
  );
}
