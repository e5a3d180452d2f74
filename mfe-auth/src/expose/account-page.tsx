import { exposePage } from '@tm/remote-kit';
import { AccountScreen } from '../features/account/components/account-screen';
import './auth-page.css';

/** Exposed as `mfe_auth/AccountPage`: the /account route of the shell, which provides <main> and the guard. */
export default exposePage(AccountScreen, { className: 'auth-page', displayName: 'AccountPage' });
