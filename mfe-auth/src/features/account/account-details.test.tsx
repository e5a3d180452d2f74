import { fetchCurrentUser, forgetSessionEnd, login, logout } from '@tm/api-client';
import { readPreferences } from '@tm/web-platform';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentUserQuery, newAccount, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { renderAccount } from '../../test/render-account';
import { outboxFor } from '../../test/outbox';

/**
 * "Name and email" and "Preferences" of the Account screen (docs/PRODUCT.md §10.10), inside the standalone app,
 * against the real gateway and services: what the page claims is checked on the server.
 */

type Account = Awaited<ReturnType<typeof signUpNewUser>>;
const userKey = currentUserQuery().queryKey;

const section = (name: string) => screen.getByRole('region', { name });
/** The summary at the top of the page: the name and email as the page shows them. */
const summary = () => screen.getByRole('heading', { level: 1, name: 'Account' }).closest('.auth-card') as HTMLElement;

describe('the Account page: name and email', () => {
  let account: Account;
  beforeEach(async () => {
    toast.remove();
    account = await signUpNewUser('Detail Owner');
    forgetSessionEnd();
  });
  afterEach(() => forgetSessionEnd());

  it('changes the name without a password: the page and the current user show it at once, and the server has it', async () => {
    const events = userEvent.setup();
    const { queryClient } = await renderAccount();
    const form = section('Name and email');
    const name = within(form).getByLabelText('Full Name');
    expect(name).toHaveValue('Detail Owner');
    expect(within(form).getByLabelText('Email')).toHaveValue(account.email);
    expect(within(form).queryByLabelText('Current password')).not.toBeInTheDocument();

    await events.clear(name);
    await events.type(name, 'Renamed Owner');
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Your details were saved')).toBeInTheDocument();
    expect(within(summary()).getByText('Renamed Owner')).toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toEqual({ _id: account._id, fullName: 'Renamed Owner', email: account.email });
    expect(await fetchCurrentUser()).toMatchObject({ fullName: 'Renamed Owner' });
    expect(name).toHaveValue('Renamed Owner');
  });

  it('asks for the current password once the email differs; a wrong one and a taken email are said at their fields', async () => {
    const events = userEvent.setup();
    // Another account holds an email (signed up in this browser, then signed out again).
    await logout();
    const other = await signUpNewUser('Someone Else');
    await logout();
    await login({ email: account.email, password: account.password });
    const { queryClient } = await renderAccount();
    const form = section('Name and email');
    const email = within(form).getByLabelText('Email');
    const newEmail = newAccount().email;
    await events.clear(email);
    await events.type(email, newEmail);

    const password = within(form).getByLabelText('Current password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(password).toBeRequired();
    expect(password).toHaveAccessibleDescription('Needed to change your email.');
    expect(within(form).getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    expect(within(form).getByRole('link', { name: 'Forgot your password?' })).toBeInTheDocument();

    await events.type(password, 'not my password at all');
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveAccessibleDescription(expect.stringMatching(/^The current password is incorrect/));
    expect(password).toHaveFocus();

    await events.clear(password);
    await events.type(password, account.password);
    await events.clear(email);
    await events.type(email, other.email);
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('An account with this email already exists');
    expect(queryClient.getQueryData(userKey)).toMatchObject({ email: account.email });

    await events.clear(email);
    await events.type(email, newEmail.toUpperCase());
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your details were saved')).toBeInTheDocument();
    expect(queryClient.getQueryData(userKey)).toMatchObject({ _id: account._id, email: newEmail });
    expect(within(summary()).getByText(newEmail)).toBeInTheDocument();
    // The email now matches the account's: no password asked, and the one typed is gone.
    await waitFor(() => expect(within(form).queryByLabelText('Current password')).not.toBeInTheDocument());

    await logout();
    await expect(login({ email: account.email, password: account.password })).rejects.toMatchObject({ response: { status: 401 } });
    expect((await login({ email: newEmail, password: account.password })).user._id).toBe(account._id);
    // The old address is told.
    await waitFor(() => expect(outboxFor(account.email).map((mail) => mail.subject)).toContain('Your Task Manager email address was changed'));
  });
});

describe('the Account page: preferences', () => {
  beforeEach(async () => {
    localStorage.removeItem('tm.preferences');
    await signUpNewUser('Preferring Person');
    forgetSessionEnd();
  });

  it('has Sounds and Celebrations on by default, as switches, each saved for this browser as it is flipped', async () => {
    const events = userEvent.setup();
    await renderAccount();
    const form = section('Preferences');
    const sounds = within(form).getByRole('switch', { name: 'Sounds' });
    const celebrations = within(form).getByRole('switch', { name: 'Celebrations' });
    expect(sounds).toBeChecked();
    expect(celebrations).toBeChecked();
    expect(sounds).toHaveAccessibleDescription('A short sound when you add, complete or delete a task.');

    await events.click(sounds);
    expect(sounds).not.toBeChecked();
    expect(readPreferences()).toEqual({ sounds: false, celebrations: true });
    await events.click(within(form).getByText('Celebrations'));
    expect(celebrations).not.toBeChecked();
    expect(readPreferences()).toEqual({ sounds: false, celebrations: false });
    expect(JSON.parse(localStorage.getItem('tm.preferences') ?? '{}')).toEqual({ sounds: false, celebrations: false });

    // Keyboard: Space flips the focused switch.
    sounds.focus();
    await events.keyboard(' ');
    expect(readPreferences().sounds).toBe(true);
  });
});
