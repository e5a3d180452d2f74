import type { Todo } from '@tm/api-client';
import { PinIcon } from '@tm/web-platform';
import { memo, Suspense, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { completedAtFull, completedAtText } from '../completed-at';
import { afterNextPaint, measureSince, TICK_MEASURE } from '../perf-marks';
import { quoted as quotedTitle, TaskActions } from './task-actions';
import type { DeletedElsewhere } from './task-title-editor';
import { onFirstAct } from '../hooks/first-act';
import { useRowMotion } from '../hooks/use-row-motion';

import { preloadable } from './preloadable';

// The title editor is off the first load (issue #17): fetched at the first key or pointer press on the page,
// so it is in when a title is edited.
const { Component: TaskTitleEditor, preload: preloadEditor } = preloadable(() => import('./task-title-editor').then((module) => module.TaskTitleEditor));
if (typeof window !== 'undefined') onFirstAct(() => void preloadEditor());

interface TaskItemProps {
  todo: Todo;
  /** The row's index in the window's list (for its measurement) and its place for screen readers (1-based). */
  index: number;
  setSize: number;
  /** Its offset from the top of the list, in px: rows are placed by the window (issue #10). */
  top: number;
  /**
   * Entrance delay in seconds: staggered on the first load, 0 for rows new to the list (PRODUCT §2); `null`
   * for a row that was already in the list and comes into view by scrolling: it is simply there (§10.5).
   * Read when the row mounts (useRowMotion).
   */
  enterDelay: number | null;
  compact: boolean;
  /** Measures the row's height for the window. */
  measureRef: (element: HTMLLIElement | null) => void;
  /** Called with the value the user just gave the checkbox. */
  onToggleCompleted: (todo: Todo, completed: boolean) => void;
  onTogglePinned: (todo: Todo) => void;
  /** Called with the new, trimmed title; never with an unchanged one. */
  onRename: (todo: Todo, title: string) => void;
  onDelete: (todo: Todo) => void;
  onFocusLost: () => void;
  /** The title editor opened (`true`) or closed: the list keeps an edited task's text if it goes away. */
  onEditing: (todo: Todo, editing: boolean) => void;
  /**
   * Set when the task was deleted elsewhere while it was being edited (or its save found it gone): the row
   * stays, with the editor holding `draft` (or what was typed), and says so (PRODUCT §10.11.1).
   */
  deletedElsewhere?: DeletedElsewhere & { draft?: string };
}

/**
 * Times the tick of this row (issue #10, `tm:tick`): from the click to the frame painted once the cache holds
 * the new state (the optimistic value), so the whole path from the click to the list updated is counted.
 */
function useTickTiming(todo: Todo): (clickedAt: number, completed: boolean) => void {
  const pending = useRef<{ at: number; completed: boolean } | undefined>(undefined);
  // A layout effect runs right after the commit, before that frame is painted, so the frame callback below
  // is the one of the frame that paints it. A passive effect of this (non-input) update may run only after
  // that paint, and the measure would then wait for one more frame.
  useLayoutEffect(() => {
    const tick = pending.current;
    if (!tick || todo.completed !== tick.completed) return;
    pending.current = undefined;
    afterNextPaint(() => measureSince(TICK_MEASURE, tick.at));
  }, [todo]);
  return useCallback((at: number, completed: boolean) => {
    pending.current = { at, completed };
  }, []);
}

/**
 * One task: checkbox, title (struck through in orange when done), pinned marker and actions. A tap or click
 * on the title opens the task (docs/PRODUCT.md §10.11.1): today its title editor, the same as the Edit
 * action; only the checkbox ticks. Memoised: a tick re-renders only its own row (issue #10); the list passes
 * stable callbacks.
 */
export const TaskItem = memo(function TaskItem({
  todo,
  index,
  setSize,
  top,
  enterDelay,
  compact,
  measureRef,
  onToggleCompleted,
  onTogglePinned,
  onRename,
  onDelete,
  onFocusLost,
  onEditing,
  deletedElsewhere,
}: TaskItemProps) {
  const doneAtId = useId();
  const row = useRef<HTMLLIElement>(null);
  const setRow = useCallback(
    (element: HTMLLIElement | null) => {
      row.current = element;
      measureRef(element);
    },
    [measureRef],
  );
  const timeTick = useTickTiming(todo);
  const checkbox = useRef<HTMLInputElement>(null);
  // A row playing its exit animation is gone for keyboard and screen-reader users already.
  const { isPresent, hurry } = useRowMotion(row, todo._id, enterDelay);
  // The cache's optimistic update reaches React a tick after the click; until this todo object is replaced
  // (optimistic value, rollback or refetch) the checkbox shows the user's choice, so it never flickers back.
  const [clicked, setClicked] = useState<{ todo: Todo; completed: boolean } | null>(null);
  const completed = clicked?.todo === todo ? clicked.completed : todo.completed;

  const [editingHere, setEditing] = useState(false);
  // A task deleted elsewhere keeps its editor open, with what was typed, until the person decides.
  const editing = editingHere || deletedElsewhere !== undefined;
  // Where the focus goes once an edit ends with Enter or Escape: back to the control that started it (the
  // Edit button, or the menu button on small screens), or to the checkbox after a tap on the title.
  const editStartedBy = useRef<'control' | 'title'>('control');
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    const control = editStartedBy.current === 'control' ? row.current?.querySelector<HTMLElement>('[data-edit-return]') : null;
    (control ?? checkbox.current)?.focus();
  }, [editing]);

  // The task deleted elsewhere was restored (or its text added as a new task): its editor closes, and the
  // focus, which was on the button just gone, goes to the row's checkbox.
  const wasGone = useRef(false);
  useEffect(() => {
    if (deletedElsewhere) {
      wasGone.current = true;
      return;
    }
    if (!wasGone.current) return;
    wasGone.current = false;
    setEditing(false);
    const active = document.activeElement;
    if (!active || active === document.body || row.current?.contains(active)) checkbox.current?.focus();
  }, [deletedElsewhere]);

  const startEditing = (by: 'control' | 'title') => {
    editStartedBy.current = by;
    setEditing(true);
    onEditing(todo, true);
  };

  const classes = ['tasks-item', todo.isPinned && 'tasks-item--pinned', completed && 'tasks-item--completed', editing && 'tasks-item--editing'];
  const label = `Mark ${quotedTitle(todo.title)} as ${completed ? 'not completed' : 'completed'}`;
  return (
    <li
      ref={setRow}
      data-todo-id={todo._id}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      className={classes.filter(Boolean).join(' ')}
      style={{ top }}
      inert={!isPresent}
      onFocus={hurry}
      onPointerEnter={hurry}
    >
      {/* The checkbox's touch target: the whole box around it (24 px, 44 px on touch screens, PRODUCT §10.9). */}
      <label className="tasks-item__check">
        <input
          ref={checkbox}
          type="checkbox"
          className="tasks-item__checkbox"
          checked={completed}
          disabled={deletedElsewhere !== undefined}
          aria-label={label}
          aria-describedby={completed && todo.completedAt ? doneAtId : undefined}
          onChange={(event) => {
            timeTick(event.timeStamp, !completed);
            setClicked({ todo, completed: !completed });
            onToggleCompleted(todo, !completed);
          }}
        />
      </label>
      <div className="tasks-item__text">
        {editing ? (
          <Suspense fallback={<span className="tasks-item__title">{todo.title}</span>}>
            <TaskTitleEditor
              title={todo.title}
              initialDraft={deletedElsewhere?.draft}
              deletedElsewhere={deletedElsewhere}
              onDone={(title, how) => {
                refocus.current = how !== 'blur';
                setEditing(false);
                onEditing(todo, false);
                if (title !== undefined) onRename(todo, title);
              }}
            />
          </Suspense>
        ) : (
          // A tap or click on the title opens the task (PRODUCT §10.11.1): its title editor. Keyboard and
          // screen-reader users have the same in the row's Edit action; the checkbox beside it ticks.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a pointer shortcut to the Edit action, which every key reaches
          <span dir="auto" className={`tasks-item__title${completed ? ' tasks-item__title--completed' : ''}`} onClick={() => startEditing('title')}>
            {todo.title}
          </span>
        )}
        {/* When it was done (issue #18): under the title, in small type, and read with the checkbox. */}
        {completed && todo.completedAt && !editing && (
          <time id={doneAtId} className="tasks-item__done-at" dateTime={todo.completedAt} title={completedAtFull(todo.completedAt)}>
            {completedAtText(todo.completedAt)}
          </time>
        )}
      </div>
      {/* One pinned indicator per row: the pressed pin button on wide screens, this mark in the menu layout. */}
      {todo.isPinned && compact && (
        <span className="tasks-item__pinned">
          <PinIcon filled />
          <span className="visually-hidden">Pinned</span>
        </span>
      )}
      {!deletedElsewhere && (
        <TaskActions
          title={todo.title}
          isPinned={todo.isPinned}
          compact={compact}
          onEdit={() => startEditing('control')}
          onTogglePinned={() => onTogglePinned(todo)}
          onDelete={() => onDelete(todo)}
          onFocusLost={onFocusLost}
        />
      )}
    </li>
  );
});
