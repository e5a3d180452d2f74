import { useEffect, type RefObject } from 'react';

/** The fields whose on-screen keyboard makes the page compact: the new-task input and a title's editor. */
const TYPING_FIELDS = '.tasks-form__input, .tasks-item__edit';
/** A phone or tablet, whose keyboard is on the screen whenever a field has the focus. */
const COARSE_POINTER = '(pointer: coarse)';
/** The visible part of the page is this much smaller than the window: a keyboard (or the like) covers the rest. */
const COVERED_RATIO = 0.75;

/**
 * Whether the on-screen keyboard is open over the page now: one of the typing fields has the focus, and
 * either the visual viewport is less than 3/4 of the window (the keyboard takes the rest) or the main
 * pointer is a finger (the keyboard opens with the focus, on browsers that do not shrink the viewport).
 */
function keyboardOpen(root: HTMLElement): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !root.contains(active) || !active.matches(TYPING_FIELDS)) return false;
  const viewport = window.visualViewport;
  if (viewport && viewport.height < COVERED_RATIO * window.innerHeight) return true;
  return typeof window.matchMedia === 'function' && window.matchMedia(COARSE_POINTER).matches;
}

/** A press that ends without a click (a long press, a drag) still ends, after this long. */
const PRESS_ENDS_MS = 1000;

/**
 * Marks the document while the on-screen keyboard is open over the task page (docs/PRODUCT.md §10.9):
 * `<html data-keyboard="open">`. The page then hides its greeting and illustration, and the shell compacts
 * its header (both in CSS, reading the attribute), so the rows stay in the little room left above the
 * keyboard. The attribute comes with the focus, and goes with it and with the page.
 *
 * A focus that a press (a tap, a click) moves changes the layout only once that press is over, after its
 * click: a tap's mousedown (which moves the focus), mouseup and click come one after the other, and a page
 * that shrank or grew in between would send the click to whatever moved under the finger. A focus moved by
 * the keyboard changes it at once.
 */
export function useKeyboardOpen(pageRef: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = pageRef.current;
    if (!root) return undefined;
    const html = document.documentElement;
    const update = () => {
      if (keyboardOpen(root)) html.dataset.keyboard = 'open';
      else delete html.dataset.keyboard;
    };
    let pressing = false;
    let ending: ReturnType<typeof setTimeout> | undefined;
    const endPress = () => {
      pressing = false;
      update();
    };
    const onPointerDown = () => {
      pressing = true;
      clearTimeout(ending);
      ending = setTimeout(endPress, PRESS_ENDS_MS);
    };
    // After the click's own handlers, which may move the focus themselves (a tap on a title opens its editor).
    const onPressEnd = () => {
      if (!pressing) return;
      clearTimeout(ending);
      ending = setTimeout(endPress, 0);
    };
    const onFocusChange = () => {
      if (!pressing) update();
    };
    root.addEventListener('focusin', onFocusChange);
    root.addEventListener('focusout', onFocusChange);
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('click', onPressEnd, true);
    document.addEventListener('pointercancel', onPressEnd, true);
    window.visualViewport?.addEventListener('resize', update);
    window.addEventListener('resize', update);
    return () => {
      clearTimeout(ending);
      root.removeEventListener('focusin', onFocusChange);
      root.removeEventListener('focusout', onFocusChange);
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('click', onPressEnd, true);
      document.removeEventListener('pointercancel', onPressEnd, true);
      window.visualViewport?.removeEventListener('resize', update);
      window.removeEventListener('resize', update);
      delete html.dataset.keyboard;
    };
  }, [pageRef]);
}
