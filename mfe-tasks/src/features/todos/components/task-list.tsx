import { describeError, restoreTodo, updateTodo, type Todo, type TodoPatch } from '@tm/api-client';
import { notifySuccess } from '@tm/web-platform';
import { useQueryClient } from '@tanstack/react-query';
import { AnimatePresence, useReducedMotion } from 'framer-motion';
import { useCallback, useEffect, useId, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useAddTodo } from '../api/add-todo';
import { useDeleteTodo } from '../api/delete-todo';
import { orderTodos, upsertCachedTodos } from '../api/get-todos';
import { useRestoreTodo } from '../api/restore-todo';
import { useUndoTick } from '../api/restore-bulk';
import { useUpdateTodo, type Tick } from '../api/update-todo';
import { entranceDelay, MOTION, SMALL_SCREEN_QUERY, SOUNDS } from '../constants';
import { useMediaQuery } from '../hooks/use-media-query';
import { useRowWindow } from '../hooks/use-row-window';
import { useSound } from '../hooks/use-sound';
import { EMPTY_FILTER_MESSAGES, inFilter, type TaskFilter } from '../hooks/use-task-filter';
import { afterNextPaint, LIST_RENDER_MEASURE, takeListDataArrival, measureSince } from '../perf-marks';
import type { StillListed } from '../hooks/use-row-motion';
import { TaskItem } from './task-item';
import type { DeletedElsewhere } from './task-title-editor';
import { BulkActions, TaskFilters, type TaskCounts } from './task-toolbar';
import { offerUndoDelete, offerUndoTick } from './undo-toast';

interface TaskListProps {
  /** Every task, in the spec's order (the list shows those of `filter`). */
  todos: Todo[];
  filter: TaskFilter;
  counts: TaskCounts;
  /** Fired when the server confirmed that a task became completed (the page's celebration trigger). */
  onCompleted: () => void;
  /** The new-task input: it takes the focus when the last task is deleted. */
  inputRef: RefObject<HTMLInputElement | null>;
}

/** Whether the person is typing in a field (the focus must not be taken from them). */
function typingInField(): boolean {
  const active = document.activeElement;
  if (active instanceof HTMLTextAreaElement) return true;
  return active instanceof HTMLInputElement && active.type !== 'checkbox' && active.type !== 'radio' && active.type !== 'button';
}

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
function useOrphanedEdits(todos: Todo[], playAdded: () => void) {
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
            .mutateAsync(title)
            .then(settle)
            .catch((error: unknown) => setOrphan({ ...gone, busy: false, problem: describeError(error, 'It could not be added.') }));
        },
        discard: settle,
      }
    : undefined;
  return { withGone, goneId: gone?.todo._id, deletedElsewhere, onEditing, onSaveFoundGone };
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
  // With reduced motion rows only fade in, all at once: no waiting for a stagger.
  const reducedMotion = useReducedMotion();
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

/** What the list asks of its rows: focus a row (or the input), and focus a task brought into view first. */
interface RowsHandle {
  focusRow: (todoId: string | undefined) => void;
  focusTask: (todoId: string) => void;
}

/** The handlers every row gets: the same functions across renders. */
interface RowHandlers {
  onToggleCompleted: (todo: Todo, completed: boolean) => void;
  onTogglePinned: (todo: Todo) => void;
  onRename: (todo: Todo, title: string) => void;
  onDelete: (todo: Todo) => void;
  onFocusLost: () => void;
  onEditing: (todo: Todo, editing: boolean) => void;
}

interface TaskRowsProps {
  /** Every task of the list, the one being edited after it went away included (for the entrances). */
  todos: Todo[];
  /** The tasks of the filter, in order. */
  visible: Todo[];
  keys: readonly string[];
  filter: TaskFilter;
  compact: boolean;
  headingId: string;
  inputRef: RefObject<HTMLInputElement | null>;
  handlers: RowHandlers;
  goneId: string | undefined;
  deletedElsewhere: (DeletedElsewhere & { draft?: string }) | undefined;
  handle: RefObject<RowsHandle | null>;
}

/**
 * The rows themselves, windowed over the page's scroll: only this part renders again as the page scrolls
 * (docs/PERFORMANCE.md "Smooth on a phone"), not the filters, the bulk actions or the list's actions above
 * it. Only the rows in and near the window are in the DOM (issue #10), each placed at its offset in a list as
 * tall as all of them; the list stays a list for screen readers (each row says its place and the list's size).
 */
function TaskRows({ todos, visible, keys, filter, compact, headingId, inputRef, handlers, goneId, deletedElsewhere, handle }: TaskRowsProps) {
  const list = useRef<HTMLUListElement>(null);
  const { focusedIndex, focusRow } = useRowFocus(list, visible, inputRef);
  const { virtualizer, items, totalSize, offset } = useRowWindow(list, keys, focusedIndex);
  const enterDelayOf = useEntrances(todos, filter, () => items.map((item) => keys[item.index]).filter((id) => id !== undefined));
  useListRenderTiming();

  const latest = useRef({ visible, focusRow, virtualizer });
  useLayoutEffect(() => {
    latest.current = { visible, focusRow, virtualizer };
  });
  useImperativeHandle(
    handle,
    () => ({
      focusRow: (todoId) => latest.current.focusRow(todoId),
      focusTask: (todoId) => {
        const index = latest.current.visible.findIndex((todo) => todo._id === todoId);
        if (index < 0) return;
        latest.current.focusRow(todoId);
        latest.current.virtualizer.scrollToIndex(index, { align: 'auto' });
      },
    }),
    [],
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
      latest.current.focusRow(shown[next]?._id);
      latest.current.virtualizer.scrollToIndex(next, { align: 'auto' });
    };
    root.addEventListener('keydown', onKeyDown);
    return () => root.removeEventListener('keydown', onKeyDown);
  }, []);

  // Exiting rows ask, as they go, whether their task is still in the list (see useRowMotion's exit).
  // The set is built only when a row actually leaves, not on every tick.
  const stillListed = useMemo<StillListed>(() => {
    let ids: Set<string> | undefined;
    return (todoId) => (ids ??= new Set(keys)).has(todoId);
  }, [keys]);

  return (
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
              {...handlers}
              deletedElsewhere={todo._id === goneId ? deletedElsewhere : undefined}
            />
          );
        })}
      </AnimatePresence>
    </ul>
  );
}

/**
 * The task rows of the current filter, pinned first, with optimistic tick, pin, rename and delete; above them
 * the filters and the bulk actions (docs/PRODUCT.md §10.11).
 */
export function TaskList({ todos: stored, filter, counts, onCompleted, inputRef }: TaskListProps) {
  const headingId = useId();
  const rows = useRef<RowsHandle>(null);
  const playSuccess = useSound(SOUNDS.success);
  const playDeleted = useSound(SOUNDS.deleted);
  const playAdded = useSound(SOUNDS.added);
  const orphans = useOrphanedEdits(stored, playAdded);
  const todos = orphans.withGone;
  const visible = useMemo(() => (filter === 'all' ? todos : todos.filter((todo) => inFilter(todo, filter))), [todos, filter]);
  const keys = useMemo(() => visible.map((todo) => todo._id), [visible]);
  const compact = useMediaQuery(SMALL_SCREEN_QUERY);

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
  const moveFocus = useCallback(() => rows.current?.focusRow(focusAfterLeaving.current), []);

  // After an Undo the task is back in its place, and the focus goes to its checkbox (PRODUCT §10.11.4), so the
  // keyboard carries on from there; not while the person types in a field, nor for a task this filter hides.
  const focusRestored = useCallback((todo: Todo) => {
    if (typingInField() || !inFilter(todo, latest.current.filter)) return;
    rows.current?.focusTask(todo._id);
  }, []);
  const { mutate: restoreTask } = useRestoreTodo({ onRestored: focusRestored });
  const { mutate: undoTick } = useUndoTick({ onRestored: focusRestored });
  const onDeleted = useCallback(
    (todo: Todo, message: string) => offerUndoDelete(todo.title, todo._id, message, () => restoreTask(todo)),
    [restoreTask],
  );
  const onTicked = useCallback(
    ({ todo, message, undoToken, before }: Tick) =>
      offerUndoTick(todo.title, todo._id, todo.completed, message, () => undoTick({ undoToken, todoId: todo._id, before })),
    [undoTick],
  );
  // PRODUCT §10.6: sound and confetti once the server confirmed the completion, not before.
  const { mutate: update } = useUpdateTodo({
    onCompleted: () => {
      playSuccess();
      onCompleted();
    },
    onTicked,
    onGone: orphans.onSaveFoundGone,
  });
  const { mutate: remove } = useDeleteTodo({ onDeleted });

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
  const handlers = useMemo<RowHandlers>(
    () => ({
      onToggleCompleted: toggleCompleted,
      onTogglePinned: togglePinned,
      onRename: rename,
      onDelete: deleteTask,
      onFocusLost: moveFocus,
      onEditing: orphans.onEditing,
    }),
    [toggleCompleted, togglePinned, rename, deleteTask, moveFocus, orphans.onEditing],
  );

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
      <TaskRows
        todos={todos}
        visible={visible}
        keys={keys}
        filter={filter}
        compact={compact}
        headingId={headingId}
        inputRef={inputRef}
        handlers={handlers}
        goneId={orphans.goneId}
        deletedElsewhere={orphans.deletedElsewhere}
        handle={rows}
      />
    </div>
  );
}
