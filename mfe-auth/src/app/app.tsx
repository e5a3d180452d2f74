import { currentUserQuery } from '@tm/api-client';
import { ConnectionProblem } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FORGOT_PASSWORD_PAGE, RESET_PASSWORD_PAGE } from '@tm/contracts';
import AccountPage from '../expose/account-page';
import ForgotPasswordPage from '../expose/forgot-password-page';
import LoginPage from '../expose/login-page';
import ResetPasswordPage from '../expose/reset-password-page';
import SignupPage from '../expose/signup-page';
import { Home } from './home';
import './app.css';

/**
 * The remote on its own (`pnpm --filter mfe-auth dev`), with the shell's routing rules (docs/PRODUCT.md §2):
 * the current-user check runs first (it also issues the XSRF cookie the login/signup POSTs must echo), a
 * check that failed is not a sign-out (PRODUCT §10.1), /login and /signup redirect to / once someone is
 * signed in, and /account to /login once nobody is; anyone may open the pages of a forgotten password.
 */
export function App() {
  const { data: user, isPending, isError, isFetching, refetch } = useQuery(currentUserQuery());
  if (isPending) return <p role="status">Loading...</p>;
  if (isError) return <ConnectionProblem onRetry={() => void refetch()} retrying={isFetching} />;
  const signedOutOnly = (page: ReactElement) => (user ? <Navigate to="/" replace /> : page);
  const signedInOnly = (page: ReactElement) => (user ? page : <Navigate to="/login" replace />);
  return (
    <Routes>
      <Route path="/login" element={signedOutOnly(<LoginPage />)} />
      <Route path="/signup" element={signedOutOnly(<SignupPage />)} />
      <Route path="/account" element={signedInOnly(<AccountPage />)} />
      <Route path={FORGOT_PASSWORD_PAGE} element={<ForgotPasswordPage />} />
      <Route path={RESET_PASSWORD_PAGE} element={<ResetPasswordPage />} />
      <Route path="/" element={<Home user={user ?? null} />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
