import type { Todo } from '@tm/api-client';
import { AnimatePresence, useReducedMotionConfig } from 'framer-motion';
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useDeleteTodo } from '../api/delete-todo';
import { useUpdateTodo } from '../api/update-todo';
import { entranceDelay, MOTION, SMALL_SCREEN_QUERY, SOUNDS } from '../constants';
import { useMediaQuery } from '../hooks/use-media-query';
import { useSound } from '../hooks/use-sound';
import { EMPTY_FILTER_MESSAGES, inFilter, type TaskFilter } from '../hooks/use-task-filter';
import { TaskItem } from './task-item';
import { BulkActions, TaskFilters, type TaskCounts } from './task-toolbar';

export interface TaskListProps {
  /** Every task, in the spec's order (the list shows those of `filter`). */
  todos: Todo[];
  filter: TaskFilter;
  counts: TaskCounts;
  /** Fired when the server confirmed that a task became completed (the page's celebration trigger). */
  onCompleted: () => void;
  /** Fired when the server took a delete: the page offers Undo. */
  onDeleted: (todo: Todo, message: string) => void;
  /** The new-task input: it takes the focus when the last task is deleted. */
  inputRef: RefObject<HTMLInputElement | null>;
}

/** The row that takes the focus after `todo` leaves the list: the next one, else the previous one. */
function neighbourOf(todos: Todo[], todo: Todo): Todo | undefined {
  const index = todos.findIndex((candidate) => candidate._id === todo._id);
  return index < 0 ? undefined : (todos[index + 1] ?? todos[index - 1]);
}

/**
 * The task rows of the current filter, pinned first, with optimistic tick, pin, rename and delete; above them
 * the filters and the bulk actions (docs/PRODUCT.md §10.11).
 */
export function TaskList({ todos, filter, counts, onCompleted, onDeleted, inputRef }: TaskListProps) {
  const headingId = useId();
  const list = useRef<HTMLUListElement>(null);
  const focusAfterLeaving = useRef<string | undefined>(undefined);
  const visible = filter === 'all' ? todos : todos.filter((todo) => inFilter(todo, filter));
  // docs/PRODUCT.md §2: the stagger belongs to the first load; rows that arrive later (added here, on the
  // live stream, restored) enter without delay, and so does every row of another filter.
  const [stagger, setStagger] = useState(() => ({ filter, ids: new Set(visible.map((todo) => todo._id)) }));
  if (stagger.filter !== filter) setStagger({ filter, ids: new Set() });
  // Once the first load has come in, a row of it that comes back later (Undo, a change elsewhere) enters
  // like any new row: at once.
  useEffect(() => {
    if (stagger.ids.size === 0) return undefined;
    const over = (entranceDelay(MOTION.staggeredRows - 1) + MOTION.enterSeconds) * 1000 + 600;
    const timer = setTimeout(() => setStagger((current) => ({ filter: current.filter, ids: new Set() })), over);
    return () => clearTimeout(timer);
  }, [stagger]);
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
  const remove = useDeleteTodo({ onDeleted });

  // PRODUCT §10.9: when a row leaves under the focus, the focus goes to the next row, else the previous one,
  // else the input.
  const moveFocus = useCallback(() => {
    const id = focusAfterLeaving.current;
    const checkbox = id ? list.current?.querySelector<HTMLInputElement>(`[data-todo-id="${id}"] input[type="checkbox"]`) : null;
    checkbox?.focus();
    if (!checkbox || document.activeElement !== checkbox) inputRef.current?.focus();
  }, [inputRef]);

  const toggleCompleted = (todo: Todo, completed: boolean) => {
    update.mutate({ todoId: todo._id, patch: { completed } });
    // In "Active" or "Completed" the ticked row leaves the view: the focus must not leave with it.
    if (filter !== 'all') {
      focusAfterLeaving.current = neighbourOf(visible, todo)?._id;
      moveFocus();
    }
  };
  const togglePinned = (todo: Todo) => update.mutate({ todoId: todo._id, patch: { isPinned: !todo.isPinned } });
  const rename = (todo: Todo, title: string) => update.mutate({ todoId: todo._id, patch: { title } });
  const deleteTask = (todo: Todo) => {
    focusAfterLeaving.current = neighbourOf(visible, todo)?._id;
    remove.mutate(todo._id);
    playDeleted();
  };

  let empty: string | undefined;
  if (counts.all === 0) empty = 'No tasks';
  else if (visible.length === 0 && filter !== 'all') empty = EMPTY_FILTER_MESSAGES[filter];

  return (
    <div className="tasks-list">
      <div className="tasks-list__header">
        <h2 id={headingId} className="tasks-list__heading">
          Your tasks
        </h2>
        <BulkActions counts={counts} inputRef={inputRef} />
      </div>
      {counts.all > 0 && <TaskFilters filter={filter} counts={counts} />}
      {empty && <p className="tasks-list__empty">{empty}</p>}
      {/* A new filter is a new list: its rows come in afresh, without the exit animation of the others. */}
      <ul key={filter} ref={list} className="tasks-list__items" aria-labelledby={headingId}>
        <AnimatePresence>
          {visible.map((todo, index) => (
            <TaskItem
              key={todo._id}
              todo={todo}
              enterDelay={stagger.ids.has(todo._id) && !reducedMotion ? entranceDelay(index) : 0}
              compact={compact}
              onToggleCompleted={toggleCompleted}
              onTogglePinned={togglePinned}
              onRename={rename}
              onDelete={deleteTask}
              onFocusLost={moveFocus}
            />
          ))}
        </AnimatePresence>
      </ul>
    </div>
  );
}
