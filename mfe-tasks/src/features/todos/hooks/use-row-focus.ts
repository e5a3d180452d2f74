import type { Todo } from '@tm/api-client';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';

/**
 * Where the focus goes in the task list (docs/PRODUCT.md §10.5.3, §10.9, §10.11.4, §10.11.6). Two layers:
 * the rows (useRowFocus and useRowNavigation, in the windowed rows) keep a focused row rendered, move between
 * rows by key and bring a row into view before focusing it; the list (useFocusAfterChange) decides where the
 * focus goes when a row leaves or comes back, and asks the rows through a `RowsHandle`.
 */

/** What the list asks of its rows: focus a row (or the input), and focus a task brought into view first. */
export interface RowsHandle {
  focusRow: (todoId: string | undefined) => void;
  focusTask: (todoId: string) => void;
}

/** Whether the person is typing in a field (the focus must not be taken from them). */
function typingInField(): boolean {
  const active = document.activeElement;
  if (active instanceof HTMLTextAreaElement) return true;
  return active instanceof HTMLInputElement && active.type !== 'checkbox' && active.type !== 'radio' && active.type !== 'button';
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

/**
 * Keeps the focus on a row wherever it is in the list: the focused row stays rendered outside the window
 * (`focusedIndex`, for the window to keep), and `focusRow` brings a row that is not rendered into the window
 * before focusing its checkbox (PRODUCT §10.5.3).
 */
export function useRowFocus(list: RefObject<HTMLUListElement | null>, visible: Todo[], inputRef: RefObject<HTMLInputElement | null>) {
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

/** How long a task asked for by Undo may take to come back and still take the focus (ms). */
const AWAIT_TASK_MS = 2000;

/**
 * The rows' side of the focus, once the window exists: the `RowsHandle` the list asks through, and the arrow
 * keys, Home and End on a row's checkbox, which move to another row wherever it is in the list, scrolling it
 * into view (PRODUCT §10.5.3, §10.11.6).
 */
export function useRowNavigation(
  handle: RefObject<RowsHandle | null>,
  list: RefObject<HTMLUListElement | null>,
  visible: Todo[],
  focusRow: (todoId: string | undefined) => void,
  virtualizer: Pick<Virtualizer<Window, Element>, 'scrollToIndex'>,
): void {
  const latest = useRef({ visible, focusRow, virtualizer });
  // A task asked for before it is back in the list (the list catches up a frame later, PRODUCT §10.4), and
  // until when it may still take the focus.
  const awaited = useRef<{ todoId: string; until: number } | null>(null);
  const focusTask = (todoId: string): boolean => {
    const index = latest.current.visible.findIndex((todo) => todo._id === todoId);
    if (index < 0) return false;
    latest.current.focusRow(todoId);
    latest.current.virtualizer.scrollToIndex(index, { align: 'auto' });
    return true;
  };
  useLayoutEffect(() => {
    latest.current = { visible, focusRow, virtualizer };
    const waiting = awaited.current;
    if (!waiting) return;
    if (performance.now() > waiting.until || focusTask(waiting.todoId)) awaited.current = null;
  });
  useImperativeHandle(
    handle,
    () => ({
      focusRow: (todoId) => latest.current.focusRow(todoId),
      focusTask: (todoId) => {
        awaited.current = focusTask(todoId) ? null : { todoId, until: performance.now() + AWAIT_TASK_MS };
      },
    }),
    [],
  );

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
  }, [list]);
}

/** Where the focus goes when rows leave or come back: one object for the list's whole life. */
export interface FocusAfterChange {
  /** For the rows (TaskRows' `handle`): how the list reaches them. */
  rows: RefObject<RowsHandle | null>;
  /**
   * A row is ticked (`completed`: its new state): when that takes it out of the view ("Active", "Completed",
   * "Overdue"), the focus must not leave with it.
   */
  ticked: (todo: Todo, completed: boolean) => void;
  /** A row is being deleted: the focus goes to its neighbour once the row's controls are gone (`moveFocus`). */
  deleting: (todo: Todo) => void;
  /** The focus was on a control that went away: it moves on to the row chosen by `ticked` or `deleting`. */
  moveFocus: () => void;
  /** A task came back by Undo: the focus goes to its checkbox. */
  restored: (todo: Todo) => void;
}

/**
 * The list's side of the focus (docs/PRODUCT.md §10.9, §10.11.4): when a row leaves under the focus, the
 * focus goes to the next row, else the previous one, else the new-task input; after an Undo it goes to the
 * task brought back, so the keyboard carries on from there. The functions read the list and the filters of the
 * latest render (`shows`: whether a task is in the view, status filter and PRODUCT §10.20's filters together),
 * so the rows' callbacks built on them stay the same and a tick re-renders only its own row.
 */
export function useFocusAfterChange(visible: Todo[], shows: (todo: Todo) => boolean): FocusAfterChange {
  const rows = useRef<RowsHandle>(null);
  const latest = useRef({ visible, shows });
  useLayoutEffect(() => {
    latest.current = { visible, shows };
  });
  const focusAfterLeaving = useRef<string | undefined>(undefined);
  return useMemo(() => {
    const deleting = (todo: Todo) => {
      const shown = latest.current.visible;
      const index = shown.findIndex((candidate) => candidate._id === todo._id);
      focusAfterLeaving.current = index < 0 ? undefined : (shown[index + 1] ?? shown[index - 1])?._id;
    };
    const moveFocus = () => rows.current?.focusRow(focusAfterLeaving.current);
    return {
      rows,
      ticked: (todo, completed) => {
        if (latest.current.shows({ ...todo, completed })) return;
        deleting(todo);
        moveFocus();
      },
      deleting,
      moveFocus,
      // Not while the person types in a field, nor for a task this filter hides.
      restored: (todo) => {
        if (typingInField() || !latest.current.shows(todo)) return;
        rows.current?.focusTask(todo._id);
      },
    };
  }, []);
}
