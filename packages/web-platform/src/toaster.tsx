import { useEffect } from 'react';
import { Toaster, useToasterStore } from 'react-hot-toast';
import './platform.css';

/** Space between two stacked toasts, and between the stack and the bottom edge (react-hot-toast's own 16 px). */
const TOAST_GUTTER = 8;
const TOAST_EDGE = 16;
/** The CSS variable that holds how much of the window's bottom the toasts take now (0 when none shows). */
export const TOAST_RESERVE_VAR = '--toast-reserve';

/**
 * Toasts never cover work (issue #18, docs/PRODUCT.md §2 "Notifications"). Wherever the left margin beside the
 * page is wide enough (platform.css: 78rem and wider), the toasts stay in PRODUCT's place, bottom-left, and
 * shrink to that margin, so they never reach the list. Below that they would lie over the page, so the page
 * keeps the height of the toasts shown free at its end and as scroll padding (`--toast-reserve`): every
 * control can be scrolled clear of them, and one reached with Tab is scrolled clear by the browser itself.
 */
function useToastReserve(): void {
  const { toasts } = useToasterStore();
  const reserve = toasts.filter((t) => t.visible).reduce((sum, t) => sum + (t.height ?? 0) + TOAST_GUTTER, 0);
  useEffect(() => {
    const root = document.documentElement.style;
    if (reserve === 0) root.removeProperty(TOAST_RESERVE_VAR);
    else root.setProperty(TOAST_RESERVE_VAR, `${reserve - TOAST_GUTTER + 2 * TOAST_EDGE}px`);
  }, [reserve]);
  useEffect(
    () => () => {
      document.documentElement.style.removeProperty(TOAST_RESERVE_VAR);
    },
    [],
  );
}

/**
 * Notifications as configured for the product (docs/PRODUCT.md §2, §4, §9): bottom-left, at most 350 px wide,
 * 4000 ms for blank/error/custom, 2000 ms for success, unlimited for loading; a dismissed toast is removed
 * after 1000 ms. The limit of 20 kept toasts is react-hot-toast's own (TOAST_LIMIT = 20). A toast never hides
 * a control for good: see {@link useToastReserve}.
 */
export function AppToaster() {
  useToastReserve();
  return (
    <Toaster
      position="bottom-left"
      gutter={TOAST_GUTTER}
      containerClassName="platform-toaster"
      toastOptions={{
        duration: 4000,
        removeDelay: 1000,
        style: { maxWidth: 'var(--toast-max-width, 350px)', background: 'var(--color-surface-raised)', color: 'var(--color-text)' },
        success: { duration: 2000 },
        error: { duration: 4000 },
        loading: { duration: Infinity },
        custom: { duration: 4000 },
        blank: { duration: 4000 },
      }}
    />
  );
}
