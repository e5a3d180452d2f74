import { releaseKeptScreen } from '@tm/web-platform';
import { createContext, useContext, useLayoutEffect } from 'react';
import './remote-page.css';

interface RemoteContextValue {
  /** What the remote shows, for the message: "sign-in screen", "task list". */
  title: string;
  retry: () => void;
}

export const RemoteContext = createContext<RemoteContextValue>({ title: 'page', retry: () => window.location.reload() });

/** Shown in place of a remote that failed to load or crashed; the rest of the shell keeps working. */
export function RemoteFallback() {
  const { title, retry } = useContext(RemoteContext);
  // The kept screen would stand for a page that is not coming: this message is the screen now.
  useLayoutEffect(releaseKeptScreen, []);
  return (
    <div className="remote-fallback" role="alert">
      <p className="remote-fallback__title">The {title} could not be loaded.</p>
      <p className="remote-fallback__detail">Check your connection, then try again.</p>
      <button type="button" className="button" onClick={retry}>
        Retry
      </button>
    </div>
  );
}
