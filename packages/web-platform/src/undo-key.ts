/** The key that undoes the newest action still on offer (docs/PRODUCT.md §10.11.4, listed in the task list's shortcuts dialog). */
export const UNDO_KEY = 'u';

/** A device whose main pointer is a finger: its Undo toasts show neither the key nor "Press U to undo." (PRODUCT §10.11.4). */
export const TOUCH_ONLY_QUERY = '(hover: none) and (pointer: coarse)';

/** Input types that take no typed text: a key pressed on them is not typing. */
const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'color', 'range', 'file']);

/**
 * Whether a key pressed on `target` belongs to it: a text field, a text area, a select, editable content, or an
 * open menu or dialog (which have their own keys). The task list's shortcuts follow the same rule (§10.11.6).
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target.closest('[contenteditable]:not([contenteditable="false"]), [role="menu"], [role="listbox"], dialog[open]') !== null;
}
