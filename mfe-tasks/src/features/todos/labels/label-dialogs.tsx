import type { Todo } from '@tm/api-client';
import { labelKey, labelNameProblem, LABELS_TOO_MANY_MESSAGE, LIMITS, normalLabels, PRIORITIES, priorityName, priorityOf, type Priority } from '@tm/contracts';
import { FlagIcon, ModalDialog } from '@tm/web-platform';
import { useId, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import { quoted } from '../components/task-actions';

/*
 * A task's Priority and Labels… (docs/PRODUCT.md §10.20), off the first load: fetched when one of them is first
 * opened. Each closes with Escape or Cancel, changing nothing, and the focus goes back to the control that
 * opened it (ModalDialog).
 */

/** The words of a priority among the choices: "Priority 1" … "Priority 4: none". */
const choiceName = (priority: Priority) => (priority === 4 ? `${priorityName(priority)}: none` : priorityName(priority));

/**
 * Priority of a task: the four, each a button with its flag, the task's own marked "(current)" and left as it
 * is. Choosing another sets it (one change, "Priority set" or "Priority removed") and closes the dialog.
 */
export function PriorityDialog({ todo, onChoose, onClose }: { todo: Todo; onChoose: (todo: Todo, priority: Priority) => void; onClose: () => void }) {
  const titleId = useId();
  const body = useRef<HTMLDivElement>(null);
  const current = priorityOf(todo);
  const choose = (priority: Priority) => {
    if (priority !== current) onChoose(todo, priority);
    body.current?.closest('dialog')?.close();
  };
  return (
    <ModalDialog className="tasks-dialog labels-dialog" labelledBy={titleId} onClose={onClose} closeButtonClassName="tasks-text-button" closeLabel="Cancel">
      <div ref={body}>
        <h2 id={titleId} className="tasks-dialog__title labels-dialog__title">
          Priority of {quoted(todo.title)}
        </h2>
        <div className="labels-priorities" role="group" aria-labelledby={titleId}>
          {PRIORITIES.map((priority) => (
            <button
              key={priority}
              type="button"
              className="labels-priorities__choice"
              data-priority={priority}
              aria-current={priority === current ? 'true' : undefined}
              onClick={() => choose(priority)}
            >
              <FlagIcon filled={priority !== 4} />
              {choiceName(priority)}
              {priority === current && <span className="labels-priorities__here"> (current)</span>}
            </button>
          ))}
        </div>
      </div>
    </ModalDialog>
  );
}

interface LabelsDialogProps {
  todo: Todo;
  /** The person's labels (labelsInUse of all their tasks), offered to tick. */
  labels: readonly string[];
  /** Called once, on Save, with the labels as they are to be kept, when they differ from the task's. */
  onSave: (todo: Todo, labels: string[]) => void;
  onClose: () => void;
}

/** A new label as written in the field: trimmed, a leading "@" (as quick add writes it) left out. */
const typedName = (text: string) => text.trim().replace(/^@/, '');

/**
 * Labels… of a task: the person's labels as boxes to tick, this task's ticked, and a "New label" field (Enter
 * or Add puts it among the boxes, ticked; what is still in the field when Save is pressed counts too). A name
 * that breaks the rules says why at the field; more labels than a task may carry say so too. Save sends one
 * change with every ticked label (normalLabels), none when nothing changed.
 */
export function LabelsDialog({ todo, labels, onSave, onClose }: LabelsDialogProps) {
  const titleId = useId();
  const fieldId = useId();
  const problemId = useId();
  const form = useRef<HTMLFormElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [choices, setChoices] = useState(() => normalLabels([...labels, ...(todo.labels ?? [])]));
  const [ticked, setTicked] = useState(() => new Set((todo.labels ?? []).map(labelKey)));
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  /** The labels ticked, with `extra` (a name from the field) among them. */
  const chosen = (extra?: string) => normalLabels([...choices.filter((name) => ticked.has(labelKey(name))), ...(extra === undefined ? [] : [extra])]);

  /** The name in the field, checked; undefined for an empty field, null (and the problem shown) for a bad one. */
  const fromField = (): string | undefined | null => {
    const name = typedName(draft);
    if (name === '') return undefined;
    const wrong = labelNameProblem(name) ?? (chosen(name).length > LIMITS.labelsPerTask ? LABELS_TOO_MANY_MESSAGE : null);
    if (wrong) {
      setProblem(wrong);
      field.current?.focus();
      return null;
    }
    return name;
  };

  const addFromField = () => {
    const name = fromField();
    if (name === undefined || name === null) return;
    const existing = choices.find((choice) => labelKey(choice) === labelKey(name));
    if (!existing) setChoices(normalLabels([...choices, name]));
    setTicked(new Set([...ticked, labelKey(name)]));
    setDraft('');
  };

  const save = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = fromField();
    if (name === null) return;
    const next = chosen(name);
    if (next.length > LIMITS.labelsPerTask) {
      setProblem(LABELS_TOO_MANY_MESSAGE);
      return;
    }
    const before = normalLabels(todo.labels ?? []);
    if (next.join('\n') !== before.join('\n')) onSave(todo, next);
    form.current?.closest('dialog')?.close();
  };

  const onFieldKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || typedName(draft) === '') return;
    // Enter with a name in the field puts it among the boxes; Enter in an empty field saves.
    event.preventDefault();
    addFromField();
  };

  return (
    <ModalDialog className="tasks-dialog labels-dialog" labelledBy={titleId} onClose={onClose} closeButtonClassName="tasks-text-button" closeLabel="Cancel">
      <form ref={form} className="labels-dialog__form" onSubmit={save} noValidate>
        <h2 id={titleId} className="tasks-dialog__title labels-dialog__title">
          Labels of {quoted(todo.title)}
        </h2>
        {choices.length > 0 ? (
          <fieldset className="labels-choices">
            <legend className="visually-hidden">Labels</legend>
            {choices.map((name) => (
              <label key={labelKey(name)} className="labels-choices__choice">
                <input
                  type="checkbox"
                  checked={ticked.has(labelKey(name))}
                  onChange={(event) => {
                    const next = new Set(ticked);
                    if (event.target.checked) next.add(labelKey(name));
                    else next.delete(labelKey(name));
                    setTicked(next);
                    setProblem(null);
                  }}
                />
                <span dir="auto">@{name}</span>
              </label>
            ))}
          </fieldset>
        ) : (
          <p className="labels-dialog__none">No labels yet: write the first one below.</p>
        )}
        <label htmlFor={fieldId} className="labels-dialog__label">
          New label
        </label>
        <div className="labels-dialog__new">
          <input
            ref={field}
            id={fieldId}
            className="tasks-form__input"
            type="text"
            dir="auto"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={LIMITS.labelName.max + 1}
            value={draft}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setProblem(null);
            }}
            onKeyDown={onFieldKeyDown}
          />
          <button type="button" className="tasks-button tasks-button--quiet tasks-button--small" onClick={addFromField}>
            Add
          </button>
        </div>
        {problem && (
          <p id={problemId} className="labels-dialog__problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="tasks-button labels-dialog__save">
          Save
        </button>
      </form>
    </ModalDialog>
  );
}
