import { useId } from 'react';
import { SignupForm } from '../features/auth/components/signup-form';
import './auth-page.css';

/** Exposed as `mfe_auth/SignupPage`: the /signup route of the shell, which provides <main> and the guard. */
export default function SignupPage() {
  const headingId = useId();
  return (
    <section className="auth-page" aria-labelledby={headingId}>
      <SignupForm headingId={headingId} />
    </section>
  );
}
