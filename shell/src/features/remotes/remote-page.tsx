import { lazy, Suspense, useCallback, useMemo, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { loadRemotePage, type RemoteModuleId } from './remote-catalog';
import { RemoteContext, RemoteFallback } from './remote-fallback';
import './remote-page.css';

interface RemotePageProps {
  id: RemoteModuleId;
  /** What the page is, for the fallback message. */
  title: string;
}

const pages = new Map<string, LazyExoticComponent<ComponentType>>();

/** One lazy component per remote page and attempt, kept across renders and remounts (no reload on revisit). */
function lazyRemotePage(id: RemoteModuleId, attempt: number): LazyExoticComponent<ComponentType> {
  const key = `${id}#${attempt}`;
  let page = pages.get(key);
  if (!page) {
    page = lazy(() => loadRemotePage(id, attempt > 0));
    pages.set(key, page);
  }
  return page;
}

/**
 * A page exposed by a remote, loaded at run time: Suspense while it loads, an error boundary (plus the
 * runtime plugin) when it cannot load or throws; "Retry" loads it afresh.
 */
export function RemotePage({ id, title }: RemotePageProps) {
  const [attempt, setAttempt] = useState(0);
  const Page = lazyRemotePage(id, attempt);
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
        </Suspense>
      </ErrorBoundary>
    </RemoteContext.Provider>
  );
}
