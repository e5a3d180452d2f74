import type { PublicUser } from '@tm/api-client';
import { UserIcon } from '@tm/web-platform';
import { useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { HeaderLink } from './header-link';

/**
 * The header's account menu (PRODUCT §10.10): an icon button that opens a small popover with who is signed in, the links the
 * remotes' routes bring (the catalog's `accountMenuLink`: "Account settings"), and "About Task Manager" (the versions
 * dialog). On opening, the focus goes to the first link (or to About); Escape closes it and puts the focus back on the
 * button; a click outside, the focus leaving it, or any navigation closes it too.
 */
export function AccountMenu({ user, links, onAbout }: { user: PublicUser; links: readonly HeaderLink[]; onAbout: () => void }) {
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLAnchorElement & HTMLButtonElement>(null);
  const popoverId = useId();
  const captionId = useId();
  const nameId = useId();
  const emailId = useId();

  // A navigation (the link, the brand, Back, another tab signing out) closes it.
  const { key } = useLocation();
  const [location, setLocation] = useState(key);
  if (location !== key) {
    setLocation(key);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    first.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (event.relatedTarget && !menu.current?.contains(event.relatedTarget)) setOpen(false);
  };

  return (
    <div ref={menu} className="account-menu" onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className="icon-button"
        title="Account menu"
        aria-label="Account menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <UserIcon />
      </button>
      {open && (
        <div id={popoverId} className="account-menu__popover" role="dialog" aria-labelledby={`${captionId} ${nameId}`} aria-describedby={emailId}>
          <p id={captionId} className="account-menu__caption">
            Signed in as
          </p>
          <p id={nameId} className="account-menu__name">
            {user.fullName}
          </p>
          <p id={emailId} className="account-menu__email">
            {user.email}
          </p>
          {links.map((item, index) => (
            <Link key={item.to} ref={index === 0 ? first : undefined} to={item.to} className="account-menu__link">
              {item.label}
            </Link>
          ))}
          <button
            ref={links.length === 0 ? first : undefined}
            type="button"
            className="account-menu__link account-menu__about"
            aria-haspopup="dialog"
            onClick={() => {
              // The dialog gives the focus back to where it was when it opened: the menu's button.
              setOpen(false);
              button.current?.focus();
              onAbout();
            }}
          >
            About Task Manager
          </button>
        </div>
      )}
    </div>
  );
}
