import { useId } from 'react';
import { LoginForm } from '../features/auth/components/login-form';
import './auth-page.css';

/** Exposed as `mfe_auth/LoginPage`: the /login route of the shell, which provides <main> and the guard. */
export default function LoginPage() {
  const headingId = useId();
  return (
    <section className="auth-page" aria-labelledby={headingId}>
      <LoginForm headingId={headingId} />
    </section>
  );
}
