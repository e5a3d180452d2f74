import { FORGOT_PASSWORD_PAGE } from '@tm/contracts';
import { Link } from 'react-router-dom';

/** What a link to the "Forgot password?" screen carries: the email known so far, never in the address. */
export interface ForgotPasswordState {
  email?: string;
}

/** The email a "Forgot password?" link brought along, if any (router state: kept out of the address). */
export function forgottenEmailOf(state: unknown): string {
  const email = (state as ForgotPasswordState | null)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * A link to the "Forgot password?" screen on a line of its own at the end of a form (PRODUCT §10.10), 44 px
 * tall for touch, taking `email` along so it need not be typed again.
 */
export function ForgotPasswordLink({ email, children }: { email: string; children: string }) {
  return (
    <p className="auth-form__aside">
      <Link to={FORGOT_PASSWORD_PAGE} state={{ email: email.trim() } satisfies ForgotPasswordState}>
        {children}
      </Link>
    </p>
  );
}
