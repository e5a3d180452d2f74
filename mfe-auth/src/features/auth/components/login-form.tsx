import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router-dom';
import { useLogin } from '../api/login';
import { LoginErrorBanner } from './login-error-banner';
import { SessionEndNotice } from './session-end-notice';
import { ForgotPasswordLink } from '../../../common/forms/forgot-password-link';
import { PasswordField } from '../../../common/forms/password-field';
import { TextField } from '../../../common/forms/text-field';
import { fieldText } from '../../../common/forms/field-text';
import { useFocusOnOpen } from '../../../common/forms/use-focus-on-open';
import '../../../common/forms/auth-form.css';

/**
 * The Login screen (PRODUCT §2): email and password, native `required` validation only (PRODUCT §5), the
 * focus in Email as it opens, the password shown on demand, and "Forgot password?" (PRODUCT §10.10), which
 * takes the email typed so far along. After a session ended, it first says why (SessionEndNotice, PRODUCT §10.3).
 */
export function LoginForm({ headingId }: { headingId: string }) {
  const { mutate, isPending, error } = useLogin();
  const [email, setEmail] = useState('');
  const emailField = useFocusOnOpen<HTMLInputElement>();

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const data = new FormData(event.currentTarget);
    mutate({ email: fieldText(data, 'email'), password: fieldText(data, 'password') });
  }

  return (
    <div className="auth-card">
      <h1 className="auth-card__title" id={headingId}>
        Welcome back
      </h1>
      <p className="auth-card__subtitle">Sign in to see your tasks.</p>
      <SessionEndNotice />
      <form className="auth-form" onSubmit={onSubmit}>
        <LoginErrorBanner error={error} />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          inputRef={emailField}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <PasswordField label="Password" name="password" autoComplete="current-password" required />
        <ForgotPasswordLink email={email}>Forgot password?</ForgotPasswordLink>
        <button className="auth-form__submit" type="submit" disabled={isPending}>
          {isPending ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      <p className="auth-card__switch">
        Don&apos;t have an account? <Link to="/signup">Create one</Link>
      </p>
    </div>
  );
}
