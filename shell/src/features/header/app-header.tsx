import type { PublicUser } from '@tm/api-client';
import { CheckIcon, InfoIcon } from '@tm/web-platform';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { AccountMenu } from './account-menu';
import type { HeaderLink } from './header-link';
import { LogoutButton } from './logout-button';
import './app-header.css';

interface AppHeaderProps {
  /** The signed-in user, or null when signed out or not known. */
  user: PublicUser | null;
  /** The theme toggle (another feature: the app composes them). */
  themeToggle: ReactNode;
  /** The links of the routes this user may open, in the catalog's order. */
  links?: readonly HeaderLink[];
  /** The account menu's links, brought by the remotes' signed-in routes. */
  accountLinks?: readonly HeaderLink[];
  /** Opens the About dialog (the shell's and the remotes' versions). */
  onAbout: () => void;
}

/**
 * Product title, the remotes' header links, theme toggle, About, and (when signed in) the account menu
 * (which holds About then) and the logout button (docs/PRODUCT.md §2 Header). The title and the buttons keep
 * one row down to 320 px (the title gives way first); below 640 px the links take a row of their own.
 */
export function AppHeader({ user, themeToggle, links = [], accountLinks = [], onAbout }: AppHeaderProps) {
  const { pathname } = useLocation();
  return (
    <header className={links.length > 0 ? 'app-header app-header--links' : 'app-header'}>
      <Link to="/" className="app-header__brand">
        <span aria-hidden="true" className="app-header__logo">
          <CheckIcon size={18} />
        </span>
        <span className="app-header__title">Task Manager</span>
      </Link>
      {links.length > 0 && (
        <nav className="app-header__links" aria-label="Screens">
          {links.map((link) => (
            <Link key={link.to} to={link.to} className="app-header__link" aria-current={pathname === link.to ? 'page' : undefined}>
              {link.label}
            </Link>
          ))}
        </nav>
      )}
      <nav className="app-header__actions" aria-label="Application">
        {themeToggle}
        {!user && (
          <button type="button" className="icon-button" title="About Task Manager" aria-label="About Task Manager" aria-haspopup="dialog" onClick={onAbout}>
            <InfoIcon />
          </button>
        )}
        {user && <AccountMenu user={user} links={accountLinks} onAbout={onAbout} />}
        {user && <LogoutButton user={user} />}
      </nav>
    </header>
  );
}
