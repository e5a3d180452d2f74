import type { Todo } from '@tm/api-client';
import { AnimatePresence, useReducedMotionConfig } from 'framer-motion';
import { useCallback, useId, useRef, useState, type RefObject } from 'react';
import { useDeleteTodo } from '../api/delete-todo';
import { useUpdateTodo } from '../api/update-todo';
import { entranceDelay, SMALL_SCREEN_QUERY, SOUNDS } from '../constants';
import { useMediaQuery } from '../hooks/use-media-query';
import { useSound } from '../hooks/use-sound';
import { TaskItem } from './task-item';

export interface TaskListProps {
  todos: Todo[];
  /** Fired when the server confirmed that a task became completed (the page's celebration trigger). */
  onCompleted: () => void;
  /** The new-task input: it takes the focus when the last task is deleted. */
  inputRef: RefObject<HTMLInputElement | null>;
}

/** The row that takes the focus after `todo` is deleted: the next one, else the previous one. */
function neighbourOf(todos: Todo[], todo: Todo): Todo | undefined {
  const index = todos.findIndex((candidate) => candidate._id === todo._id);
  return index < 0 ? undefined : (todos[index + 1] ?? todos[index - 1]);
}

/** The task rows, pinned first, with optimistic tick, pin and delete. */
export function TaskList({ todos, onCompleted, inputRef }: TaskListProps) {
  const headingId = useId();
  const list = useRef<HTMLUListElement>(null);
  const focusAfterDelete = useRef<string | undefined>(undefined);
  // docs/PRODUCT.md §2: the stagger belongs to the first load; rows that arrive later enter without delay.
  const [firstLoad] = useState(() => new Set(todos.map((todo) => todo._id)));
  // With reduced motion (MotionConfig "user") rows only fade in, all at once: no waiting for a stagger.
  const reducedMotion = useReducedMotionConfig();
  const compact = useMediaQuery(SMALL_SCREEN_QUERY);
  const playSuccess = useSound(SOUNDS.success);
  const playDeleted = useSound(SOUNDS.deleted);
  // PRODUCT §10.6: sound and confetti once the server confirmed the completion, not before.
  const update = useUpdateTodo({
    onCompleted: () => {
      playSuccess();
      onCompleted();
    },
  });
  const remove = useDeleteTodo();

  const toggleCompleted = (todo: Todo, completed: boolean) => update.mutate({ todoId: todo._id, patch: { completed } });
  const togglePinned = (todo: Todo) => update.mutate({ todoId: todo._id, patch: { isPinned: !todo.isPinned } });
  const deleteTask = (todo: Todo) => {
    focusAfterDelete.current = neighbourOf(todos, todo)?._id;
    remove.mutate(todo._id);
    playDeleted();
  };
  // PRODUCT §10.9: after a delete the focus goes to the next row, else the previous one, else the input.
  const moveFocus = useCallback(() => {
    const id = focusAfterDelete.current;
    const checkbox = id ? list.current?.querySelector<HTMLInputElement>(`[data-todo-id="${id}"] input[type="checkbox"]`) : null;
    checkbox?.focus();
    if (!checkbox || document.activeElement !== checkbox) inputRef.current?.focus();
  }, [inputRef]);

  return (
    <div className="tasks-list">
      <h2 id={headingId} className="tasks-list__heading">
        Your tasks
      </h2>
      {todos.length === 0 && <p className="tasks-list__empty">No tasks</p>}
      <ul ref={list} className="tasks-list__items" aria-labelledby={headingId}>
        <AnimatePresence>
          {todos.map((todo, index) => (
            <TaskItem
              key={todo._id}
              todo={todo}
              enterDelay={firstLoad.has(todo._id) && !reducedMotion ? entranceDelay(index) : 0}
              compact={compact}
              onToggleCompleted={toggleCompleted}
              onTogglePinned={togglePinned}
              onDelete={deleteTask}
              onFocusLost={moveFocus}
            />
          ))}
        </AnimatePresence>
      </ul>
    </div>
  );
}
