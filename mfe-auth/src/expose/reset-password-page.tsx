import { exposePage } from '@tm/remote-kit';
import { ResetPasswordForm } from '../features/auth/components/reset-password-form';
import './auth-page.css';

/** Exposed as `mfe_auth/ResetPasswordPage`: the /reset-password route of the shell, the page of a reset link (anyone may open it). */
export default exposePage(ResetPasswordForm, { className: 'auth-page', displayName: 'ResetPasswordPage' });
