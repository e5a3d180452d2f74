import type { Todo } from '@tm/api-client';
import { DUE_YEARS, dueProblem, nextMonday } from '@tm/contracts';
import { ModalDialog } from '@tm/web-platform';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { quoted } from './task-actions';
import { personNow } from '@tm/web-platform';

// The due-date picker of a task (docs/PRODUCT.md §10.14): the browser's own date and time fields, which every
// engine makes usable with the keyboard and a screen reader and turns into its native picker on a phone, with
// quick choices beside them. A due date is the person's own calendar day (and time), so every day here is
// read and written in local time, never shifted through UTC.

/** Said at the Date field when a time was given without a day. */
const DATE_FOR_TIME = 'Choose a date for this time, or clear the time.';
/** Said at the Date field for a day the service refuses for its year (docs/PRODUCT.md §10.14 "Bad input"). */
const YEARS = `Choose a date from ${DUE_YEARS.min} to ${DUE_YEARS.max}.`;
/** Said at a field the browser holds half-typed (its value is then empty). */
const WHOLE_DATE = 'Enter a whole date: day, month and year.';
const WHOLE_TIME = 'Enter a whole time (hours and minutes), or clear it.';

/** A local calendar day as a due date takes it: `YYYY-MM-DD`. */
function dayOf(date: Date): string {
  return `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Today moved by `days` calendar days (by the calendar, so a change of the clocks moves nothing). */
function daysFromToday(days: number, now: Date): string {
  return dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));
}

/** The quick choices: today, tomorrow, and next week's Monday (a Monday's "next week" is seven days on). */
export const QUICK_CHOICES: readonly { label: string; day: (now: Date) => string }[] = [
  { label: 'Today', day: (now) => daysFromToday(0, now) },
  { label: 'Tomorrow', day: (now) => daysFromToday(1, now) },
  { label: 'Next week', day: (now) => nextMonday(daysFromToday(0, now)) },
];

interface Problem {
  field: 'date' | 'time';
  message: string;
}

/**
 * What the fields say, as a due date (`null`: none), or why they say none the service would take. `badDate`
 * and `badTime`: the browser holds a half-typed value there (ValidityState.badInput, the value then empty).
 */
export function dueFromFields(date: string, time: string, badDate = false, badTime = false): { due: string | null } | Problem {
  if (badDate) return { field: 'date', message: WHOLE_DATE };
  if (badTime) return { field: 'time', message: WHOLE_TIME };
  if (date === '') return time === '' ? { due: null } : { field: 'date', message: DATE_FOR_TIME };
  const due = time === '' ? date : `${date}T${time}`;
  const problem = dueProblem(due);
  if (problem === null) return { due };
  const year = Number(date.slice(0, date.indexOf('-', 1)));
  if (Number.isInteger(year) && (year < DUE_YEARS.min || year > DUE_YEARS.max)) return { field: 'date', message: YEARS };
  return { field: dueProblem(date) === null ? 'time' : 'date', message: problem };
}

interface TaskDueDialogProps {
  /** The task as the list has it now: its due date is where the fields start. */
  todo: Todo;
  /** The task has left the list (deleted, here or elsewhere): nothing can be set on it any more. */
  deleted: boolean;
  /** Sets the due date (null removes it), through the list's usual update: called once the dialog has closed. */
  onSetDue: (todo: Todo, due: string | null) => void;
  onClose: () => void;
}

/**
 * The "Due date of “…”" dialog (docs/PRODUCT.md §10.14): a Date field and an optional Time field, starting on the
 * task's due date; "Today", "Tomorrow" and "Next week" (next Monday) fill the date; Save sets it, "Remove due
 * date" removes it, Cancel or Escape changes nothing. A time without a date, or a year outside 1970–2999, is
 * refused at its field, in words tied to it (aria-invalid, aria-describedby), and the focus goes there. A
 * modal <dialog> (ModalDialog) as the task's History is: the focus starts in the Date field and goes back to
 * the control that opened it when it closes (PRODUCT §10.9); the change is sent after that, so it follows the
 * focus as any edit of the row does. Saving the value the task has sends nothing.
 */
export function TaskDueDialog({ todo, deleted, onSetDue, onClose }: TaskDueDialogProps) {
  const titleId = useId();
  const dateId = useId();
  const timeId = useId();
  const problemId = useId();
  const [startDate = '', startTime = ''] = todo.due?.split('T') ?? [];
  const [date, setDate] = useState(startDate);
  const [time, setTime] = useState(startTime);
  const [problem, setProblem] = useState<Problem | null>(null);
  const dateInput = useRef<HTMLInputElement>(null);
  const timeInput = useRef<HTMLInputElement>(null);
  // What Save or Remove chose: sent once the dialog has closed (see onClosed). `undefined`: nothing to send.
  const chosen = useRef<string | null | undefined>(undefined);

  // This effect runs after ModalDialog's own (which opens it): the focus starts in the Date field.
  useEffect(() => {
    dateInput.current?.focus();
  }, []);

  const close = (due: string | null | undefined) => {
    chosen.current = due;
    dateInput.current?.closest('dialog')?.close();
  };

  const save = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = dueFromFields(date, time, dateInput.current?.validity.badInput, timeInput.current?.validity.badInput);
    if ('field' in result) {
      setProblem(result);
      (result.field === 'date' ? dateInput : timeInput).current?.focus();
      return;
    }
    // The same value again, or a task that has gone: nothing to send.
    close(deleted || result.due === (todo.due ?? null) ? undefined : result.due);
  };

  // ModalDialog gives the focus back right after this returns; the change follows it, as History's Restore does.
  const onClosed = () => {
    const due = chosen.current;
    chosen.current = undefined;
    onClose();
    if (due !== undefined) queueMicrotask(() => onSetDue(todo, due));
  };

  const fieldProps = (field: Problem['field']) =>
    problem?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': problemId } : {};
  const problemText = (field: Problem['field']) =>
    problem?.field === field && (
      <p id={problemId} className="tasks-due__problem">
        {problem.message}
      </p>
    );

  return (
    <ModalDialog
      className="tasks-dialog tasks-due"
      labelledBy={titleId}
      onClose={onClosed}
      closeLabel="Cancel"
      closeButtonClassName="tasks-button tasks-button--quiet tasks-dialog__close tasks-due__cancel"
    >
      <h2 id={titleId} className="tasks-dialog__title tasks-due__title">
        Due date of {quoted(todo.title)}
      </h2>
      {deleted && <p className="tasks-dialog__note">This task has been deleted.</p>}
      {/* No browser validation bubble: the problems are said at their fields, in the page's words. */}
      <form className="tasks-due__form" noValidate onSubmit={save}>
        <div className="tasks-due__field">
          <label htmlFor={dateId} className="tasks-due__label">
            Date
          </label>
          <input
            ref={dateInput}
            id={dateId}
            type="date"
            className="tasks-due__input"
            min={`${DUE_YEARS.min}-01-01`}
            max={`${DUE_YEARS.max}-12-31`}
            value={date}
            {...fieldProps('date')}
            onChange={(event) => {
              setDate(event.target.value);
              setProblem(null);
            }}
          />
          {problemText('date')}
        </div>
        <div className="tasks-due__quick" role="group" aria-label="Quick choices">
          {QUICK_CHOICES.map((choice) => (
            <button
              key={choice.label}
              type="button"
              className="tasks-button tasks-button--quiet tasks-due__choice"
              onClick={() => {
                setDate(choice.day(personNow()));
                setProblem(null);
              }}
            >
              {choice.label}
            </button>
          ))}
        </div>
        <div className="tasks-due__field">
          <label htmlFor={timeId} className="tasks-due__label">
            Time (optional)
          </label>
          <input
            ref={timeInput}
            id={timeId}
            type="time"
            className="tasks-due__input"
            value={time}
            {...fieldProps('time')}
            onChange={(event) => {
              setTime(event.target.value);
              setProblem(null);
            }}
          />
          {problemText('time')}
        </div>
        {todo.due !== undefined && !deleted && (
          <button type="button" className="tasks-button tasks-button--quiet tasks-due__remove" onClick={() => close(null)}>
            Remove due date
          </button>
        )}
        <button type="submit" className="tasks-button tasks-due__save">
          Save
        </button>
      </form>
    </ModalDialog>
  );
}
