import { useReducedMotion } from 'framer-motion';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useKeptScreen, useLiveTodos, usePersonClock, usePreferences, useTaskSync } from '@tm/web-platform';
import { useFullName } from '../api/get-current-user';
import { useTodos } from '../api/get-todos';
import { CONFETTI, SUCCESS_CUE_MS } from '../constants';
import { useCelebration } from '../hooks/use-celebration';
import { onFirstAct } from '../hooks/first-act';
import { useKeyboardOpen } from '../hooks/use-keyboard-open';
import { useTaskFilter } from '../hooks/use-task-filter';
import { useTaskShortcuts } from '../hooks/use-task-shortcuts';
import { AddTaskForm } from './add-task-form';
import { Celebration } from './celebration';
import { Illustration } from './illustration';
import { TaskList } from './task-list';
import { countTodos } from './task-toolbar';
import { SyncStatusLine } from './sync-status';
import { preloadable } from './preloadable';
import { closeUndoOffers } from './undo-toast';
import './task-list-page.css';

// Off the first load (docs/PERFORMANCE.md "First-load budgets"): fetched at the first key or pointer press, or when first opened.
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

/**
 * The task list screen (docs/PRODUCT.md §2): greeting, encouragement, illustration, new-task form, filters,
 * bulk actions and the list, kept live (§10.11.5), with Undo after a delete and keyboard shortcuts (§10.11).
 */
export function TaskListPage({ headingId }: TaskListPageProps) {
  const fullName = useFullName();
  // Due dates are read on the person's own clock (§10.14), set before the rows below read it.
  usePersonClock();
  const todos = useTodos();
  const [filter, chooseFilter] = useTaskFilter();
  const counts = useMemo(() => countTodos(todos.data ?? []), [todos.data]);
  const reducedMotion = useReducedMotion() ?? false;
  // The person's preference (PRODUCT §10.10): with celebrations off, a completion shows neither confetti nor
  // the still check mark (the sound is the sounds preference's, see useSound).
  const [{ celebrations }] = usePreferences();
  const { count, celebrate } = useCelebration(reducedMotion ? SUCCESS_CUE_MS : CONFETTI.visibleMs);
  const input = useRef<HTMLInputElement>(null);
  const page = useRef<HTMLDivElement>(null);
  const [showShortcuts, setShowShortcuts] = useState(false);
  useLiveTodos();
  // The device's copy of the list and its queued changes (PRODUCT §10.4): undefined while it loads.
  const sync = useTaskSync();
  useKeyboardOpen(page);
  // The kept screen (PRODUCT §10.4) gives way to this one once the list is drawn, and this one is kept
  // again after each change has settled.
  const keptVersion = `${todos.dataUpdatedAt} ${sync?.pending ?? '-'} ${sync?.fresh === true} ${filter}`;
  useKeptScreen(todos.data !== undefined && sync !== undefined, keptVersion);

  // The Undo offers end with the page (PRODUCT §10.11.4): nothing is left to answer the key elsewhere.
  useEffect(() => closeUndoOffers, []);

  useTaskShortcuts(input, filter, chooseFilter, () => setShowShortcuts(true));

  return (
    <div className="tasks-page" ref={page}>
      <header className="tasks-page__header">
        <div className="tasks-page__intro">
          <h1 id={headingId} className="tasks-page__title">
            Task Manager
          </h1>
          <p className="tasks-page__greeting">{fullName ? `Hello, ${fullName}!` : 'Hello!'}</p>
          {todos.data && <p className="tasks-page__message">{encouragement(todos.data)}</p>}
        </div>
        <Illustration />
      </header>
      <AddTaskForm inputRef={input} />
      {sync && <SyncStatusLine status={sync} todos={todos.data ?? []} />}
      {todos.isPending && (
        <p role="status" className="tasks-page__status">
          Loading your tasks…
        </p>
      )}
      {/* A failed refetch keeps the list on screen (offline, a hiccup): only a list never loaded is an error. */}
      {todos.isError && !todos.data && sync !== undefined && (
        <div role="alert" className="tasks-page__error">
          <p>We could not load your tasks.</p>
          <button type="button" className="tasks-button" onClick={() => void todos.refetch()}>
            Try again
          </button>
        </div>
      )}
      {todos.data && (
        <TaskList todos={todos.data} filter={filter} counts={counts} onCompleted={celebrate} inputRef={input} />
      )}
      {celebrations && <Celebration count={count} reducedMotion={reducedMotion} />}
      {showShortcuts && (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setShowShortcuts(false)} />
        </Suspense>
      )}
    </div>
  );
}
