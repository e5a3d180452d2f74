import { useEffect, useRef } from 'react';

/**
 * The field a screen starts with (docs/PRODUCT.md §10.9): Email on the sign-in screen, Full Name on sign-up.
 * It takes the focus once, when the screen opens, unless the person already moved it (a click, a tap) while
 * the screen was coming in.
 */
export function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body && !active.matches('h1')) return;
    ref.current?.focus();
  }, []);
  return ref;
}
