// The rules of a task change that both sides apply (docs/PRODUCT.md §7, §10.4, §10.11): which fields a
// patch sets, what a tick is, and the words of an update. Dependency-free (no zod), like todo-title.ts:
// browser bundles import it, and the service's routes use the very same functions.

/** A task's patchable values (the `TodoPatch` schema's shape, without the schema). */
export interface PatchValues {
  title: string;
  completed: boolean;
  isPinned: boolean;
}

/** A patch: some of the values. */
export type PatchOf = Partial<PatchValues>;

/**
 * The fields a patch sets, in the order messages name them: the outbox, the merge and the change history
 * (docs/PRODUCT.md §10.4) work over this list, so a field added here syncs with no new sync code.
 */
export const TODO_PATCH_FIELDS = ['title', 'completed', 'isPinned'] as const;
export type TodoPatchField = (typeof TODO_PATCH_FIELDS)[number];

/** The fields `patch` sets, in {@link TODO_PATCH_FIELDS} order. */
export function patchedFields(patch: PatchOf): TodoPatchField[] {
  return TODO_PATCH_FIELDS.filter((field) => patch[field] !== undefined);
}

/**
 * A tick (docs/PRODUCT.md §10.11.4): a patch of `completed` alone. Only a tick that changes the task keeps an
 * undo of its own (POST /todo/restore-bulk with its token); an edit, a pin or a patch of several fields does not.
 */
export function isTick(patch: PatchOf): boolean {
  const fields = patchedFields(patch);
  return fields.length === 1 && fields[0] === 'completed';
}

/**
 * What an update says (docs/PRODUCT.md §7, §10.11.1): what it changed, in the words of that change. One field
 * changed: "Task completed", "Task marked active", "Task pinned", "Task unpinned", "Title changed"; several:
 * "Task updated". Nothing changed (a repeat, or another device got there first): what the task already is,
 * for a patch of one field ("Task already completed"…), else "Task unchanged".
 */
export const UPDATE_MESSAGES = {
  completed: { true: 'Task completed', false: 'Task marked active' },
  isPinned: { true: 'Task pinned', false: 'Task unpinned' },
  title: 'Title changed',
  several: 'Task updated',
  already: {
    completed: { true: 'Task already completed', false: 'Task already active' },
    isPinned: { true: 'Task already pinned', false: 'Task already unpinned' },
    title: 'Title unchanged',
  },
  unchanged: 'Task unchanged',
} as const;



/**
 * The words of an update that changed `changed` and left the task with `values` (the server's answer), or, for
 * a change still on the device, of the patch itself: `changeMessage(patchedFields(patch), patch)`
 * (docs/PRODUCT.md §10.4).
 */
export function changeMessage(changed: readonly TodoPatchField[], values: Partial<PatchValues>): string {
  const [field, ...more] = changed;
  if (field === undefined) return UPDATE_MESSAGES.unchanged;
  if (more.length > 0) return UPDATE_MESSAGES.several;
  return field === 'title' ? UPDATE_MESSAGES.title : UPDATE_MESSAGES[field][`${values[field] === true}`];
}

/** The words of an update that changed nothing: what the task already is, for a patch of one field. */
export function unchangedMessage(patch: PatchOf, todo: PatchValues): string {
  const [only, ...others] = patchedFields(patch);
  if (only === undefined || others.length > 0) return UPDATE_MESSAGES.unchanged;
  return only === 'title' ? UPDATE_MESSAGES.already.title : UPDATE_MESSAGES.already[only][`${todo[only]}`];
}

