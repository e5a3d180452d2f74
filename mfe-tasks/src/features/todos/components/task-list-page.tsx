import type { Todo } from '@tm/api-client';
import { domAnimation, LazyMotion, MotionConfig, useReducedMotion } from 'framer-motion';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLiveTodos } from '@tm/web-platform';
import { useFullName } from '../api/get-current-user';
import { useTodos } from '../api/get-todos';
import { useRestoreTodo } from '../api/restore-todo';
import { CONFETTI, ILLUSTRATION_SRC, SUCCESS_CUE_MS } from '../constants';
import { useCelebration } from '../hooks/use-celebration';
import { onFirstAct } from '../hooks/first-act';
import { useShortcuts } from '../hooks/use-shortcuts';
import { nextFilter, useTaskFilter } from '../hooks/use-task-filter';
import { AddTaskForm } from './add-task-form';
import { Celebration } from './celebration';
import { TaskList } from './task-list';
import { countTodos } from './task-toolbar';
import { preloadable } from './preloadable';
import { closeUndoOffers, offerUndoDelete, UNDO_KEY, undoLatest } from './undo-toast';
import './task-list-page.css';

// Off the first load (issue #17): fetched at the first key or pointer press, or when first opened.
const { Component: ShortcutsDialog, preload: preloadShortcuts } = preloadable(() => import('./shortcuts-dialog').then((module) => module.ShortcutsDialog));
if (typeof window !== 'undefined') onFirstAct(() => void preloadShortcuts());

interface TaskListPageProps {
  /** id for the page's h1, so the section around it can be labelled by it. */
  headingId?: string;
}

function encouragement(todos: { completed: boolean }[]): string {
  if (todos.length === 0) return 'All tasks conquered!';
  const left = todos.filter((todo) => !todo.completed).length;
  if (left === 0) return 'Every task is done. Well played!';
  return `You have ${left} ${left === 1 ? 'task' : 'tasks'} left. Keep going!`;
}

/** Whether the focus went nowhere (or stays on a toast on its way out), so the page may place it. */
function focusIsFree(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.closest('[data-rht-toaster]') !== null;
}

/**
 * The task list screen (docs/PRODUCT.md §2): greeting, encouragement, illustration, new-task form, filters,
 * bulk actions and the list, kept live (§10.11.5), with Undo after a delete and keyboard shortcuts (§10.11).
 */
export function TaskListPage({ headingId }: TaskListPageProps) {
  const fullName = useFullName();
  const todos = useTodos();
  const [filter, chooseFilter] = useTaskFilter();
  const counts = useMemo(() => countTodos(todos.data ?? []), [todos.data]);
  const reducedMotion = useReducedMotion() ?? false;
  const { count, celebrate } = useCelebration(reducedMotion ? SUCCESS_CUE_MS : CONFETTI.visibleMs);
  const input = useRef<HTMLInputElement>(null);
  const [showShortcuts, setShowShortcuts] = useState(false);
  useLiveTodos();

  // After Undo the task is back in its place: the focus goes to it, unless the person has moved it elsewhere.
  const { mutate: restoreTask } = useRestoreTodo({
    onRestored: (todo) => {
      if (!focusIsFree()) return;
      document.querySelector<HTMLInputElement>(`[data-todo-id="${todo._id}"] input[type="checkbox"]`)?.focus();
    },
  });
  const onDeleted = useCallback(
    (todo: Todo, message: string) => offerUndoDelete(todo.title, todo._id, message, () => restoreTask(todo)),
    [restoreTask],
  );
  // The Undo offers end with the page (PRODUCT §10.11.4): nothing is left to answer the key elsewhere.
  useEffect(() => closeUndoOffers, []);

  useShortcuts({
    n: () => input.current?.focus(),
    '/': () => {
      const next = nextFilter(filter);
      chooseFilter(next);
      // The filter's link takes the focus: it says which filter is on, and no focused row vanishes with the old list.
      document.querySelector<HTMLElement>(`.tasks-filters [data-filter="${next}"]`)?.focus();
    },
    '?': () => setShowShortcuts(true),
    [UNDO_KEY]: () => void undoLatest(),
  });

  return (
    // LazyMotion + `m` components load only the DOM animation features the list uses (smaller bundle);
    // `strict` makes a stray full `motion` component an error instead of silently pulling them all in.
    <LazyMotion features={domAnimation} strict>
      <MotionConfig reducedMotion="user">
        <div className="tasks-page">
          <header className="tasks-page__header">
            <div className="tasks-page__intro">
              <h1 id={headingId} className="tasks-page__title">
                Task Manager
              </h1>
              <p className="tasks-page__greeting">{fullName ? `Hello, ${fullName}!` : 'Hello!'}</p>
              {todos.data && <p className="tasks-page__message">{encouragement(todos.data)}</p>}
            </div>
            <img className="tasks-page__illustration" src={ILLUSTRATION_SRC} alt="" width={240} height={180} />
          </header>
          <AddTaskForm inputRef={input} />
          {todos.isPending && (
            <p role="status" className="tasks-page__status">
              Loading your tasks…
            </p>
          )}
          {/* A failed refetch keeps the list on screen (offline, a hiccup): only a list never loaded is an error. */}
          {todos.isError && !todos.data && (
            <div role="alert" className="tasks-page__error">
              <p>We could not load your tasks.</p>
              <button type="button" className="tasks-button" onClick={() => void todos.refetch()}>
                Try again
              </button>
            </div>
          )}
          {todos.data && (
            <TaskList todos={todos.data} filter={filter} counts={counts} onCompleted={celebrate} onDeleted={onDeleted} inputRef={input} />
          )}
          <Celebration count={count} reducedMotion={reducedMotion} />
          {showShortcuts && (
            <Suspense fallback={null}>
              <ShortcutsDialog onClose={() => setShowShortcuts(false)} />
            </Suspense>
          )}
        </div>
      </MotionConfig>
    </LazyMotion>
  );
}
