import type { Todo } from '@tm/api-client';
import { startedFromKeptScreen } from '@tm/web-platform';
import { useReducedMotion } from 'framer-motion';
import { useEffect, useState } from 'react';
import { entranceDelay, MOTION } from '../constants';

/**
 * Which rows enter with an animation (docs/PRODUCT.md §2, §9, §10.5.2). On the first load, the rows of the
 * first screen come in one after another (0.3 s each, over 8 rows); rows new to the list later (added here,
 * on the live stream, restored) enter at once; a row that was already in the list and comes into view by
 * scrolling, or after the stagger, is simply there. A new filter is a new list: its first screen enters
 * without delay (`view` names the filters: the status filter and PRODUCT §10.20's, together). A page load
 * that began on the kept screen has its first screen already shown: no stagger.
 *
 * `firstScreen` gives the ids of the rows the window shows now; it is read on the first render and at a
 * change of filter. The answer, per row, is its entrance delay in seconds, or `null` for no entrance (the
 * row plays it with useRowMotion when it mounts).
 */
export function useEntrances(todos: Todo[], view: string, firstScreen: () => string[]): (todoId: string) => number | null {
  // A page load that began on the kept screen (PRODUCT §10.4) has shown these rows already: they do not enter again.
  const [stagger, setStagger] = useState(() => ({ view, delays: new Map(startedFromKeptScreen() ? [] : firstScreen().map((id, row) => [id, entranceDelay(row)])) }));
  if (stagger.view !== view) setStagger({ view, delays: new Map(firstScreen().map((id) => [id, 0])) });
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
    const timer = setTimeout(() => setStagger((current) => ({ view: current.view, delays: new Map() })), over);
    return () => clearTimeout(timer);
  }, [stagger]);
  // With reduced motion rows only fade in, all at once: no waiting for a stagger (PRODUCT §10.9).
  const reducedMotion = useReducedMotion();
  return (todoId: string): number | null => {
    const delay = stagger.delays.get(todoId);
    if (delay !== undefined) return reducedMotion ? 0 : delay;
    return seen.before.has(todoId) ? null : 0;
  };
}
