import { useEffect, useRef } from 'react';

/** Input types that take no typed text: a shortcut pressed on them is not typing. */
const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'color', 'range', 'file']);

/**
 * Whether a key pressed on `target` belongs to it: a text field, a text area, a select, editable content,
 * or an open menu or dialog (which have their own keys).
 */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target.closest('[contenteditable]:not([contenteditable="false"]), [role="menu"], [role="listbox"], dialog[open]') !== null;
}

/**
 * Single-key shortcuts of the page (docs/PRODUCT.md §10.11.6), by `KeyboardEvent.key`. None fires while the
 * person types in a field, with Ctrl, Alt or Meta held (the browser's and the system's own shortcuts), or
 * while a modal dialog is open. Shift is allowed: `?` needs it on most keyboards.
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
