import { useEffect } from 'react';
import { isTypingTarget, UNDO_KEY } from './undo-key.js';

/**
 * The Undo toasts (./undo-toast.tsx) loaded on demand: a screen that offers Undo only after an action keeps
 * them off its first load (docs/PERFORMANCE.md "First-load budgets"). One module per bundle, so one list of offers.
 */
export const loadUndoToasts = () => import('./undo-toast.js');

/**
 * The Undo key of a screen that loads its Undo toasts on demand (Today, PRODUCT §10.15): the toasts' code is
 * fetched once the screen has painted (so an offer shows at once when the answer comes, offline too), `U`
 * outside fields and dialogs undoes the newest action still on offer, and the offers end with the screen,
 * as the task list's do (§10.11.4).
 */
export function useUndoKey(): void {
  useEffect(() => {
    loadUndoToasts().catch(() => undefined);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== UNDO_KEY || event.defaultPrevented || event.isComposing || event.ctrlKey || event.altKey || event.metaKey) return;
      if (isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      loadUndoToasts().then((toasts) => toasts.undoLatest(), () => undefined);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      loadUndoToasts().then((toasts) => toasts.closeUndoOffers(), () => undefined);
    };
  }, []);
}
