import type { Todo } from '@tm/api-client';
import { AnimatePresence, useReducedMotionConfig } from 'framer-motion';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useDeleteTodo } from '../api/delete-todo';
import { useUpdateTodo } from '../api/update-todo';
import { entranceDelay, MOTION, SMALL_SCREEN_QUERY, SOUNDS } from '../constants';
import { useMediaQuery } from '../hooks/use-media-query';
import { useRowWindow } from '../hooks/use-row-window';
import { useSound } from '../hooks/use-sound';
import { EMPTY_FILTER_MESSAGES, inFilter, type TaskFilter } from '../hooks/use-task-filter';
import { afterNextPaint, LIST_RENDER_MEASURE, takeListDataArrival, measureSince } from '../perf-marks';
import { TaskItem, type StillListed } from './task-item';
import { BulkActions, TaskFilters, type TaskCounts } from './task-toolbar';

interface TaskListProps {
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

/** Keys that move the focus between the rows' checkboxes (PRODUCT §10.11.6), to the row they lead to. */
function rowForKey(key: string, index: number, count: number): number | undefined {
  if (key === 'ArrowDown') return index + 1 < count ? index + 1 : undefined;
  if (key === 'ArrowUp') return index > 0 ? index - 1 : undefined;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

const checkboxOf = (root: HTMLElement | null, todoId: string) =>
  root?.querySelector<HTMLInputElement>(`[data-todo-id="${todoId}"] input[type="checkbox"]`) ?? null;

const todoIdOf = (element: EventTarget | null) =>
  element instanceof Element ? (element.closest('[data-todo-id]')?.getAttribute('data-todo-id') ?? undefined) : undefined;

/** `tm:list-render` (issue #10): from the list's answer to the first frame painted with its rows. */
function useListRenderTiming(): void {
  useLayoutEffect(() => {
    const arrived = takeListDataArrival();
    if (arrived !== undefined) afterNextPaint(() => measureSince(LIST_RENDER_MEASURE, arrived));
  }, []);
}

/**
 * Which rows enter with an animation (docs/PRODUCT.md §2, §9, §10.5). On the first load, the rows of the
 * first screen come in one after another (0.3 s each, over 8 rows); rows new to the list later (added here,
 * on the live stream, restored) enter at once; a row that was already in the list and comes into view by
 * scrolling, or after the stagger, is simply there. A new filter is a new list: its first screen enters
 * without delay.
 */
function useEntrances(todos: Todo[], filter: TaskFilter, firstScreen: () => string[]) {
  const [stagger, setStagger] = useState(() => ({ filter, delays: new Map(firstScreen().map((id, row) => [id, entranceDelay(row)])) }));
  if (stagger.filter !== filter) setStagger({ filter, delays: new Map(firstScreen().map((id) => [id, 0])) });
  // The ids the list held before its last change: a row not among them is new (a restored task too).
  const [seen, setSeen] = useState(() => {
    const ids = new Set(todos.map((todo) => todo._id));
    return { todos, ids, before: ids };
  });
  if (seen.todos !== todos) {
    const same = todos.length === seen.ids.size && todos.every((todo) => seen.ids.has(todo._id));
    setSeen({ todos, ids: same ? seen.ids : new Set(todos.map((todo) => todo._id)), before: seen.ids });
  }
  // Once the first screen has come in, a row of it that comes back later (Undo, a change elsewhere) enters
  // like any new row: at once.
  useEffect(() => {
    if (stagger.delays.size === 0) return undefined;
    const over = (entranceDelay(MOTION.staggeredRows - 1) + MOTION.enterSeconds) * 1000 + 600;
    const timer = setTimeout(() => setStagger((current) => ({ filter: current.filter, delays: new Map() })), over);
    return () => clearTimeout(timer);
  }, [stagger]);
  // With reduced motion (MotionConfig "user") rows only fade in, all at once: no waiting for a stagger.
  const reducedMotion = useReducedMotionConfig();
  return (todoId: string): number | null => {
    const delay = stagger.delays.get(todoId);
    if (delay !== undefined) return reducedMotion ? 0 : delay;
    return seen.before.has(todoId) ? null : 0;
  };
}

/**
 * Keeps the focus on a row wherever it is in the list: the focused row stays rendered outside the window,
 * and `focusRow` brings a row that is not rendered into the window before focusing its checkbox.
 */
function useRowFocus(list: RefObject<HTMLUListElement | null>, visible: Todo[], inputRef: RefObject<HTMLInputElement | null>) {
  const [focusedId, setFocusedId] = useState<string>();
  const pending = useRef<string | undefined>(undefined);
  const focusedIndex = useMemo(() => (focusedId === undefined ? -1 : visible.findIndex((todo) => todo._id === focusedId)), [visible, focusedId]);

  useEffect(() => {
    const root = list.current;
    if (!root) return undefined;
    const onFocusIn = (event: FocusEvent) => setFocusedId(todoIdOf(event.target));
    const onFocusOut = (event: FocusEvent) => {
      if (!(event.relatedTarget instanceof Node) || !root.contains(event.relatedTarget)) setFocusedId(undefined);
    };
    root.addEventListener('focusin', onFocusIn);
    root.addEventListener('focusout', onFocusOut);
    return () => {
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('focusout', onFocusOut);
    };
  }, [list]);

  // A row asked for by `focusRow` takes the focus once it is rendered.
  useEffect(() => {
    const checkbox = pending.current === undefined ? null : checkboxOf(list.current, pending.current);
    if (!checkbox) return;
    pending.current = undefined;
    checkbox.focus();
  });

  const focusRow = (todoId: string | undefined) => {
    const checkbox = todoId ? checkboxOf(list.current, todoId) : null;
    if (checkbox) checkbox.focus();
    else if (todoId && visible.some((todo) => todo._id === todoId)) {
      pending.current = todoId;
      setFocusedId(todoId);
    } else inputRef.current?.focus();
  };
  return { focusedIndex, focusRow };
}

/**
 * The task rows of the current filter, pinned first, with optimistic tick, pin, rename and delete; above them
 * the filters and the bulk actions (docs/PRODUCT.md §10.11). Only the rows in and near the window are in the
 * DOM (issue #10), each placed at its offset in a list as tall as all of them; the list stays a list for
 * screen readers (each row says its place and the list's size).
 */
export function TaskList({ todos, filter, counts, onCompleted, onDeleted, inputRef }: TaskListProps) {
  const headingId = useId();
  const list = useRef<HTMLUListElement>(null);
  const visible = useMemo(() => (filter === 'all' ? todos : todos.filter((todo) => inFilter(todo, filter))), [todos, filter]);
  const keys = useMemo(() => visible.map((todo) => todo._id), [visible]);
  const { focusedIndex, focusRow } = useRowFocus(list, visible, inputRef);
  const { virtualizer, items, totalSize, offset } = useRowWindow(list, keys, focusedIndex);
  const enterDelayOf = useEntrances(todos, filter, () => items.map((item) => keys[item.index]).filter((id) => id !== undefined));
  useListRenderTiming();

  const compact = useMediaQuery(SMALL_SCREEN_QUERY);
  const playSuccess = useSound(SOUNDS.success);
  const playDeleted = useSound(SOUNDS.deleted);
  // PRODUCT §10.6: sound and confetti once the server confirmed the completion, not before.
  const { mutate: update } = useUpdateTodo({
    onCompleted: () => {
      playSuccess();
      onCompleted();
    },
  });
  const { mutate: remove } = useDeleteTodo({ onDeleted });

  // The rows' callbacks stay the same functions across renders, so a tick re-renders only its own row; they
  // read the list and the filter of the latest render.
  const latest = useRef({ visible, filter });
  useLayoutEffect(() => {
    latest.current = { visible, filter };
  });
  const focusAfterLeaving = useRef<string | undefined>(undefined);
  const neighbourOf = useCallback((todo: Todo) => {
    const shown = latest.current.visible;
    const index = shown.findIndex((candidate) => candidate._id === todo._id);
    return index < 0 ? undefined : (shown[index + 1] ?? shown[index - 1])?._id;
  }, []);

  // PRODUCT §10.9: when a row leaves under the focus, the focus goes to the next row, else the previous one,
  // else the input.
  const focusRowRef = useRef(focusRow);
  useLayoutEffect(() => {
    focusRowRef.current = focusRow;
  });
  const moveFocus = useCallback(() => focusRowRef.current(focusAfterLeaving.current), []);

  const toggleCompleted = useCallback(
    (todo: Todo, completed: boolean) => {
      update({ todoId: todo._id, patch: { completed } });
      // In "Active" or "Completed" the ticked row leaves the view: the focus must not leave with it.
      if (latest.current.filter !== 'all') {
        focusAfterLeaving.current = neighbourOf(todo);
        moveFocus();
      }
    },
    [update, neighbourOf, moveFocus],
  );
  const togglePinned = useCallback((todo: Todo) => update({ todoId: todo._id, patch: { isPinned: !todo.isPinned } }), [update]);
  const rename = useCallback((todo: Todo, title: string) => update({ todoId: todo._id, patch: { title } }), [update]);
  const deleteTask = useCallback(
    (todo: Todo) => {
      focusAfterLeaving.current = neighbourOf(todo);
      remove(todo._id);
      playDeleted();
    },
    [neighbourOf, remove, playDeleted],
  );

  // Arrow keys, Home and End on a row's checkbox move to another row, wherever it is in the list.
  useEffect(() => {
    const root = list.current;
    if (!root) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.target instanceof HTMLInputElement) || event.target.type !== 'checkbox') return;
      const shown = latest.current.visible;
      const index = shown.findIndex((todo) => todo._id === todoIdOf(event.target));
      const next = index < 0 ? undefined : rowForKey(event.key, index, shown.length);
      if (next === undefined) return;
      event.preventDefault();
      focusRowRef.current(shown[next]?._id);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    };
    root.addEventListener('keydown', onKeyDown);
    return () => root.removeEventListener('keydown', onKeyDown);
  }, [virtualizer]);

  // Exiting rows ask, as they go, whether their task is still in the list (see TaskItem's exit).
  // The set is built only when a row actually leaves, not on every tick.
  const stillListed = useMemo<StillListed>(() => {
    let ids: Set<string> | undefined;
    return (todoId) => (ids ??= new Set(keys)).has(todoId);
  }, [keys]);

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
      <ul ref={list} className="tasks-list__items" aria-labelledby={headingId} style={{ height: totalSize }}>
        {/* A new filter is a new list: its rows come in afresh, without the exit animation of the others. */}
        <AnimatePresence key={filter} custom={stillListed}>
          {items.map((item) => {
            const todo = visible[item.index];
            if (!todo) return null;
            return (
              <TaskItem
                key={todo._id}
                todo={todo}
                index={item.index}
                setSize={visible.length}
                top={item.start - offset}
                enterDelay={enterDelayOf(todo._id)}
                compact={compact}
                measureRef={virtualizer.measureElement}
                onToggleCompleted={toggleCompleted}
                onTogglePinned={togglePinned}
                onRename={rename}
                onDelete={deleteTask}
                onFocusLost={moveFocus}
              />
            );
          })}
        </AnimatePresence>
      </ul>
    </div>
  );
}
