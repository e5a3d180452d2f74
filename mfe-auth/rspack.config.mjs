import { createConfig } from '@tm/build-config';

export default createConfig({
  dir: import.meta.dirname,
  name: 'mfe_auth',
  port: 3001,
  title: 'Task Manager — sign in',
  exposes: {
    './LoginPage': './src/expose/login-page.tsx',
    './SignupPage': './src/expose/signup-page.tsx',
    './AccountPage': './src/expose/account-page.tsx',
  },
});
