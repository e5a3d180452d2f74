import { AFTER_SIGN_IN_STATE } from '@tm/web-platform';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useCurrentUser } from './use-current-user';

/**
 * A signed-in route (`/`, `/account`) sends a visitor to the sign-in screen, `signInPath` (/login, the
 * catalog's first signed-out route; docs/PRODUCT.md §2).
 */
export function RequireUser({ signInPath, children }: { signInPath: string; children: ReactNode }) {
  const { user } = useCurrentUser();
  return user ? children : <Navigate to={signInPath} replace />;
}

/**
 * A signed-out route (`/login`, `/signup`) redirects to `/` when already signed in (PRODUCT §2). This is also the way in
 * after a sign-in here or in another tab, so the task screen is told to focus its input (PRODUCT §10.9).
 */
export function RequireGuest({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return user ? <Navigate to="/" replace state={AFTER_SIGN_IN_STATE} /> : children;
}
