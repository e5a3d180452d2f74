import type { Todo } from '@tm/api-client';
import { PinIcon } from '@tm/web-platform';
import { m, useIsPresent, type Variants } from 'framer-motion';
import { memo, Suspense, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { completedAtFull, completedAtText } from '../completed-at';
import { DOUBLE_CLICK_MS, MOTION } from '../constants';
import { afterNextPaint, measureSince, TICK_MEASURE } from '../perf-marks';
import { TaskActions } from './task-actions';
import { onFirstAct } from '../hooks/first-act';

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
}

/**
 * The row's entrance (docs/PRODUCT.md §10.5.2): it waits `enterDelay` seconds for its turn in the stagger,
 * then fades in. It can be used all the while (issue #18: rows became usable one by one over 2.3 s): a row
 * that gets the focus or the pointer before its turn comes in at once (`hurry`), so nobody works on a row
 * they cannot see.
 */
function useEntrance(enterDelay: number | null): { animate: 'waiting' | 'hurried'; hurry: () => void; settle: () => void } {
  const [hurried, setHurried] = useState(false);
  const entered = useRef(!enterDelay);
  return {
    animate: hurried ? 'hurried' : 'waiting',
    hurry: () => {
      if (!entered.current) setHurried(true);
    },
    settle: () => {
      entered.current = true;
    },
  };
}

function entranceVariants(enterDelay: number | null): Variants {
  return {
    waiting: { opacity: 1, y: 0, transition: { delay: enterDelay ?? 0, duration: MOTION.enterSeconds } },
    // Keyframes from wherever the row is (`null`): framer-motion starts no new animation for a variant whose
    // targets equal the current ones, and these differ in form, so the waiting row comes in now.
    hurried: { opacity: [null, 1], y: [null, 0], transition: { duration: MOTION.enterSeconds / 2 } },
  };
}

/**
 * How a row leaves, given by the list (AnimatePresence's `custom`) when the row goes: a task that is gone
 * from the list (deleted, ticked out of the filter) plays the 0.5 s exit of PRODUCT §9; a row that only
 * left the window by scrolling is still in the list and goes at once.
 */
export type StillListed = (todoId: string) => boolean;

function rowVariants(todoId: string, enterDelay: number | null): Variants {
  return {
    ...entranceVariants(enterDelay),
    leave: (stillListed: StillListed | undefined) =>
      stillListed?.(todoId) ? { opacity: 0, transition: { duration: 0 } } : { opacity: 0, x: -32, transition: { duration: MOTION.exitSeconds } },
  };
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
 * One task: checkbox, title (struck through in orange when done), pinned marker and actions. The title turns
 * into a text field on a double click or the Edit action (docs/PRODUCT.md §10.11.1). Memoised: a tick
 * re-renders only its own row (issue #10); the list passes stable callbacks.
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
}: TaskItemProps) {
  const checkboxId = useId();
  const doneAtId = useId();
  const row = useRef<HTMLLIElement>(null);
  const setRow = useCallback(
    (element: HTMLLIElement | null) => {
      row.current = element;
      measureRef(element);
    },
    [measureRef],
  );
  const variants = useMemo(() => rowVariants(todo._id, enterDelay), [todo._id, enterDelay]);
  const timeTick = useTickTiming(todo);
  const checkbox = useRef<HTMLInputElement>(null);
  // A row playing its exit animation is gone for keyboard and screen-reader users already.
  const isPresent = useIsPresent();
  const entrance = useEntrance(enterDelay);
  // The cache's optimistic update reaches React a tick after the click; until this todo object is replaced
  // (optimistic value, rollback or refetch) the checkbox shows the user's choice, so it never flickers back.
  const [clicked, setClicked] = useState<{ todo: Todo; completed: boolean } | null>(null);
  const completed = clicked?.todo === todo ? clicked.completed : todo.completed;

  const [editing, setEditing] = useState(false);
  // Where the focus goes once an edit ends with Enter or Escape: back to the control that started it (the
  // Edit button, or the menu button on small screens), or to the checkbox after a double click.
  const editStartedBy = useRef<'control' | 'title'>('control');
  const refocus = useRef(false);
  const pendingTick = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pendingTick.current), []);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    const control = editStartedBy.current === 'control' ? row.current?.querySelector<HTMLElement>('[data-edit-return]') : null;
    (control ?? checkbox.current)?.focus();
  }, [editing]);

  const startEditing = (by: 'control' | 'title') => {
    clearTimeout(pendingTick.current);
    editStartedBy.current = by;
    setEditing(true);
  };

  const classes = ['tasks-item', todo.isPinned && 'tasks-item--pinned', completed && 'tasks-item--completed', editing && 'tasks-item--editing'];
  return (
    <m.li
      ref={setRow}
      layout="position"
      data-todo-id={todo._id}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      className={classes.filter(Boolean).join(' ')}
      style={{ top }}
      inert={!isPresent}
      initial={enterDelay === null ? false : { opacity: 0, y: 12 }}
      animate={entrance.animate}
      variants={variants}
      exit="leave"
      onAnimationComplete={entrance.settle}
      onFocus={entrance.hurry}
      onPointerEnter={entrance.hurry}
    >
      <input
        ref={checkbox}
        id={checkboxId}
        type="checkbox"
        className="tasks-item__checkbox"
        checked={completed}
        aria-label={`Mark “${todo.title}” as ${completed ? 'not completed' : 'completed'}`}
        aria-describedby={completed && todo.completedAt ? doneAtId : undefined}
        onChange={(event) => {
          timeTick(event.timeStamp, !completed);
          setClicked({ todo, completed: !completed });
          onToggleCompleted(todo, !completed);
        }}
      />
      {editing ? (
        <Suspense fallback={<span className="tasks-item__title">{todo.title}</span>}>
          <TaskTitleEditor
            title={todo.title}
            onDone={(title, how) => {
              refocus.current = how !== 'blur';
              setEditing(false);
              if (title !== undefined) onRename(todo, title);
            }}
          />
        </Suspense>
      ) : (
        // A click on the title ticks the box, as a label does; a double click edits the title instead. So a
        // pointer click waits for the double-click interval before it ticks (keyboard and assistive
        // technology clicks, detail 0, tick at once). Keyboard users have the checkbox and the Edit action.
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- refines the label's own click (tick vs. edit); the checkbox keeps every key
        <label
          htmlFor={checkboxId}
          dir="auto"
          className={`tasks-item__title${completed ? ' tasks-item__title--completed' : ''}`}
          onClick={(event) => {
            if (event.detail === 0) return;
            event.preventDefault();
            clearTimeout(pendingTick.current);
            if (event.detail === 1) pendingTick.current = setTimeout(() => checkbox.current?.click(), DOUBLE_CLICK_MS);
          }}
          onDoubleClick={() => startEditing('title')}
        >
          {todo.title}
        </label>
      )}
      {/* When it was done (issue #18): shown while the row is hovered or holds the focus, read with the checkbox. */}
      {completed && todo.completedAt && (
        <time id={doneAtId} className="tasks-item__done-at" dateTime={todo.completedAt} title={completedAtFull(todo.completedAt)}>
          {completedAtText(todo.completedAt)}
        </time>
      )}
      {/* One pinned indicator per row: the pressed pin button on wide screens, this mark in the menu layout. */}
      {todo.isPinned && compact && (
        <span className="tasks-item__pinned">
          <PinIcon filled />
          <span className="visually-hidden">Pinned</span>
        </span>
      )}
      <TaskActions
        title={todo.title}
        isPinned={todo.isPinned}
        compact={compact}
        onEdit={() => startEditing('control')}
        onTogglePinned={() => onTogglePinned(todo)}
        onDelete={() => onDelete(todo)}
        onFocusLost={onFocusLost}
      />
    </m.li>
  );
});
