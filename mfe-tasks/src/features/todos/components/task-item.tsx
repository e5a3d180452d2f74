import type { Todo } from '@tm/api-client';
import { PinIcon } from '@tm/web-platform';
import { m, useIsPresent } from 'framer-motion';
import { useEffect, useId, useState } from 'react';
import { MOTION } from '../constants';
import { TaskActions } from './task-actions';

export interface TaskItemProps {
  todo: Todo;
  /** Entrance delay in seconds: staggered on the first load only, 0 for rows added later (PRODUCT §2). */
  enterDelay: number;
  compact: boolean;
  /** Called with the value the user just gave the checkbox. */
  onToggleCompleted: (todo: Todo, completed: boolean) => void;
  onTogglePinned: (todo: Todo) => void;
  onDelete: (todo: Todo) => void;
  onFocusLost: () => void;
}

/**
 * Whether the row has finished entering: a row still waiting for its turn in the stagger is invisible,
 * and can be neither focused nor clicked (docs/PRODUCT.md §10.5). A row without delay is there at once.
 */
function useEntered(enterDelay: number): [boolean, () => void] {
  const [entered, setEntered] = useState(enterDelay === 0);
  useEffect(() => {
    // The animation's own end is the signal; this is the backstop should it never report (interrupted).
    const backstop = setTimeout(() => setEntered(true), (enterDelay + MOTION.enterSeconds) * 1000 + 500);
    return () => clearTimeout(backstop);
  }, [enterDelay]);
  return [entered, () => setEntered(true)];
}

/** One task: checkbox, title (struck through in orange when done), pinned marker and actions. */
export function TaskItem({ todo, enterDelay, compact, onToggleCompleted, onTogglePinned, onDelete, onFocusLost }: TaskItemProps) {
  const checkboxId = useId();
  // A row playing its exit animation is gone for keyboard and screen-reader users already.
  const isPresent = useIsPresent();
  const [entered, markEntered] = useEntered(enterDelay);
  // The cache's optimistic update reaches React a tick after the click; until this todo object is replaced
  // (optimistic value, rollback or refetch) the checkbox shows the user's choice, so it never flickers back.
  const [clicked, setClicked] = useState<{ todo: Todo; completed: boolean } | null>(null);
  const completed = clicked?.todo === todo ? clicked.completed : todo.completed;
  const classes = ['tasks-item', todo.isPinned && 'tasks-item--pinned', completed && 'tasks-item--completed'];
  return (
    <m.li
      layout="position"
      data-todo-id={todo._id}
      className={classes.filter(Boolean).join(' ')}
      inert={!isPresent || !entered}
      initial={{ opacity: 0, y: 12 }}
      animate={{ opacity: 1, y: 0, transition: { delay: enterDelay, duration: MOTION.enterSeconds } }}
      exit={{ opacity: 0, x: -32, transition: { duration: MOTION.exitSeconds } }}
      onAnimationComplete={markEntered}
    >
      <input
        id={checkboxId}
        type="checkbox"
        className="tasks-item__checkbox"
        checked={completed}
        aria-label={`Mark “${todo.title}” as ${completed ? 'not completed' : 'completed'}`}
        onChange={() => {
          setClicked({ todo, completed: !completed });
          onToggleCompleted(todo, !completed);
        }}
      />
      <label htmlFor={checkboxId} dir="auto" className={`tasks-item__title${completed ? ' tasks-item__title--completed' : ''}`}>
        {todo.title}
      </label>
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
        onTogglePinned={() => onTogglePinned(todo)}
        onDelete={() => onDelete(todo)}
        onFocusLost={onFocusLost}
      />
    </m.li>
  );
}
