import { CheckIcon, LogoutIcon, useLogout } from '@tm/web-platform';
import { Link } from 'react-router-dom';
import { useCurrentUser } from '../auth/use-current-user';
import { AccountMenu } from './account-menu';
import { ThemeToggle } from '../theme/theme-toggle';
import './app-header.css';

/**
 * Product title, theme toggle and (when signed in) the account menu and the logout button (docs/PRODUCT.md
 * §2 Header).
 */
export function AppHeader() {
  const { user } = useCurrentUser();
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
        <ThemeToggle />
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
