import type { SubmitEvent } from 'react';
import { Link } from 'react-router-dom';
import { useLogin } from '../api/login';
import { LoginErrorBanner } from './login-error-banner';
import { SessionEndNotice } from './session-end-notice';
import { TextField } from '../../../common/forms/text-field';
import { fieldText } from '../../../common/forms/field-text';
import '../../../common/forms/auth-form.css';

/**
 * The Login screen (PRODUCT §2): email and password, native `required` validation only (PRODUCT §5). After a
 * session ended, it first says why (SessionEndNotice, PRODUCT §10.3).
 */
export function LoginForm({ headingId }: { headingId: string }) {
  const { mutate, isPending, error } = useLogin();

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
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
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
