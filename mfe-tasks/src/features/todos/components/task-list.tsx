import type { Todo, TodoPatch } from '@tm/api-client';
import type { TaskList as List } from '@tm/contracts';
import { isTypingTarget, personToday, taskRowKey } from '@tm/web-platform';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useLocation, useNavigate } from 'react-router-dom';
import { SMALL_SCREEN_QUERY } from '../constants';
import { onFirstAct } from '../hooks/first-act';
import { useMediaQuery } from '../hooks/use-media-query';
import { useOrphanedEdits } from '../hooks/use-orphaned-edits';
import { useRowActions } from '../hooks/use-row-actions';
import { useFocusAfterChange } from '../hooks/use-row-focus';
import { EMPTY_FILTER_MESSAGES, inFilter, isNarrowed, narrowsTo, NOTHING_MATCHES_MESSAGE, useNarrowing, type TaskFilter } from '../hooks/use-task-filter';
import { useTaskSounds } from '../hooks/use-task-sounds';
import { TaskRows } from './task-rows';
import { BulkActions, countTodos, TaskFilters, TaskNarrowing, type TaskCounts } from './task-toolbar';
import { preloadable } from './preloadable';
import { SearchField, SearchResults } from '../search/search-field';
import { isSearching, searchQueryIn } from '../search/search-param';
import { ReorderRows, ReorderToggle, useReorderMode } from '../reorder/reorder-toggle';

// A task's history is off the first load (docs/PERFORMANCE.md "First-load budgets"): fetched at the first key or
// pointer press on the page, or when first opened.
const { Component: TaskHistoryDialog, preload: preloadHistory } = preloadable(() =>
  import('./task-history-dialog').then((module) => module.TaskHistoryDialog),
);
if (typeof window !== 'undefined') onFirstAct(() => void preloadHistory());
// So is the choice of a list to move a task to (docs/PRODUCT.md §10.19), fetched when first opened.
const { Component: MoveTaskDialog } = preloadable(() => import('../lists/move-task-dialog').then((module) => module.MoveTaskDialog));
// So are a task's Priority and Labels… (docs/PRODUCT.md §10.20), one chunk fetched at the first key or pointer press,
// or when either is first opened: in by the time the network may be gone, as both work offline (§10.4).
const { Component: PriorityDialog, preload: preloadPriority } = preloadable(() => import('../labels/label-dialogs').then((module) => module.PriorityDialog));
const { Component: LabelsDialog, preload: preloadLabels } = preloadable(() => import('../labels/label-dialogs').then((module) => module.LabelsDialog));
if (typeof window !== 'undefined') onFirstAct(() => void Promise.all([preloadPriority(), preloadLabels()]));
// So is the due-date picker (docs/PRODUCT.md §10.14), fetched the same way.
// A task's details (docs/PRODUCT.md §10.21) too: their own chunk, fetched at the first key or pointer press.
const { Component: TaskDetailsDialog, preload: preloadDetails } = preloadable(() => import('../details/task-details-dialog').then((module) => module.TaskDetailsDialog));
if (typeof window !== 'undefined') onFirstAct(() => void preloadDetails());
const { Component: TaskDueDialog, preload: preloadDue } = preloadable(() => import('./task-due-dialog').then((module) => module.TaskDueDialog));
if (typeof window !== 'undefined') onFirstAct(() => void preloadDue());

const NO_LISTS: List[] = [];
const NO_LABELS: readonly string[] = [];

interface TaskListProps {
  /** Every task of the list, in the spec's order (it shows those of `filter` and of the address's other filters). */
  todos: Todo[];
  filter: TaskFilter;
  /** The counts of `todos` (the bulk actions act on all of them). */
  counts: TaskCounts;
  /** The person's labels, every list's (labelsInUse): the Label filter's choices and Labels… boxes (§10.20). */
  labels?: readonly string[];
  /** Whether the Priority, Label and Due filters show (a phone's "Filters" opens them), and their group's id. */
  narrowingShown?: boolean;
  narrowingId?: string;
  /** Fired when the server confirmed that a task became completed (the page's celebration trigger). */
  onCompleted: () => void;
  /** The new-task input: it takes the focus when the last task is deleted. */
  inputRef: RefObject<HTMLInputElement | null>;
  /** What the list's heading says: "All tasks", "Inbox" or the list's name (docs/PRODUCT.md §10.19). */
  heading?: string;
  /** The list the bulk actions act on (a list's id or INBOX_ID); undefined: every task. */
  listId?: string;
  /**
   * Whether the scope holds tasks the screen leaves out (in All tasks, an archived list's, PRODUCT §10.19): the bulk
   * actions, which act on every task of the scope, then give way, as under a filter (§10.20).
   */
  someLeftOut?: boolean;
  /** The person's lists: rows in All tasks name theirs, "Move to…" offers them. */
  lists?: List[];
  /** The list's heading (the Lists drawer hands the focus to it, §10.19). */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  /** On a phone, the row of Lists, Filters and Search: Reorder joins it there, leaving the rows their room. */
  viewsRow?: HTMLElement | null;
}

/**
 * The task rows of the current filter, pinned first, with optimistic tick, pin, rename and delete; above them
 * the filters and the bulk actions (docs/PRODUCT.md §10.11). Each concern is a part of its own: the rows'
 * actions (useRowActions), where the focus goes (useFocusAfterChange), the sounds (useTaskSounds), a title
 * edited while its task went away (useOrphanedEdits), and the windowed rows with their entrances (TaskRows).
 * A row's History action opens the task's change history here, one dialog for the list (docs/PRODUCT.md §10.4);
 * its Due date action the due-date picker, likewise (§10.14).
 */
/** What another screen hands over when it opens a task here (Today's titles, docs/PRODUCT.md §10.15). */
interface OpenTaskState {
  focusTask: string;
}
const isOpenTaskState = (state: unknown): state is OpenTaskState => typeof state === 'object' && state !== null && typeof (state as Partial<OpenTaskState>).focusTask === 'string';

/**
 * A task opened from another screen takes the focus on its row, scrolled into view, once the list holds it;
 * the hand-over is then taken out of the history entry, so going back or reloading does not move the focus.
 */
function useOpenedTask(rows: ReturnType<typeof useFocusAfterChange>['rows']) {
  const location = useLocation();
  const state: unknown = location.state;
  const { pathname, search } = location;
  const navigate = useNavigate();
  const opened = isOpenTaskState(state) ? state.focusTask : undefined;
  useEffect(() => {
    if (opened === undefined) return;
    rows.current?.focusTask(opened);
    void navigate({ pathname, search }, { replace: true, state: null });
  }, [opened, rows, navigate, pathname, search]);
}

export function TaskList({ todos: stored, filter, counts, labels = NO_LABELS, narrowingShown = true, narrowingId, onCompleted, inputRef, heading = 'Your tasks', listId, someLeftOut = false, lists = NO_LISTS, headingRef, viewsRow }: TaskListProps) {
  const headingId = useId();
  const [playSuccess, playDeleted, playAdded] = useTaskSounds();
  const orphans = useOrphanedEdits(stored, playAdded);
  const todos = orphans.withGone;
  // The priority, label and due filters of the address narrow what the status filter shows (PRODUCT §10.20),
  // read on the person's own day.
  const { narrowing, choose: chooseNarrowing, clear: clearNarrowing } = useNarrowing();
  const narrowed = isNarrowed(narrowing);
  const today = personToday();
  const shows = useCallback((todo: Todo) => inFilter(todo, filter) && narrowsTo(todo, narrowing, today), [filter, narrowing, today]);
  const visible = useMemo(() => (filter === 'all' && !narrowed ? todos : todos.filter(shows)), [todos, filter, narrowed, shows]);
  // The status filters count what the other filters leave, so each count is what choosing it shows.
  const shownCounts = useMemo(() => (narrowed ? countTodos(stored.filter((todo) => narrowsTo(todo, narrowing, today))) : counts), [narrowed, stored, narrowing, today, counts]);
  const view = narrowed ? `${filter} ${JSON.stringify(narrowing)}` : filter;
  const firstFilter = useRef<HTMLSelectElement>(null);
  const queryClient = useQueryClient();
  // A task added on this device keeps its row when the server's id replaces its temporary one (PRODUCT §10.4).
  const keys = useMemo(() => visible.map((todo) => taskRowKey(queryClient, todo._id)), [visible, queryClient]);
  const compact = useMediaQuery(SMALL_SCREEN_QUERY);
  const focus = useFocusAfterChange(visible, shows);
  useOpenedTask(focus.rows);
  // The same functions across renders, so a tick re-renders only its own row.
  const actions = useRowActions(focus, playSuccess, playDeleted, onCompleted, orphans.onSaveFoundGone);
  const [historyOf, setHistoryOf] = useState<Todo | null>(null);
  const showHistory = useCallback((todo: Todo) => setHistoryOf(todo), []);
  // The task as it is now (its values decide what can be restored); the one shown last if it has gone.
  const historyTodo = historyOf && (todos.find((todo) => todo._id === historyOf._id) ?? null);
  // A restore is an ordinary edit, tick or pin of the row, with its usual message, Undo and focus (§10.11).
  const restore = useCallback(
    (todo: Todo, patch: TodoPatch) => {
      if (patch.title !== undefined) actions.onRename(todo, patch.title);
      if (patch.completed !== undefined) actions.onToggleCompleted(todo, patch.completed);
      if (patch.isPinned !== undefined && patch.isPinned !== todo.isPinned) actions.onTogglePinned(todo);
      const { title: _title, completed: _completed, isPinned: _pinned, ...dates } = patch;
      if (Object.keys(dates).length > 0) actions.onSetDue(todo, dates);
    },
    [actions],
  );

  const [dueOf, setDueOf] = useState<Todo | null>(null);
  const pickDue = useCallback((todo: Todo) => setDueOf(todo), []);
  // The task as it is now (its due date decides whether Save changes anything); null when it has gone.
  const dueTodo = dueOf && (todos.find((todo) => todo._id === dueOf._id) ?? null);

  const [moveOf, setMoveOf] = useState<Todo | null>(null);
  const moveTo = useCallback((todo: Todo) => setMoveOf(todo), []);
  const moveTodo = moveOf && (todos.find((todo) => todo._id === moveOf._id) ?? null);
  const [priorityFor, setPriorityFor] = useState<Todo | null>(null);
  const pickPriority = useCallback((todo: Todo) => setPriorityFor(todo), []);
  const [labelsFor, setLabelsFor] = useState<Todo | null>(null);
  const editLabels = useCallback((todo: Todo) => setLabelsFor(todo), []);
  // The task as it is now (its priority and labels are what the dialog starts from).
  const priorityTodo = priorityFor && (todos.find((todo) => todo._id === priorityFor._id) ?? priorityFor);
  const labelsTodo = labelsFor && (todos.find((todo) => todo._id === labelsFor._id) ?? labelsFor);
  const [detailsOf, setDetailsOf] = useState<Todo | null>(null);
  const openDetails = useCallback((todo: Todo) => setDetailsOf(todo), []);
  // The task as it is now: each action in the details starts from it (one change each); null when it has gone.
  const detailsTodo = detailsOf && (todos.find((todo) => todo._id === detailsOf._id) ?? null);
  const closeDetails = useCallback(() => {
    const id = detailsOf?._id;
    setDetailsOf(null);
    // Opened by a tap on the title, nothing had the focus: it goes to the row (§10.9), once the dialog gave it back.
    queueMicrotask(() => {
      if (id !== undefined && (document.activeElement === null || document.activeElement === document.body)) focus.rows.current?.focusTask(id);
    });
  }, [detailsOf, focus.rows]);
  // In All tasks each row names its list, unless it is the Inbox (§10.19).
  const listsById = useMemo(() => new Map(lists.map((list) => [list._id, list])), [lists]);
  const listOf = useCallback((todo: Todo) => (todo.listId === undefined ? undefined : listsById.get(todo.listId)), [listsById]);
  // `M` on a focused row opens its "Move to…" (§10.19), as the arrow keys move between rows (useFocusAfterChange);
  // Enter on a row's checkbox opens its details (§10.21).
  const root = useRef<HTMLDivElement>(null);
  const current = useRef(todos);
  useEffect(() => {
    current.current = todos;
  }, [todos]);
  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      const details = event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.classList.contains('tasks-item__checkbox');
      if ((!details && event.key.toLowerCase() !== 'm') || event.ctrlKey || event.metaKey || event.altKey || (!details && isTypingTarget(event.target))) return;
      const row = (event.target as HTMLElement).closest<HTMLElement>('li[data-todo-id]');
      const todo = row && current.current.find((candidate) => candidate._id === row.dataset.todoId);
      if (!todo) return;
      event.preventDefault();
      if (details) setDetailsOf(todo);
      else setMoveOf(todo);
    };
    element.addEventListener('keydown', onKeyDown);
    return () => element.removeEventListener('keydown', onKeyDown);
  }, []);

  let empty: string | undefined;
  if (counts.all === 0) empty = 'No tasks';
  else if (visible.length === 0 && narrowed) empty = NOTHING_MATCHES_MESSAGE;
  else if (visible.length === 0 && filter !== 'all') empty = EMPTY_FILTER_MESSAGES[filter];
  // A search in the address (docs/PRODUCT.md §10.22) shows its matches in place of the rows.
  const query = searchQueryIn(useLocation().search);
  const searching = isSearching(query);
  // Your own order (docs/PRODUCT.md §10.24): Reorder shows the rows with handles in place of the usual ones.
  const reorder = useReorderMode(!searching && !narrowed && visible.length > 1);
  const clearFilters = () => {
    clearNarrowing();
    firstFilter.current?.focus();
  };

  return (
    <div className="tasks-list" ref={root}>
      <div className="tasks-list__header">
        <h2 id={headingId} ref={headingRef} className={`tasks-list__heading${listId === undefined ? '' : ' tasks-list__heading--list'}`}>
          {heading}
        </h2>
        {viewsRow ? createPortal(<ReorderToggle {...reorder} />, viewsRow) : <ReorderToggle {...reorder} />}
        {/* They act on the whole list (§10.11.3, §10.19): not offered while a filter or a search hides some of it. */}
        {!searching && !narrowed && !someLeftOut && <BulkActions counts={counts} inputRef={inputRef} listId={listId} />}
      </div>
      {(counts.all > 0 || searching) && <SearchField compact={compact} />}
      {counts.all > 0 && <TaskFilters filter={filter} counts={shownCounts} />}
      {narrowingShown && (counts.all > 0 || narrowed) && (
        <TaskNarrowing id={narrowingId} narrowing={narrowing} labels={labels} onChoose={chooseNarrowing} onClear={clearNarrowing} firstRef={firstFilter} compact={compact} />
      )}
      {searching ? (
        <SearchResults query={query} todos={stored} shows={shows} filter={filter} narrowing={narrowing} listId={listId} lists={lists} />
      ) : empty === NOTHING_MATCHES_MESSAGE ? (
        <div className="tasks-list__empty tasks-list__empty--narrowed">
          <p>{empty}</p>
          <button type="button" className="tasks-text-button" onClick={clearFilters}>
            Clear filters
          </button>
        </div>
      ) : (
        empty && <p className="tasks-list__empty">{empty}</p>
      )}
      {reorder.on && <ReorderRows todos={visible} headingId={headingId} />}
      {!searching && !reorder.on && (
      <TaskRows
        todos={todos}
        visible={visible}
        keys={keys}
        view={view}
        compact={compact}
        headingId={headingId}
        inputRef={inputRef}
        actions={actions}
        onEditing={orphans.onEditing}
        onShowHistory={showHistory}
        onPickDue={pickDue}
        onMoveTo={moveTo}
        onPickPriority={pickPriority}
        onEditLabels={editLabels}
        onOpenDetails={openDetails}
        listOf={listId === undefined ? listOf : undefined}
        goneId={orphans.goneId}
        deletedElsewhere={orphans.deletedElsewhere}
        handle={focus.rows}
      />
      )}
      {historyOf && (
        <TaskHistoryDialog todo={historyTodo ?? historyOf} deleted={!historyTodo} onRestore={restore} onClose={() => setHistoryOf(null)} />
      )}
      {moveOf && (
        <MoveTaskDialog todo={moveTodo ?? moveOf} lists={lists} onClose={() => setMoveOf(null)} />
      )}
      {priorityTodo && <PriorityDialog todo={priorityTodo} onChoose={actions.onSetPriority} onClose={() => setPriorityFor(null)} />}
      {labelsTodo && <LabelsDialog todo={labelsTodo} labels={labels} onSave={actions.onSetLabels} onClose={() => setLabelsFor(null)} />}
      {detailsOf && (
        <TaskDetailsDialog
          todo={detailsTodo ?? detailsOf}
          deleted={!detailsTodo}
          onRename={actions.onRename}
          onSetDetails={actions.onSetDetails}
          onClose={closeDetails}
        />
      )}
      {dueOf && (
        <TaskDueDialog todo={dueTodo ?? dueOf} deleted={!dueTodo} onSetDue={actions.onSetDue} onClose={() => setDueOf(null)} />
      )}
    </div>
  );
}
