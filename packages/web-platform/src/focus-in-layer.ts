/** What the person opens over a screen: a menu, a popover, a dialog or a list of choices. */
const OPEN_LAYER = 'dialog, [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]';

/**
 * Whether the focus is inside something the person opened (a menu, a popover, a dialog). A screen that
 * arrives or settles while it is open leaves the focus there (docs/PRODUCT.md §10.9): moving it would
 * close the menu under the person's hand.
 */
export function focusInOpenLayer(): boolean {
  const active = document.activeElement;
  return active !== null && active.closest(OPEN_LAYER) !== null;
}
