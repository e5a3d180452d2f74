import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  name: string;
  /** Shown under the field from the start, e.g. the password rules. */
  hint?: string;
  /** What is wrong with the value, in plain words; the field is marked invalid while it is set. */
  error?: string;
  /** Shown last, under the hint: e.g. the password strength hint. */
  children?: ReactNode;
  /** The input element, for a field that manages it (focus, the caret). */
  inputRef?: Ref<HTMLInputElement>;
  /**
   * A control inside the input's box, at its end (the show/hide button of a password): given the input's id.
   * The input keeps room for it, so text never runs under it.
   */
  adornment?: (inputId: string) => ReactNode;
}

/**
 * A labelled input of the auth forms: the label is tied to the input, so clicking it focuses the field; the
 * hint and the error are tied to it too (aria-describedby), so a screen reader reads them with the field.
 */
export function TextField({ label, hint, error, children, inputRef, adornment, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error && errorId, hint && hintId].filter(Boolean).join(' ') || undefined;
  const field = (
    <input
      ref={inputRef}
      className={adornment ? 'auth-form__input auth-form__input--adorned' : 'auth-form__input'}
      id={id}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...input}
    />
  );
  return (
    <div className="auth-form__field">
      <label className="auth-form__label" htmlFor={id}>
        {label}
      </label>
      {adornment ? (
        <div className="auth-form__control">
          {field}
          {adornment(id)}
        </div>
      ) : (
        field
      )}
      {error && (
        <p className="auth-form__field-error" id={errorId}>
          {error}
        </p>
      )}
      {hint && (
        <p className="auth-form__hint" id={hintId}>
          {hint}
        </p>
      )}
      {children}
    </div>
  );
}
