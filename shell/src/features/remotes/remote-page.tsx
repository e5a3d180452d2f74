import type { ExposedPage } from '@tm/remote-kit';
import { lazy, Suspense, useCallback, useMemo, useState, type LazyExoticComponent } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { PageFocus } from './page-focus';
import { loadRemotePage, remoteModuleId, type RemoteRoute } from './remote-catalog';
import { RemoteContext, RemoteFallback } from './remote-fallback';
import './remote-page.css';

interface RemotePageProps {
  /** The remote's federation name, as in the catalog. */
  remote: string;
  /** The catalog's route: its exposed `module` and its `name` for the fallback message. */
  route: Pick<RemoteRoute, 'module' | 'name'>;
}

const pages = new Map<string, LazyExoticComponent<ExposedPage>>();

/** One lazy component per remote page and attempt, kept across renders and remounts (no reload on revisit). */
function lazyRemotePage(remote: string, module: string, attempt: number): LazyExoticComponent<ExposedPage> {
  const key = `${remoteModuleId(remote, { module })}#${attempt}`;
  let page = pages.get(key);
  if (!page) {
    page = lazy(() => loadRemotePage(remote, { module }, attempt > 0));
    pages.set(key, page);
  }
  return page;
}

/**
 * A page exposed by a remote, loaded at run time: Suspense while it loads, an error boundary (plus the
 * runtime plugin) when it cannot load or throws; "Retry" loads it afresh.
 */
export function RemotePage({ remote, route }: RemotePageProps) {
  const [attempt, setAttempt] = useState(0);
  const Page = lazyRemotePage(remote, route.module, attempt);
  const title = route.name;
  const id = remoteModuleId(remote, route);
  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  const context = useMemo(() => ({ title, retry }), [title, retry]);
  return (
    <RemoteContext.Provider value={context}>
      <ErrorBoundary
        FallbackComponent={RemoteFallback}
        resetKeys={[attempt]}
        onError={(error) => console.error(`Remote page ${id} failed`, error)}
      >
        <Suspense
          fallback={
            <p className="remote-loading" role="status">
              Loading the {title}…
            </p>
          }
        >
          {/* eslint-disable-next-line react-hooks/static-components -- cached per page and attempt: stable identity */}
          <Page />
          {/* After the page, in its boundary: runs once the page is on screen (the heading's focus, ?new=1). */}
          <PageFocus />
        </Suspense>
      </ErrorBoundary>
    </RemoteContext.Provider>
  );
}
