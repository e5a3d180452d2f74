import { useEffect, type ReactNode } from 'react';

const APP_NAME = 'Task Manager';

/** "Sign in · Task Manager": each screen names itself in the tab and the history (docs/PRODUCT.md §10.9). */
function pageTitle(screen?: string): string {
  return screen ? `${screen} · ${APP_NAME}` : APP_NAME;
}

/** Sets the document title while mounted. */
export function usePageTitle(screen?: string): void {
  useEffect(() => {
    document.title = pageTitle(screen);
  }, [screen]);
}

/** A route element that sets its page title. */
export function Titled({ screen, children }: { screen: string; children: ReactNode }) {
  usePageTitle(screen);
  return children;
}
