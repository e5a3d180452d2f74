import type { Todo } from '@tm/api-client';
import { labelKey, PRIORITIES, priorityName } from '@tm/contracts';
import { useEffect, useId, useRef, type RefObject } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useClearCompleted, useCompleteAll } from '../api/bulk-todos';
import { SaveFilterButton } from '../saved-filters/save-filter-button';
import { DUE_FILTER_LABELS, DUE_FILTERS, FILTER_LABELS, filterSearch, isNarrowed, TASK_FILTERS, type Narrowing, type NarrowingParam, type TaskFilter } from '../hooks/use-task-filter';

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
  // The priority, label and due filters of the address stay as they are (PRODUCT §10.20).
  const { search } = useLocation();
  return (
    // Links without a list around them: the page's only list items are its tasks.
    <nav className="tasks-filters" aria-label="Filter tasks">
      {TASK_FILTERS.map((option) => (
        <Link
          key={option}
          to={{ search: filterSearch(option, search) }}
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

interface TaskNarrowingProps {
  id?: string;
  narrowing: Narrowing;
  /** The person's labels (labelsInUse of all their tasks), the Label filter's choices. */
  labels: readonly string[];
  onChoose: (param: NarrowingParam, value: string | undefined) => void;
  /** "Clear filters": the three taken away at once. */
  onClear: () => void;
  /** The Priority select, which takes the focus when "Clear filters" goes away under it. */
  firstRef: RefObject<HTMLSelectElement | null>;
  /** A small screen: the selects' names are not shown beside them, so their "Any" choice says their name. */
  compact: boolean;
}

/** The value of a select's "Any" choice: no filter of its kind. */
const ANY = '';

interface NarrowFieldProps {
  /** The filter's name, beside its select on wide screens. */
  name: string;
  /** What the "Any" choice says. */
  any: string;
  value: string | undefined;
  choices: readonly { value: string; text: string }[];
  onChoose: (value: string | undefined) => void;
  selectRef?: RefObject<HTMLSelectElement | null>;
}

/** One of the filters: its name and a native select whose first choice, "Any", sets none. */
function NarrowField({ name, any, value, choices, onChoose, selectRef }: NarrowFieldProps) {
  const id = useId();
  return (
    <div className="tasks-narrow__field">
      <label htmlFor={id} className="tasks-narrow__label">
        {name}
      </label>
      <select ref={selectRef} id={id} className="tasks-narrow__select" value={value ?? ANY} onChange={(event) => onChoose(event.target.value === ANY ? undefined : event.target.value)}>
        <option value={ANY}>{any}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.text}
          </option>
        ))}
      </select>
    </div>
  );
}

const PRIORITY_CHOICES = PRIORITIES.map((priority) => ({ value: String(priority), text: priorityName(priority) }));
const DUE_CHOICES = DUE_FILTERS.map((due) => ({ value: due, text: DUE_FILTER_LABELS[due] }));

/**
 * Priority, Label and Due (docs/PRODUCT.md §10.20), native selects in one compact row under the status filters:
 * each choice narrows what the status filter and the list show, and lives in the address. Their names show
 * beside them on wide screens ("Priority [Any]"); on a phone (where "Filters" shows them) the three share one
 * row and name themselves: "Priority" until one is chosen, then the choice ("Priority 1", "@errand", "Due today"). The Label select
 * shows once the person has labels. "Clear filters" shows while any is set.
 */
export function TaskNarrowing({ id, narrowing, labels, onChoose, onClear, firstRef, compact }: TaskNarrowingProps) {
  const any = (name: string) => (compact ? name : 'Any');
  // The label the address names, spelt as the person's tasks spell it; a label no task carries is offered as well,
  // so the select shows what the address says (and the list says nothing matches).
  const current = narrowing.label === undefined ? undefined : (labels.find((name) => labelKey(name) === labelKey(narrowing.label ?? '')) ?? narrowing.label);
  const labelChoices = current === undefined || labels.includes(current) ? labels : [...labels, current];
  return (
    <div id={id} className="tasks-narrow" role="group" aria-label="More filters">
      <NarrowField name="Priority" any={any('Priority')} value={narrowing.priority === undefined ? undefined : String(narrowing.priority)} choices={PRIORITY_CHOICES} onChoose={(value) => onChoose('priority', value)} selectRef={firstRef} />
      {labelChoices.length > 0 && (
        <NarrowField name="Label" any={any('Label')} value={current} choices={labelChoices.map((name) => ({ value: name, text: `@${name}` }))} onChoose={(value) => onChoose('label', value)} />
      )}
      <NarrowField name="Due" any={any('Due date')} value={narrowing.due} choices={DUE_CHOICES} onChoose={(value) => onChoose('due', value)} />
      {isNarrowed(narrowing) && (
        <button
          type="button"
          className="tasks-text-button tasks-narrow__clear"
          onClick={() => {
            onClear();
            // The button goes away with the filters: the focus stays in the row of filters.
            firstRef.current?.focus();
          }}
        >
          Clear filters
        </button>
      )}
      <SaveFilterButton />
    </div>
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
