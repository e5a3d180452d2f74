import type { PublicUser } from '@tm/api-client';
import { CheckIcon, LogoutIcon, useLogout } from '@tm/web-platform';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AccountMenu } from './account-menu';
import './app-header.css';

interface AppHeaderProps {
  /** The signed-in user, or null when signed out or not known. */
  user: PublicUser | null;
  /** The theme toggle (another feature: the app composes them). */
  themeToggle: ReactNode;
}

/**
 * Product title, theme toggle and (when signed in) the account menu and the logout button (docs/PRODUCT.md
 * §2 Header).
 */
export function AppHeader({ user, themeToggle }: AppHeaderProps) {
  const logout = useLogout();
  return (
    <header className="app-header">
      <Link to="/" className="app-header__brand">
        <span aria-hidden="true" className="app-header__logo">
          <CheckIcon size={18} />
        </span>
        Task Manager
      </Link>
      <nav className="app-header__actions" aria-label="Application">
        {themeToggle}
        {user && <AccountMenu user={user} />}
        {user && (
          <button
            type="button"
            className="icon-button"
            title="Logout"
            aria-label="Logout"
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
          >
            <LogoutIcon />
          </button>
        )}
      </nav>
    </header>
  );
}
