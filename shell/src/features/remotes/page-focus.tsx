import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { NEW_TASK_PARAM } from './new-task-param';


/** Whether a page has been shown yet on this page load: the first one keeps the browser's own focus. */
let pageShownBefore = false;

/** Starts over as on a new page load (the component tests render several "page loads" in one document). */
export function startPageLoad(): void {
  pageShownBefore = false;
}

/**
 * Rendered after a route's page, inside the same Suspense boundary, so it runs once the page is on screen
 * (and after the page's own effects). Two things the shell does for every screen (PRODUCT §10.9, §10.13):
 * after a navigation from one screen to another (not on the first load) the focus goes to the new screen's
 * heading, and `?new=1` puts it in the new-task field (focus-page.ts). What does either is loaded when first
 * needed: a first load without `?new=1` costs nothing more.
 */
export function PageFocus() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const first = !pageShownBefore;
    pageShownBefore = true;
    const newTask = new URLSearchParams(location.search).has(NEW_TASK_PARAM);
    if (first && !newTask) return;
    void import('./focus-page').then(
      ({ focusPage }) => focusPage(location, navigate, newTask),
      () => undefined, // not loaded (offline, a release under way): the focus stays where it was
    );
    // Once per screen shown: this mounts with its screen, so a filter or another query on the same screen is no navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}
