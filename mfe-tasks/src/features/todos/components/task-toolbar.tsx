import type { Todo } from '@tm/api-client';
import { useEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { useClearCompleted, useCompleteAll } from '../api/bulk-todos';
import { FILTER_LABELS, filterSearch, TASK_FILTERS, type TaskFilter } from '../hooks/use-task-filter';

export interface TaskCounts {
  all: number;
  active: number;
  completed: number;
}

export function countTodos(todos: Todo[]): TaskCounts {
  const completed = todos.filter((todo) => todo.completed).length;
  return { all: todos.length, active: todos.length - completed, completed };
}

interface TaskFiltersProps {
  filter: TaskFilter;
  counts: TaskCounts;
}

/**
 * "All", "Active", "Completed" with their counts (docs/PRODUCT.md §10.11.2): links to the filtered
 * addresses, so each is a real navigation (Back, open in a new tab, share); the current one is marked.
 */
export function TaskFilters({ filter, counts }: TaskFiltersProps) {
  return (
    // Links without a list around them: the page's only list items are its tasks.
    <nav className="tasks-filters" aria-label="Filter tasks">
      {TASK_FILTERS.map((option) => (
        <Link
          key={option}
          to={{ search: filterSearch(option) }}
          className="tasks-filters__link"
          data-filter={option}
          aria-current={option === filter ? 'page' : undefined}
        >
          {FILTER_LABELS[option]} <span className="tasks-filters__count">{counts[option]}</span>
        </Link>
      ))}
    </nav>
  );
}

interface BulkActionsProps {
  counts: TaskCounts;
  /** The new-task input: it takes the focus when the bulk buttons go away with the last tasks. */
  inputRef: RefObject<HTMLInputElement | null>;
  /** The list they act on (a list's id or INBOX_ID, docs/PRODUCT.md §10.19); undefined: every task. */
  listId?: string;
}

/**
 * "Mark all complete" ("Mark all active" once everything is complete) and "Clear completed" (only while
 * something is completed): one request each, applied at once (docs/PRODUCT.md §10.11.3). A second click on
 * the same action while it is on its way is ignored. When "Clear completed" goes away under the focus, the
 * focus moves to "Mark all complete", or to the new-task input when no task is left.
 */
export function BulkActions({ counts, inputRef, listId }: BulkActionsProps) {
  const completeAll = useCompleteAll(listId);
  const clearCompleted = useClearCompleted(listId);
  const markAll = useRef<HTMLButtonElement>(null);
  const clearing = useRef(false);
  // Set in the click itself: a double click arrives before the pending state re-renders the button.
  const running = useRef({ completeAll: false, clearCompleted: false });
  const allDone = counts.all > 0 && counts.active === 0;

  useEffect(() => {
    if (!clearing.current || counts.completed > 0) return;
    clearing.current = false;
    if (markAll.current) markAll.current.focus();
    else inputRef.current?.focus();
  }, [counts.completed, inputRef]);

  const once = (action: keyof typeof running.current, run: () => Promise<unknown>) => {
    if (running.current[action]) return;
    running.current[action] = true;
    run()
      .catch(() => undefined) // said in a toast by the mutation
      .finally(() => {
        running.current[action] = false;
      });
  };

  if (counts.all === 0) return null;
  return (
    <div className="tasks-bulk">
      <button
        ref={markAll}
        type="button"
        className="tasks-text-button"
        aria-disabled={completeAll.isPending || undefined}
        onClick={() => once('completeAll', () => completeAll.mutateAsync(!allDone))}
      >
        {allDone ? 'Mark all active' : 'Mark all complete'}
      </button>
      {counts.completed > 0 && (
        <button
          type="button"
          className="tasks-text-button"
          aria-disabled={clearCompleted.isPending || undefined}
          onClick={(event) => {
            clearing.current = event.currentTarget === document.activeElement;
            once('clearCompleted', () => clearCompleted.mutateAsync());
          }}
        >
          Clear completed
        </button>
      )}
    </div>
  );
}
