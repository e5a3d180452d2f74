import { LIMITS } from '@tm/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { signupErrors, useSignup, type SignupErrors, type SignupField } from '../api/signup';
import { TextField } from './text-field';
import './auth-form.css';

/** The password rules, shown before the first attempt (docs/PRODUCT.md §10.7); the server applies the same. */
export const PASSWORD_RULES = `Use at least ${LIMITS.password.min} characters.`;

/**
 * The Signup screen (PRODUCT §2): full name, email and password, required, with the browser's own checks
 * (PRODUCT §5). What the server refuses is shown next to the field it concerns and stays until that field
 * changes; a failure that concerns no field (offline, server down) is shown above the fields.
 */
export function SignupForm({ headingId }: { headingId: string }) {
  const { mutate, isPending } = useSignup();
  const [errors, setErrors] = useState<SignupErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const failed = useRef(false);

  // After a refused attempt the focus goes to the first field to fix, so its message is read out with it.
  useEffect(() => {
    if (!failed.current) return;
    failed.current = false;
    form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const data = new FormData(event.currentTarget);
    setErrors({});
    mutate(
      { fullName: String(data.get('fullName')), email: String(data.get('email')), password: String(data.get('password')) },
      {
        onError: (error) => {
          failed.current = true;
          setErrors(signupErrors(error));
        },
      },
    );
  }

  const clear = (field: SignupField) => () => setErrors(({ [field]: _changed, ...rest }) => rest);

  return (
    <div className="auth-card">
      <h1 className="auth-card__title" id={headingId}>
        Create your account
      </h1>
      <p className="auth-card__subtitle">Keep your own private task list.</p>
      <form ref={form} className="auth-form" onSubmit={onSubmit}>
        {errors.form && (
          <p className="auth-form__error" role="alert">
            {errors.form}
          </p>
        )}
        <TextField label="Full Name" name="fullName" type="text" autoComplete="name" required maxLength={LIMITS.fullName.max} error={errors.fullName} onChange={clear('fullName')} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required maxLength={LIMITS.email.max} error={errors.email} onChange={clear('email')} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={LIMITS.password.min}
          maxLength={LIMITS.password.max}
          hint={PASSWORD_RULES}
          error={errors.password}
          onChange={clear('password')}
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
