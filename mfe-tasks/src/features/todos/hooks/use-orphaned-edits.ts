import { describeError, restoreTodo, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import { notifySuccess } from '@tm/web-platform';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useAddTodo } from '../api/add-todo';
import { orderTodos, upsertCachedTodos } from '../api/get-todos';
import type { DeletedElsewhere } from '../components/task-title-editor';

/** A task that went away while its title was being edited: the row stays with the text (PRODUCT §10.11.1). */
interface Orphan {
  todo: Todo;
  /** What was typed, when the editor had already closed (a save that found the task gone). */
  draft?: string;
  restorable: boolean;
  busy: boolean;
  problem?: string;
}

/**
 * The title editors of the list and what becomes of a task deleted elsewhere while its title is edited
 * (docs/PRODUCT.md §10.11.1): the row stays in its place with the typed text, says "This task was deleted on
 * another device.", and offers "Restore with my change" (restore-todo, then the new title; while the server
 * can still restore it), "Add as new task" and "Discard". Found either way: the live stream takes the task
 * out of the list while the editor is open, or the save answers 404.
 */
export function useOrphanedEdits(todos: Todo[], playAdded: () => void) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Todo | null>(null);
  const [orphan, setOrphan] = useState<Orphan | null>(null);
  const add = useAddTodo({ onAdded: playAdded });
  const listed = useMemo(() => new Set(todos.map((todo) => todo._id)), [todos]);
  // An editor still open on a task the list no longer holds: that task was taken away elsewhere.
  const gone = useMemo(() => orphan ?? (editing && !listed.has(editing._id) ? { todo: editing, restorable: true, busy: false } : null), [orphan, editing, listed]);
  const withGone = useMemo(() => (gone && !listed.has(gone.todo._id) ? orderTodos([...todos, gone.todo]) : todos), [todos, gone, listed]);

  const onEditing = useCallback((todo: Todo, on: boolean) => setEditing((current) => (on ? todo : current?._id === todo._id ? null : current)), []);
  /** The update hook's `onGone`: a save of a title found the task gone. */
  const onSaveFoundGone = useCallback((todo: Todo, patch: TodoPatch) => {
    if (patch.title === undefined) return false;
    setOrphan({ todo, draft: patch.title, restorable: true, busy: false });
    return true;
  }, []);

  const settle = () => {
    setOrphan(null);
    setEditing(null);
  };
  const busy = (current: Orphan) => setOrphan({ ...current, busy: true, problem: undefined });
  const deletedElsewhere: (DeletedElsewhere & { draft?: string }) | undefined = gone
    ? {
        ...gone,
        restore: (title) => {
          busy(gone);
          void (async () => {
            try {
              const restored = await restoreTodo(gone.todo._id);
              const answer = title === restored.todo.title ? restored : await updateTodo(gone.todo._id, { title });
              upsertCachedTodos(queryClient, [answer.todo]);
              notifySuccess(answer.message);
              settle();
            } catch (error) {
              // Too late (or gone for good): only "Add as new task" is left.
              setOrphan({ ...gone, busy: false, restorable: false, problem: describeError(error, 'It could not be restored.') });
            }
          })();
        },
        addAsNew: (title) => {
          busy(gone);
          add
            .mutateAsync(gone.todo.due === undefined ? { title } : { title, due: gone.todo.due })
            .then(settle)
            .catch((error: unknown) => setOrphan({ ...gone, busy: false, problem: describeError(error, 'It could not be added.') }));
        },
        discard: settle,
      }
    : undefined;
  return { withGone, goneId: gone?.todo._id, deletedElsewhere, onEditing, onSaveFoundGone };
}
