import { exposePage } from '@tm/remote-kit';
import { SignupForm } from '../features/auth/components/signup-form';
import './auth-page.css';

/** Exposed as `mfe_auth/SignupPage`: the /signup route of the shell, which provides <main> and the guard. */
export default exposePage(SignupForm, { className: 'auth-page', displayName: 'SignupPage' });
