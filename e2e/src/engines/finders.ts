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

/** 09:00 in the browser's locale, as a row and quick add's preview say a time ("09:00", "09:00 AM" in en-US). */
export const nineInTheMorning = (): string => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(new Date(2000, 0, 1, 9));

/** The open modal dialog named `name` (its aria-labelledby title). */
export const dialogNamed: Finder = (name) =>
  Array.from(document.querySelectorAll('dialog[open]')).find((dialog) => document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() === name);

/** Whether no modal dialog is open. */
export const noDialogOpen = (): boolean => document.querySelector('dialog[open]') === null;

/** Whether the focus is in the field whose <label> reads `text`. */
export const fieldFocused = (text: string): boolean =>
  Array.from(document.querySelectorAll('label')).some((label) => label.textContent?.trim() === text && label.control !== null && label.control === document.activeElement);

/** The value of the field whose <label> reads `text` ('' when there is none). */
export const fieldValue = (text: string): string =>
  (Array.from(document.querySelectorAll('label')).find((label) => label.textContent?.trim() === text)?.control as HTMLInputElement | null | undefined)?.value ?? '';

/**
 * The <label> of the open dialog's checkbox named `name` (its words less those hidden from screen readers:
 * "Monday" for the weekday tile showing "Mo", PRODUCT §10.16): what a person taps.
 */
export const checkboxLabel: Finder = (name) =>
  Array.from(document.querySelectorAll('dialog[open] label')).find((label) => {
    const named = label.cloneNode(true) as Element;
    named.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    return named.textContent?.trim() === name && label.querySelector('input[type="checkbox"]') !== null;
  });

/** The names of the open dialog's ticked checkboxes (their labels' words, as checkboxLabel reads them), in its order. */
export const dialogTicks = (): string[] =>
  Array.from(document.querySelectorAll<HTMLInputElement>('dialog[open] label input[type="checkbox"]'))
    .filter((box) => box.checked)
    .map((box) => {
      const named = box.closest('label')?.cloneNode(true) as Element | undefined;
      named?.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
      return named?.textContent?.trim() ?? '';
    });

/**
 * How the open dialog sits (PRODUCT §10.14, §10.9): inside the viewport, nothing spilling out sideways, and
 * the height of its tallest button (each is 44 px unless its words wrap), in whole pixels.
 */
export const dialogLayout = (): { inside: boolean; sideways: boolean; tallestButton: number } => {
  const dialog = document.querySelector('dialog[open]');
  const box = dialog?.getBoundingClientRect();
  return {
    inside: box !== undefined && box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight,
    sideways: dialog ? dialog.scrollWidth > dialog.clientWidth : true,
    tallestButton: Math.round(Math.max(0, ...Array.from(dialog?.querySelectorAll('button') ?? []).map((button) => button.getBoundingClientRect().height))),
  };
};

/** The visible button of the open dialog named `name`. */
export const dialogButton: Finder = (name) =>
  Array.from(document.querySelectorAll('dialog[open] button')).find(
    (button) => (button.getAttribute('aria-label') ?? button.textContent ?? '').trim() === name && button.getClientRects().length > 0,
  );

/**
 * The preview of the next dates in the open dialog (PRODUCT §10.16), when the Repeat field is described by
 * it (read with the field by screen readers); '' otherwise.
 */
export const repeatPreview = (): string => {
  const dialog = document.querySelector('dialog[open]');
  const repeat = Array.from(dialog?.querySelectorAll('label') ?? []).find((label) => label.textContent?.trim() === 'Repeat')?.control;
  const preview = document.getElementById(repeat?.getAttribute('aria-describedby') ?? '');
  return preview && dialog?.contains(preview) ? (preview.textContent ?? '') : '';
};

/**
 * The days these many days from today (`days`: "2,5,9"), on this browser's clock (the walk's person has no
 * time zone of their own, so theirs is the browser's: PRODUCT §10.14). Each as a due date takes it; as its row
 * says it (the weekday and date in the browser's locale, with the year when it is not this one: "Sat 14
 * Dec"); as a person types it into a date field, written in the locale's order with its separators
 * ("12/14/2026" in en-US: WebKit's date field goes on to its next part at a separator, never after a part's
 * last digit; Chromium and Firefox take either); and its weekday in full English words, as the date dialog
 * names its day tiles ("Monday").
 */
export const daysAhead = (days: string): { due: string; words: string; typed: string; weekday: string }[] =>
  days.split(',').map((ahead) => {
    const now = new Date();
    const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + Number(ahead));
    const pad = (value: number) => String(value).padStart(2, '0');
    const sameYear = date.getFullYear() === now.getFullYear();
    return {
      due: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
      words: new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) }).format(date),
      typed: new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(date),
      weekday: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][date.getDay()] ?? '',
    };
  });

/** What the row of the task titled `title` says of its date: its `datetime`, its words, its plan ("Repeats · 1 reminder", PRODUCT §10.16, §10.17), whether it is ticked. */
export const taskDates = (title: string): { due: string | null; words: string | null; plan: string | null; ticked: boolean | null } => {
  const row = Array.from(document.querySelectorAll('li[data-todo-id]')).find((li) =>
    (li.querySelector('input[type="checkbox"]')?.getAttribute('aria-label') ?? '').includes(`“${title}”`),
  );
  const due = row?.querySelector('time.tasks-item__due');
  return {
    due: due?.getAttribute('datetime') ?? null,
    words: due?.textContent ?? null,
    plan: row?.querySelector('.tasks-item__plan')?.textContent ?? null,
    ticked: row?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.checked ?? null,
  };
};

/** What the server holds of the dates of the task titled `title` (asked with the page's cookies; a GET needs no XSRF header). */
export const serverDates = (
  title: string,
): Promise<{ due: string | null; repeat: string | null; reminders: number[] | null; completed: boolean | null; repeatDone: number }> =>
  fetch('/api/todo/fetch-todo', { credentials: 'same-origin' })
    .then((response) => response.json() as Promise<{ todos: { title: string; due?: string; repeat?: string; reminders?: number[]; completed: boolean; repeatDone?: string[] }[] }>)
    .then(({ todos }) => {
      const todo = todos.find((each) => each.title === title);
      return {
        due: todo?.due ?? null,
        repeat: todo?.repeat ?? null,
        reminders: todo?.reminders ?? null,
        completed: todo?.completed ?? null,
        repeatDone: todo?.repeatDone?.length ?? 0,
      };
    });

/**
 * What quick add understood (PRODUCT §10.14), as the preview under the New task field says it and screen
 * readers read it with the field (its aria-describedby); '' when the field is described by no preview.
 */
export const quickAddPreview = (): string => {
  const field = Array.from(document.querySelectorAll('label')).find((label) => label.textContent?.trim() === 'New task')?.control;
  const described = (field?.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return described.map((id) => document.getElementById(id)).find((node) => node?.classList.contains('tasks-form__preview'))?.textContent ?? '';
};

/** Whether a toast (a status message) says `text`. */
export const toastSays = (text: string): boolean => Array.from(document.querySelectorAll('[role="status"]')).some((toast) => toast.textContent?.includes(text));

/** The heading of the Today screen's section that lists the task titled `title` (PRODUCT §10.15), '' when none does. */
export const agendaSectionOf = (title: string): string => {
  const link = Array.from(document.querySelectorAll('section[aria-labelledby] a')).find((each) => each.textContent?.trim() === title);
  const section = link?.closest('section[aria-labelledby]');
  return document.getElementById(section?.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() ?? '';
};
