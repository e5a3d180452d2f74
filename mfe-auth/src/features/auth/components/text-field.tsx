import { useId, type InputHTMLAttributes } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  name: string;
}

/** A labelled input of the auth forms: the label is tied to the input, so clicking it focuses the field. */
export function TextField({ label, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className="auth-form__field">
      <label className="auth-form__label" htmlFor={id}>
        {label}
      </label>
      <input className="auth-form__input" id={id} {...input} />
    </div>
  );
}
