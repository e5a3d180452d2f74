import { exposePage } from '@tm/remote-kit';
import { ForgotPasswordForm } from '../features/auth/components/forgot-password-form';
import './auth-page.css';

/** Exposed as `mfe_auth/ForgotPasswordPage`: the /forgot-password route of the shell (anyone may open it). */
export default exposePage(ForgotPasswordForm, { className: 'auth-page', displayName: 'ForgotPasswordPage' });
