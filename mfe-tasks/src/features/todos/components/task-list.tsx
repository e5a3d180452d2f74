import type { Todo } from '@tm/api-client';
import { AnimatePresence, useReducedMotionConfig } from 'framer-motion';
import { useCallback, useId, useRef, useState } from 'react';
import { useDeleteTodo } from '../api/delete-todo';
import { useUpdateTodo } from '../api/update-todo';
import { MOTION, SMALL_SCREEN_QUERY, SOUNDS } from '../constants';
import { useMediaQuery } from '../hooks/use-media-query';
import { useSound } from '../hooks/use-sound';
import { TaskItem } from './task-item';

export interface TaskListProps {
  todos: Todo[];
  /** Fired when a task becomes completed (the page's confetti trigger). */
  onCompleted: () => void;
}

/** The task rows, pinned first, with optimistic tick, pin and delete. */
export function TaskList({ todos, onCompleted }: TaskListProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // SPEC §2: the stagger belongs to the first load; rows that arrive later enter without delay.
  const [firstLoad] = useState(() => new Set(todos.map((todo) => todo._id)));
  // With reduced motion (MotionConfig "user") rows only fade in, all at once: no waiting for a stagger.
  const stagger = useReducedMotionConfig() ? 0 : MOTION.staggerSeconds;
  const compact = useMediaQuery(SMALL_SCREEN_QUERY);
  const update = useUpdateTodo();
  const remove = useDeleteTodo();
  const playSuccess = useSound(SOUNDS.success);
  const playDeleted = useSound(SOUNDS.deleted);

  const toggleCompleted = (todo: Todo, completed: boolean) => {
    update.mutate({ todoId: todo._id, patch: { completed } });
    // SPEC §4: sound and confetti only when the task becomes completed.
    if (completed) {
      playSuccess();
      onCompleted();
    }
  };
  const togglePinned = (todo: Todo) => update.mutate({ todoId: todo._id, patch: { isPinned: !todo.isPinned } });
  const deleteTask = (todo: Todo) => {
    remove.mutate(todo._id);
    playDeleted();
  };
  const focusList = useCallback(() => heading.current?.focus(), []);

  return (
    <div className="tasks-list">
      <h2 id={headingId} ref={heading} tabIndex={-1} className="tasks-list__heading">
        Your tasks
      </h2>
      {todos.length === 0 && <p className="tasks-list__empty">No tasks</p>}
      <ul className="tasks-list__items" aria-labelledby={headingId}>
        <AnimatePresence>
          {todos.map((todo, index) => (
            <TaskItem
              key={todo._id}
              todo={todo}
              enterDelay={firstLoad.has(todo._id) ? index * stagger : 0}
              compact={compact}
              onToggleCompleted={toggleCompleted}
              onTogglePinned={togglePinned}
              onDelete={deleteTask}
              onFocusLost={focusList}
            />
          ))}
        </AnimatePresence>
      </ul>
    </div>
  );
}
