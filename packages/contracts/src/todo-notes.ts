import { LIMITS } from './limits.js';
import { todoTitleProblem, todoTitleValue } from './todo-title.js';

/**
 * The rules of a task's note and subtasks (docs/PRODUCT.md §10.21), in one dependency-free place (no zod):
 * browser bundles import them to check, show and count what the person typed, and the service's schemas
 * apply the very same functions.
 *
 * A note is plain text: kept as typed (inner new lines and spacing too), shown as text with its http(s)
 * links made clickable, nothing else rendered. Subtasks are one level of checklist items, each with an id
 * its device made, a title that follows a task title's rules and a done mark, in the order the person gave.
 */

/** One subtask of a task's checklist (§10.21). */
export interface Subtask {
  /** 1–40 letters, digits, `_` or `-`, unique within the task; made by the device (crypto.randomUUID()). */
  id: string;
  /** A title by the task title's rules (todo-title.ts): trimmed, 1–500 characters, something visible. */
  title: string;
  done: boolean;
}

/** A subtask id's pattern (also the OpenAPI document's). */
export const SUBTASK_ID_PATTERN = '^[A-Za-z0-9_-]{1,40}$';
const SUBTASK_ID = new RegExp(SUBTASK_ID_PATTERN);

export const NOTE_TOO_LONG_MESSAGE = `A note can be at most ${LIMITS.note.max} characters long.`;
export const SUBTASKS_TOO_MANY_MESSAGE = `A task has at most ${LIMITS.subtasksPerTask} subtasks.`;
export const SUBTASK_ID_MESSAGE = 'A subtask id is 1 to 40 letters, digits, _ or -.';
export const SUBTASK_IDS_REPEATED_MESSAGE = 'Each subtask id once within a task.';
export const SUBTASK_TITLE_EMPTY_MESSAGE = 'A subtask needs a title.';

/**
 * A note as kept: as a title is (todoTitleValue: without the bidi controls that reorder what is shown after
 * them, trimmed at both ends), inner new lines kept. An empty result is no note (a patch of `""` removes it).
 */
export function noteValue(raw: string): string {
  return todoTitleValue(raw);
}

/** What is wrong with `raw` as a note, or `null` when it is fine (an empty one is fine: it is no note). */
export function noteProblem(raw: string): string | null {
  return noteValue(raw).length > LIMITS.note.max ? NOTE_TOO_LONG_MESSAGE : null;
}

/** What is wrong with `id` as a subtask's id, or `null`. */
export function subtaskIdProblem(id: string): string | null {
  return SUBTASK_ID.test(id) ? null : SUBTASK_ID_MESSAGE;
}

/** What is wrong with `raw` as a subtask's title (a task title's rules, with a subtask's words when empty), or `null`. */
export function subtaskTitleProblem(raw: string): string | null {
  return todoTitleProblem(raw, SUBTASK_TITLE_EMPTY_MESSAGE);
}

/** What is wrong with a whole checklist as a whole (how many, ids each once), or `null`; each item is checked on its own. */
export function subtasksProblem(subtasks: readonly Pick<Subtask, 'id'>[]): string | null {
  if (subtasks.length > LIMITS.subtasksPerTask) return SUBTASKS_TOO_MANY_MESSAGE;
  if (new Set(subtasks.map((item) => item.id)).size !== subtasks.length) return SUBTASK_IDS_REPEATED_MESSAGE;
  return null;
}

/** A checklist as kept: each title as a task title is kept (todoTitleValue), only the three fields, order as given. */
export function normalSubtasks(subtasks: readonly Subtask[]): Subtask[] {
  return subtasks.map(({ id, title, done }) => ({ id, title: todoTitleValue(title), done }));
}

/**
 * A task's note and subtasks as it keeps them: absent when empty, so a client that never sends them never sees
 * them. The service stores this (both stores), at add and at update.
 */
export function taskDetails({ note, subtasks }: { note?: string | null | undefined; subtasks?: readonly Subtask[] | null | undefined }): { note?: string; subtasks?: Subtask[] } {
  const text = note === undefined || note === null ? '' : noteValue(note);
  return {
    ...(text === '' ? {} : { note: text }),
    ...(subtasks === undefined || subtasks === null || subtasks.length === 0 ? {} : { subtasks: normalSubtasks(subtasks) }),
  };
}

/** How far a checklist is: done and total; `null` for a task without subtasks. */
export function subtaskProgress(subtasks: readonly Pick<Subtask, 'done'>[] | undefined): { done: number; total: number } | null {
  if (subtasks === undefined || subtasks.length === 0) return null;
  return { done: subtasks.filter((item) => item.done).length, total: subtasks.length };
}

/** The progress as a row shows it: "2/5". */
export function progressText({ done, total }: { done: number; total: number }): string {
  return `${done}/${total}`;
}

/** The progress in words, a row mark's accessible name: "2 of 5 subtasks done" ("1 of 1 subtask done"). */
export function progressLabel({ done, total }: { done: number; total: number }): string {
  return `${done} of ${total} ${total === 1 ? 'subtask' : 'subtasks'} done`;
}

/**
 * The subtasks as the history and a change's base see them, one JSON scalar: the checklist as JSON text
 * (`[{"id":"a","title":"Milk","done":false}]`, keys in that order), none `null`. Two equal checklists have
 * equal values, so a change made elsewhere meanwhile is seen (docs/PRODUCT.md §10.4).
 */
export function subtasksFieldValue(subtasks: readonly Subtask[] | null | undefined): string | null {
  if (subtasks === undefined || subtasks === null || subtasks.length === 0) return null;
  return JSON.stringify(subtasks.map(({ id, title, done }) => ({ id, title, done })));
}

/** The checklist a history value holds ({@link subtasksFieldValue}); `[]` for none or for text that is not one. */
export function subtasksOfFieldValue(value: unknown): Subtask[] {
  if (typeof value !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((item: unknown) => {
      if (typeof item !== 'object' || item === null) return [];
      const { id, title, done } = item as Record<string, unknown>;
      return typeof id === 'string' && typeof title === 'string' && typeof done === 'boolean' ? [{ id, title, done }] : [];
    });
  } catch {
    return [];
  }
}

/**
 * A checklist change in words, as the history says it (§10.21): one subtask added, removed, done, reopened or
 * renamed is named ("Subtask done: Buy milk"); the same items in another order "Subtasks reordered"; anything
 * else "Subtasks changed", and an emptied list "Subtasks removed".
 */
export function subtasksChangeText(before: readonly Subtask[], after: readonly Subtask[]): string {
  if (after.length === 0) return 'Subtasks removed';
  const beforeById = new Map(before.map((item) => [item.id, item]));
  const afterById = new Map(after.map((item) => [item.id, item]));
  const added = after.filter((item) => !beforeById.has(item.id));
  const removed = before.filter((item) => !afterById.has(item.id));
  const changed = after.flatMap((item) => {
    const old = beforeById.get(item.id);
    return old !== undefined && (old.title !== item.title || old.done !== item.done) ? [{ old, item }] : [];
  });
  const [first] = added;
  const [gone] = removed;
  const [edit] = changed;
  const only = added.length + removed.length + changed.length === 1;
  if (only && first !== undefined) return `Subtask added: ${first.title}`;
  if (only && gone !== undefined) return `Subtask removed: ${gone.title}`;
  if (only && edit !== undefined && edit.old.title === edit.item.title) return `${edit.item.done ? 'Subtask done' : 'Subtask reopened'}: ${edit.item.title}`;
  if (only && edit !== undefined && edit.old.done === edit.item.done) return `Subtask renamed: ${edit.old.title} → ${edit.item.title}`;
  if (added.length + removed.length + changed.length === 0 && before.length === after.length) return 'Subtasks reordered';
  return 'Subtasks changed';
}

/** One piece of a note as shown: plain text, or a link to an http(s) address (its text is the address). */
export type NotePart = { text: string } | { text: string; href: string };

/**
 * http(s) addresses in text: the scheme, then anything up to white space or a character that does not go in
 * an address written in prose (<, >, quotes). Punctuation that ends a sentence is left out after the match
 * ({@link trimLinkEnd}). One pass, linear in the note's length.
 */
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/giu;

/** The end of a matched address without the punctuation that closes the sentence around it. */
function trimLinkEnd(match: string): string {
  let end = match.length;
  for (;;) {
    const last = match[end - 1];
    if (last === undefined) break;
    if ('.,;:!?*'.includes(last)) {
      end -= 1;
      continue;
    }
    // A closing bracket belongs to the address only when the address opened one ("…/Foo_(bar)").
    const pair = last === ')' ? '(' : last === ']' ? '[' : last === '}' ? '{' : null;
    if (pair === null) break;
    const head = match.slice(0, end);
    if (head.split(pair).length >= head.split(last).length) break;
    end -= 1;
  }
  return match.slice(0, end);
}

/** Whether the URL parser reads `text` as an address (a host is there). */
function isAddress(text: string): boolean {
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
}

/**
 * A note cut into plain text and links (§10.21): each http(s) address becomes a link, whatever else is there
 * stays text (the screen shows it as text, so nothing in a note is ever rendered as markup). An address that
 * is only a scheme ("https://") stays text. Adjacent text pieces are joined.
 */
export function noteParts(note: string): NotePart[] {
  const parts: NotePart[] = [];
  const pushText = (text: string): void => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last !== undefined && !('href' in last)) last.text += text;
    else parts.push({ text });
  };
  let at = 0;
  for (const match of note.matchAll(LINK)) {
    const address = trimLinkEnd(match[0]);
    const start = match.index;
    if (/^https?:\/\/$/i.test(address) || !isAddress(address)) continue;
    pushText(note.slice(at, start));
    parts.push({ text: address, href: address });
    at = start + address.length;
  }
  pushText(note.slice(at));
  return parts;
}
