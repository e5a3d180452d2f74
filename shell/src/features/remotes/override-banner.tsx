import { Fragment, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { LoadedCatalog } from './remote-catalog';
import { acceptProposed, readStoredOverrides, storeOverrides, withoutOverrideParams, type RemoteOverride } from './remote-overrides';
import './override-banner.css';

/** `insights from http://127.0.0.1:3101`, for each. */
function describe(overrides: readonly RemoteOverride[], whole: boolean) {
  return overrides.map((override, index) => (
    <Fragment key={override.remote}>
      {index > 0 && ', '}
      <strong>{override.key}</strong> from <code>{whole ? override.manifest : new URL(override.manifest).origin}</code>
    </Fragment>
  ));
}

/**
 * While a local remote is in use (remote-overrides.ts), a banner above the header says which and
 * from where, with Reset, so nobody forgets their page is not what the deployment serves. An override the
 * address proposes (`?remote-override=`) is asked about first: the code runs only after a yes.
 */
export default function OverrideBanner({ overrides, proposed, catalog }: Pick<LoadedCatalog, 'overrides' | 'proposed' | 'catalog'>) {
  const location = useLocation();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(proposed.length > 0);

  // Declined: the address drops the parameter, so a reload does not ask again.
  const cancel = () => {
    setAsking(false);
    void navigate({ pathname: location.pathname, search: new URL(withoutOverrideParams(window.location.href)).search, hash: location.hash }, { replace: true });
  };

  // A loaded remote cannot be unloaded: the page loads again, with or without the local one.
  const reset = () => {
    storeOverrides({});
    window.location.replace(withoutOverrideParams(window.location.href));
  };
  const accept = () => {
    storeOverrides(acceptProposed(catalog, readStoredOverrides(), proposed));
    window.location.replace(withoutOverrideParams(window.location.href));
  };

  return (
    <>
      {asking && proposed.length > 0 && (
        <section className="override-banner override-banner--ask" aria-label="Load a local remote?">
          <p className="override-banner__text">
            Load {describe(proposed, true)} instead of the deployed build? Only this browser is affected, until you reset it.
          </p>
          <div className="override-banner__actions">
            <button type="button" className="button" onClick={accept}>
              Use local remote
            </button>
            <button type="button" className="override-banner__button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {overrides.length > 0 && (
        <div className="override-banner" role="status">
          <p className="override-banner__text">
            Using local remote{overrides.length > 1 ? 's' : ''}: {describe(overrides, false)} —{' '}
            <button type="button" className="override-banner__button" onClick={reset}>
              Reset
            </button>
          </p>
        </div>
      )}
    </>
  );
}
