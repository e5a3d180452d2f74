// Build-time only (shell/rspack.config.mjs runs it with tsx; never part of the page's bundle): the
// loading screen as static HTML for index.html (issue #17, docs/PRODUCT.md §2 Loading screen), so a person
// sees it before any script has arrived, also with JavaScript blocked, in the right theme from the first
// paint (the theme script in the head runs before the body is parsed).
import { renderToStaticMarkup } from 'react-dom/server';
import { LoadingView } from '../features/loading/loading-view';

/** Said below the loading screen when scripts cannot run: without them it would wait for ever. */
export const NO_SCRIPT_MESSAGE = 'Task Manager needs JavaScript to run: allow it for this site, then reload the page.';

/**
 * The loading screen's markup at the start of its cycle, with a line that shows only when scripts cannot
 * run (inside `<noscript>`); React replaces it and carries on from there.
 */
export function loadingScreenMarkup(): string {
  return renderToStaticMarkup(
    <LoadingView
      note={
        <noscript>
          <p className="loading-screen__noscript">{NO_SCRIPT_MESSAGE}</p>
        </noscript>
      }
    />,
  );
}

/** The parts of index.html made from components, for shell/rspack.config.mjs. */
export function indexHtmlParts(): { loadingScreen: string } {
  return { loadingScreen: loadingScreenMarkup() };
}
