import { describeError } from '@tm/api-client';
import { LOGIN_FALLBACK } from '../api/login';

/**
 * docs/PRODUCT.md §2/§8: the banner of a failed login shows the server's message, or "Login failed" when
 * none is given; offline and timeout say so in plain words (PRODUCT §10.4). It is the only report of the
 * failure: no toast repeats it (PRODUCT §10.7).
 */
export function LoginErrorBanner({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="auth-form__error" role="alert">
      {describeError(error, LOGIN_FALLBACK)}
    </p>
  );
}
