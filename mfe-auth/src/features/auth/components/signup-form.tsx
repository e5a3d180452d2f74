import { LIMITS } from '@tm/contracts';
import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router-dom';
import { signupErrors, useSignup, type SignupField } from '../api/signup';
import { useFormErrors } from '../../../common/forms/form-errors';
import { FormAlert } from '../../../common/forms/form-alert';
import { NewPasswordField, refusedPassword } from '../../../common/forms/password-fields';
import { TextField } from '../../../common/forms/text-field';
import { fieldText } from '../../../common/forms/field-text';
import { useFocusOnOpen } from '../../../common/forms/use-focus-on-open';
import '../../../common/forms/auth-form.css';

/**
 * The Signup screen (PRODUCT §2): full name, email and password, required, with the browser's own checks
 * (PRODUCT §5); the focus in Full Name as it opens. What the server refuses is shown next to the field it
 * concerns and stays until that field changes; a failure that concerns no field (offline, server down) is
 * shown above the fields. The password can be shown while typed, and gets a strength hint whose room is kept
 * from the start, so the button never moves under a finger (PRODUCT §10.10); a password the hint already
 * calls refused is not sent: the form says why at the field, once, and puts the focus there. The server
 * judges the rest on submit.
 */
export function SignupForm({ headingId }: { headingId: string }) {
  const { mutate, isPending } = useSignup();
  const { errors, form, refuse, reset, clear } = useFormErrors<SignupField>();
  const [typed, setTyped] = useState<Record<SignupField, string>>({ fullName: '', email: '', password: '' });
  const nameField = useFocusOnOpen<HTMLInputElement>();

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const data = new FormData(event.currentTarget);
    const details = { fullName: fieldText(data, 'fullName'), email: fieldText(data, 'email'), password: fieldText(data, 'password') };
    const refused = refusedPassword(details.password, [details.fullName, details.email]);
    if (refused) {
      refuse({ password: refused });
      return;
    }
    reset();
    mutate(details, { onError: (error) => refuse(signupErrors(error)) });
  }

  const change = (field: SignupField) => {
    const clearField = clear(field);
    return (event: { target: { value: string } }) => {
      clearField();
      setTyped((values) => ({ ...values, [field]: event.target.value }));
    };
  };

  return (
    <div className="auth-card">
      <h1 className="auth-card__title" id={headingId}>
        Create your account
      </h1>
      <p className="auth-card__subtitle">Keep your own private task list.</p>
      <form ref={form} className="auth-form" onSubmit={onSubmit}>
        <FormAlert message={errors.form} />
        <TextField
          label="Full Name"
          name="fullName"
          type="text"
          autoComplete="name"
          required
          maxLength={LIMITS.fullName.max}
          error={errors.fullName}
          inputRef={nameField}
          onChange={change('fullName')}
        />
        <TextField label="Email" name="email" type="email" autoComplete="email" required maxLength={LIMITS.email.max} error={errors.email} onChange={change('email')} />
        <NewPasswordField
          label="Password"
          name="password"
          password={typed.password}
          userInputs={[typed.fullName, typed.email]}
          error={errors.password}
          onChange={change('password')}
        />
        <button className="auth-form__submit" type="submit" disabled={isPending}>
          {isPending ? 'Signing up...' : 'Sign Up'}
        </button>
      </form>
      <p className="auth-card__switch">
        <Link to="/login">Already have an account? Login</Link>
      </p>
    </div>
  );
}
