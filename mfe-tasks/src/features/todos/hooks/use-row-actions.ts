import type { Todo, TodoPatch } from '@tm/api-client';
import { NO_PRIORITY, type Priority } from '@tm/contracts';
import { useCallback, useMemo } from 'react';
import { useDeleteTodo } from '../api/delete-todo';
import { useUndoTick } from '../api/restore-bulk';
import { useRestoreTodo } from '../api/restore-todo';
import { useUpdateTodo, type Tick } from '../api/update-todo';
import { offerUndoDelete, offerUndoTick } from '@tm/web-platform/undo';
import type { FocusAfterChange } from './use-row-focus';

/** The date fields of a task a dialog sets together: due date, repeat, reminders (PRODUCT §10.14, §10.16, §10.17). */
export type DatesPatch = Pick<TodoPatch, 'due' | 'repeat' | 'repeatFrom' | 'reminders'>;

/** A task's note and subtasks as its details set them (docs/PRODUCT.md §10.21): the note, or the whole checklist. */
export type DetailsPatch = Pick<TodoPatch, 'note' | 'subtasks'>;

/** What a row can do to its task; each function stays the same across renders (a tick re-renders one row). */
export interface RowActions {
  /** Called with the value the user just gave the checkbox. */
  onToggleCompleted: (todo: Todo, completed: boolean) => void;
  onTogglePinned: (todo: Todo) => void;
  /** Called with the new, trimmed title; never with an unchanged one. */
  onRename: (todo: Todo, title: string) => void;
  /** Sets the due date (docs/PRODUCT.md §10.14), or removes it with null. */
  /** Sets the due date, repeat and reminders the patch names (PRODUCT §10.14, §10.16, §10.17). */
  onSetDue: (todo: Todo, patch: DatesPatch) => void;
  /** Sets the priority, 1 to 3, or removes it with 4 (docs/PRODUCT.md §10.20). */
  onSetPriority: (todo: Todo, priority: Priority) => void;
  /** Sets the labels, as normalLabels keeps them; none removes them (docs/PRODUCT.md §10.20). One change. */
  onSetLabels: (todo: Todo, labels: string[]) => void;
  /** Sets the note or the whole checklist (docs/PRODUCT.md §10.21): one change per action in the details. */
  onSetDetails: (todo: Todo, patch: DetailsPatch) => void;
  onDelete: (todo: Todo) => void;
  /** The row's delete control let go of the focus (the row is leaving): the focus moves on (PRODUCT §10.9). */
  onFocusLost: () => void;
}

/**
 * The actions of the rows, optimistic (docs/PRODUCT.md §4, §10.5.4): tick, pin, rename, dates, priority, labels and delete, each
 * offering Undo where the spec has one (a delete, a tick: §10.11.4), with the Undo's own request (restore,
 * undo of the tick). The sounds (`playSuccess`, `playDeleted`) and the celebration (`onCompleted`, the
 * page's) follow the server's answer (§10.6); where the focus goes is `focus`'s to say (§10.9). `onGone` is
 * told when a save found its task deleted elsewhere (see useUpdateTodo).
 */
export function useRowActions(
  focus: FocusAfterChange,
  playSuccess: () => void,
  playDeleted: () => void,
  onCompleted: () => void,
  onGone: (todo: Todo, patch: TodoPatch) => boolean,
): RowActions {
  const { ticked, deleting, moveFocus, restored } = focus;
  const { mutate: restoreTask } = useRestoreTodo({ onRestored: restored });
  const { mutate: undoTick } = useUndoTick({ onRestored: restored });
  const onDeleted = useCallback(
    (todo: Todo, message: string, queuedCommandId?: string) => offerUndoDelete(todo.title, todo._id, message, () => restoreTask({ todo, queuedCommandId })),
    [restoreTask],
  );
  const onTicked = useCallback(
    // The tick's direction is the opposite of what the task was: a repeating task completed stays open at its
    // next date (PRODUCT §10.16), so the answer's `completed` does not tell it.
    ({ todo, message, undoToken, before }: Tick) =>
      offerUndoTick(todo.title, todo._id, !before.completed, message, () => undoTick({ undoToken, todoId: todo._id, before })),
    [undoTick],
  );
  // PRODUCT §10.6: sound and confetti once the server confirmed the completion, not before.
  const { mutate: update } = useUpdateTodo({
    onCompleted: () => {
      playSuccess();
      onCompleted();
    },
    onTicked,
    onGone,
  });
  const { mutate: remove } = useDeleteTodo({ onDeleted });

  const toggleCompleted = useCallback(
    (todo: Todo, completed: boolean) => {
      update({ todoId: todo._id, patch: { completed } });
      ticked(todo, completed);
    },
    [update, ticked],
  );
  const togglePinned = useCallback((todo: Todo) => update({ todoId: todo._id, patch: { isPinned: !todo.isPinned } }), [update]);
  const rename = useCallback((todo: Todo, title: string) => update({ todoId: todo._id, patch: { title } }), [update]);
  const setDue = useCallback((todo: Todo, patch: DatesPatch) => update({ todoId: todo._id, patch }), [update]);
  const setPriority = useCallback((todo: Todo, priority: Priority) => update({ todoId: todo._id, patch: { priority: priority === NO_PRIORITY ? null : priority } }), [update]);
  const setLabels = useCallback((todo: Todo, labels: string[]) => update({ todoId: todo._id, patch: { labels } }), [update]);
  const setDetails = useCallback((todo: Todo, patch: DetailsPatch) => update({ todoId: todo._id, patch }), [update]);
  const deleteTask = useCallback(
    (todo: Todo) => {
      deleting(todo);
      remove(todo._id);
      playDeleted();
    },
    [deleting, remove, playDeleted],
  );
  return useMemo(
    () => ({
      onToggleCompleted: toggleCompleted,
      onTogglePinned: togglePinned,
      onRename: rename,
      onSetDue: setDue,
      onSetPriority: setPriority,
      onSetLabels: setLabels,
      onSetDetails: setDetails,
      onDelete: deleteTask,
      onFocusLost: moveFocus,
    }),
    [toggleCompleted, togglePinned, rename, setDue, setPriority, setLabels, setDetails, deleteTask, moveFocus],
  );
}
