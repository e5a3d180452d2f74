import { errorMessage } from '@tm/api-client';
import { LOGIN_FALLBACK } from '../api/login';

/** SPEC §2/§8: the banner of a failed login shows the server's message, or "Login failed" when none is given. */
export function LoginErrorBanner({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="auth-form__error" role="alert">
      {errorMessage(error, LOGIN_FALLBACK)}
    </p>
  );
}
