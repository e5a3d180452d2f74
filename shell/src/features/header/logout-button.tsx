import type { PublicUser } from '@tm/api-client';
import { hasDraft, LogoutIcon, notifyError, pendingTaskChanges, useLogout } from '@tm/web-platform';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { ErrorBoundary } from 'react-error-boundary';

// Loaded when first needed (a logout with text being written): it costs the first load nothing.
const LogoutConfirm = lazy(() => import('./logout-confirm'));

/**
 * The header's logout button, titled "Logout" (PRODUCT §1, §2 Header). It signs out at once, unless this
 * person has text of their own being written in this tab (a draft, web-platform's drafts.ts) or task changes
 * not synced yet (PRODUCT §10.4), which a logout removes: then it asks first, saying which.
 */
export function LogoutButton({ user }: { user: PublicUser }) {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<{ draft: boolean; pending: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    setConfirming(null);
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="icon-button"
        title="Logout"
        aria-label="Logout"
        disabled={logout.isPending}
        onClick={() => {
          const asking = { draft: hasDraft(user._id), pending: pendingTaskChanges(queryClient) };
          if (asking.draft || asking.pending > 0) setConfirming(asking);
          else logout.mutate();
        }}
      >
        <LogoutIcon />
      </button>
      {confirming && (
        // A question that cannot load (offline, a release under way) signs nobody out: nothing is lost.
        <ErrorBoundary
          fallback={null}
          onError={() => {
            cancel();
            notifyError('Could not ask before signing out. Check your connection and try again.');
          }}
        >
          <Suspense fallback={null}>
            <LogoutConfirm
              draft={confirming.draft}
              pending={confirming.pending}
              onCancel={cancel}
              onConfirm={() => {
                setConfirming(null);
                logout.mutate();
              }}
            />
          </Suspense>
        </ErrorBoundary>
      )}
    </>
  );
}
