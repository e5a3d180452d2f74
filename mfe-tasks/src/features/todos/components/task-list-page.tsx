import { useReducedMotion } from 'framer-motion';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
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
import { closeUndoOffers } from '@tm/web-platform/undo';
import { Link, useLocation } from 'react-router-dom';
import { archivedListIds, labelsInUse } from '@tm/contracts';
import { useLists } from '../lists/lists-api';
import { openCounts, scopeListId, scopeName, tasksInScope, useListScope } from '../lists/current-list';
import { ListsDrawer, ListsNav } from '../lists/lists-nav';
import { SMALL_SCREEN_QUERY, WIDE_SCREEN_QUERY } from '../constants';
import { isNarrowed, narrowingIn } from '../hooks/use-task-filter';
import { useMediaQuery } from '../hooks/use-media-query';
import { SearchButton } from '../search/search-field';
import './task-list-page.css';
import '../lists/lists.css';
import '../labels/labels.css';

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
  // The list the address names (docs/PRODUCT.md §10.19): all tasks on `/`, the Inbox, or one list.
  const scope = useListScope();
  const { lists } = useLists();
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  // The sidebar takes the margin beside the page where wide screens show toasts: while it shows, the toasts
  // keep to their band at the window's bottom edge (platform.css, PRODUCT §4 "Toasts": never over work).
  useEffect(() => {
    if (!wide) return undefined;
    document.documentElement.dataset.widePage = '';
    return () => {
      delete document.documentElement.dataset.widePage;
    };
  }, [wide]);
  // An archived list keeps its tasks out of the way: only that list shows them (§10.19 "Archive").
  const archived = useMemo(() => archivedListIds(lists), [lists]);
  const scoped = useMemo(() => (todos.data ? tasksInScope(todos.data, scope, archived) : undefined), [todos.data, scope, archived]);
  const allCount = useMemo(() => tasksInScope(todos.data ?? [], { kind: 'all' }, archived).filter((todo) => !todo.completed).length, [todos.data, archived]);
  const listCounts = useMemo(() => openCounts(todos.data ?? []), [todos.data]);
  const taskCountOf = (listId: string) => (todos.data ?? []).filter((todo) => todo.listId === listId).length;
  const [filter, chooseFilter] = useTaskFilter();
  // Every label the person's tasks carry, whatever their list (PRODUCT §10.20): the Label filter and Labels… offer them.
  const labels = useMemo(() => labelsInUse(todos.data ?? []).map((label) => label.name), [todos.data]);
  const { search } = useLocation();
  // The Priority, Label and Due filters (PRODUCT §10.20): always shown from 641 px up; on a phone behind
  // "Filters" beside "Lists", so the first task stays in view (§10.9), and shown whenever one is set.
  const compact = useMediaQuery(SMALL_SCREEN_QUERY);
  const narrowing = useMemo(() => narrowingIn(search), [search]);
  const narrowCount = Object.keys(narrowing).length;
  // A task added under the Priority or Label filter takes it, so it stays in view (§10.20).
  const newTaskMarks = useMemo(() => {
    const { priority, label } = narrowing;
    return { ...(priority === undefined ? {} : { priority }), ...(label === undefined ? {} : { label }) };
  }, [narrowing]);
  const [filtersOpen, setFiltersOpen] = useState(() => isNarrowed(narrowing));
  // A filter set (in the address, by a label on a row) opens them, so what narrows the list is in sight.
  const [seenCount, setSeenCount] = useState(narrowCount);
  if (seenCount !== narrowCount) {
    setSeenCount(narrowCount);
    if (narrowCount > 0) setFiltersOpen(true);
  }
  const narrowingId = useId();
  const toggleFilters = () => {
    setFiltersOpen(!filtersOpen);
    // The filters are under the status filters, away from the button: the focus goes to the first of them.
    if (!filtersOpen) requestAnimationFrame(() => document.getElementById(narrowingId)?.querySelector('select')?.focus());
  };
  const counts = useMemo(() => countTodos(scoped ?? []), [scoped]);
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
  const keptVersion = `${todos.dataUpdatedAt} ${sync?.pending ?? '-'} ${sync?.fresh === true} ${search}`;
  useKeptScreen(todos.data !== undefined && sync !== undefined, keptVersion);

  // The Undo offers end with the page (PRODUCT §10.11.4): nothing is left to answer the key elsewhere.
  useEffect(() => closeUndoOffers, []);

  useTaskShortcuts(input, filter, chooseFilter, () => setShowShortcuts(true));

  // The heading of the tasks shown: the drawer puts the focus there after a choice (§10.19).
  const listHeading = useRef<HTMLHeadingElement>(null);
  const focusListHeading = useCallback(() => {
    const heading = listHeading.current;
    if (!heading) return;
    // Focusable from script for this once: a tabindex left behind would let a click on the heading take the focus.
    heading.setAttribute('tabindex', '-1');
    heading.addEventListener('blur', () => heading.removeAttribute('tabindex'), { once: true });
    heading.focus();
  }, []);
  // The row of Lists, Filters and Search on a phone, where Reorder joins them (§10.24).
  const [viewsRow, setViewsRow] = useState<HTMLDivElement | null>(null);
  const navProps = { scope, lists, counts: listCounts, allCount, taskCountOf };
  const newTaskList = scope.kind === 'list' ? scope.list._id : undefined;
  return (
    <div className={`tasks-page${wide ? ' tasks-page--with-lists' : ''}`} ref={page}>
      {wide && (
        <aside className="tasks-page__lists">
          <ListsNav {...navProps} dropSlots />
        </aside>
      )}
      <div className="tasks-page__main">
      <header className="tasks-page__header">
        <div className="tasks-page__intro">
          <h1 id={headingId} className="tasks-page__title">
            Task Manager
          </h1>
          <p className="tasks-page__greeting">{fullName ? `Hello, ${fullName}!` : 'Hello!'}</p>
          {scoped && <p className="tasks-page__message">{encouragement(scoped)}</p>}
        </div>
        <Illustration />
      </header>
      {!wide && (
        <div className="tasks-page__views" ref={setViewsRow}>
          <ListsDrawer {...navProps} onChosen={focusListHeading} />
          {compact && scope.kind !== 'unknown' && (
            <button type="button" className="tasks-text-button tasks-narrow-toggle" aria-expanded={filtersOpen} aria-controls={filtersOpen ? narrowingId : undefined} onClick={toggleFilters}>
              Filters{narrowCount > 0 && ` (${narrowCount})`}
            </button>
          )}
          {compact && scope.kind !== 'unknown' && (scoped?.length ?? 0) > 0 && <SearchButton />}
        </div>
      )}
      {scope.kind === 'unknown' ? (
        <div className="tasks-page__missing" role="status">
          <p>This list does not exist.</p>
          <Link to="/">Go to All tasks</Link>
        </div>
      ) : (
      <>
      <AddTaskForm inputRef={input} listId={newTaskList} lists={lists} marks={newTaskMarks} />
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
      {scoped && (
        <TaskList
          todos={scoped}
          filter={filter}
          counts={counts}
          labels={labels}
          narrowingShown={!compact || filtersOpen}
          narrowingId={narrowingId}
          onCompleted={celebrate}
          inputRef={input}
          // `/` stays the spec's task list, headed as it always was; a list's screen names the list (§10.19).
          heading={scope.kind === 'all' ? undefined : scopeName(scope)}
          listId={scopeListId(scope)}
          someLeftOut={scoped.length < (todos.data?.length ?? 0) && scopeListId(scope) === undefined}
          lists={lists}
          viewsRow={wide ? null : viewsRow}
          headingRef={listHeading}
        />
      )}
      </>
      )}
      </div>
      {celebrations && <Celebration count={count} reducedMotion={reducedMotion} />}
      {showShortcuts && (
        <ShortcutsDialog onClose={() => setShowShortcuts(false)} />
      )}
    </div>
  );
}
