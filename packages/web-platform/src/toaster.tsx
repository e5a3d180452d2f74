import { Toaster } from 'react-hot-toast';

/**
 * Notifications as configured for the product (docs/PRODUCT.md §2, §4, §9): bottom-left, at most 350 px wide,
 * 4000 ms for blank/error/custom, 2000 ms for success, unlimited for loading; a dismissed toast is removed
 * after 1000 ms. The limit of 20 kept toasts is react-hot-toast's own (TOAST_LIMIT = 20).
 */
export function AppToaster() {
  return (
    <Toaster
      position="bottom-left"
      toastOptions={{
        duration: 4000,
        removeDelay: 1000,
        style: { maxWidth: 350, background: 'var(--color-surface-raised)', color: 'var(--color-text)' },
        success: { duration: 2000 },
        error: { duration: 4000 },
        loading: { duration: Infinity },
        custom: { duration: 4000 },
        blank: { duration: 4000 },
      }}
    />
  );
}
