import { useCallback, useState, type ButtonHTMLAttributes, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

/** Where an opened menu puts the focus: its first item (a click, Enter, Space, ArrowDown) or its last (ArrowUp). */
export type MenuStart = 'first' | 'last';

interface MenuButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'onKeyDown' | 'type'> {
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** The button's name, also its tooltip. */
  label: string;
  menuId: string;
  isOpen: boolean;
  onOpen: (from: MenuStart) => void;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A WAI-ARIA menu button (docs/PRODUCT.md §10.9): named, with a tooltip; a click toggles its menu (opened on
 * its first item), ArrowDown opens it on its first item and ArrowUp on its last. Shared by the task rows'
 * "More actions" and the lists' menus (§10.19).
 */
export function MenuButton({ buttonRef, label, menuId, isOpen, onOpen, onClose, children, ...rest }: MenuButtonProps) {
  return (
    <button
      {...rest}
      ref={buttonRef}
      type="button"
      aria-label={label}
      title={label}
      aria-haspopup="menu"
      aria-expanded={isOpen}
      aria-controls={isOpen ? menuId : undefined}
      onClick={() => (isOpen ? onClose() : onOpen('first'))}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        event.preventDefault();
        onOpen(event.key === 'ArrowDown' ? 'first' : 'last');
      }}
    >
      {children}
    </button>
  );
}

/**
 * The keys inside an open menu: arrows move between its items (wrapping), Home and End to the first and last,
 * Escape and Tab close it (`close` gives the focus back to its button). `focusItem(-1)` is the last item.
 */
export function useMenuKeys(menu: RefObject<HTMLElement | null>, close: () => void) {
  const [highlighted, setHighlighted] = useState(-1);
  const focusItem = useCallback(
    (index: number) => {
      const all = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
      if (all.length === 0) return;
      const next = (index + all.length) % all.length;
      all[next]?.focus({ preventScroll: true });
      setHighlighted(next);
    },
    [menu],
  );
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusItem(highlighted + 1),
      ArrowUp: () => focusItem(highlighted - 1),
      Home: () => focusItem(0),
      End: () => focusItem(-1),
      Escape: close,
      Tab: close,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
  return { highlighted, setHighlighted, focusItem, onKeyDown };
}
