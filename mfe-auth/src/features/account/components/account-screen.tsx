import { currentUserQuery } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountForm } from './delete-account-form';
import { SignOutEverywhere } from './sign-out-everywhere';
import '../../../common/forms/auth-form.css';
import './account.css';

/**
 * The Account screen (PRODUCT §10.10): who is signed in (from the current-user check the shell made), then "Change password",
 * "Sign out of all devices" and the danger zone, "Delete account". It is for signed-in people only (the
 * route guard's job); once the session ends here (signed out everywhere, account deleted) it shows nothing
 * while the guard moves on to /login.
 */
export function AccountScreen({ headingId }: { headingId: string }) {
  const { data: user } = useQuery(currentUserQuery());
  const passwordId = useId();
  const devicesId = useId();
  const deleteId = useId();
  const userInputs = useMemo(() => (user ? [user.fullName, user.email] : []), [user]);
  if (!user) return null;
  return (
    <div className="account">
      <div className="auth-card account__card">
        <h1 className="auth-card__title" id={headingId}>
          Account
        </h1>
        <dl className="account__profile">
          <div>
            <dt>Name</dt>
            <dd>{user.fullName}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </div>
        </dl>
      </div>

      <section className="auth-card account__card" aria-labelledby={passwordId}>
        <h2 className="account__title" id={passwordId}>
          Change password
        </h2>
        <p className="account__text">Your other devices will be signed out; you stay signed in here.</p>
        <ChangePasswordForm userInputs={userInputs} />
      </section>

      <section className="auth-card account__card" aria-labelledby={devicesId}>
        <h2 className="account__title" id={devicesId}>
          Sign out of all devices
        </h2>
        <p className="account__text">Signs you out on every device and browser where you are signed in, this one included.</p>
        <SignOutEverywhere />
      </section>

      <section className="auth-card account__card account__card--danger" aria-labelledby={deleteId}>
        <h2 className="account__title" id={deleteId}>
          Delete account
        </h2>
        <p className="account__text">Deletes your account and all your tasks for good. They cannot be recovered.</p>
        <DeleteAccountForm />
      </section>
    </div>
  );
}
