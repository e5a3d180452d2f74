import { describeError, type Todo } from '@tm/api-client';
import { addDays, nextMonday, type ReminderItem } from '@tm/contracts';
import { CalendarIcon, dueFull, dueText, isOverdue, notifyError, notifySuccess, planText } from '@tm/web-platform';
import { MissedReminderMark } from '@tm/web-platform/reminders';
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
  /** Its missed reminder, marked on the row (docs/PRODUCT.md §10.17); absent for nearly every task. */
  missed?: ReminderItem;
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

/** What a change says, and Undo of a tick (docs/PRODUCT.md §10.11.4): off the first load, fetched once the screen has painted. */
export const loadAfterChange = () => import('./after-change');

/**
 * One open task of the Today screen (docs/PRODUCT.md §10.15): its checkbox completes it; its title opens it in
 * the task list; Reschedule shows "Tomorrow", "Next week" and a date, which keep the task's time of day.
 */
export function AgendaTask({ todo, today, showDay, nextId, focus, onFocus, missed }: AgendaTaskProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState('');
  const panelId = useId();
  const whenId = useId();
  const title = useRef<HTMLAnchorElement>(null);
  const checkbox = useRef<HTMLInputElement>(null);
  const due = todo.due ?? today;
  const when = whenText(due, showDay);
  const plan = planText(todo);
  const planId = useId();
  const missedId = useId();
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
    // After an Undo the focus goes to the task's checkbox, back in its place (PRODUCT §10.11.4).
    const restored = (back: Todo) => onFocus({ todoId: back._id, on: 'checkbox', due: back.due });
    setTaskFields(queryClient, todo, patch).then(
      (written) =>
        loadAfterChange().then(
          ({ answerChange }) => answerChange(queryClient, todo, patch, written, restored),
          () => written.message && notifySuccess(written.message),
        ),
      (error: unknown) => notifyError(describeError(error, 'The task could not be changed. Please try again.')),
    );
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
          aria-describedby={[whenId, plan && planId, missed && missedId].filter(Boolean).join(' ')}
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
        {/* Whether it repeats and its reminders (PRODUCT §10.16, §10.17): a repeating task ticked here moves to its next date. */}
        {plan && (
          <span id={planId} className="agenda-task__when">
            {' · '}
            {plan}
          </span>
        )}
        {missed && <MissedReminderMark id={missedId} reminder={missed} />}
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
