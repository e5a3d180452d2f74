import { useEffect, useId } from 'react';
import { onNetworkBack } from './use-online.js';
import './platform.css';

export const CONNECTION_PROBLEM_TITLE = "Can't reach Task Manager";

interface ConnectionProblemProps {
  /** Checks again; called by Retry and when the network comes back. */
  onRetry: () => void;
  retrying: boolean;
}

/**
 * Shown instead of the screens when the current-user check failed for another reason than "signed out"
 * (network error, timeout, 5xx): the session may well be valid, so the app neither guesses nor sends the
 * person to the sign-in screen (docs/PRODUCT.md §10.1). Retry, or the network coming back, checks again.
 */
export function ConnectionProblem({ onRetry, retrying }: ConnectionProblemProps) {
  const headingId = useId();
  useEffect(() => onNetworkBack(onRetry), [onRetry]);
  return (
    <section className="platform-problem" role="alert" aria-labelledby={headingId}>
      <h1 id={headingId} className="platform-problem__title">
        {CONNECTION_PROBLEM_TITLE}
      </h1>
      <p className="platform-problem__detail">
        The server did not answer. Your tasks are safe: this is usually a short network or server hiccup.
      </p>
      <button type="button" className="platform-button" onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </button>
    </section>
  );
}
