import { exposePage } from '@tm/remote-kit';
import { LoginForm } from '../features/auth/components/login-form';
import './auth-page.css';

/** Exposed as `mfe_auth/LoginPage`: the /login route of the shell, which provides <main> and the guard. */
export default exposePage(LoginForm, { className: 'auth-page', displayName: 'LoginPage' });
