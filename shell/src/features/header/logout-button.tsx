import type { PublicUser } from '@tm/api-client';
import { hasDraft, LogoutIcon, notifyError, useLogout } from '@tm/web-platform';
import { lazy, Suspense, useRef, useState } from 'react';
import { ErrorBoundary } from 'react-error-boundary';

// Loaded when first needed (a logout with text being written): it costs the first load nothing.
const LogoutConfirm = lazy(() => import('./logout-confirm'));

/**
 * The header's logout button, titled "Logout" (PRODUCT §1, §2 Header). It signs out at once, unless this
 * person has text of their own being written in this tab (a draft, web-platform's drafts.ts), which a
 * logout removes: then it asks first.
 */
export function LogoutButton({ user }: { user: PublicUser }) {
  const logout = useLogout();
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    setConfirming(false);
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
        onClick={() => (hasDraft(user._id) ? setConfirming(true) : logout.mutate())}
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
              onCancel={cancel}
              onConfirm={() => {
                setConfirming(false);
                logout.mutate();
              }}
            />
          </Suspense>
        </ErrorBoundary>
      )}
    </>
  );
}
