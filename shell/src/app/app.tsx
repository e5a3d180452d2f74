import { ConnectionProblem, OfflineBanner, PlatformProviders, releaseKeptScreen } from '@tm/web-platform';
import { lazy, Suspense, useLayoutEffect, useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { useCurrentUser } from '../features/auth/use-current-user';
import { AppHeader } from '../features/header/app-header';
import { LoadingScreen } from '../features/loading/loading-screen';
import { Titled, usePageTitle } from '../features/page-title/page-title';
import { CatalogProblem } from '../features/remotes/catalog-problem';
import type { LoadedCatalog, RemoteCatalog } from '../features/remotes/remote-catalog';
import { useRemoteCatalog } from '../features/remotes/use-remote-catalog';
import { ThemeToggle } from '../features/theme/theme-toggle';
import { accountMenuLinks, CatalogRoutes, headerLinks } from './catalog-routes';

// Loaded when first opened: the About dialog costs the first load nothing.
const About = lazy(() => import('./about'));
// Reminders in the page (PRODUCT §10.17): for a signed-in person, after the first paint.
const Reminders = lazy(() => import('../features/reminders/reminder-alerts'));
// Loaded only while a local remote is in use or proposed.
const OverrideBanner = lazy(() => import('../features/remotes/override-banner'));

/**
 * The page around every screen: skip link, the local-remote banner while one is in use, header,
 * offline notice, main, and the About dialog when open.
 */
function Frame({ catalog, overrides, children }: { catalog?: RemoteCatalog; overrides?: Pick<LoadedCatalog, 'overrides' | 'proposed'>; children: ReactNode }) {
  const { user } = useCurrentUser();
  const [about, setAbout] = useState(false);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {/* One sticky block: the offline notice stays in view under the header while offline. */}
      <div className="app-top">
        {catalog && overrides && (overrides.overrides.length > 0 || overrides.proposed.length > 0) && (
          <Suspense fallback={null}>
            <OverrideBanner catalog={catalog} overrides={overrides.overrides} proposed={overrides.proposed} />
          </Suspense>
        )}
        <AppHeader user={user} themeToggle={<ThemeToggle />} links={headerLinks(catalog, user)} accountLinks={accountMenuLinks(catalog)} onAbout={() => setAbout(true)} />
        <OfflineBanner />
      </div>
      <main id="main" className="app-main">
        {children}
      </main>
      {user && <Suspense fallback={null}><Reminders /></Suspense>}
      {about && (
        <Suspense fallback={null}>
          <About catalog={catalog} onClose={() => setAbout(false)} />
        </Suspense>
      )}
    </>
  );
}

function CantReach({ retry, retrying }: { retry: () => void; retrying: boolean }) {
  usePageTitle("Can't reach the server");
  return <ConnectionProblem onRetry={retry} retrying={retrying} />;
}

/**
 * Routes of docs/PRODUCT.md §2, built from the remote catalog (`/remotes.json`): the shell names no remote
 * and no screen of its own. The catalog is read while the current user is checked.
 */
export function AppRoutes() {
  const { status, user, retry, retrying } = useCurrentUser();
  const catalog = useRemoteCatalog();
  // The kept screen (PRODUCT §10.4) stands only for the page it shows: nobody signed in, a check that failed
  // or no catalog shows its own screen at once.
  const elsewhere = status === 'error' || (status === 'success' && user === null) || catalog.status === 'error';
  useLayoutEffect(() => {
    if (elsewhere) releaseKeptScreen();
  }, [elsewhere]);
  if (status === 'pending') return <LoadingScreen />;
  // PRODUCT §10.1: a check that failed (not a 401) is not a sign-out; the header and theme keep working.
  if (status === 'error') {
    return (
      <Frame>
        <CantReach retry={retry} retrying={retrying} />
      </Frame>
    );
  }
  // The server has answered who is signed in: the system is ready, the screens are being set up.
  if (catalog.status === 'pending') return <LoadingScreen stage="ready" />;
  if (catalog.status === 'error') {
    return (
      <Frame>
        <Titled screen="Screens unavailable">
          <CatalogProblem onRetry={catalog.retry} />
        </Titled>
      </Frame>
    );
  }
  return (
    <Frame catalog={catalog.catalog} overrides={catalog}>
      <CatalogRoutes catalog={catalog.catalog} />
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
