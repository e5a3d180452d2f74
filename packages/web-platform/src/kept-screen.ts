import { useEffect, useLayoutEffect } from 'react';
import type * as WriterModule from './kept-screen-writer.js';

// The kept screen (docs/PRODUCT.md §10.4 "The kept screen"): index.html paints the person's last screen from
// the device before any script has arrived (shell/src/app/kept-screen-early.ts) and keeps the app's own
// screen hidden under it; the page it shows releases it once its own is drawn, and writes it again while it
// is open (kept-screen-writer.ts, loaded when first needed).

const SHOWN = 'data-kept-screen';
/** Quiet time after the page's last change before it is kept again (ms). */
const KEEP_AFTER_MS = 1000;

/** Whether this page load began on the kept screen (read once, when the platform loads, before any release). */
const startedKept = typeof document !== 'undefined' && document.documentElement.hasAttribute(SHOWN);

/** Whether this page load began on the kept screen: its first rows are already on screen, they do not enter again. */
export function startedFromKeptScreen(): boolean {
  return startedKept;
}

/** Takes the kept screen away, showing the app's own (a no-op when none is shown). */
export function releaseKeptScreen(): void {
  if (typeof document === 'undefined') return;
  document.querySelector('.kept-screen')?.remove();
  document.documentElement.removeAttribute(SHOWN);
}

type Writer = typeof WriterModule;
let writer: Writer | undefined;
const loadWriter = (): Promise<Writer> => import('./kept-screen-writer.js').then((module) => (writer = module));

/**
 * For a page that keeps its screen on the device (the task list): once `ready` (its own content drawn), the
 * kept screen gives way to it in the same frame; then the page is kept again after each change (`version`)
 * has settled, and when the page is hidden (a tab switched, the app closed).
 */
export function useKeptScreen(ready: boolean, version: unknown): void {
  useLayoutEffect(() => {
    if (ready) releaseKeptScreen();
  }, [ready]);
  useEffect(() => {
    if (!ready) return undefined;
    const timer = setTimeout(() => void loadWriter().then((module) => module.keepScreen(), () => undefined), KEEP_AFTER_MS);
    return () => clearTimeout(timer);
  }, [ready, version]);
  useEffect(() => {
    if (!ready) return undefined;
    // Loaded now: a page being hidden has no time to wait for a file.
    void loadWriter().catch(() => undefined);
    const hidden = () => {
      if (document.visibilityState === 'hidden') writer?.keepScreen();
    };
    document.addEventListener('visibilitychange', hidden);
    return () => document.removeEventListener('visibilitychange', hidden);
  }, [ready]);
}
