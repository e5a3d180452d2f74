import { addTodo, fetchCurrentUser, fetchTodos, forgetSessionEnd, login, logout } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentUserQuery, signUpNewUser } from '@tm/web-test-support';
import axe from 'axe-core';
import toast from 'react-hot-toast';
import { renderAccount } from '../../test/render-account';
import { anotherDevice } from '../../test/another-device';

/**
 * The Account screen against the real gateway and services, inside the standalone app, whose routing rules
 * are the shell's (/account for signed-in people, /login otherwise). Every call is real, so each test signs a
 * new user up (the session cookie lives in this file's jsdom) and checks on the server what the screen claims.
 */

type Account = Awaited<ReturnType<typeof signUpNewUser>>;

const NEW_PASSWORD = 'violet tractor sings at midnight';
const userKey = currentUserQuery().queryKey;

/** The session ended on this page as after a logout: user signed out, and the guard moved on to /login. */
async function expectSignedOutHere(queryClient: QueryClient) {
  expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
  expect(queryClient.getQueryData(userKey)).toBeNull();
  expect(screen.queryByRole('heading', { level: 1, name: 'Account' })).not.toBeInTheDocument();
}

const section = (name: string) => screen.getByRole('region', { name });

describe('the Account page against the real gateway', () => {
  let account: Account;
  beforeEach(async () => {
    toast.remove();
    account = await signUpNewUser('Account Owner');
    // A session an earlier test ended elsewhere was reported by that check: not this test's business.
    forgetSessionEnd();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    forgetSessionEnd();
  });

  it('shows who is signed in and the three sections, accessibly, in both themes', async () => {
    const { container } = await renderAccount();
    expect(screen.getByText('Account Owner')).toBeInTheDocument();
    expect(screen.getByText(account.email)).toBeInTheDocument();
    for (const name of ['Change password', 'Sign out of all devices', 'Delete account']) {
      expect(section(name)).toBeInTheDocument();
    }
    expect(within(section('Sign out of all devices')).getByRole('button', { name: 'Sign out everywhere' })).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('Use at least 8 characters.');

    // axe measures icon ligatures on a canvas, which jsdom lacks: without one it skips that check quietly.
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    for (const theme of ['light', 'dark']) {
      document.documentElement.dataset.theme = theme;
      const { violations } = await axe.run(container);
      const severe = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      expect(severe.map((violation) => `${theme} ${violation.id}: ${violation.help}`)).toEqual([]);
    }
    delete document.documentElement.dataset.theme;
  });

  it('changes the password: one request, fields disabled meanwhile, toast, fields emptied, still signed in', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const form = section('Change password');
    const current = within(form).getByLabelText('Current password');
    const next = within(form).getByLabelText('New password');
    await events.type(current, account.password);
    await events.type(next, NEW_PASSWORD);

    const requests = jest.spyOn(XMLHttpRequest.prototype, 'open');
    const submit = within(form).getByRole('button', { name: 'Change password' });
    await events.dblClick(submit);

    expect(await within(form).findByRole('button', { name: 'Changing…' })).toHaveAttribute('aria-disabled', 'true');
    expect(current).toBeDisabled();
    expect(next).toBeDisabled();
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    await waitFor(() => expect(current).toBeEnabled());
    expect(current).toHaveValue('');
    expect(next).toHaveValue('');
    expect(requests.mock.calls.filter(([method, url]) => method === 'PUT' && String(url).endsWith('/user/password'))).toHaveLength(1);

    // Still signed in, here and on the server, with the rotated session (its new XSRF cookie included).
    expect(queryClient.getQueryData(userKey)).toMatchObject({ email: account.email });
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(await fetchCurrentUser()).toMatchObject({ email: account.email });
    expect((await addTodo('written after the change')).todo.title).toBe('written after the change');

    // The new password is the one that works now.
    await logout();
    await expect(login({ email: account.email, password: account.password })).rejects.toMatchObject({ response: { status: 401 } });
    expect((await login({ email: account.email, password: NEW_PASSWORD })).user.email).toBe(account.email);
  });

  it('shows a wrong current password next to that field, and changes nothing', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const form = section('Change password');
    const current = within(form).getByLabelText('Current password');
    await events.type(current, 'not my password at all');
    await events.type(within(form).getByLabelText('New password'), NEW_PASSWORD);
    await events.click(within(form).getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    expect(current).toHaveAccessibleDescription('The current password is incorrect');
    expect(current).toHaveFocus();
    expect(within(form).getByLabelText('New password')).not.toHaveAttribute('aria-invalid');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Password changed successfully')).not.toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toMatchObject({ email: account.email });

    // The message stays until the field changes.
    await events.type(current, 'x');
    expect(current).not.toHaveAttribute('aria-invalid');

    // The old password still works; the session too.
    expect(await fetchCurrentUser()).toMatchObject({ email: account.email });
    await logout();
    expect((await login({ email: account.email, password: account.password })).user.email).toBe(account.email);
  });

  it('shows a new password the policy refuses next to "New password"', async () => {
    const events = userEvent.setup();
    await renderAccount();
    const form = section('Change password');
    await events.type(within(form).getByLabelText('Current password'), account.password);
    const next = within(form).getByLabelText('New password');
    await events.type(next, 'password123');
    await events.click(within(form).getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(next).toHaveAttribute('aria-invalid', 'true'));
    expect(next).toHaveAccessibleDescription(expect.stringMatching(/too common or easy to guess/));
    expect(within(form).getByLabelText('Current password')).not.toHaveAttribute('aria-invalid');
  });

  it('"Sign out everywhere" asks first; confirmed, it ends this session like a logout, and the others too', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const phone = await anotherDevice(account.email, account.password);
    const open = within(section('Sign out of all devices')).getByRole('button', { name: 'Sign out everywhere' });

    const requests = jest.spyOn(XMLHttpRequest.prototype, 'open');
    await events.click(open);
    const dialog = screen.getByRole('alertdialog', { name: 'Sign out of all devices?' });
    expect(dialog).toHaveAccessibleDescription('You will be signed out on every device and browser, this one included.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    // Cancel and Escape ask nothing of the server.
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();
    await events.click(open);
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(requests.mock.calls.filter(([method, url]) => method === 'POST' && String(url).endsWith('/user/logout-all'))).toHaveLength(0);
    expect((await phone('GET', '/api/user/me')).status).toBe(200);

    await events.click(open);
    await events.dblClick(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Sign out everywhere' }));

    expect(await screen.findByText('Signed out of all devices')).toBeInTheDocument();
    expect(requests.mock.calls.filter(([method, url]) => method === 'POST' && String(url).endsWith('/user/logout-all'))).toHaveLength(1);
    await expectSignedOutHere(queryClient);
    expect(await fetchCurrentUser()).toBeNull();
    // The other device is signed out too, and is told why.
    expect(await phone('GET', '/api/todo/fetch-todo')).toMatchObject({ status: 401, body: { reason: 'signed-out-everywhere' } });
    // The account itself is fine: its password still signs in.
    expect((await login({ email: account.email, password: account.password })).user.email).toBe(account.email);
  });

  it('when the password was changed on another device, the next action here lands on the sign-in screen, which says so', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const laptop = await anotherDevice(account.email, account.password);
    expect((await laptop('PUT', '/api/user/password', { currentPassword: account.password, newPassword: NEW_PASSWORD })).status).toBe(200);

    // This page does not know yet; its next action (here, a password change of its own) is refused.
    const form = section('Change password');
    await events.type(within(form).getByLabelText('Current password'), account.password);
    await events.type(within(form).getByLabelText('New password'), 'another long passphrase of mine');
    await events.click(within(form).getByRole('button', { name: 'Change password' }));

    await expectSignedOutHere(queryClient);
    const notice = await screen.findByText('Your password was changed on another device. Sign in with the new password.');
    expect(notice.closest('[role="alert"]')).not.toBeNull();
    expect(screen.queryByText('Not signed in')).not.toBeInTheDocument();
  });

  it('when the account was deleted on another device, the sign-in screen says so and offers to sign up instead', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const phone = await anotherDevice(account.email, account.password);
    expect((await phone('DELETE', '/api/user/account', { password: account.password })).status).toBe(200);

    await events.click(within(section('Sign out of all devices')).getByRole('button', { name: 'Sign out everywhere' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Sign out everywhere' }));

    await expectSignedOutHere(queryClient);
    expect(await screen.findByText('Your account was deleted, with all its tasks.')).toBeInTheDocument();
    // No error toast for a session that had already ended: the banner says what happened.
    expect(screen.queryByText('Not signed in')).not.toBeInTheDocument();
    await events.click(screen.getByRole('link', { name: 'Create a new account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeInTheDocument();
  });

  it('deletes the account only after the confirmation, then ends the session; the account is gone', async () => {
    const events = userEvent.setup();
    await addTodo('a task that goes with the account');
    const { queryClient } = await renderAccount();
    const danger = section('Delete account');
    const password = within(danger).getByLabelText('Password');
    await events.type(password, account.password);
    const open = within(danger).getByRole('button', { name: 'Delete account' });
    await events.click(open);

    const dialog = screen.getByRole('alertdialog', { name: 'Delete your account and all its tasks?' });
    expect(dialog).toHaveAccessibleDescription('This cannot be undone.');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveFocus();
    // The focus stays in the dialog.
    await events.tab();
    expect(within(dialog).getByRole('button', { name: 'Delete account' })).toHaveFocus();
    await events.tab();
    expect(cancel).toHaveFocus();

    // Cancel (and Escape) ask nothing of the server and give the focus back.
    await events.click(cancel);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();
    await events.click(open);
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await fetchCurrentUser()).toMatchObject({ email: account.email });
    expect(await fetchTodos()).toHaveLength(1);

    await events.click(open);
    const requests = jest.spyOn(XMLHttpRequest.prototype, 'open');
    await events.dblClick(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete account' }));

    expect(await screen.findByText('Account deleted successfully')).toBeInTheDocument();
    expect(requests.mock.calls.filter(([method, url]) => method === 'DELETE' && String(url).endsWith('/user/account'))).toHaveLength(1);
    await expectSignedOutHere(queryClient);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await fetchCurrentUser()).toBeNull();
    await expect(login({ email: account.email, password: account.password })).rejects.toMatchObject({ response: { status: 401 } });
  });

  it('a wrong password for the deletion is shown on the field, and nothing else happens', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const danger = section('Delete account');
    const password = within(danger).getByLabelText('Password');
    await events.type(password, 'not my password at all');
    await events.click(within(danger).getByRole('button', { name: 'Delete account' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete account' }));

    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveAccessibleDescription(expect.stringMatching(/^The password is incorrect/));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(password).toHaveFocus();
    expect(within(danger).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Account deleted successfully')).not.toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toMatchObject({ email: account.email });
    expect(await fetchCurrentUser()).toMatchObject({ email: account.email });
  });
});
