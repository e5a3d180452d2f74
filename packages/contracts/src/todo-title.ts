import { LIMITS } from './limits.js';

/**
 * The rules of a task title, in one dependency-free place (no zod: browser bundles import it to check a
 * title before sending it, and the server's `TodoTitle` schema applies the very same function).
 */

/** Shown when the title is empty, white space only, or made only of characters nobody can see. */
export const TODO_TITLE_EMPTY_MESSAGE = 'Enter a task before adding it.';

/** Shown when an edit would leave a task without a title (docs/PRODUCT.md §10.11.1): editing never deletes. */
export const TODO_TITLE_EDIT_EMPTY_MESSAGE = 'A task needs a title. Press Escape to keep the old one.';

/** Shown when the trimmed title is longer than {@link LIMITS}.todoTitle.max. */
export const TODO_TITLE_TOO_LONG_MESSAGE = `A task can be at most ${LIMITS.todoTitle.max} characters long.`;

/**
 * One character that shows something: anything but white space, control (Cc) and format (Cf: zero-width
 * space, ZWJ/ZWNJ, bidi marks, U+FEFF, U+2060…) characters, separators (Z), Unicode's default-ignorable code
 * points (variation selectors, soft hyphen, and the blank "fillers" that are formally letters or marks:
 * U+115F/U+1160 Hangul choseong/jungseong fillers, U+3164 Hangul filler, U+FFA0 half-width Hangul filler,
 * U+034F combining grapheme joiner) and U+2800 (braille blank). The fillers are also listed by hand, except
 * U+034F: a combining mark inside a character class reads as one combined with the character before it.
 * A single class searched once, so the check stays linear however long the title is.
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0\u2800]/u;

/**
 * The bidi embedding, override and isolate controls: LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and LRI, RLI,
 * FSI, PDI (U+2066–U+2069). They change the order in which the characters after them are *shown*: an RLO
 * makes "Pay Bob 100 \u202E05 ot" read "Pay Bob 100 to 50", and an unclosed one spills into whatever the page
 * shows next to the title (the "Trojan Source" trick, CVE-2021-42574). No task needs them: a title follows
 * its own writing direction on every screen (docs/PRODUCT.md §10.9). So they are removed from every title,
 * at add and at edit alike.
 *
 * The marks LRM, RLM (U+200E, U+200F) and ALM (U+061C) are kept on purpose: each is one invisible character
 * with a direction of its own, which only decides on which side the neutral characters next to it
 * (punctuation, digits, spaces) are shown. A mark cannot reverse or reorder a run of letters, opens nothing
 * that could spill out, and mixed right-to-left / left-to-right titles need them to put a full stop or a
 * number where the writer meant it.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * The title as the server stores it: without bidi embedding, override and isolate controls (see
 * {@link BIDI_CONTROLS}), then trimmed of white space at both ends (String.prototype.trim). A title made only
 * of such controls (and white space) is therefore empty.
 */
export function todoTitleValue(raw: string): string {
  return raw.replace(BIDI_CONTROLS, '').trim();
}

/**
 * What is wrong with `raw` as a task title, in words for the person who typed it, or `null` when it is
 * fine. After {@link todoTitleValue} (bidi controls removed, trimmed), a title must have 1 to 500 characters (JS string length, as zod's `.max` counts)
 * and at least one visible character; visible text with zero-width characters inside is accepted. An edit
 * passes {@link TODO_TITLE_EDIT_EMPTY_MESSAGE} as `emptyMessage`: the rules are the same, the words differ.
 */
export function todoTitleProblem(raw: string, emptyMessage: string = TODO_TITLE_EMPTY_MESSAGE): string | null {
  const title = todoTitleValue(raw);
  if (title.length < LIMITS.todoTitle.min || !VISIBLE.test(title)) return emptyMessage;
  if (title.length > LIMITS.todoTitle.max) return TODO_TITLE_TOO_LONG_MESSAGE;
  return null;
}
