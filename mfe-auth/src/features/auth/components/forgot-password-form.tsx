import { LIMITS } from '@tm/contracts';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { FORGOT_PASSWORD_FALLBACK, useForgotPassword } from '../api/password-reset';
import { FormAlert } from '../../../common/forms/form-alert';
import { formErrors, useFormErrors } from '../../../common/forms/form-errors';
import { forgottenEmailOf } from '../../../common/forms/forgot-password-link';
import { TextField } from '../../../common/forms/text-field';
import { useFocusOnOpen } from '../../../common/forms/use-focus-on-open';
import '../../../common/forms/auth-form.css';

/**
 * "Forgot password?" (`/forgot-password`, docs/PRODUCT.md §10.10): the email (brought along from the sign-in
 * screen or the account page when typed there), then "Send link". The answer is the same whether or not the
 * address has an account, and takes the form's place, with the address it went to; "Send another link"
 * brings the form back. A refused address is said at the field; too many requests, offline or a server down
 * above it.
 */
export function ForgotPasswordForm({ headingId }: { headingId: string }) {
  const location = useLocation();
  const [email, setEmail] = useState(() => forgottenEmailOf(location.state));
  const { mutate, isPending, data, reset: sendAnother } = useForgotPassword();
  const { errors, form, refuse, reset, clear } = useFormErrors<'email'>();
  const emailField = useFocusOnOpen<HTMLInputElement>();
  const done = useRef<HTMLDivElement>(null);
  const [sentTo, setSentTo] = useState('');

  // The form is gone with the button that had the focus: the answer takes it, and is read out.
  useEffect(() => {
    if (data) done.current?.focus();
  }, [data]);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    reset();
    const address = email.trim();
    mutate({ email: address }, { onSuccess: () => setSentTo(address), onError: (error) => refuse(formErrors(error, ['email'], FORGOT_PASSWORD_FALLBACK)) });
  }

  return (
    <div className="auth-card">
      <h1 className="auth-card__title" id={headingId}>
        Forgot your password?
      </h1>
      <p className="auth-card__subtitle">Enter the email of your account. We will send it a link to choose a new password.</p>
      {data ? (
        <div className="auth-form">
          <div ref={done} className="auth-form__done" role="status" tabIndex={-1}>
            <p>{data.message}</p>
            <p>
              Sent to <strong>{sentTo}</strong>. Nothing there after a few minutes? Look in the spam folder, or check the address.
            </p>
          </div>
          <button className="auth-form__secondary" type="button" onClick={() => sendAnother()}>
            Send another link
          </button>
        </div>
      ) : (
        <form ref={form} className="auth-form" onSubmit={onSubmit}>
          <FormAlert message={errors.form} />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={LIMITS.email.max}
            inputRef={emailField}
            value={email}
            error={errors.email}
            onChange={(event) => {
              clear('email')();
              setEmail(event.target.value);
            }}
          />
          <button className="auth-form__submit" type="submit" disabled={isPending}>
            {isPending ? 'Sending link…' : 'Send link'}
          </button>
        </form>
      )}
      <p className="auth-card__switch">
        <Link to="/login">Back to sign in</Link>
      </p>
    </div>
  );
}
