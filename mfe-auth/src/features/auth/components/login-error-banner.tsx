import { describeError } from '@tm/api-client';
import { LOGIN_FALLBACK } from '../api/login';
import { FormAlert } from '../../../common/forms/form-alert';

/**
 * docs/PRODUCT.md §2/§8: the banner of a failed login shows the server's message, or "Login failed" when
 * none is given; offline and timeout say so in plain words (PRODUCT §10.4). Too many attempts (429, PRODUCT §10.10) shows the
 * server's "Too many attempts. Try again in 4 minutes.", rebuilt from Retry-After when the body has no
 * message (describeError). It is the only report of the failure: no toast repeats it (PRODUCT §10.7).
 */
export function LoginErrorBanner({ error }: { error: unknown }) {
  return <FormAlert message={error ? describeError(error, LOGIN_FALLBACK) : undefined} />;
}
