import { labelNameProblem, normalLabels, type Priority } from '@tm/contracts';

/** What "p1" and "@name" in a new task's words say (docs/PRODUCT.md §10.20): the priority, the labels, the title without them. */
export interface TaskTags {
  /** The priority a "p1" to "p4" sets (the last one written, when several are). */
  priority?: Priority;
  /** The labels "@name" adds, as normalLabels keeps them (each once, case aside). */
  labels: string[];
  /** The text with those words taken out. */
  rest: string;
}

const PRIORITY_WORD = /^p([1-4])$/i;

/**
 * The priority and labels in `text`: "p1" to "p4" and "@name" (a good label's name, todo-labels.ts), each
 * standing alone: at the start or after a space, and followed by a space or the end. So "email me@home" and
 * "@home," stay in the title, as does "@" alone. Null when the text says neither, or is nothing else (a task
 * needs a title: "@errand" alone is added as typed).
 */
export function taskTagsIn(text: string): TaskTags | null {
  if (!/(^|\s)(@|p[1-4](\s|$))/i.test(text)) return null;
  let priority: Priority | undefined;
  const labels: string[] = [];
  const kept: string[] = [];
  for (const word of text.split(/\s+/)) {
    const level = PRIORITY_WORD.exec(word)?.[1];
    if (level !== undefined) {
      priority = Number(level) as Priority;
      continue;
    }
    const name = word.startsWith('@') ? word.slice(1) : null;
    if (name !== null && labelNameProblem(name) === null) {
      labels.push(name);
      continue;
    }
    kept.push(word);
  }
  const rest = kept.join(' ').trim();
  if (rest === '' || (priority === undefined && labels.length === 0)) return null;
  return { ...(priority === undefined ? {} : { priority }), labels: normalLabels(labels), rest };
}
