import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useCurrentUser } from './use-current-user';

/** `/` needs a signed-in user; otherwise it redirects to /login (SPEC §2). */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return user ? children : <Navigate to="/login" replace />;
}

/** `/login` and `/signup` redirect to `/` when already signed in (SPEC §2). */
export function RequireGuest({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return user ? <Navigate to="/" replace /> : children;
}
