import { useId } from 'react';
import './remote-page.css';

/**
 * Shown instead of the screens when the remote catalog (/remotes.json) could not be read or is not valid:
 * the shell knows no screen without it. The header and theme keep working; the console says what is wrong
 * (every problem the check found); Retry reads the catalog again.
 */
export function CatalogProblem({ onRetry }: { onRetry: () => void }) {
  const headingId = useId();
  return (
    <section className="remote-fallback" role="alert" aria-labelledby={headingId}>
      <h1 id={headingId} className="remote-fallback__title">
        The screens could not be loaded.
      </h1>
      <p className="remote-fallback__detail">Their list could not be read or is not valid. Try again in a moment.</p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </section>
  );
}
