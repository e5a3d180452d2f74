import { createRemoteConfig } from '@tm/build-config/remote';

// Federation name and routes: "remote" in package.json. Dev port: env REMOTE_PORT, else 3001.
export default createRemoteConfig({
  dir: import.meta.dirname,
  port: 3001,
  title: 'Task Manager — sign in',
  exposes: {
    './LoginPage': './src/expose/login-page.tsx',
    './SignupPage': './src/expose/signup-page.tsx',
    './AccountPage': './src/expose/account-page.tsx',
    './ForgotPasswordPage': './src/expose/forgot-password-page.tsx',
    './ResetPasswordPage': './src/expose/reset-password-page.tsx',
  },
});
