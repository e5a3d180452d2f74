// The kept screen's check (docs/PRODUCT.md §10.4 "The kept screen"), run by index.html first in its body.
// startEarlyRequests (early-requests.ts) has put the kept screen in the page from the head, before the body
// exists, so the first paint has it; its style sheets hold that paint and, being loaded by now (a script
// waits for them), can be checked. shell/rspack.config.mjs writes the function's source into index.html, so
// it must use nothing from outside itself but its arguments.

/**
 * Keeps the kept screen over #root (hidden by `data-kept-screen` on the html element) until the app
 * releases it (web-platform's kept-screen.ts: when the page has drawn its own, or shows something else), and
 * at the latest after `releaseAfterMs`; takes it away at once when one of its style sheets did not load (a
 * release since): the loading screen then shows, not an unstyled copy.
 */
export function showKeptScreen(win: Window, releaseAfterMs: number): void {
  const doc = win.document;
  const screen = doc.querySelector('.kept-screen');
  if (!screen) return;
  let loaded = true;
  // A sheet that failed to load is empty (or missing); ours are of this origin, so their rules can be read.
  doc.querySelectorAll<HTMLLinkElement>('link[data-kept-screen]').forEach((link) => {
    try {
      if (!link.sheet || link.sheet.cssRules.length === 0) loaded = false;
    } catch {
      loaded = false;
    }
  });
  const release = () => {
    screen.remove();
    doc.documentElement.removeAttribute('data-kept-screen');
  };
  if (loaded) win.setTimeout(release, releaseAfterMs);
  else release();
}
