import { describeError, type Todo } from '@tm/api-client';
import { addDays, nextMonday } from '@tm/contracts';
import { CalendarIcon, dueFull, dueText, isOverdue, notifyError } from '@tm/web-platform';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { setTaskFields } from './task-writes';

/** Where the focus goes once the screen has moved a task (docs/PRODUCT.md §10.15). */
export interface FocusRequest {
  todoId: string;
  on: 'title' | 'checkbox';
  /** A moved task takes it in its new place only: once its row shows this due date. */
  due?: string;
}

interface AgendaTaskProps {
  todo: Todo;
  /** The person's today (`YYYY-MM-DD`), for Tomorrow and Next week. */
  today: string;
  /** Whether the row says its day ("Overdue: Fri 4 Dec") or only its time (within a day's section). */
  showDay: boolean;
  /** The next row's task, which takes the focus when this one is completed. */
  nextId: string | undefined;
  focus: FocusRequest | null;
  onFocus: (request: FocusRequest | null) => void;
}

const quoted = (title: string) => `“${title}”`;

/** The due date moved to `day`, keeping its time of day. */
const movedTo = (due: string, day: string) => `${day}${due.slice(10)}`;

/** What the row says of its date: the time within a day's section, the day too when overdue or asked. */
function whenText(due: string, showDay: boolean): string {
  const overdue = isOverdue(due);
  const text = showDay || !due.includes('T') ? dueText(due) : dueText(due).replace(/^Today /, '');
  return overdue ? `Overdue: ${text}` : text;
}

/**
 * One open task of the Today screen (docs/PRODUCT.md §10.15): its checkbox completes it; its title opens it in
 * the task list; Reschedule shows "Tomorrow", "Next week" and a date, which keep the task's time of day.
 */
export function AgendaTask({ todo, today, showDay, nextId, focus, onFocus }: AgendaTaskProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState('');
  const panelId = useId();
  const whenId = useId();
  const title = useRef<HTMLAnchorElement>(null);
  const checkbox = useRef<HTMLInputElement>(null);
  const due = todo.due ?? today;
  const when = whenText(due, showDay);
  const overdue = isOverdue(due);

  // The screen moved this task (a new date) or completed the one before it: the focus comes here.
  useEffect(() => {
    if (focus?.todoId !== todo._id || (focus.due !== undefined && focus.due !== todo.due)) return;
    (focus.on === 'title' ? title : checkbox).current?.focus();
    onFocus(null);
  }, [focus, todo._id, todo.due, onFocus]);

  const change = (patch: { completed?: boolean; due?: string }, after: FocusRequest | null) => {
    setOpen(false);
    onFocus(after);
    setTaskFields(queryClient, todo, patch).catch((error: unknown) => notifyError(describeError(error, 'The task could not be changed. Please try again.')));
  };
  const moveTo = (day: string) => {
    const moved = movedTo(due, day);
    change({ due: moved }, { todoId: todo._id, on: 'title', due: moved });
  };

  return (
    <li className="agenda-task">
      {/* The label is the checkbox's 44 px touch target (PRODUCT §10.9); the box names itself. */}
      <label className="agenda-task__check-area">
        <input
          ref={checkbox}
          className="agenda-task__check"
          type="checkbox"
          checked={false}
          aria-label={`Mark ${quoted(todo.title)} as completed`}
          aria-describedby={whenId}
          onChange={() => change({ completed: true }, nextId ? { todoId: nextId, on: 'checkbox' } : null)}
        />
      </label>
      <div className="agenda-task__body">
        <Link ref={title} className="agenda-task__title" to="/" state={{ focusTask: todo._id }} dir="auto">
          {todo.title}
        </Link>
        <time id={whenId} className={`agenda-task__when${overdue ? ' agenda-task__when--overdue' : ''}`} dateTime={due} title={dueFull(due)}>
          {when}
        </time>
      </div>
      <button
        type="button"
        className="agenda-task__reschedule"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Reschedule ${quoted(todo.title)}`}
        title={`Reschedule ${quoted(todo.title)}`}
        onClick={() => setOpen((shown) => !shown)}
      >
        <CalendarIcon />
      </button>
      <div id={panelId} className="agenda-task__panel" role="group" aria-label={`New date for ${quoted(todo.title)}`} hidden={!open}>
        <button type="button" className="agenda-button" onClick={() => moveTo(addDays(today, 1))}>
          Tomorrow
        </button>
        <button type="button" className="agenda-button" onClick={() => moveTo(nextMonday(today))}>
          Next week
        </button>
        <form
          className="agenda-task__date"
          onSubmit={(event) => {
            event.preventDefault();
            if (/^\d{4}-\d{2}-\d{2}$/.test(date)) moveTo(date);
          }}
        >
          <label className="visually-hidden" htmlFor={`${panelId}-date`}>
            Date
          </label>
          <input id={`${panelId}-date`} className="agenda-task__date-input" type="date" min="1970-01-01" max="2999-12-31" value={date} onChange={(event) => setDate(event.target.value)} />
          <button type="submit" className="agenda-button" aria-disabled={date === '' || undefined}>
            Move
          </button>
        </form>
      </div>
    </li>
  );
}
