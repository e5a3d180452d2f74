import { FORGOT_PASSWORD_PAGE } from '@tm/contracts';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { resetPasswordErrors, useResetPassword, type ResetPasswordField } from '../api/password-reset';
import { FormAlert } from '../../../common/forms/form-alert';
import { useFormErrors } from '../../../common/forms/form-errors';
import { NewPasswordField, refusedPassword } from '../../../common/forms/password-fields';
import { fieldText } from '../../../common/forms/field-text';
import '../../../common/forms/auth-form.css';

/** The query parameter of the link in the mail (svc-users password-reset.ts). */
const TOKEN_PARAM = 'token';

/** A link whose token is missing from the address (cut when copied, or opened without it). */
export const INCOMPLETE_LINK = 'This link is not complete. Open the link from the email again, or ask for a new one.';

/**
 * The page of a reset link (`/reset-password?token=…`, docs/PRODUCT.md §10.10, SECURITY.md "Password reset"):
 * the token is taken from the address as the page opens and the address loses it at once (replaced, so it
 * stays in no history entry, and the app's no-referrer policy keeps it out of every request's Referer); it
 * is sent in the body. A new password (the sign-up rules, shown while typed, with the strength hint), then
 * "Set new password": every session of the account ends and the page says to sign in, with a link there.
 * A link that no longer works says so, with a way to ask for a new one.
 */
export function ResetPasswordForm({ headingId }: { headingId: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.search).get(TOKEN_PARAM) ?? '');
  const { mutate, isPending, data } = useResetPassword();
  const { errors, form, refuse, reset, clear } = useFormErrors<ResetPasswordField>();
  const [password, setPassword] = useState('');
  const done = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has(TOKEN_PARAM)) return;
    params.delete(TOKEN_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
    // Once, as the page opens: the token is in this component's state from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (data) done.current?.focus();
  }, [data]);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const newPassword = fieldText(new FormData(event.currentTarget), 'newPassword');
    const refused = refusedPassword(newPassword, []);
    if (refused) {
      refuse({ newPassword: refused });
      return;
    }
    reset();
    mutate({ token, newPassword }, { onError: (error) => refuse(resetPasswordErrors(error)) });
  }

  const askAgain = (
    <Link to={FORGOT_PASSWORD_PAGE} replace>
      Ask for a new link
    </Link>
  );

  return (
    <div className="auth-card">
      <h1 className="auth-card__title" id={headingId}>
        Choose a new password
      </h1>
      {data ? (
        <div className="auth-form">
          <div ref={done} className="auth-form__done" role="status" tabIndex={-1}>
            <p>{data.message}</p>
            <p>Every device that was signed in to your account has been signed out.</p>
          </div>
          <Link className="auth-form__button-link" to="/login" replace>
            Sign in
          </Link>
        </div>
      ) : !token ? (
        <div className="auth-form">
          <p className="auth-form__error" role="alert">
            {INCOMPLETE_LINK}
          </p>
          <p className="auth-form__aside">{askAgain}</p>
        </div>
      ) : (
        <>
          <p className="auth-card__subtitle">Choosing a new password signs you out on every device.</p>
          <form ref={form} className="auth-form" onSubmit={onSubmit}>
            <FormAlert message={errors.form} />
            {errors.link && (
              <div className="auth-form__error" role="alert">
                <p className="auth-form__notice-text">{errors.link}</p>
                <p className="auth-form__notice-text">{askAgain}</p>
              </div>
            )}
            <NewPasswordField
              label="New password"
              name="newPassword"
              password={password}
              userInputs={[]}
              disabled={isPending}
              error={errors.newPassword}
              onChange={(event) => {
                clear('newPassword')();
                setPassword(event.target.value);
              }}
            />
            <button className="auth-form__submit" type="submit" disabled={isPending}>
              {isPending ? 'Setting new password…' : 'Set new password'}
            </button>
          </form>
        </>
      )}
    </div>
  );
}
