import { INBOX_NAME } from './list-scope.js';
import { LIMITS } from './limits.js';
import { todoTitleValue } from './todo-title.js';

/**
 * The rules of lists (docs/PRODUCT.md §10.19) that both sides apply, in one dependency-free place (no zod:
 * browser bundles import it to check a name before sending it; the server's schemas and rules call the very
 * same functions). Placing a list (order keys) is order-keys.ts, so what only reads lists loads no key library.
 */

export * from './list-scope.js';

/** The colours a list may have: names, which each theme draws with its own accessible shade (design tokens). */
export const LIST_COLOURS = ['grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type ListColour = (typeof LIST_COLOURS)[number];
/** A list made without a colour has this one. */
export const DEFAULT_LIST_COLOUR: ListColour = 'grey';

export const LIST_NAME_EMPTY_MESSAGE = 'Enter a name for the list.';
export const LIST_NAME_TOO_LONG_MESSAGE = `A list name can be at most ${LIMITS.listName.max} characters long.`;
export const LIST_NAME_INBOX_MESSAGE = `“${INBOX_NAME}” is the list every account has; choose another name.`;
export const LIST_COLOUR_MESSAGE = `A list's colour is one of ${LIST_COLOURS.join(', ')}.`;
export const LIST_ORDER_MESSAGE = 'order must be a fractional order key (letters and digits, as orderKeyBetween makes them).';
export const LISTS_FULL_MESSAGE = `You can have at most ${LIMITS.lists} lists. Delete or archive one first.`;

/** The message for a name the person already gave another of their lists (compared as {@link listNameKey}). */
export function listNameTakenMessage(name: string): string {
  return `You already have a list named “${name}”.`;
}

/** A list name as it is kept: the title's rule (bidi controls removed, trimmed). */
export function listNameValue(raw: string): string {
  return todoTitleValue(raw);
}

/** What two names must not share to be two lists of one person: the name in lower case (locale-free), after {@link listNameValue}. */
export function listNameKey(name: string): string {
  return listNameValue(name).toLowerCase();
}

/**
 * What is wrong with `raw` as a list name, in words for the person who typed it, or `null`: 1 to
 * LIMITS.listName.max characters after {@link listNameValue}, at least one visible one, and not the Inbox's
 * name. Whether the person already has a list of that name is the server's to say ({@link listNameTakenMessage}).
 */
export function listNameProblem(raw: string): string | null {
  const name = listNameValue(raw);
  if (name.length < LIMITS.listName.min || !/[^\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/u.test(name)) return LIST_NAME_EMPTY_MESSAGE;
  if (name.length > LIMITS.listName.max) return LIST_NAME_TOO_LONG_MESSAGE;
  if (listNameKey(name) === INBOX_NAME.toLowerCase()) return LIST_NAME_INBOX_MESSAGE;
  return null;
}

/** Lists in the order a person arranged them: by order key, then by id. */
export function byListPlace<T extends { order: string; _id: string }>(a: T, b: T): number {
  if (a.order !== b.order) return a.order < b.order ? -1 : 1;
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}
