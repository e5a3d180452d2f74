import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useSignup } from '../api/signup';
import { TextField } from './text-field';
import './auth-form.css';

/**
 * The Signup screen (SPEC §2): full name, email and password, native `required` validation only (SPEC §5).
 * A failure is reported by the error toast alone (SPEC §8), unlike login which also has a banner.
 */
export function SignupForm({ headingId }: { headingId: string }) {
  const { mutate, isPending } = useSignup();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const data = new FormData(event.currentTarget);
    mutate({ fullName: String(data.get('fullName')), email: String(data.get('email')), password: String(data.get('password')) });
  }

  return (
    <div className="auth-card">
      <h1 className="auth-card__title" id={headingId}>
        Create your account
      </h1>
      <p className="auth-card__subtitle">Keep your own private task list.</p>
      <form className="auth-form" onSubmit={onSubmit}>
        <TextField label="Full Name" name="fullName" type="text" autoComplete="name" required />
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <TextField label="Password" name="password" type="password" autoComplete="new-password" required />
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
