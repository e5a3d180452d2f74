import { listNameKey, type TaskList } from '@tm/contracts';

/** What "#Name" in a new task's words says (docs/PRODUCT.md §10.19): the list, the words, and the title without them. */
export interface ListTag {
  list: TaskList;
  /** The words as typed, "#work". */
  words: string;
  /** The text with them taken out. */
  rest: string;
}

/**
 * The list a "#Name" in `text` names: one of the person's active lists, its name compared case aside
 * (listNameKey), standing alone (at the start or after a space, and followed by a space or the end). An
 * archived list is out of the way (docs/PRODUCT.md §10.19): a task sent there from All tasks would vanish from
 * it, and Move to… does not offer one either. The longest name wins ("#Work trips" over "#Work"); null when no
 * "#" names a list, so "#1 priority" stays in the title.
 */
export function listTagIn(text: string, lists: readonly TaskList[]): ListTag | null {
  if (!text.includes('#') || lists.length === 0) return null;
  const byLength = lists.filter((list) => !list.archived).sort((a, b) => b.name.length - a.name.length);
  for (let at = text.indexOf('#'); at >= 0; at = text.indexOf('#', at + 1)) {
    if (at > 0 && !/\s/.test(text[at - 1] ?? '')) continue;
    const after = text.slice(at + 1);
    const list = byLength.find((candidate) => {
      const name = candidate.name;
      if (after.length < name.length || listNameKey(after.slice(0, name.length)) !== listNameKey(name)) return false;
      const next = after[name.length];
      return next === undefined || /\s/.test(next);
    });
    if (!list) continue;
    const words = text.slice(at, at + 1 + list.name.length);
    const rest = `${text.slice(0, at)} ${text.slice(at + 1 + list.name.length)}`.replace(/\s+/g, ' ').trim();
    return { list, words, rest };
  }
  return null;
}
