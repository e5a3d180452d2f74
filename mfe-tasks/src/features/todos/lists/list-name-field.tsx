import { listNameKey, listNameProblem, listNameTakenMessage, listNameValue, type TaskList } from '@tm/contracts';
import { useId, type KeyboardEvent } from 'react';

/**
 * What is wrong with `name` as a list's name (docs/PRODUCT.md §10.19), checked as the server checks it: 1 to 60
 * characters, not "Inbox", and no other list of the person's (`self` aside) already has it, case aside.
 * Null when it is fine.
 */
export function listNameError(name: string, lists: readonly TaskList[], self?: TaskList): string | null {
  const value = listNameValue(name);
  const taken = lists.some((other) => other._id !== self?._id && listNameKey(other.name) === listNameKey(value));
  return listNameProblem(name) ?? (taken ? listNameTakenMessage(value) : null);
}

interface ListNameFieldProps {
  label: string;
  value: string;
  /** What is wrong with the name, read with the field and shown under it; null when nothing is. */
  problem: string | null;
  onChange: (value: string) => void;
  inputClassName: string;
  autoFocus?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
}

/** A list's name field, with its problem in words under it (the "New list" form and Rename). */
export function ListNameField({ label, value, problem, onChange, inputClassName, autoFocus, onKeyDown }: ListNameFieldProps) {
  const inputId = useId();
  const problemId = useId();
  return (
    <>
      <label htmlFor={inputId} className="lists-name__label">
        {label}
      </label>
      <input
        id={inputId}
        className={inputClassName}
        type="text"
        dir="auto"
        autoComplete="off"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- only where the person just asked for the field
        autoFocus={autoFocus}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {problem && (
        <p id={problemId} className="lists-name__problem" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
