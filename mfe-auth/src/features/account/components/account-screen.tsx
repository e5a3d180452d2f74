import { currentUserQuery } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { CalendarFeedSection } from './calendar-feed-section';
import { TransferSection } from './transfer-section';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountForm } from './delete-account-form';
import { DeviceRemindersSection } from './device-reminders-section';
import { PreferencesForm } from './preferences-form';
import { ProfileForm } from './profile-form';
import { SignOutEverywhere } from './sign-out-everywhere';
import { TimeZoneForm } from './time-zone-form';
import '../../../common/forms/auth-form.css';
import './account.css';

/**
 * The Account screen (PRODUCT §10.10): who is signed in (from the current-user check the shell made), then
 * "Name and email", "Time zone" (PRODUCT §10.14), "Calendar feed" (PRODUCT §10.18), "Preferences" (sounds, celebrations), "Change password", "Sign out of all devices" and
 * the danger zone, "Delete account". It is for signed-in people only (the route guard's job); once the
 * session ends here (signed out everywhere, account deleted) it shows nothing while the guard moves on to /login.
 */
export function AccountScreen({ headingId }: { headingId: string }) {
  const { data: user } = useQuery(currentUserQuery());
  const profileId = useId();
  const timeZoneId = useId();
  const preferencesId = useId();
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

      <section className="auth-card account__card" aria-labelledby={profileId}>
        <h2 className="account__title" id={profileId}>
          Name and email
        </h2>
        <p className="account__text">Changing your email asks for your password. Sign in with the new email afterwards.</p>
        <ProfileForm user={user} />
      </section>

      <section className="auth-card account__card" aria-labelledby={timeZoneId}>
        <h2 className="account__title" id={timeZoneId}>
          Time zone
        </h2>
        <p className="account__text">Due dates and times are read in this zone, on every device.</p>
        <TimeZoneForm user={user} />
      </section>

      <CalendarFeedSection />

      <TransferSection />

      <DeviceRemindersSection />

      <section className="auth-card account__card" aria-labelledby={preferencesId}>
        <h2 className="account__title" id={preferencesId}>
          Preferences
        </h2>
        <p className="account__text">For this browser; they apply at once, in every tab.</p>
        <PreferencesForm />
      </section>

      <section className="auth-card account__card" aria-labelledby={passwordId}>
        <h2 className="account__title" id={passwordId}>
          Change password
        </h2>
        <p className="account__text">Your other devices will be signed out; you stay signed in here.</p>
        <ChangePasswordForm email={user.email} userInputs={userInputs} />
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
