import { currentUserQuery, explainSessionEnd, forgetSessionEnd, logout, peekSessionEnd, rememberSessionEnd, type SessionEndReason } from '@tm/api-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { LoginForm } from './login-form';
import { SESSION_END_MESSAGES, SESSION_ENDED_MESSAGE } from './session-end-notice';

/**
 * The sign-in screen after a session ended (docs/PRODUCT.md §10.3): it says why, from what the
 * platform left in this tab's sessionStorage (written here with the platform's own function), in a banner
 * that stays, and once. Real gateway for the sign-in.
 */

function SessionProbe() {
  const { data, isPending } = useQuery(currentUserQuery());
  return <p>{isPending ? 'checking' : data ? `probe: ${data.email}` : 'probe: signed out'}</p>;
}

function Home() {
  const user = useQueryClient().getQueryData(currentUserQuery().queryKey);
  return <p>home of {user?.email ?? 'nobody'}</p>;
}

function renderLogin() {
  return renderPage(
    <>
      <SessionProbe />
      <LoginForm headingId="login-title" />
    </>,
    { route: '/login', routes: { '/': <Home />, '/signup': <p>signup page</p> } },
  );
}

const banner = () => screen.queryAllByRole('alert').find((alert) => alert.classList.contains('auth-form__notice'));

beforeEach(async () => {
  toast.remove();
  await logout().catch(() => undefined);
  forgetSessionEnd();
});

describe('the sign-in screen after a session ended', () => {
  const said: [SessionEndReason, string][] = [
    ['signed-out', 'You signed out in another tab.'],
    ['password-changed', 'Your password was changed on another device. Sign in with the new password.'],
    ['signed-out-everywhere', 'You were signed out everywhere.'],
    ['account-deleted', 'Your account was deleted, with all its tasks.'],
    ['idle-timeout', 'You were signed out after 7 days without activity.'],
    ['absolute-timeout', 'Your session reached its time limit of 30 days. Please sign in again.'],
  ];

  it.each(said)('says why for `%s`: "%s", announced, and only once', async (reason, sentence) => {
    expect(SESSION_END_MESSAGES[reason]).toBe(sentence);
    rememberSessionEnd(reason);
    const { unmount } = renderLogin();
    await screen.findByText('probe: signed out');

    const notice = banner();
    expect(notice).toBeDefined();
    expect(notice).toHaveTextContent(sentence);
    // It stays: no toast, and still there a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(banner()).toBe(notice);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    // Read once: the screen shown again (a reload, a return) says nothing more.
    expect(peekSessionEnd()).toBeUndefined();
    unmount();
    renderLogin();
    await screen.findByText('probe: signed out');
    expect(banner()).toBeUndefined();
  });

  it('says only that the session ended when the server did not say why', async () => {
    rememberSessionEnd(undefined);
    renderLogin();
    expect(banner()).toHaveTextContent(SESSION_ENDED_MESSAGE);
    expect(SESSION_ENDED_MESSAGE).toBe('Your session has ended. Please sign in again.');
  });

  it('says why when another tab’s logout arrives after this tab’s own refused call ended it without a reason', async () => {
    // Before the screen opens: the kept entry takes the reason.
    rememberSessionEnd(undefined);
    explainSessionEnd('signed-out');
    const { unmount } = renderLogin();
    expect(banner()).toHaveTextContent('You signed out in another tab.');
    unmount();
    // Once the screen shows: the banner changes, and a reason already shown stays.
    rememberSessionEnd(undefined);
    renderLogin();
    expect(banner()).toHaveTextContent(SESSION_ENDED_MESSAGE);
    act(() => explainSessionEnd('signed-out'));
    expect(banner()).toHaveTextContent('You signed out in another tab.');
    act(() => explainSessionEnd('password-changed'));
    expect(banner()).toHaveTextContent('You signed out in another tab.');
    expect(peekSessionEnd()).toBeUndefined();
  });

  it('shows nothing when no session ended', async () => {
    renderLogin();
    await screen.findByText('probe: signed out');
    expect(banner()).toBeUndefined();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('after a deleted account, offers to create one, not to sign in again', async () => {
    const events = userEvent.setup();
    rememberSessionEnd('account-deleted');
    renderLogin();
    const notice = banner()!;
    expect(notice).not.toHaveTextContent(/sign in/i);
    await events.click(within(notice).getByRole('link', { name: 'Create a new account' }));
    expect(await screen.findByText('signup page')).toBeInTheDocument();
  });

  it('is gone after a successful sign-in, and not shown again', async () => {
    const user = await signUpNewUser('Back Again');
    await logout();
    const events = userEvent.setup();
    rememberSessionEnd('password-changed');
    const { unmount } = renderLogin();
    await screen.findByText('probe: signed out');
    expect(banner()).toHaveTextContent(SESSION_END_MESSAGES['password-changed']);
    // A failed attempt keeps it (the failure has its own alert).
    await events.type(screen.getByLabelText('Email'), user.email);
    await events.type(screen.getByLabelText('Password'), 'not the password');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(banner()).toBeDefined();

    await events.clear(screen.getByLabelText('Password'));
    await events.type(screen.getByLabelText('Password'), user.password);
    // Something written after the screen read its notice (another check) is forgotten by the sign-in too.
    rememberSessionEnd('signed-out');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(`home of ${user.email}`)).toBeInTheDocument();
    expect(banner()).toBeUndefined();
    expect(peekSessionEnd()).toBeUndefined();
    unmount();
  });
});
