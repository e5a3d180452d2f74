import { useId } from 'react';
import { AccountScreen } from '../features/account/components/account-screen';
import './auth-page.css';

/** Exposed as `mfe_auth/AccountPage`: the /account route of the shell, which provides <main> and the guard. */
export default function AccountPage() {
  const headingId = useId();
  return (
    <section className="auth-page" aria-labelledby={headingId}>
      <AccountScreen headingId={headingId} />
    </section>
  );
}
