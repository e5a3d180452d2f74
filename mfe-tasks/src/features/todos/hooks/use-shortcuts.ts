import { isTypingTarget } from '@tm/web-platform';
import { useEffect, useRef } from 'react';

/**
 * Single-key shortcuts of the page (docs/PRODUCT.md §10.11.6), by `KeyboardEvent.key`. None fires while the
 * person types in a field, with Ctrl, Alt or Meta held (the browser's and the system's own shortcuts), or
 * while a modal dialog is open (`isTypingTarget` of @tm/web-platform, the rule the Undo key follows too).
 * Shift is allowed: `?` needs it on most keyboards.
 */
export function useShortcuts(shortcuts: Record<string, () => void>): void {
  const current = useRef(shortcuts);
  useEffect(() => {
    current.current = shortcuts;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.altKey || event.metaKey) return;
      if (isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      const run = current.current[event.key];
      if (!run) return;
      event.preventDefault(); // `n` must not type into the input it focuses; `/` is Firefox's quick find
      run();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
