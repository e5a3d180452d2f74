// Build-time only (shell/rspack.config.mjs runs it with tsx; never part of the page's bundle): the
// loading screen as static HTML for index.html (docs/PRODUCT.md §2 Loading screen), so a person
// sees it before any script has arrived, also with JavaScript blocked, in the right theme from the first
// paint (the theme script in the head runs before the body is parsed).
import { renderToStaticMarkup } from 'react-dom/server';
import { LoadingView } from '../features/loading/loading-view';
import { THEME_COLORS } from '../features/theme/theme-color';

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

/**
 * What makes the page an installable app (PRODUCT §10.13): the manifest, the home-screen icon for iOS, the
 * standalone capability, and the browser's bar in the app's colour. One theme-color per colour scheme, then
 * a script that sets both to the theme already on the page (the theme script runs before it), so the person's
 * choice wins over the system's; the theme switch keeps them in step (theme-color.ts).
 */
export function appHead(): string {
  const themeColor = `(function(){var c=${JSON.stringify(THEME_COLORS)}[document.documentElement.getAttribute('data-theme')==='dark'?'dark':'light'];document.querySelectorAll('meta[name="theme-color"]').forEach(function(m){m.content=c})})()`;
  return [
    '<link rel="manifest" href="/manifest.webmanifest">',
    `<meta name="theme-color" content="${THEME_COLORS.light}" media="(prefers-color-scheme: light)">`,
    `<meta name="theme-color" content="${THEME_COLORS.dark}" media="(prefers-color-scheme: dark)">`,
    '<meta name="mobile-web-app-capable" content="yes">',
    '<meta name="apple-mobile-web-app-capable" content="yes">',
    '<meta name="apple-mobile-web-app-title" content="Tasks">',
    '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">',
    `<script>${themeColor}</script>`,
  ].join('');
}

/** The parts of index.html made from components, for shell/rspack.config.mjs. */
export function indexHtmlParts(): { loadingScreen: string; appHead: string } {
  return { loadingScreen: loadingScreenMarkup(), appHead: appHead() };
}
