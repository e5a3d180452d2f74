import { deviceUser, KEPT_SCREEN_KEY, type KeptScreen } from '@tm/api-client';

// Writes the kept screen (kept-screen.ts; docs/PRODUCT.md §10.4 "The kept screen"): a copy of the page as it
// is drawn now, only its first screen, cleaned of what identifies elements or holds what the person is typing,
// of what comes and goes, and of anything the person would not see on a return visit.

/** A copy longer than this is not kept: localStorage is small, and shared by the whole app (characters). */
export const KEPT_SCREEN_MAX_CHARS = 200_000;
/** How far down the page the copy reaches, in viewport heights: the first screen and some more. */
const REACH = 1.5;
/** What comes and goes: never part of a screen shown again. */
const TRANSIENT = '[data-rht-toaster], dialog, [role="dialog"], [role="alertdialog"], [role="menu"], [role="tooltip"], script, template, iframe, [data-kept="no"]';
/**
 * Attributes the copy drops: ids (the app's own screen has them), form values (what the person typed), the
 * rows' ids (a test or a script looking for a task finds only the app's), what points at ids.
 */
const DROPPED = new Set(['id', 'name', 'value', 'for', 'form', 'autofocus', 'data-todo-id', 'data-kept-text', 'aria-controls', 'aria-describedby', 'aria-labelledby', 'aria-owns', 'aria-activedescendant']);

/**
 * The copy of `root` as it is drawn: list items below `reach` viewport heights dropped, transient parts
 * removed, an element's `data-kept-text` as its text (a status that would be wrong on a return visit), ticks
 * of checkboxes as they are (a property the markup does not carry), text areas empty.
 */
export function keptMarkup(root: HTMLElement, viewportHeight: number, scrollY = 0): string {
  const copy = root.cloneNode(true) as HTMLElement;
  // The copy has no layout: what is below the fold, and each box's tick, is read on the page, in the same order.
  const items = root.querySelectorAll('li');
  const copiedItems = copy.querySelectorAll('li');
  const fold = viewportHeight * REACH;
  const below = [...items].map((item) => item.getBoundingClientRect().top + scrollY > fold);
  const boxes = root.querySelectorAll('input');
  copy.querySelectorAll('input').forEach((input, index) => {
    input.toggleAttribute('checked', boxes[index]?.checked === true);
  });
  copiedItems.forEach((item, index) => {
    if (below[index]) item.remove();
  });
  copy.querySelectorAll(TRANSIENT).forEach((element) => element.remove());
  copy.querySelectorAll<HTMLElement>('[data-kept-text]').forEach((element) => {
    element.textContent = element.dataset.keptText ?? '';
  });
  for (const element of [copy, ...copy.querySelectorAll('*')]) {
    for (const name of element.getAttributeNames()) if (DROPPED.has(name)) element.removeAttribute(name);
    if (element instanceof HTMLTextAreaElement) element.textContent = '';
  }
  return copy.innerHTML;
}

/**
 * Keeps the page as it is now for the person whose tasks the device keeps (nobody else's: without a device
 * user nothing is written). Too long a copy removes the old one rather than keep a stale screen.
 */
export function keepScreen(): void {
  const user = deviceUser();
  const root = document.getElementById('root');
  if (!user || !root || document.documentElement.hasAttribute('data-kept-screen')) return;
  const origin = window.location.origin;
  const css = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => link.href).filter((href) => href.startsWith(`${origin}/`));
  const html = keptMarkup(root, window.innerHeight, window.scrollY);
  const kept: KeptScreen = { user: user._id, path: (window.location.pathname.replace(/\/+$/, '') || '/') + window.location.search, html, css, at: Date.now() };
  try {
    if (html.length > KEPT_SCREEN_MAX_CHARS) window.localStorage.removeItem(KEPT_SCREEN_KEY);
    else window.localStorage.setItem(KEPT_SCREEN_KEY, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the next visit starts on the loading screen.
  }
}
