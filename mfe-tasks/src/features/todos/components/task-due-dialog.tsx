import type { Todo } from '@tm/api-client';
import { DUE_YEARS, dueProblem, nextMonday } from '@tm/contracts';
import { REPEAT_PREVIEW, repeatDates } from '@tm/contracts/repeat';
import { dueText, ModalDialog, personNow } from '@tm/web-platform';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import type { DatesPatch } from '../hooks/use-row-actions';
import { choiceOf, INTERVAL_MAX, INTERVAL_UNITS, reminderText, REMINDER_CHOICES, ruleOf, WEEKDAYS, weekdayOf, type RepeatChoice, type RepeatKind, type Weekday } from '../repeat-choice';
import { quoted } from './task-actions';

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
  field: 'date' | 'time' | 'repeat';
  message: string;
}

/** Said at the Repeat field when the rule gives no date after the chosen one (an UNTIL already passed). */
const REPEAT_NEVER = 'This repeat never falls after the date. Choose another.';

const WEEKDAY_NAMES: Record<Weekday, string> = { MO: 'Monday', TU: 'Tuesday', WE: 'Wednesday', TH: 'Thursday', FR: 'Friday', SA: 'Saturday', SU: 'Sunday' };

/** The Repeat field's choices, in words that name the chosen date's own day ("Every month on day 14"). */
function repeatOptions(day: string, custom: string | undefined): { kind: RepeatKind; label: string }[] {
  const date = Number(day.slice(8, 10));
  const options: { kind: RepeatKind; label: string }[] = [
    { kind: 'none', label: 'Does not repeat' },
    { kind: 'daily', label: 'Daily' },
    { kind: 'weekdays', label: 'Every weekday (Monday to Friday)' },
    { kind: 'weekly', label: 'Weekly' },
    { kind: 'monthly', label: day === '' ? 'Monthly on this day' : `Monthly on day ${date}` },
    { kind: 'monthly-last', label: 'Monthly on the last day' },
    { kind: 'yearly', label: 'Yearly on this date' },
  ];
  return custom === undefined ? options : [...options, { kind: 'custom', label: `As set elsewhere (${custom})` }];
}

const sameList = (a: readonly number[] | undefined, b: readonly number[]): boolean => (a ?? []).join(',') === b.join(',');

/**
 * The patch the dialog's fields make of `todo` (PRODUCT §10.14, §10.16, §10.17): only what differs; removing
 * the date says only that (the repeat and reminders go with it).
 */
export function datesPatch(todo: Todo, due: string | null, rule: string | null, repeatFrom: 'due' | 'completion', reminders: readonly number[]): DatesPatch {
  if (due === null) return todo.due === undefined ? {} : { due: null };
  const patch: DatesPatch = {};
  if (due !== todo.due) patch.due = due;
  if (rule !== (todo.repeat ?? null)) patch.repeat = rule;
  if (rule !== null && repeatFrom !== (todo.repeatFrom ?? 'due')) patch.repeatFrom = repeatFrom;
  if (!sameList(todo.reminders, reminders)) patch.reminders = reminders.length === 0 ? null : [...reminders].sort((a, b) => a - b);
  return patch;
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
  /** Sets the due date, repeat and reminders (a null due date removes them all), through the list's usual update: called once the dialog has closed. */
  onSetDue: (todo: Todo, patch: DatesPatch) => void;
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
  const [repeat, setRepeat] = useState<RepeatChoice>(() => choiceOf(todo.repeat));
  const [repeatFrom, setRepeatFrom] = useState<'due' | 'completion'>(todo.repeatFrom ?? 'due');
  const [reminders, setReminders] = useState<number[]>(todo.reminders ?? []);
  const repeatId = useId();
  const everyId = useId();
  const previewId = useId();
  const dateInput = useRef<HTMLInputElement>(null);
  const timeInput = useRef<HTMLInputElement>(null);
  const repeatInput = useRef<HTMLSelectElement>(null);
  // What Save or Remove chose: sent once the dialog has closed (see onClosed). `undefined`: nothing to send.
  const chosen = useRef<DatesPatch | undefined>(undefined);
  const customRule = todo.repeat !== undefined && choiceOf(todo.repeat).kind === 'custom' ? todo.repeat : undefined;
  const day = dueProblem(date) === null ? date : '';
  const rule = day === '' ? null : ruleOf(repeat, day);
  const start = day === '' ? '' : time === '' ? day : `${day}T${time}`;
  // The next dates before saving (PRODUCT §10.16): from the date chosen, or, counted from completion, from today.
  const from = repeatFrom === 'completion' ? `${dayOf(personNow())}${time === '' ? '' : `T${time}`}` : start;
  const preview = rule === null || start === '' || dueProblem(from) !== null ? [] : repeatDates(from, rule, REPEAT_PREVIEW);
  const reminderChoices = [...new Set([...REMINDER_CHOICES.map((choice) => choice.minutes), ...(todo.reminders ?? [])])].sort((a, b) => a - b);

  // This effect runs after ModalDialog's own (which opens it): the focus starts in the Date field.
  useEffect(() => {
    dateInput.current?.focus();
  }, []);

  const close = (patch: DatesPatch | undefined) => {
    chosen.current = patch;
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
    if (result.due !== null && rule !== null && preview.length === 0 && repeatFrom === 'due') {
      setProblem({ field: 'repeat', message: REPEAT_NEVER });
      repeatInput.current?.focus();
      return;
    }
    const patch = datesPatch(todo, result.due, rule, repeatFrom, reminders);
    // The same values again, or a task that has gone: nothing to send.
    close(deleted || Object.keys(patch).length === 0 ? undefined : patch);
  };

  // ModalDialog gives the focus back right after this returns; the change follows it, as History's Restore does.
  const onClosed = () => {
    const patch = chosen.current;
    chosen.current = undefined;
    onClose();
    if (patch !== undefined) queueMicrotask(() => onSetDue(todo, patch));
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
        {day !== '' && (
          <fieldset className="tasks-due__group">
            <legend className="tasks-due__label">Repeat</legend>
            <label htmlFor={repeatId} className="visually-hidden">
              Repeat
            </label>
            <select
              ref={repeatInput}
              id={repeatId}
              className="tasks-due__input"
              value={repeat.kind}
              aria-describedby={preview.length > 0 ? previewId : undefined}
              {...fieldProps('repeat')}
              onChange={(event) => {
                const kind = event.target.value as RepeatKind;
                setRepeat(kind === 'custom' ? choiceOf(customRule) : { kind, interval: repeat.interval, weekdays: kind === 'weekly' && repeat.weekdays.length === 0 ? [weekdayOf(day)] : repeat.weekdays });
                setProblem(null);
              }}
            >
              {repeatOptions(day, customRule).map((option) => (
                <option key={option.kind} value={option.kind}>
                  {option.label}
                </option>
              ))}
            </select>
            {problemText('repeat')}
            {INTERVAL_UNITS[repeat.kind] && (
              <div className="tasks-due__every">
                <label htmlFor={everyId}>Every</label>
                <input
                  id={everyId}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={INTERVAL_MAX}
                  className="tasks-due__input tasks-due__number"
                  value={repeat.interval}
                  onChange={(event) => setRepeat({ ...repeat, interval: Math.min(INTERVAL_MAX, Math.max(1, Math.trunc(Number(event.target.value)) || 1)) })}
                />
                <span>{INTERVAL_UNITS[repeat.kind]?.[repeat.interval === 1 ? 0 : 1]}</span>
              </div>
            )}
            {repeat.kind === 'weekly' && (
              <div className="tasks-due__weekdays" role="group" aria-label="On these days">
                {WEEKDAYS.map((weekday) => (
                  <label key={weekday} className="tasks-due__weekday">
                    <input
                      type="checkbox"
                      checked={repeat.weekdays.includes(weekday)}
                      onChange={(event) =>
                        setRepeat({ ...repeat, weekdays: event.target.checked ? [...repeat.weekdays, weekday] : repeat.weekdays.filter((each) => each !== weekday) })
                      }
                    />
                    <span aria-hidden="true">{WEEKDAY_NAMES[weekday].slice(0, 2)}</span>
                    <span className="visually-hidden">{WEEKDAY_NAMES[weekday]}</span>
                  </label>
                ))}
              </div>
            )}
            {rule !== null && (
              <div className="tasks-due__from" role="radiogroup" aria-label="Count the next date from">
                <label>
                  <input type="radio" name={`${repeatId}-from`} checked={repeatFrom === 'due'} onChange={() => setRepeatFrom('due')} /> On schedule
                </label>
                <label>
                  <input type="radio" name={`${repeatId}-from`} checked={repeatFrom === 'completion'} onChange={() => setRepeatFrom('completion')} /> From when I complete it
                </label>
              </div>
            )}
            {preview.length > 0 && (
              <p id={previewId} className="tasks-due__preview">
                {repeatFrom === 'completion' ? 'Done today, next: ' : 'Next: '}
                {preview.map((next) => dueText(next)).join(' · ')}
              </p>
            )}
          </fieldset>
        )}
        {day !== '' && (
          <fieldset className="tasks-due__group">
            <legend className="tasks-due__label">Reminders</legend>
            <div className="tasks-due__reminders">
              {reminderChoices.map((minutes) => (
                <label key={minutes} className="tasks-due__reminder">
                  <input
                    type="checkbox"
                    checked={reminders.includes(minutes)}
                    onChange={(event) => setReminders(event.target.checked ? [...reminders, minutes] : reminders.filter((each) => each !== minutes))}
                  />{' '}
                  {reminderText(minutes)}
                </label>
              ))}
            </div>
            {time === '' && reminders.length > 0 && <p className="tasks-due__hint">A task without a time is reminded from 09:00 on its day.</p>}
          </fieldset>
        )}
        {todo.due !== undefined && !deleted && (
          <button type="button" className="tasks-button tasks-button--quiet tasks-due__remove" onClick={() => close({ due: null })}>
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
