// The modules this remote exposes (rspack.config.mjs "exposes"), checked against the contract of
// @tm/remote-kit by `pnpm typecheck`: a default export the shell renders with no props. Keep it in step
// with rspack.config.mjs (packages/build-config/src/exposes-contract.test.ts checks that it is).
import type { ExposedModules } from '@tm/remote-kit';
import type * as AccountPage from './account-page';
import type * as ForgotPasswordPage from './forgot-password-page';
import type * as LoginPage from './login-page';
import type * as ResetPasswordPage from './reset-password-page';
import type * as SignupPage from './signup-page';

export type Exposes = ExposedModules<{
  './LoginPage': typeof LoginPage;
  './SignupPage': typeof SignupPage;
  './AccountPage': typeof AccountPage;
  './ForgotPasswordPage': typeof ForgotPasswordPage;
  './ResetPasswordPage': typeof ResetPasswordPage;
}>;
