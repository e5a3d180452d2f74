import { LIMITS, savedFilterNameKey, savedFilterNameProblem, savedFilterNameValue } from '@tm/contracts';
import { ModalDialog } from '@tm/web-platform';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { useSavedFilters, useSaveFilter } from './saved-filters-api';

interface SaveFilterDialogProps {
  /** The address to keep (filterAddressOf of the screen's). */
  address: string;
  /** The filters it keeps in words ("Active, Priority 1, @errand"): the name offered, and what the dialog says it keeps. */
  description: string;
  onClose: () => void;
}

/**
 * "Save filter" (docs/PRODUCT.md §10.20 "Saved filters"), off the first load: a name, offered as the filters in
 * words and selected so typing replaces it, checked as the server checks it. A name of one of the person's
 * saved filters (case aside) says it replaces that one. Save sends one call; a refusal (offline, full) is
 * said at the field and the dialog stays. Escape or Cancel closes it, saving nothing.
 */
export function SaveFilterDialog({ address, description, onClose }: SaveFilterDialogProps) {
  const titleId = useId();
  const fieldId = useId();
  const noteId = useId();
  const problemId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [name, setName] = useState(() => description.slice(0, LIMITS.savedFilterName.max));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = useSaveFilter();
  // The person's saved filters: a name one of them has is said to be replaced.
  const filters = useSavedFilters();
  const replaces = filters.find((filter) => savedFilterNameKey(filter.name) === savedFilterNameKey(name));

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const wrong = savedFilterNameProblem(name);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    setBusy(true);
    void save({ name: savedFilterNameValue(name), address }).then((result) => {
      setBusy(false);
      if (result.ok) form.current?.closest('dialog')?.close();
      else setProblem(result.problem);
    });
  };

  return (
    <ModalDialog className="tasks-dialog labels-dialog" labelledBy={titleId} onClose={onClose} closeButtonClassName="tasks-text-button" closeLabel="Cancel">
      <form ref={form} onSubmit={submit} noValidate aria-busy={busy}>
        <h2 id={titleId} className="tasks-dialog__title labels-dialog__title">
          Save filter
        </h2>
        <p id={noteId} className="labels-dialog__none">
          Keeps: {description}
          {replaces && <> · replaces your filter “{replaces.name}”</>}
        </p>
        <label htmlFor={fieldId} className="labels-dialog__label">
          Name
        </label>
        <input
          id={fieldId}
          className="tasks-form__input saved-filters__name"
          type="text"
          dir="auto"
          autoComplete="off"
          maxLength={LIMITS.savedFilterName.max + 1}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog's one field, its text offered to replace
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          value={name}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${noteId} ${problemId}` : noteId}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
          }}
        />
        {problem && (
          <p id={problemId} className="labels-dialog__problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="tasks-button labels-dialog__save" aria-disabled={busy || undefined}>
          Save
        </button>
      </form>
    </ModalDialog>
  );
}
