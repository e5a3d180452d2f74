import { LIMITS } from './limits.js';

/**
 * The rules of labels and priorities (docs/PRODUCT.md §10.20), in one dependency-free place: browser bundles
 * import them to check and show what the person typed, and the service's schemas apply the very same
 * functions.
 *
 * A label is a name a task carries, not a record of its own (as the labels of Todoist's REST API): "@errand"
 * in quick add makes it by being written, a person's labels are the ones their tasks carry, and no id can be
 * unknown. Names compare case aside, so "Errand" and "errand" are one label.
 */

/**
 * One label's name: letters, digits and `- _ . /`, no spaces, so that "@name" in quick add always writes it.
 * The source is also the OpenAPI document's pattern (ECMA-262 with the `u` flag).
 */
export const LABEL_NAME_PATTERN = '^[\\p{L}\\p{M}\\p{N}_./-]+$';
const LABEL_NAME = new RegExp(LABEL_NAME_PATTERN, 'u');

export const LABEL_NAME_MESSAGE = `A label is 1 to ${LIMITS.labelName.max} letters, digits or - _ . / with no spaces.`;
export const LABELS_TOO_MANY_MESSAGE = `A task has at most ${LIMITS.labelsPerTask} labels.`;

/** What is wrong with `name` as a label, or null when it is a good one. */
export function labelNameProblem(name: string): string | null {
  if (name.length < LIMITS.labelName.min || name.length > LIMITS.labelName.max || !LABEL_NAME.test(name)) return LABEL_NAME_MESSAGE;
  return null;
}

/** How two label names compare: case aside, in one Unicode form. */
export function labelKey(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('en');
}

/**
 * A task's labels as kept: each name once (case aside, the first spelling wins), in the order of their keys,
 * so two devices that add the same labels in another order keep the same value.
 */
export function normalLabels(names: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const normal = name.normalize('NFC');
    const key = labelKey(normal);
    if (!byKey.has(key)) byKey.set(key, normal);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, name]) => name);
}

/**
 * The person's labels: every name their tasks carry, once each (case aside), with how many open tasks carry
 * it, in the order of their keys.
 */
export function labelsInUse(todos: readonly { labels?: readonly string[]; completed: boolean }[]): { name: string; open: number }[] {
  const found = new Map<string, { name: string; open: number }>();
  for (const todo of todos) {
    for (const name of todo.labels ?? []) {
      const key = labelKey(name);
      const entry = found.get(key) ?? { name, open: 0 };
      if (!todo.completed) entry.open += 1;
      found.set(key, entry);
    }
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
}

/** Whether a task carries the label `name` (case aside). */
export function hasLabel(todo: { labels?: readonly string[] }, name: string): boolean {
  const key = labelKey(name);
  return (todo.labels ?? []).some((label) => labelKey(label) === key);
}

/**
 * Priorities 1 (the most urgent) to 4 (none: the default), as Todoist numbers them. A task without a
 * priority is priority 4; the API keeps 1–3 and takes 4 as "none".
 */
export const PRIORITIES = [1, 2, 3, 4] as const;
export type Priority = (typeof PRIORITIES)[number];
export const NO_PRIORITY = 4;

export const PRIORITY_MESSAGE = 'A priority is 1 (the most urgent), 2, 3 or 4 (none).';

/** A task's priority, 4 when it has none. */
export function priorityOf(todo: { priority?: number }): Priority {
  const value = todo.priority;
  return value === 1 || value === 2 || value === 3 ? value : NO_PRIORITY;
}

/**
 * A task's priority and labels as it keeps them: priority 1–3, none for 4 (the default); its labels each once,
 * case aside, in order (normalLabels), none for `[]`. Absent fields stay absent, so a client that never sends
 * them never sees them. The service stores this; a new task's request carries the same.
 */
export function taskMarks({ priority, labels }: { priority?: Priority | undefined; labels?: readonly string[] | undefined }): { priority?: 1 | 2 | 3; labels?: string[] } {
  return {
    ...(priority === undefined || priority === NO_PRIORITY ? {} : { priority }),
    ...(labels === undefined || labels.length === 0 ? {} : { labels: normalLabels(labels) }),
  };
}

/** The words of a priority, as its mark says them: "Priority 1" … "Priority 4". */
export function priorityName(priority: Priority): string {
  return `Priority ${priority}`;
}
