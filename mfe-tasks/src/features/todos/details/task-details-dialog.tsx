import type { Todo } from '@tm/api-client';
import {
  LIMITS,
  noteProblem,
  noteValue,
  progressLabel,
  subtaskProgress,
  SUBTASKS_TOO_MANY_MESSAGE,
  subtaskTitleProblem,
  TODO_TITLE_EDIT_EMPTY_MESSAGE,
  todoTitleProblem,
  todoTitleValue,
  type Subtask,
} from '@tm/contracts';
import { EditIcon, ModalDialog, TrashIcon } from '@tm/web-platform';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import { quoted } from '../components/task-actions';
import type { DetailsPatch } from '../hooks/use-row-actions';
import { NoteText } from './note-text';
import './details.css';

/*
 * A task's details (docs/PRODUCT.md §10.21), off the first load: its title, its note and its subtasks, a dialog
 * on a wide screen and a sheet as tall as the screen on a phone. Every action in it (a title saved, the note
 * saved, a subtask added, ticked, renamed, moved or deleted) is one change of the task, sent as every change is
 * (the device's outbox: offline too). Escape or Close closes it; the focus goes back to the row.
 */

interface TaskDetailsDialogProps {
  /** The task as it is now: each action starts from it. */
  todo: Todo;
  /** The task has gone (deleted here or elsewhere): the details say so and change nothing. */
  deleted: boolean;
  /** Saves a new, trimmed title (never an unchanged one). */
  onRename: (todo: Todo, title: string) => void;
  /** Saves the note or the whole checklist: one change. */
  onSetDetails: (todo: Todo, patch: DetailsPatch) => void;
  onClose: () => void;
}

export function TaskDetailsDialog({ todo, deleted, onRename, onSetDetails, onClose }: TaskDetailsDialogProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // This effect runs after ModalDialog's own (which opens it): the focus starts on the heading, so a screen
  // reader reads where it is and a phone's keyboard does not open over the sheet before anything is chosen.
  useEffect(() => heading.current?.focus(), []);
  return (
    <ModalDialog className="tasks-dialog details" labelledBy={headingId} onClose={onClose} closeButtonClassName="tasks-button details__close">
      <h2 ref={heading} id={headingId} tabIndex={-1} className="tasks-dialog__title details__title">
        Details<span className="visually-hidden"> of {quoted(todo.title)}</span>
      </h2>
      {deleted && (
        <p className="details__gone" role="status">
          This task was deleted.
        </p>
      )}
      <TitleField todo={todo} disabled={deleted} onRename={onRename} />
      <NoteField todo={todo} disabled={deleted} onSave={(note) => onSetDetails(todo, { note })} />
      <Checklist todo={todo} disabled={deleted} onSave={(subtasks) => onSetDetails(todo, { subtasks })} />
    </ModalDialog>
  );
}

/** Escape in a field that holds a change takes the change back and leaves the dialog open. */
function keepOpen(event: KeyboardEvent): void {
  event.preventDefault();
  event.stopPropagation();
}

/**
 * The title, a field (PRODUCT §10.11.1's rules): Enter or leaving it saves a changed title, Escape puts the old
 * one back; an empty one is refused with the edit's words.
 */
function TitleField({ todo, disabled, onRename }: { todo: Todo; disabled: boolean; onRename: (todo: Todo, title: string) => void }) {
  const fieldId = useId();
  const problemId = useId();
  const [draft, setDraft] = useState(todo.title);
  const [problem, setProblem] = useState<string | null>(null);
  // A title changed elsewhere (or by Undo) while the field is not being changed shows at once.
  const [shown, setShown] = useState(todo.title);
  if (shown !== todo.title) {
    setShown(todo.title);
    if (draft === shown) setDraft(todo.title);
  }
  const save = () => {
    const wrong = todoTitleProblem(draft, TODO_TITLE_EDIT_EMPTY_MESSAGE);
    if (wrong !== null) {
      setProblem(wrong);
      return;
    }
    setProblem(null);
    const title = todoTitleValue(draft);
    setDraft(title);
    if (title !== todo.title) onRename(todo, title);
  };
  return (
    <div className="details__field">
      <label htmlFor={fieldId} className="details__label">
        Title
      </label>
      <input
        id={fieldId}
        className="tasks-form__input details__title-input"
        dir="auto"
        value={draft}
        disabled={disabled}
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => draft !== todo.title && save()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            save();
          } else if (event.key === 'Escape' && draft !== todo.title) {
            keepOpen(event);
            setDraft(todo.title);
            setProblem(null);
          }
        }}
      />
      {problem && (
        <p id={problemId} className="details__problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * The note: shown as plain text with its web addresses as links; "Add a note" or "Edit note" turns it into a
 * text area, saved by "Save note" (or Ctrl+Enter), taken back by Cancel (or Escape). Saving an empty note
 * removes it.
 */
function NoteField({ todo, disabled, onSave }: { todo: Todo; disabled: boolean; onSave: (note: string | null) => void }) {
  const fieldId = useId();
  const problemId = useId();
  const headingId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const editing = draft !== null && !disabled;
  useEffect(() => {
    if (editing) field.current?.focus();
    else if (refocus.current) editButton.current?.focus();
    refocus.current = false;
  }, [editing]);
  const stop = () => {
    refocus.current = true;
    setDraft(null);
    setProblem(null);
  };
  const save = (event?: SubmitEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (draft === null) return;
    const wrong = noteProblem(draft);
    if (wrong !== null) {
      setProblem(wrong);
      field.current?.focus();
      return;
    }
    const note = noteValue(draft);
    if (note !== (todo.note ?? '')) onSave(note === '' ? null : note);
    stop();
  };
  return (
    <section className="details__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="details__heading">
        Note
      </h3>
      {editing ? (
        <form className="details__note-form" onSubmit={save}>
          <label htmlFor={fieldId} className="visually-hidden">
            Note of {quoted(todo.title)}
          </label>
          <textarea
            ref={field}
            id={fieldId}
            className="tasks-form__input details__note-input"
            dir="auto"
            rows={6}
            value={draft}
            aria-invalid={problem !== null}
            aria-describedby={problem ? problemId : undefined}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                keepOpen(event);
                stop();
              } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                save();
              }
            }}
          />
          {problem && (
            <p id={problemId} className="details__problem" role="alert">
              {problem}
            </p>
          )}
          <div className="details__buttons">
            <button type="submit" className="tasks-button">
              Save note
            </button>
            <button type="button" className="tasks-text-button" onClick={stop}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          {todo.note !== undefined ? <NoteText note={todo.note} className="details__note" /> : <p className="details__empty">No note yet.</p>}
          <button ref={editButton} type="button" className="tasks-text-button details__edit-note" disabled={disabled} onClick={() => setDraft(todo.note ?? '')}>
            {todo.note === undefined ? 'Add a note' : 'Edit note'}
          </button>
        </>
      )}
    </section>
  );
}

/** A new subtask's id: random, 32 hex digits (the rules take 1–40 of A–Z a–z 0–9 _ -), from a source every page has. */
function newSubtaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The subtasks: each a box to tick with its title, Rename, Move up / Move down and Delete; under them a field
 * where Enter adds one and keeps the focus there for the next. Each action saves the whole checklist once.
 */
function Checklist({ todo, disabled, onSave }: { todo: Todo; disabled: boolean; onSave: (subtasks: Subtask[]) => void }) {
  const headingId = useId();
  const fieldId = useId();
  const problemId = useId();
  const subtasks = todo.subtasks ?? [];
  const progress = subtaskProgress(subtasks);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const field = useRef<HTMLInputElement>(null);
  /** Where the focus goes once the list has redrawn: a subtask's control (by id and which) or the add field. */
  const [focusNext, setFocusNext] = useState<{ id: string; control: 'check' | 'rename' | 'up' | 'down' } | 'add' | null>(null);
  // The change shows once the device has it (a moment after the click): until the control is there, it waits.
  useEffect(() => {
    if (focusNext === null) return;
    const target = focusNext === 'add' ? field.current : list.current?.querySelector<HTMLElement>(`[data-subtask="${focusNext.id}"] [data-control="${focusNext.control}"]`);
    if (!target) return;
    target.focus();
    setFocusNext(null);
  }, [focusNext, todo.subtasks]);

  const add = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wrong = subtaskTitleProblem(draft) ?? (subtasks.length >= LIMITS.subtasksPerTask ? SUBTASKS_TOO_MANY_MESSAGE : null);
    if (wrong !== null) {
      setProblem(draft.trim() === '' ? null : wrong);
      return;
    }
    onSave([...subtasks, { id: newSubtaskId(), title: todoTitleValue(draft), done: false }]);
    setDraft('');
    setProblem(null);
    field.current?.focus();
  };
  const tick = (item: Subtask) => onSave(subtasks.map((one) => (one.id === item.id ? { ...one, done: !one.done } : one)));
  const remove = (item: Subtask, index: number) => {
    onSave(subtasks.filter((one) => one.id !== item.id));
    const neighbour = subtasks[index + 1] ?? subtasks[index - 1];
    setFocusNext(neighbour ? { id: neighbour.id, control: 'check' } : 'add');
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...subtasks];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(index + by, 0, item);
    onSave(next);
    const place = index + by;
    // At an end the button that moved it is gone: the focus goes to the other one.
    const control = by === -1 ? (place === 0 ? 'down' : 'up') : place === next.length - 1 ? 'up' : 'down';
    setFocusNext({ id: item.id, control });
  };
  const rename = (item: Subtask, title: string | undefined) => {
    setRenaming(null);
    setFocusNext({ id: item.id, control: 'rename' });
    if (title !== undefined && title !== item.title) onSave(subtasks.map((one) => (one.id === item.id ? { ...one, title } : one)));
  };

  return (
    <section className="details__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="details__heading">
        Subtasks
        {progress && <span className="details__progress"> ({progressLabel(progress)})</span>}
      </h3>
      {subtasks.length > 0 && (
        <ul ref={list} className="details__subtasks" aria-labelledby={headingId}>
          {subtasks.map((item, index) => (
            <li key={item.id} className="details__subtask" data-subtask={item.id}>
              {renaming === item.id ? (
                <SubtaskRename item={item} onDone={(title) => rename(item, title)} />
              ) : (
                <>
                  <label className="details__check">
                    <input type="checkbox" data-control="check" checked={item.done} disabled={disabled} onChange={() => tick(item)} />
                    <span dir="auto" className={`details__subtask-title${item.done ? ' details__subtask-title--done' : ''}`}>
                      {item.title}
                    </span>
                  </label>
                  <span className="details__subtask-actions">
                    {index > 0 && (
                      <button type="button" className="tasks-icon-button details__move" data-control="up" disabled={disabled} aria-label={`Move ${quoted(item.title)} up`} title="Move up" onClick={() => move(index, -1)}>
                        <span aria-hidden="true">↑</span>
                      </button>
                    )}
                    {index < subtasks.length - 1 && (
                      <button type="button" className="tasks-icon-button details__move" data-control="down" disabled={disabled} aria-label={`Move ${quoted(item.title)} down`} title="Move down" onClick={() => move(index, 1)}>
                        <span aria-hidden="true">↓</span>
                      </button>
                    )}
                    <button type="button" className="tasks-icon-button" data-control="rename" disabled={disabled} aria-label={`Rename ${quoted(item.title)}`} title="Rename" onClick={() => setRenaming(item.id)}>
                      <EditIcon />
                    </button>
                    <button type="button" className="tasks-icon-button tasks-icon-button--danger" disabled={disabled} aria-label={`Delete subtask ${quoted(item.title)}`} title="Delete" onClick={() => remove(item, index)}>
                      <TrashIcon />
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="details__add" onSubmit={add}>
        <label htmlFor={fieldId} className="visually-hidden">
          New subtask
        </label>
        <input
          ref={field}
          id={fieldId}
          className="tasks-form__input details__add-input"
          dir="auto"
          placeholder="Add a subtask"
          value={draft}
          disabled={disabled}
          enterKeyHint="enter"
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && draft !== '') {
              keepOpen(event);
              setDraft('');
              setProblem(null);
            }
          }}
        />
        <button type="submit" className="tasks-button" disabled={disabled}>
          Add
        </button>
        {problem && (
          <p id={problemId} className="details__problem" role="alert">
            {problem}
          </p>
        )}
      </form>
    </section>
  );
}

/** A subtask's title as a field: Enter or leaving it saves (a title's rules), Escape keeps the old one. */
function SubtaskRename({ item, onDone }: { item: Subtask; onDone: (title: string | undefined) => void }) {
  const problemId = useId();
  const [draft, setDraft] = useState(item.title);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  // Once decided (Enter, Escape), the blur of the field going away decides nothing more.
  const decided = useRef(false);
  useEffect(() => field.current?.focus(), []);
  const finish = (title: string | undefined) => {
    if (decided.current) return;
    decided.current = true;
    onDone(title);
  };
  const save = () => {
    const wrong = subtaskTitleProblem(draft);
    if (wrong !== null) {
      setProblem(wrong);
      return false;
    }
    finish(todoTitleValue(draft));
    return true;
  };
  return (
    <span className="details__rename">
      <input
        ref={field}
        className="tasks-form__input details__add-input"
        dir="auto"
        value={draft}
        aria-label={`Rename ${quoted(item.title)}`}
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => {
          if (!save()) finish(undefined);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            save();
          } else if (event.key === 'Escape') {
            keepOpen(event);
            finish(undefined);
          }
        }}
      />
      {problem && (
        <span id={problemId} className="details__problem" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
