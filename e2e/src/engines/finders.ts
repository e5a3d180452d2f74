/**
 * Finders for the smoke walk: each runs in the page, is its own source (no imports, no outside names) and
 * finds a control the way a person or a screen reader names it: by its label, its accessible name or the task
 * it belongs to.
 */
import type { Finder } from './engine.js';

/** The form field whose <label> reads `text`. */
export const fieldLabelled: Finder = (text) =>
  Array.from(document.querySelectorAll('label')).find((label) => label.textContent?.trim() === text)?.control;

/** The visible button named `name` (its aria-label, or else its text). */
export const buttonNamed: Finder = (name) =>
  Array.from(document.querySelectorAll('button')).find(
    (button) => (button.getAttribute('aria-label') ?? button.textContent ?? '').trim() === name && button.getClientRects().length > 0,
  );

/** The task row titled `title` (found by its checkbox, whose name holds the title). */
export const taskRow: Finder = (title) =>
  Array.from(document.querySelectorAll('li[data-todo-id] input[type="checkbox"]'))
    .find((box) => (box.getAttribute('aria-label') ?? '').includes(`“${title}”`))
    ?.closest('li');

/** The checkbox of the task titled `title` (its name says which task and what a tick does). */
export const taskCheckbox: Finder = (title) =>
  Array.from(document.querySelectorAll<HTMLInputElement>('li[data-todo-id] input[type="checkbox"]')).find((box) =>
    (box.getAttribute('aria-label') ?? '').includes(`“${title}”`),
  );

/** The "More actions" button of the task titled `title` (the row's menu below 640 px, PRODUCT §2). */
export const moreActions: Finder = (title) =>
  Array.from(document.querySelectorAll('li[data-todo-id] button[aria-haspopup="menu"]')).find(
    (button) => button.getAttribute('aria-label') === `More actions for “${title}”`,
  );

/** The item `label` of the open menu. */
export const menuItem: Finder = (label) =>
  Array.from(document.querySelectorAll('[role="menu"] [role="menuitem"]')).find((item) => item.textContent?.trim() === label);

/** Whether the task titled `title` is ticked. */
export const taskIsTicked = (title: string): boolean =>
  Array.from(document.querySelectorAll<HTMLInputElement>('li[data-todo-id] input[type="checkbox"]')).find((box) =>
    (box.getAttribute('aria-label') ?? '').includes(`“${title}”`),
  )?.checked ?? false;

/** Whether the task titled `title` is the first row of the list. */
export const taskIsFirst = (title: string): boolean =>
  (document.querySelector('li[data-todo-id] input[type="checkbox"]')?.getAttribute('aria-label') ?? '').includes(`“${title}”`);

/** Whether no row of the list is titled `title`. */
export const taskIsGone = (title: string): boolean =>
  !Array.from(document.querySelectorAll('li[data-todo-id] input[type="checkbox"]')).some((box) => (box.getAttribute('aria-label') ?? '').includes(`“${title}”`));

/** Whether the page shows the task list (its New task field). */
export const onTaskList = (): boolean =>
  location.pathname === '/' && Array.from(document.querySelectorAll('label')).some((label) => label.textContent?.trim() === 'New task');

/** The visible link whose text is `name`. */
export const linkNamed: Finder = (name) => Array.from(document.querySelectorAll('a')).find((link) => link.textContent?.trim() === name && link.getClientRects().length > 0);

/** The checkbox named `name` (its aria-label), wherever it is on the screen. */
export const checkboxNamed: Finder = (name) => Array.from(document.querySelectorAll('input[type="checkbox"]')).find((box) => box.getAttribute('aria-label') === name);

/** Whether the task titled `title` says it is due tomorrow at 09:00 on its row (PRODUCT §10.14; "9:00 AM" in en-US). */
export const taskDueTomorrowAtNine = (title: string): boolean =>
  /^Due Tomorrow 0?9[:.]00/.test(
    Array.from(document.querySelectorAll('li[data-todo-id]'))
      .find((row) => (row.querySelector('input[type="checkbox"]')?.getAttribute('aria-label') ?? '').includes(`“${title}”`))
      ?.querySelector('.tasks-item__due')?.textContent ?? '',
  );
